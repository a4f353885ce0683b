#!/bin/sh
# aiperf profile: a standard output whose reader has gone (aiperf profile |
# head -1) is no failure of the run: every artifact is written and the
# exit status is the run's own (0, or 3 from an exit gate), whether the
# reader left after the first line or before the run began (issue #27,
# R27). The lines that find no reader are dropped.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 4 --request-count 4 --url "$MOCK_URL" --ui-type none "$@"
}

# artifacts DIR: every artifact of a records-level run, its JSON whole.
artifacts() {
	for f in profile_export_aiperf.json profile_export_aiperf.csv profile_export.jsonl \
		inputs.json logs/aiperf.log server_metrics_export.json; do
		test -s "$1/$f" || { echo "missing $1/$f" >&2; return 1; }
	done
	jq -e ".request_count.avg == 4" "$1/profile_export_aiperf.json" >/dev/null &&
	jq -e ".summary.endpoints_successful | length == 1" "$1/server_metrics_export.json" >/dev/null
}

test_expect_success '| head -1: exit 0, every artifact written' '
	{ prof --artifact-dir h 2>err; echo $? >st; } | head -1 >first &&
	test "$(cat st)" = 0 &&
	artifacts h &&
	test "$(wc -l <first)" -eq 1 &&
	! grep -q "Broken pipe\|write error" err
'

test_expect_success 'a reader gone before the run: exit 0, every artifact written' '
	{ prof --artifact-dir t 2>err; echo $? >st; } | true &&
	test "$(cat st)" = 0 &&
	artifacts t &&
	! grep -q "Broken pipe\|write error" err
'

test_expect_success 'an exit gate keeps its status 3 with stdout closed' '
	{ prof --goodput "request_latency:0.001" --fail-on-slo --artifact-dir g 2>err
	  echo $? >st; } | head -1 >/dev/null &&
	test "$(cat st)" = 3 &&
	artifacts g &&
	tail -1 err | grep -q "below --min-goodput-pct 100%"
'

test_expect_success 'several runs | head -1: each run and the aggregate exit 0' '
	{ prof --num-profile-runs 2 --artifact-dir m 2>err; echo $? >st; } | head -1 >/dev/null &&
	test "$(cat st)" = 0 &&
	test "$(cat m/profile_runs/run_0001/exit_status m/profile_runs/run_0002/exit_status)" = \
		"$(printf "0\n0")" &&
	test -s m/aggregate/profile_export_aiperf_aggregate.json
'

test_done
