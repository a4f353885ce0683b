#!/bin/sh
# aiperf-export artifact files against golden copies: for every golden case
# with want.json, the case's args and input with --artifact-dir must write
# byte-identical profile_export_aiperf.json, .csv (CRLF) and profile_export.jsonl.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/golden/aiperf-export

# check_case DIR NAME
check_case() {
	want=0
	[ -f "$1/status" ] && want=$(cat "$1/status")
	rc=0
	(cd "$1" && eval "aiperf-export $(cat args) --no-console \
		--artifact-dir \"\$TMP/$2\"" <in.ndjson >/dev/null 2>&1) || rc=$?
	[ "$rc" -eq "$want" ] || { echo "status $rc, want $want"; return 1; }
	{ grep -v '"benchmark_phase":"warmup"' "$1/in.ndjson" || true; } >"$TMP/$2.jsonl"
	test_cmp "$1/want.json" "$TMP/$2/profile_export_aiperf.json" &&
	cmp "$1/want.csv" "$TMP/$2/profile_export_aiperf.csv" &&
	cmp "$TMP/$2.jsonl" "$TMP/$2/profile_export.jsonl"
}

for dir in "$G"/*/; do
	dir=${dir%/}
	[ -f "$dir/want.json" ] || continue
	name=${dir##*/}
	test_expect_success "artifacts of $name" "check_case '$dir' '$name'"
done
test_done
