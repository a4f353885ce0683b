#!/bin/sh
# aiperf profile never writes through a symbolic link planted in its
# artifact directory (issue #27, R11): whatever is at a name a run
# writes (a link included, never what it points to) is removed before
# the stages start, the files aiperf-export writes whole go through new
# hidden names, never NAME.tmp, and the run log is appended to only
# where it is a regular file. A logs/ folder that is a link is refused.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 8 --osl 2 --request-count 4 --concurrency 2 --url "$MOCK_URL" \
		--ui-type none --server-metrics-formats json,csv,jsonl "$@" >/dev/null
}

TMPS="profile_export_aiperf.json.tmp profile_export_aiperf.csv.tmp
server_metrics_export.json.tmp server_metrics_export.csv.tmp server_metrics_export.jsonl.tmp"

test_expect_success 'links at the NAME.tmp names: not written through' '
	plant_links a $TMPS && prof --artifact-dir a && victims_untouched $TMPS &&
	jq -e ".request_count.avg == 4" a/profile_export_aiperf.json &&
	test -s a/server_metrics_export.jsonl &&
	test "$(find a -name ".*" | wc -l)" = 0
'

test_expect_success 'dangling links at the log, inputs.json and the records: nothing made where they point' '
	mkdir -p d/logs &&
	ln -s "$TMP/nowhere.log" d/logs/aiperf.log &&
	ln -s "$TMP/nowhere.json" d/inputs.json &&
	ln -s "$TMP/nowhere.jsonl" d/profile_export.jsonl &&
	prof --artifact-dir d 2>err &&
	! test -e nowhere.log && ! test -e nowhere.json && ! test -e nowhere.jsonl &&
	test -f d/logs/aiperf.log && ! test -L d/logs/aiperf.log &&
	grep -q " - aiperf-export - INFO - " d/logs/aiperf.log &&
	test -f d/inputs.json && test "$(wc -l <d/profile_export.jsonl)" = 4
'

test_expect_success 'a link to a device at inputs.json is replaced, not written to' '
	test -w /dev/full || skip_because "no writable /dev/full" &&
	mkdir dev && ln -s /dev/full dev/inputs.json &&
	prof --artifact-dir dev && test -f dev/inputs.json && ! test -L dev/inputs.json &&
	jq -e ".data | length > 0" dev/inputs.json
'

test_expect_success 'several senders: a link at the raw records (aiperf-metrics --tee) is not followed' '
	mkdir w && ln -s "$TMP/nowhere.raw" w/profile_export_raw.jsonl &&
	prof --artifact-dir w --workers-max 2 --export-level raw &&
	! test -e nowhere.raw && test "$(wc -l <w/profile_export_raw.jsonl)" = 4
'

test_expect_success 'a logs/ folder that is a link: refused, nothing written where it points' '
	mkdir elsewhere l && ln -s "$TMP/elsewhere" l/logs &&
	test_expect_code 1 prof --artifact-dir l 2>err &&
	grep -qx "aiperf profile: '\''l/logs'\'' is a symbolic link: not followed" err &&
	test "$(ls -A elsewhere)" = ""
'
test_done
