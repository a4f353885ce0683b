#!/bin/sh
# aiperf-aggregate and malformed records (issue #27, R15 for the records
# that --collated and the distribution test read): a run's values in s
# where the others are in ms are converted to the metric's unit (its first
# value's); values in a unit that cannot be, records that are not JSON or
# longer than 16 MiB are left out, and named, by run, in runs_left_out and
# on stderr.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# mkrun DIR UNIT V...: a run directory, its summary and one record a value
mkrun() {
	d=$1 u=$2
	shift 2
	mkdir -p "$d" &&
	printf '{"time_to_first_token": {"unit": "ms", "avg": 1}}\n' >"$d/profile_export_aiperf.json" &&
	for v in "$@"; do
		printf '{"metadata": {"benchmark_phase": "profiling"}, "error": null, "metrics": '
		printf '{"time_to_first_token": {"value": %s, "unit": "%s"}}}\n' "$v" "$u"
	done >"$d/profile_export.jsonl"
}

test_expect_success 'collated: values in s where the others are in ms, converted' '
	rm -rf r && mkrun r/run_1 ms 1 2 3 && mkrun r/run_2 s 0.002 0.004 && mkrun r/run_3 ms 3 &&
	aiperf-aggregate --collated -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_collated.json &&
	jq -c ".metrics.time_to_first_token | [.combined.mean, .combined.count, [.per_run[].mean], .runs_left_out]" $f >got &&
	echo "[2.5,6,[2,3,3],null]" >want && test_cmp want got &&
	test "$(jq .metadata.runs_left_out $f)" = null && test ! -s err
'

test_expect_success 'collated: values in a unit that cannot be converted: left out, named by run' '
	rm -rf r && mkrun r/run_1 ms 1 2 3 && mkrun r/run_2 furlongs 7 8 && mkrun r/run_3 ms 3 &&
	aiperf-aggregate --collated -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_collated.json &&
	jq -c ".metrics.time_to_first_token | [.combined.count, [.per_run[].label], .runs_left_out]" $f >got &&
	echo "[4,[\"run_1\",\"run_3\"],[{\"label\":\"run_2\",\"error\":\"2 values in '"'furlongs'"', which cannot be converted to '"'ms'"'\"}]]" >want &&
	test_cmp want got &&
	grep -qx "aiperf-aggregate: r/run_2: left out of the collated records of .time_to_first_token.: 2 values in .furlongs., which cannot be converted to .ms." err
'

test_expect_success 'collated: records that are no JSON object, or over 16 MiB: left out, counted, named' '
	rm -rf r && mkrun r/run_1 ms 1 2 && mkrun r/run_2 ms 3 && mkrun r/run_3 ms 5 &&
	{ echo "not json"; echo "[1]"; cat r/run_2/profile_export.jsonl; } >x && mv x r/run_2/profile_export.jsonl &&
	{ printf "\"%s" "$(head -c 17000000 /dev/zero | tr "\\0" x)"; echo "\""; cat r/run_3/profile_export.jsonl; } >x &&
	mv x r/run_3/profile_export.jsonl &&
	aiperf-aggregate --collated -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_collated.json &&
	jq -c "[.metadata.runs_left_out, .metrics.time_to_first_token.combined.count]" $f >got &&
	echo "[[{\"label\":\"run_2\",\"error\":\"2 of its records, the first at line 1: invalid JSON: at byte 0: invalid literal\"},{\"label\":\"run_3\",\"error\":\"1 of its records, at line 1: longer than 16 MiB\"}],4]" >want &&
	test_cmp want got &&
	grep -q "r/run_3: left out of the collated records: 1 of its records, at line 1: longer than 16 MiB" err
'

test_expect_success 'distribution: a run in s compared as ms; one in furlongs named' '
	rm -rf r && mkrun r/run_1 ms 1 2 3 4 && mkrun r/run_2 ms 2 3 4 5 && mkrun r/run_3 ms 1 2 3 5 &&
	aiperf-aggregate --check-convergence distribution --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 >want 2>err &&
	mkrun r/run_2 s 0.002 0.003 0.004 0.005 &&
	aiperf-aggregate --check-convergence distribution --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 >got 2>err &&
	test_cmp want got && test ! -s err &&
	mkrun r/run_2 furlongs 2 3 4 5 &&
	aiperf-aggregate --check-convergence distribution --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 >got 2>err &&
	! test_cmp want got >/dev/null &&
	grep -qx "aiperf-aggregate: r/run_2: left out of the distribution test of .time_to_first_token.: 4 values in .furlongs., which cannot be converted to .ms." err
'

test_done
