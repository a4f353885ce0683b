#!/bin/sh
# Lint: the endpoint types' names are written once, in lib/endpoint.c (#28).
# No C file of a tool spells one as a string literal (aiperf-mock aside: its
# routes are the URL paths it serves), save where the same word is a JSON
# member's name ("responses", "embeddings", "rankings" read with json_get()
# and the like); the shell commands name only types the table has.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# The table's names and the older one records may carry.
{ aiperf-gen --list-choices endpoint-type && echo rankings; } >"$TMP/names"

# literals FILE...: the lines of FILE... (comments left out) that spell an
# endpoint name as a string literal outside a JSON member's access (or a
# getopt option's name: aiperf config init --template).
literals() {
	for f in "$@"; do
		sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\/\{0,1\}\*/d' "$f" |
			grep -nFf "$TMP/quoted" |
			grep -Ev 'json_get\(|KEY\(|jw_key\(|json_hook|const char \*const (keys|rk)\[\]|_argument, NULL, ' |
			sed "s|^|$f:|"
	done
}
sed 's/.*/"&"/' "$TMP/names" >"$TMP/quoted"

test_expect_success 'the check finds a name planted in a tool' '
	printf "%s\n" "/* \"chat\" in a comment */" "x = json_get(v, \"embeddings\");" \
		"if (!strcmp(t, \"nim_rankings\"))" >planted.c &&
	literals planted.c >found &&
	test "$(wc -l <found)" -eq 1 && grep -q "nim_rankings" found
'

test_expect_success 'no tool but aiperf-mock spells an endpoint name' '
	cd "$TOP" &&
	literals $(ls cmd/*/*.c cmd/*/*.h | grep -v "^cmd/aiperf-mock/") >"$TMP/found" &&
	test_cmp /dev/null "$TMP/found"
'

test_expect_success 'the shell commands name only the table'"'"'s types' '
	cd "$TOP" &&
	grep -ohE "\<[a-z]+_(rankings|embeddings|generation|generate|retrieval|rag)\>" \
		cmd/*.sh | sort -u >"$TMP/used" &&
	test -s "$TMP/used" &&
	{ grep -vxFf "$TMP/names" "$TMP/used" >"$TMP/unknown" || true; } &&
	test_cmp /dev/null "$TMP/unknown"
'

test_done
