#!/bin/sh
# aiperf-aggregate and malformed runs (issue #27, R15): a metric whose
# stat is a string, a metric that is a bare number or a string, a run in
# s where the others are in ms. Units are converted to the one most runs
# give the metric; what cannot be is refused; every successful run left
# out of a statistic is named: in the pair's runs_left_out, in metadata's
# runs_left_out, in the CSV's Runs Left Out row and on stderr. Runs that
# agree give the original's output, without any of these.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# mkrun DIR TTFT [UNIT [P99]]: a run directory with a small summary
mkrun() {
	mkdir -p "$1" &&
	printf '{"time_to_first_token": {"unit": "%s", "avg": %s, "p99": %s}, %s}\n' \
		"${3:-ms}" "$2" "${4:-20}" \
		'"request_count": {"unit": "requests", "avg": 5}' >"$1/profile_export_aiperf.json"
}

test_expect_success 'a stat that is a string: the run left out of that pair, named everywhere' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 "\"11\"" && mkrun r/run_3 12 &&
	aiperf-aggregate -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_aggregate.json &&
	test "$(jq .metadata.num_successful_runs $f)" = 3 &&
	# t of 2 values, not 3
	jq -c ".metrics.time_to_first_token_avg | [.mean, (.t_critical * 1e4 | round), .runs_left_out]" $f >got &&
	echo "[11,127062,[{\"label\":\"run_2\",\"error\":\"not a number but a string\"}]]" >want &&
	test_cmp want got &&
	jq -c .metadata.runs_left_out $f >got &&
	echo "[{\"label\":\"run_2\",\"metric\":\"time_to_first_token\",\"stats\":[\"avg\"],\"error\":\"not a number but a string\"}]" >want &&
	test_cmp want got &&
	test "$(jq ".metrics.time_to_first_token_p99.runs_left_out" $f)" = null &&
	grep -qx "aiperf-aggregate: r/run_2: left out of .time_to_first_token. (avg): not a number but a string" err &&
	tr -d "\r" <o/profile_export_aiperf_aggregate.csv | grep -x "Runs Left Out,\"\[{.label.: .run_2., .metric.: .time_to_first_token., .stats.: \[.avg.\], .error.: .not a number but a string.}\]\""
'

test_expect_success 'a metric that is a bare number or a string: left out of all its pairs, named' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 && mkrun r/run_4 13 &&
	echo "{\"time_to_first_token\": 11.5, \"request_count\": {\"unit\": \"requests\", \"avg\": 5}}" \
		>r/run_2/profile_export_aiperf.json &&
	echo "{\"time_to_first_token\": \"12\", \"request_count\": {\"unit\": \"requests\", \"avg\": 5}}" \
		>r/run_3/profile_export_aiperf.json &&
	aiperf-aggregate r/run_1 r/run_2 r/run_3 r/run_4 >out 2>err &&
	jq -c "[.metadata.num_successful_runs, .metrics.time_to_first_token_avg.mean,
		.metrics.time_to_first_token_avg.runs_left_out, .metadata.runs_left_out]" out >got &&
	echo "[4,11.5,[{\"label\":\"run_2\",\"error\":\"not a metric object but a bare number\"},{\"label\":\"run_3\",\"error\":\"not a metric object but a string\"}],[{\"label\":\"run_2\",\"metric\":\"time_to_first_token\",\"stats\":[\"avg\",\"p99\"],\"error\":\"not a metric object but a bare number\"},{\"label\":\"run_3\",\"metric\":\"time_to_first_token\",\"stats\":[\"avg\",\"p99\"],\"error\":\"not a metric object but a string\"}]]" >want &&
	test_cmp want got &&
	grep -qx "aiperf-aggregate: r/run_2: left out of .time_to_first_token. (avg, p99): not a metric object but a bare number" err
'

test_expect_success 'a run in s where the others are in ms: converted, nobody left out' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 0.011 s 0.021 && mkrun r/run_3 12 &&
	aiperf-aggregate r/run_1 r/run_2 r/run_3 >out 2>err &&
	jq -c "[.metrics.time_to_first_token_avg | .mean, .min, .max, .unit]" out >got &&
	echo "[11,10,12,\"ms\"]" >want && test_cmp want got &&
	test "$(jq .metrics.time_to_first_token_p99.mean out)" = 20.333333333333332 &&
	test "$(jq .metadata.runs_left_out out)" = null && test ! -s err
'

test_expect_success 'the unit most runs give wins; one that cannot be converted: refused, named' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 0.011 s && mkrun r/run_3 0.012 s &&
	mkrun r/run_4 7 furlongs &&
	aiperf-aggregate r/run_1 r/run_2 r/run_3 r/run_4 >out 2>err &&
	jq -c ".metrics.time_to_first_token_avg | [(.mean * 1e9 | round), .unit, .runs_left_out]" out >got &&
	echo "[11000000,\"s\",[{\"label\":\"run_4\",\"error\":\"in '"'furlongs'"', which cannot be converted to '"'s'"'\"}]]" >want &&
	test_cmp want got &&
	grep -qx "aiperf-aggregate: r/run_4: left out of .time_to_first_token. (avg, p99): in .furlongs., which cannot be converted to .s." err
'

test_expect_success 'runs that agree: no runs_left_out, the original fields only' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 &&
	aiperf-aggregate -o o r/run_1 r/run_2 r/run_3 2>err &&
	f=o/profile_export_aiperf_aggregate.json &&
	jq -c "[(.metadata | keys_unsorted), (.metrics.time_to_first_token_avg | keys_unsorted)]" $f >got &&
	echo "[[\"aggregation_type\",\"num_profile_runs\",\"num_successful_runs\",\"failed_runs\",\"confidence_level\",\"run_labels\"],[\"mean\",\"std\",\"min\",\"max\",\"cv\",\"se\",\"ci_low\",\"ci_high\",\"t_critical\",\"unit\"]]" >want &&
	test_cmp want got && ! grep -q "Runs Left Out" o/profile_export_aiperf_aggregate.csv &&
	test ! -s err
'

test_expect_success 'convergence (ci_width): the values in their unit, the runs left out named' '
	rm -rf r && mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 &&
	aiperf-aggregate --check-convergence ci_width --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 >want 2>err &&
	grep -q "runs=3 " want &&
	mkrun r/run_3 0.012 s &&
	aiperf-aggregate --check-convergence ci_width --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 >got 2>err &&
	test_cmp want got &&
	mkrun r/run_4 "\"x\"" && mkrun r/run_5 13 &&
	aiperf-aggregate --check-convergence cv --metric time_to_first_token \
		r/run_1 r/run_2 r/run_3 r/run_4 r/run_5 >got 2>err &&
	grep -q "^not-converged cv runs=4 " got &&
	grep -qx "aiperf-aggregate: r/run_4: left out of .time_to_first_token. (avg): not a number but a string" err
'

test_done
