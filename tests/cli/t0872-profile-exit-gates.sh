#!/bin/sh
# Exit status CI can trust (ours): --max-error-rate and --fail-on-slo
# (--goodput, --min-goodput-pct) make aiperf profile exit 3 with a
# one-line reason, after every artifact is written.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --error-rate 30 || test_skip_all "aiperf-mock did not start"
BAD=$MOCK_URL
MOCK_PID_BAD=$MOCK_PID
MOCK_PID=
start_mock || test_skip_all "aiperf-mock did not start"
trap 'kill "$MOCK_PID_BAD" 2>/dev/null; cleanup' EXIT
GOOD=$MOCK_URL
P="-m m --tokenizer builtin --isl 8 --osl 2 --concurrency 4 --request-count 100 --ui-type none"

# artifacts DIR: every artifact of a records-level run is there.
artifacts() {
	for f in profile_export_aiperf.json profile_export_aiperf.csv profile_export.jsonl \
		inputs.json logs/aiperf.log; do
		test -s "$1/$f" || { echo "missing $1/$f" >&2; return 1; }
	done
}

test_expect_success '--max-error-rate: exit 3, the reason in one line, every artifact' '
	test_expect_code 3 aiperf profile $P --url "$BAD" --max-error-rate 5 --artifact-dir e \
		>out 2>err &&
	cat err &&
	tail -1 err | grep -q "^aiperf-export: error rate [0-9.]*% exceeds --max-error-rate 5%\$" &&
	test "$(grep -c "max-error-rate" err)" = 1 &&
	artifacts e &&
	n=$(jq ".error_request_count.avg" e/profile_export_aiperf.json) &&
	test "$n" -gt 5 &&
	grep -q "Log File: " out &&
	rate=$(grep "error rate" err | sed "s/.*error rate \([0-9.]*\)%.*/\1/") &&
	awk -v r="$rate" -v n="$n" "BEGIN { exit !(r == sprintf(\"%.2f\", 100 * n / 100)) }"
'

test_expect_success '--max-error-rate above the errors: exit 0' '
	aiperf profile $P --url "$BAD" --max-error-rate 90 --artifact-dir e2 >out 2>err &&
	! grep -q "exceeds" err && artifacts e2
'

test_expect_success '--fail-on-slo: exit 3 when the good share is below 100% (default)' '
	test_expect_code 3 aiperf profile $P --url "$GOOD" --goodput "request_latency:0.001" \
		--fail-on-slo --artifact-dir s >out 2>err &&
	cat err &&
	tail -1 err | grep -q "^aiperf-export: good requests 0.00% below --min-goodput-pct 100%\$" &&
	test "$(grep -c "min-goodput-pct" err)" = 1 &&
	artifacts s &&
	jq -e ".good_request_count.avg == 0" s/profile_export_aiperf.json
'

test_expect_success '--fail-on-slo met, or under a lower --min-goodput-pct: exit 0' '
	aiperf profile $P --url "$GOOD" --goodput "request_latency:100000" --fail-on-slo \
		--artifact-dir s2 >out 2>err &&
	jq -e ".good_request_count.avg == 100" s2/profile_export_aiperf.json &&
	aiperf profile $P --url "$GOOD" --goodput "request_latency:0.001" --fail-on-slo \
		--min-goodput-pct 0 --artifact-dir s3 >out 2>err &&
	artifacts s3 &&
	aiperf profile $P --url "$GOOD" --goodput "request_latency:0.001" --artifact-dir s4 \
		>out 2>err
'

test_expect_success 'the gates as usage errors' '
	test_expect_code 2 aiperf profile $P --url "$GOOD" --fail-on-slo --artifact-dir u \
		>out 2>err &&
	grep -q "fail-on-slo needs --goodput" err &&
	test_expect_code 2 aiperf profile $P --url "$GOOD" --min-goodput-pct 50 \
		--goodput "request_latency:1" --artifact-dir u >out 2>err &&
	grep -q "min-goodput-pct needs --fail-on-slo" err &&
	test_expect_code 2 aiperf profile $P --url "$GOOD" --max-error-rate 101 \
		--artifact-dir u >out 2>err &&
	grep -q "max-error-rate" err &&
	test ! -e u/profile_export_aiperf.json
'

test_expect_success 'the gates are in --help and in the options table' '
	aiperf profile --help >help &&
	grep -qx "  Exit gate: --max-error-rate, --fail-on-slo, --min-goodput-pct" help &&
	for o in --max-error-rate --fail-on-slo --min-goodput-pct; do
		grep -q "^$o	.*	ours	ours: " "$TOP/data/profile-options.tsv" || return 1
	done
'

test_done
