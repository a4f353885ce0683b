#!/bin/sh
# aiperf-aggregate and a run's exit_status (issue #27, R8): an empty one
# (what a full disk leaves), one that is no integer, one over 64 bytes, a
# directory: each makes its run a failed run, named with why in failed_runs
# and on stderr, and the other runs are aggregated. No exit_status at all
# is no verdict (a loop of your own need not write one).
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# mkrun DIR AVG: a run directory with a small summary
mkrun() {
	mkdir -p "$1" &&
	printf '{"request_latency": {"unit": "ms", "avg": %s, "p99": 20.0}}\n' "$2" \
		>"$1/profile_export_aiperf.json"
}

# agg_with STATUS_SETUP: run_2's exit_status made by the shell code given;
# the aggregate of run_1 run_2 run_3 in out, its failed_runs in failed, the
# successful runs' count in ok, stderr in err
agg_with() {
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 &&
	eval "$1" &&
	aiperf-aggregate r/run_1 r/run_2 r/run_3 >out 2>err &&
	jq -c .metadata.failed_runs out >failed &&
	jq .metadata.num_successful_runs out >ok
}

test_expect_success 'an empty exit_status: a failed run, named' '
	agg_with ": >r/run_2/exit_status" &&
	echo "[{\"label\":\"run_2\",\"error\":\"empty exit_status\"}]" >want &&
	test_cmp want failed && test "$(cat ok)" = 2 &&
	grep -qx "aiperf-aggregate: r/run_2: empty exit_status" err &&
	test "$(jq -c .metadata.run_labels out)" = "[\"run_1\",\"run_3\"]"
'

test_expect_success 'an exit_status that is no integer, or out of range: a failed run' '
	for s in abc 1x " 0" -1 300 "0 1"; do
		agg_with "printf \"%s\\n\" \"$s\" >r/run_2/exit_status" &&
		printf "[{\"label\":\"run_2\",\"error\":\"exit_status '"'"'%s'"'"' is no exit status (0 to 255)\"}]\n" "$s" >want &&
		test_cmp want failed && test "$(cat ok)" = 2 || exit 1
	done &&
	agg_with "printf \"\\001\\n\" >r/run_2/exit_status" &&
	grep -q "exit_status (unprintable) is no exit status" failed &&
	agg_with "printf \"0\\0000\\n\" >r/run_2/exit_status" &&
	grep -q "exit_status (unprintable) is no exit status" failed
'

test_expect_success 'an exit_status over 64 bytes or not a file: a failed run, not a successful one' '
	agg_with "printf \"%080d\\n\" 0 >r/run_2/exit_status" &&
	echo "[{\"label\":\"run_2\",\"error\":\"cannot read exit_status: File too large\"}]" >want &&
	test_cmp want failed && test "$(cat ok)" = 2 &&
	agg_with "mkdir r/run_2/exit_status" &&
	echo "[{\"label\":\"run_2\",\"error\":\"cannot read exit_status: Is a directory\"}]" >want &&
	test_cmp want failed && test "$(cat ok)" = 2
'

test_expect_success '0, 3 or no exit_status: successful; another status: failed' '
	agg_with "echo 0 >r/run_2/exit_status" && test "$(cat ok)" = 3 &&
	agg_with "printf \"3\\r\\n\\n\" >r/run_2/exit_status" && test "$(cat ok)" = 3 &&
	agg_with : && test "$(cat ok)" = 3 &&
	agg_with "echo 1 >r/run_2/exit_status" &&
	test "$(cat failed)" = "[{\"label\":\"run_2\",\"error\":\"exit status 1\"}]" &&
	agg_with "echo 130 >r/run_2/exit_status" &&
	test "$(cat failed)" = "[{\"label\":\"run_2\",\"error\":\"interrupted (exit status 130)\"}]"
'

test_expect_success 'bad exit_status in two runs of three: too few to aggregate, exit 1' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 &&
	: >r/run_1/exit_status && echo x >r/run_2/exit_status &&
	test_expect_code 1 aiperf-aggregate -o agg r/run_1 r/run_2 r/run_3 2>err &&
	grep -q "Insufficient successful runs for confidence intervals. Got 1 successful run(s)" err &&
	grep -q "r/run_1: empty exit_status" err && test ! -e agg
'

test_done
