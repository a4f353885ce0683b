#!/bin/sh
# aiperf profile's artifact directory: a second run leaves nothing of the
# first behind; a full disk names the stage that failed, with its own
# message, and leaves only whole lines in the record files.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 0 --itl-ms 0

prof() {
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 16 --osl 4 \
		--random-seed 3 --concurrency 4 "$@"
}

# whole FILE: every line of FILE is a JSON object and the file ends in '\n'.
whole() {
	test -s "$1" && test "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' &&
	jq -c . "$1" >/dev/null
}

test_expect_success 'a second run removes the files of the first, and says so' '
	prof --request-count 5 --export-level raw --artifact-dir a >/dev/null 2>&1 &&
	echo mine >a/notes.txt &&
	prof --request-count 3 --export-level summary --artifact-dir a >out 2>err &&
	grep -q "removed the files of an earlier run from $PWD/a: .*profile_export.jsonl, profile_export_raw.jsonl" err &&
	test ! -e a/profile_export_raw.jsonl && test ! -e a/profile_export.jsonl &&
	test "$(jq .request_count.avg a/profile_export_aiperf.json)" = 3 &&
	test "$(cat a/notes.txt)" = mine &&
	prof --request-count 2 --artifact-dir b >/dev/null 2>err &&
	! grep -q "removed" err
'

test_expect_success 'a custom --profile-export-prefix is cleaned too' '
	prof --request-count 2 --profile-export-prefix run1.json --artifact-dir p >/dev/null 2>&1 &&
	test -f p/run1.jsonl &&
	prof --request-count 2 --export-level summary --profile-export-prefix run1 \
		--artifact-dir p >/dev/null 2>err &&
	test ! -e p/run1.jsonl && grep -q "run1.jsonl" err
'

# A file size limit stands in for a full disk (EFBIG where ENOSPC would be);
# sh counts it in 512-byte blocks: inputs.json fits, the record files do not.
test_expect_success 'raw records on a full disk: their spool named, whole lines kept' '
	test_expect_code 1 sh -c "trap \"\" XFSZ; ulimit -f 200; exec \"\$@\"" sh \
		aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 16 --osl 4 \
		--concurrency 4 --request-count 200 --export-level raw --artifact-dir full \
		>out 2>err &&
	grep -q "^aiperf profile: writing the raw records to $PWD/full/profile_export_raw.jsonl failed (status 1): cat: write error: File too large" err &&
	test "$(wc -l <full/profile_export_raw.jsonl)" -gt 0 &&
	whole full/profile_export_raw.jsonl &&
	grep -q "writing the raw records" full/logs/aiperf.log &&
	! grep -q "/proc/" err
'

test_expect_success 'per-request records on a full disk: aiperf-export named, whole lines kept' '
	test_expect_code 1 sh -c "trap \"\" XFSZ; ulimit -f 200; exec \"\$@\"" sh \
		aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 16 --osl 4 \
		--concurrency 4 --request-count 200 --artifact-dir fullx >out 2>err &&
	grep -q "^aiperf-export: cannot write .$PWD/fullx/profile_export.jsonl.: File too large (it holds the first [0-9]* records, whole)$" err &&
	grep -q "^aiperf profile: aiperf-export failed (status 1)" err &&
	whole fullx/profile_export.jsonl
'

test_done
