#!/bin/sh
# run.sh: long
# data/profile-options.tsv is the one table of aiperf profile's options: every
# option the original documents (its CLI options reference and its profile
# --help) is in it, supported or refused with a reason; the wrapper parses it,
# refuses with that reason, and --help names every option it accepts.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

TSV=$TOP/data/profile-options.tsv
REF=$SHARED/reference/original
[ -f "$REF/aiperf-cli-options.md" ] || test_skip_all "no $REF/aiperf-cli-options.md"

# rows FILE: the option lines, comments dropped.
rows() { grep -v '^#' "$1" | grep .; }

# names FILE: every name and alias in FILE, one a line.
names() { rows "$1" | awk -F'\t' '{ print $1; if ($2 != "-") { n = split($2, a, " "); for (i = 1; i <= n; i++) print a[i] } }'; }

# documented: "NAME KIND" for every option of `aiperf profile` in the CLI
# options reference (KIND: flag, or the <type> shown) and, with KIND "?",
# every option its profile --help (0.x) shows.
documented() {
	sed -n '/^## `aiperf profile`/,/^## `aiperf plot`/p' "$REF/aiperf-cli-options.md" |
		grep '^#### ' | while IFS= read -r h; do
			k=$(printf '%s\n' "$h" | grep -o '`<[a-z]*>`' | tr -d '`<>')
			printf '%s\n' "$h" | grep -o '`-[^`]*`' | tr -d '`' |
				sed "s/\$/ ${k:-flag}/"
		done
	grep '│' "$REF/aiperf-profile-help-0.x.txt" |
		grep -o '[│ ]--\{0,1\}[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[│ ]//; s/$/ ?/'
}

# check FILE: says what of the documentation FILE lacks or gets wrong; fails
# if anything.
check() {
	names "$1" | sort >have
	documented | sort -u >doc
	bad=0
	while read -r n k; do
		if ! grep -qxF -- "$n" have; then
			echo "documented, not in the table: $n"; bad=1; continue
		fi
		row=$(rows "$1" | awk -F'\t' -v n="$n" '$1 == n || (" " $2 " ") ~ (" " n " ")')
		kind=$(printf '%s\n' "$row" | cut -f3)
		case $k:$kind in
		flag:flag|str:arg|int:arg|float:arg|list:list|list:arg|\?:*) ;;
		*) echo "$n: documented as $k, the table says $kind"; bad=1 ;;
		esac
	done <doc
	return $bad
}

