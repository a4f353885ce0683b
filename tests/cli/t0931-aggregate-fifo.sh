#!/bin/sh
# aiperf-aggregate and inputs that are no regular file (issue #27, R5): a
# FIFO (no writer: a read of it would wait forever), a directory or a
# device where a run's summary, exit_status or records file is expected is
# refused at once, and named: the summary or exit_status makes its run a
# failed run; records are left out of --collated and of the distribution
# test, named in runs_left_out and on stderr. Each command is bounded by
# timeout(1): before the fix they hung there.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

for c in mkfifo timeout; do
	command -v $c >/dev/null || test_skip_all "no $c"
done

# mkrun DIR AVG: a run directory with a summary and four records
mkrun() {
	mkdir -p "$1" &&
	printf '{"time_to_first_token": {"unit": "ms", "avg": %s, "p99": 20.0}}\n' "$2" \
		>"$1/profile_export_aiperf.json" &&
	for v in 1 2 3 "$2"; do
		printf '{"metadata": {"benchmark_phase": "profiling"}, "metrics": '
		printf '{"time_to_first_token": {"value": %s, "unit": "ms"}}}\n' "$v"
	done >"$1/profile_export.jsonl"
}

# runs: r/run_1 .. r/run_4, fresh
runs() {
	rm -rf r && mkrun r/run_1 2 && mkrun r/run_2 3 && mkrun r/run_3 2 && mkrun r/run_4 3
}

# agg ARGS...: aiperf-aggregate, at most 20 s (before the fix: forever)
agg() {
	timeout 20 aiperf-aggregate "$@"
}

test_expect_success 'a FIFO summary: refused at once, its run failed and named' '
	runs && rm r/run_2/profile_export_aiperf.json &&
	mkfifo r/run_2/profile_export_aiperf.json &&
	agg -o o r/run_1 r/run_2 r/run_3 2>err &&
	jq -c .metadata.failed_runs o/profile_export_aiperf_aggregate.json >got &&
	echo "[{\"label\":\"run_2\",\"error\":\"cannot read profile_export_aiperf.json: Not a regular file\"}]" >want &&
	test_cmp want got &&
	grep -qx "aiperf-aggregate: r/run_2: cannot read profile_export_aiperf.json: Not a regular file" err &&
	test "$(jq .metadata.num_successful_runs o/profile_export_aiperf_aggregate.json)" = 2
'

test_expect_success 'a FIFO exit_status: refused at once, its run failed' '
	runs && mkfifo r/run_2/exit_status &&
	agg r/run_1 r/run_2 r/run_3 >out 2>err &&
	test "$(jq -c .metadata.failed_runs out)" = "[{\"label\":\"run_2\",\"error\":\"cannot read exit_status: Not a regular file\"}]" &&
	grep -q "r/run_2: cannot read exit_status: Not a regular file" err
'

test_expect_success 'a device or a directory as summary: refused, named' '
	runs && rm r/run_2/profile_export_aiperf.json r/run_3/profile_export_aiperf.json &&
	ln -s /dev/null r/run_2/profile_export_aiperf.json &&
	mkdir r/run_3/profile_export_aiperf.json &&
	agg r/run_1 r/run_2 r/run_3 r/run_4 >out 2>err &&
	jq -c .metadata.failed_runs out >got &&
	echo "[{\"label\":\"run_2\",\"error\":\"cannot read profile_export_aiperf.json: Not a regular file\"},{\"label\":\"run_3\",\"error\":\"cannot read profile_export_aiperf.json: Is a directory\"}]" >want &&
	test_cmp want got
'

test_expect_success 'a FIFO records file with --collated: that run left out of the collated records, named' '
	runs && rm r/run_2/profile_export.jsonl && mkfifo r/run_2/profile_export.jsonl &&
	agg --collated -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_collated.json &&
	jq -c "[.metadata.runs_left_out, [.metrics.time_to_first_token.per_run[].label],
		.metrics.time_to_first_token.combined.count]" $f >got &&
	echo "[[{\"label\":\"run_2\",\"error\":\"cannot read profile_export.jsonl: Not a regular file\"}],[\"run_1\",\"run_3\"],8]" >want &&
	test_cmp want got &&
	grep -qx "aiperf-aggregate: r/run_2: left out of the collated records: cannot read profile_export.jsonl: Not a regular file" err &&
	# the summaries are whole: the aggregate has all three runs
	test "$(jq .metadata.num_successful_runs o/profile_export_aiperf_aggregate.json)" = 3
'

test_expect_success 'a FIFO records file in distribution mode: left out, named; the last run so: not converged' '
	runs && rm r/run_2/profile_export.jsonl && mkfifo r/run_2/profile_export.jsonl &&
	agg --check-convergence distribution --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 r/run_4 >out 2>err &&
	grep -q "^converged distribution runs=3 " out &&
	grep -qx "aiperf-aggregate: r/run_2: left out of the distribution test: cannot read profile_export.jsonl: Not a regular file" err &&
	runs && rm r/run_4/profile_export.jsonl && mkfifo r/run_4/profile_export.jsonl &&
	agg --check-convergence distribution --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 r/run_4 >out 2>err &&
	grep -q "^not-converged distribution runs=3 " out &&
	grep -q "r/run_4: left out of the distribution test: cannot read profile_export.jsonl: Not a regular file" err
'

test_expect_success 'a records file that is a directory, or missing: named the same way' '
	runs && rm r/run_2/profile_export.jsonl r/run_3/profile_export.jsonl &&
	mkdir r/run_2/profile_export.jsonl &&
	agg --collated -o o r/run_1 r/run_2 r/run_3 2>err &&
	jq -c .metadata.runs_left_out o/profile_export_aiperf_collated.json >got &&
	echo "[{\"label\":\"run_2\",\"error\":\"cannot read profile_export.jsonl: Is a directory\"},{\"label\":\"run_3\",\"error\":\"missing profile_export.jsonl: No such file or directory\"}]" >want &&
	test_cmp want got
'

test_done
