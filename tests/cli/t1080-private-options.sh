#!/bin/sh
# The supervisor's private options (lib/opt's OPT_PRIVATE): each tool's own
# table names them (--list-private); they are in neither its --help, nor
# its man page's SYNOPSIS and OPTIONS, nor its bash completion; its man
# page points to aiperf(7), whose Supervisor interface lists each one
# under its tool.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"

command -v mandoc >/dev/null || test_skip_all "mandoc is not installed"

# render PAGE: the page as text, one paragraph a line (white space kept).
render() {
	mandoc -Tascii -O width=300 "$1" | col -b
}
# section NAME: the lines of a rendered page from the header NAME to the next.
section() {
	awk -v name="$1" '$0 == name { on = 1; next } on && /^[A-Z]/ { exit } on'
}

render "$TOP/man/aiperf.7" |
	awk '/^   Supervisor interface$/ { on = 1; next } on && /^(   )?[A-Z]/ { exit } on' \
	>"$TMP/supervisor.txt"

# The tools with an option table: every one answers --list-private (a
# tool of subcommands, each subcommand).
tools=
for man in "$TOP"/man/aiperf-*.1; do
	t=$(basename "$man" .1)
	"$t" --completion bash >/dev/null 2>&1 || continue
	if [ "$t" = aiperf-trace ]; then
		test_expect_success 'aiperf-trace: no subcommand has a private option' '
			for sub in analyze synthesize convert; do
				aiperf-trace "$sub" --list-private || exit 1
			done >priv &&
			test_cmp /dev/null priv
		'
		continue
	fi
	tools="$tools $t"
done

test_expect_success 'the supervisor interface is there, and private options are' '
	test -s supervisor.txt &&
	for t in $tools; do "$t" --list-private; done >all &&
	test "$(wc -l <all)" -ge 13 &&
	grep -qx -- --scrape-cue all && grep -qx -- --was-cancelled-if all
'
for t in $tools; do
	test_expect_success "$t: --list-private, one option a line" '
		"$t" --list-private >priv &&
		! grep -v "^--[a-z][a-z0-9-]*\$" priv &&
		test_expect_code 2 "$t" --list-private x 2>err &&
		grep -q "^$t: --list-private takes no argument" err
	'
	test_expect_success "$t: no private option in --help, SYNOPSIS, OPTIONS or completion" '
		"$t" --list-private >priv &&
		"$t" --help >help &&
		render "$TOP/man/$t.1" >page &&
		section SYNOPSIS <page >syn && test -s syn &&
		section OPTIONS <page >opts &&
		{ test -s opts || ! test -s priv; } &&
		"$t" --completion bash >comp &&
		while read -r o; do
			for f in help syn comp; do
				! grep -E -- "(^|[^a-z-])$o([^a-z-]|\$)" $f ||
					{ echo "$o in $f"; exit 1; }
			done
			! grep -E -- "^     $o( |,|\$)" opts || { echo "$o in OPTIONS"; exit 1; }
		done <priv
	'
	test_expect_success "$t: each private option in aiperf(7) Supervisor interface" '
		"$t" --list-private >priv &&
		if test -s priv; then
			render "$TOP/man/$t.1" | section OPTIONS |
				grep -q "Supervisor interface in aiperf(7)"
		fi &&
		while read -r o; do
			grep -E -q -- "^     $t\\(1\\) $o( |\$)" "$TMP/supervisor.txt" ||
				{ echo "$o of $t not in aiperf(7) Supervisor interface"; exit 1; }
		done <priv
	'
done
test_expect_success 'a private option still parses' '
	aiperf-export --stage-cpu /nonexistent --was-cancelled-if x --check &&
	aiperf-gen -m m --tokenizer builtin --shard-seed 3 --print-timing-mode >mode &&
	echo concurrency >want && test_cmp want mode
'
test_done