test_expect_success 'every line has 11 fields of the documented forms' '
	rows "$TSV" | awk -F"\t" "
		NF != 11 { print \"fields: \" NF \": \" \$0; bad = 1 }
		\$8 != \"no\" && \$10 == \"-\" { print \"no --help group: \" \$1; bad = 1 }
		\$11 !~ /^(-|(split|words|nargs|run|warmup|sweep:[a-z_.]+)(,(split|words|nargs|run|warmup|sweep:[a-z_.]+))*)\$/ { print \"form: \" \$0; bad = 1 }
		\$1 !~ /^--?[a-zA-Z][a-zA-Z0-9-]*\$/ { print \"name: \" \$1; bad = 1 }
		\$3 !~ /^(flag|arg|list)\$/ { print \"kind: \" \$0; bad = 1 }
		\$4 !~ /^(-|[gsmewya]+)\$/ { print \"stages: \" \$0; bad = 1 }
		\$5 !~ /^(-|[a-z_.][a-z0-9_.]*:[bBifsLIF])\$/ { print \"config: \" \$0; bad = 1 }
		\$8 !~ /^(yes|ours|inert|no)\$/ { print \"support: \" \$0; bad = 1 }
		\$8 != \"yes\" && \$9 == \"-\" { print \"no reason: \" \$1; bad = 1 }
		\$8 == \"no\" && (\$4 != \"-\" || \$5 != \"-\") { print \"refused yet routed: \" \$1; bad = 1 }
		\$8 == \"no\" && \$9 !~ /(, issue #[0-9]+|: no issue)\)\$/ { print \"no issue named: \" \$1; bad = 1 }
		\$8 == \"inert\" && \$4 != \"w\" { print \"inert yet routed: \" \$1; bad = 1 }
		END { exit bad }" &&
	test "$(rows "$TSV" | wc -l)" -gt 100
'

test_expect_success 'no name or alias is in two lines' '
	names "$TSV" | sort | uniq -d >dup &&
	test_cmp /dev/null dup
'

test_expect_success 'every option the original documents is in the table, of its kind' '
	check "$TSV" &&
	grep -qx -- "--public-dataset ?" doc && grep -qx -- "-H list" doc &&
	grep -qx -- "-vv flag" doc && test "$(wc -l <doc)" -gt 150
'

test_expect_success 'the check fails when a documented option is missing' '
	grep -v "^--slice-duration	" "$TSV" >less.tsv &&
	! check less.tsv >out && grep -qx "documented, not in the table: --slice-duration" out &&
	sed "s/^\(--model-names\{0,1\}	[^	]*\)	list	/\1	flag	/" "$TSV" | sed "s/^--model	\([^	]*\)	list	/--model	\1	flag	/" >kind.tsv &&
	! check kind.tsv >out && grep -q "^--model: documented as list, the table says flag" out
'

test_expect_success 'each refused option: not supported yet, with the capability (exit 2)' '
	rows "$TSV" | awk -F"\t" "\$8 == \"no\" { print \$1 \"\t\" \$9 }" >refused &&
	test -s refused &&
	while IFS="	" read -r n why; do
		test_expect_code 2 aiperf profile -m m "$n" x 2>err &&
		grep -qF -- "option '"'"'$n'"'"' is not supported yet: $why" err ||
			{ echo "$n"; cat err; exit 1; }
	done <refused
'

# value NAME: a value NAME takes that its row allows (its first choice), or
# "-" for a flag.
value() {
	rows "$TSV" | awk -F'\t' -v n="$1" '$1 == n || (" " $2 " ") ~ (" " n " ") {
		if ($3 == "flag") print "-"; else if ($7 != "-") { split($7, c, " "); print c[1] }
		else print "1"; exit }'
}

test_expect_success 'every documented option parses, or is not supported yet; none is unknown' '
	documented | sort -u | grep -v "^\(-m\|--model\|--model-names\) " | while read -r n _; do
		v=$(value "$n")
		# no --model: the parser reads every option, then stops there
		if [ "$v" = - ]; then test_expect_code 2 aiperf profile "$n" 2>err
		else test_expect_code 2 aiperf profile "$n" "$v" 2>err; fi || { echo "$n"; exit 1; }
		if grep -q "not supported yet: .*\(, issue #[0-9]*\|: no issue\))" err; then
			echo "$n" >>later
		else
			grep -qx "aiperf profile: profile: --model is required" err ||
				{ echo "$n $v:"; cat err; exit 1; }
		fi
	done &&
	touch later && test "$(sort -u later | wc -l)" -le 46
'

test_expect_success 'choices in any case, with dashes or underscores, become the documented one' '
	aiperf profile -m m --url-strategy Round-Robin --transport HTTP --dataset-sampling-strategy SHUFFLE \
		--connection-reuse-strategy sticky_user_sessions --log-level debug --bogus 2>err || : &&
	grep -q "unknown option .--bogus." err &&
	test_expect_code 2 aiperf profile -m m --transport grpc 2>err &&
	grep -qx "aiperf profile: profile: invalid value for --transport: .grpc. (the only choice here: http)" err &&
	test_expect_code 2 aiperf profile -m m --log-level loud 2>err &&
	grep -q "invalid value for --log-level: .loud." err
'

test_expect_success '--help names every option it accepts' '
	aiperf profile --help >help &&
	rows "$TSV" | awk -F"\t" "\$8 != \"no\" { print \$1 }" >accepted &&
	while read -r n; do
		grep -q -- "$n\\b" help || { echo "not in --help: $n"; exit 1; }
	done <accepted
'

test_expect_success 'the table is found beside the script, links resolved, or in AIPERF_DATA_DIR' '
	mkdir -p link data && ln -s "$TOP/bin/aiperf-profile" link/aiperf-profile &&
	test_expect_code 2 link/aiperf-profile -m m --search-space s 2>err &&
	grep -q "not supported yet" err &&
	printf "#c\n%s\t-\targ\t-\t-\t-\t-\tno\ttest reason\t-\t-\n" --zmq-host >data/profile-options.tsv &&
	AIPERF_DATA_DIR=$PWD/data test_expect_code 2 aiperf profile --zmq-host h 2>err &&
	grep -q "not supported yet: test reason" err &&
	printf "%s\targ\n" --zmq-host >data/profile-options.tsv &&
	AIPERF_DATA_DIR=$PWD/data test_expect_code 1 aiperf profile -m m 2>err &&
	grep -q "profile-options.tsv:1: malformed option line" err
'

test_done
