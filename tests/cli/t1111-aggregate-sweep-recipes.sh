#!/bin/sh
# aiperf-aggregate --sweep recipe post-processing (issue #29) on hand-made
# single-trial sweeps (summaries written by the test, so every number is
# known): prefill-ttft-curve's linear and quadratic fits and below_floor
# against numpy's polyfit values worked by hand; concurrency-ramp's knee
# and ties; pareto-sweep's frontier and ties; the SLA grid's breaches;
# the ITL surface; failures quarantined in post_process_errors.json.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# summary TTFT_AVG THROUGHPUT TTFT_P99: a run's summary with those values
summary() {
	printf '{"request_count": {"unit": "requests", "avg": 10}, '
	printf '"time_to_first_token": {"unit": "ms", "avg": %s, "p99": %s}, ' "$1" "$3"
	printf '"request_throughput": {"unit": "requests/sec", "avg": %s}}\n' "$2"
}

# sweep DIR PARAM PATH RECIPE V:TTFT:TP:P99...: a single-trial sweep in DIR
sweep() {
	d=$1 name=$2 path=$3 recipe=$4
	shift 4
	mkdir -p "$d"
	vars='' runs='' i=0
	for cell in "$@"; do
		v=${cell%%:*} rest=${cell#*:}
		mkdir -p "$d/${name}_$v"
		echo 0 >"$d/${name}_$v/exit_status"
		IFS=: read -r a b c <<-EOT
		$rest
		EOT
		summary "$a" "$b" "$c" >"$d/${name}_$v/profile_export_aiperf.json"
		vars="$vars${vars:+, }{\"index\": $i, \"label\": \"${name}_$v\", \"dir_name\": \"${name}_$v\", \"values\": {\"$path\": $v}}"
		runs="$runs${runs:+, }{\"variation\": $i, \"trial\": 0, \"dir\": \"${name}_$v\"}"
		i=$((i + 1))
	done
	printf '{"sweep_id": "u", "type": "grid", "iteration_order": "repeated", "trials": 1,
	 "parameters": [{"name": "%s", "path": "%s", "values": []}],
	 "variations": [%s], "runs": [%s], "recipe": %s}\n' \
		"$name" "$path" "$vars" "$runs" "$recipe" >"$d/sweep_plan.json"
}

test_expect_success 'prefill-ttft-curve: a line (numpy.polyfit: 0.046875, 0)' '
	sweep p isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\"}" \
		256:12:0:0 512:24:0:0 1024:48:0:0 2048:96:0:0 &&
	aiperf-aggregate --sweep p/sweep_plan.json &&
	jq -e "def near(a; b): ((a - b) | fabs) <= 1e-9 * ([1, (b | fabs)] | max);
		.fit_form == \"linear\" and near(.coefficients[0]; 0.046875)
		and (.coefficients[1] | fabs) < 1e-9 and near(.r_squared; 1)
		and .below_floor == false and .r_squared_floor == 0.85
		and .raw_points == [{isl: 256, ttft_ms: 12}, {isl: 512, ttft_ms: 24},
			{isl: 1024, ttft_ms: 48}, {isl: 2048, ttft_ms: 96}]
		and .swept_metric == \"time_to_first_token\" and .stat == \"avg\"
		and .swept_param == \"datasets.main.prompts.isl\"
		and (keys_unsorted == [\"fit_form\", \"coefficients\", \"r_squared\",
			\"below_floor\", \"r_squared_floor\", \"raw_points\", \"swept_metric\",
			\"stat\", \"swept_param\"])" p/sweep_aggregate/prefill_curve.json &&
	grep -q "\"isl\": 256.0," p/sweep_aggregate/prefill_curve.json
'

test_expect_success 'prefill-ttft-curve: a poor line refit as the quadratic' '
	# y = (x - 3)^2 at x = 1..5: the line has r2 0, the parabola
	# x^2 - 6x + 9 fits exactly
	sweep q isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\"}" \
		1:4:0:0 2:1:0:0 3:0:0:0 4:1:0:0 5:4:0:0 &&
	aiperf-aggregate --sweep q/sweep_plan.json &&
	jq -e "def near(a; b): ((a - b) | fabs) <= 1e-7 * ([1, (b | fabs)] | max);
		.fit_form == \"quadratic\" and near(.coefficients[0]; 1)
		and near(.coefficients[1]; -6) and (.coefficients[2] - 9 | fabs) < 1e-3
		and .r_squared > 0.9999 and .below_floor == false" \
		q/sweep_aggregate/prefill_curve.json
'

test_expect_success 'prefill-ttft-curve: noise under the floor is below_floor' '
	# numpy.polyfit([1,2,3],[1,3,2],1) = [0.5, 1.0], r2 0.25; the quadratic
	# through 3 points fits exactly (r2 1) and wins
	sweep n isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\", \"r_squared_floor\": 0.99}" \
		1:1:0:0 2:3:0:0 3:2:0:0 &&
	aiperf-aggregate --sweep n/sweep_plan.json &&
	jq -e ".fit_form == \"quadratic\" and .r_squared_floor == 0.99 and .below_floor == false" \
		n/sweep_aggregate/prefill_curve.json &&
	# 1 3 1 3: the line r2 0.2, the quadratic no better than 0.85
	sweep nb isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\"}" \
		1:1:0:0 2:3:0:0 3:1:0:0 4:3:0:0 &&
	aiperf-aggregate --sweep nb/sweep_plan.json &&
	jq -e ".below_floor == true and .r_squared < 0.85" nb/sweep_aggregate/prefill_curve.json &&
	sweep n2 isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\"}" \
		1:1:0:0 2:3:0:0 &&
	aiperf-aggregate --sweep n2/sweep_plan.json &&
	jq -e ".fit_form == \"linear\" and .below_floor == false" n2/sweep_aggregate/prefill_curve.json &&
	sweep n3 isl datasets.main.prompts.isl "{\"name\": \"prefill-ttft-curve\"}" 1:1:0:0 &&
	aiperf-aggregate --sweep n3/sweep_plan.json 2>err &&
	jq -e ".type == \"ValueError\" and (.error | test(\"need >= 2 sweep points\"))" \
		n3/sweep_aggregate/post_process_errors.json
'

test_expect_success 'concurrency-ramp on single-trial cells: the metric under its tag' '
	sweep r concurrency phases.profiling.concurrency \
		"{\"name\": \"concurrency-ramp\", \"degradation_metric_tag\": \"time_to_first_token\", \"degradation_stat\": \"avg\"}" \
		8:12:100:20 1:10:50:15 4:12.1:90:18 2:11.9:80:16 &&
	aiperf-aggregate --sweep r/sweep_plan.json &&
	jq -e ".baseline_concurrency == 1 and .baseline_avg == 10 and
		.knee_concurrency == 4 and .knee_avg == 12.1 and
		[.all_points[].concurrency] == [1, 2, 4, 8]" r/sweep_aggregate/degradation_knee.json &&
	# exactly at the cutoff is no knee (the original: y > cutoff)
	sweep r2 concurrency phases.profiling.concurrency \
		"{\"name\": \"concurrency-ramp\", \"degradation_metric_tag\": \"time_to_first_token\", \"degradation_stat\": \"avg\", \"degradation_threshold\": 1}" \
		1:10:50:15 2:20:80:16 &&
	aiperf-aggregate --sweep r2/sweep_plan.json &&
	jq -e ".knee_concurrency == null and .knee_avg == null and .threshold_pct == 1.0" \
		r2/sweep_aggregate/degradation_knee.json
'

test_expect_success 'single-trial cells: the original finds no _avg key, so no best and no frontier' '
	jq -e ".best_configurations == {} and .pareto_optimal == []" \
		r/sweep_aggregate/profile_export_aiperf_sweep.json
'

test_expect_success 'pareto-sweep: the cells, x minimized and y maximized, ties both on' '
	mkdir -p ps && vars="" runs="" i=0 &&
	for cell in 128:128:1:10:50 128:128:4:20:80 512:256:1:10:50 512:256:4:30:70 2048:512:1:40:90; do
		IFS=: read -r isl osl c x y <<-EOT
		$cell
		EOT
		d=cell_$i && mkdir -p ps/$d && echo 0 >ps/$d/exit_status &&
		printf "{\"request_count\": {\"unit\": \"requests\", \"avg\": 3}, \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": %s}, \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": %s}}" \
			"$x" "$y" >ps/$d/profile_export_aiperf.json &&
		vars="$vars${vars:+, }{\"index\": $i, \"label\": \"s$i\", \"dir_name\": \"$d\", \"values\": {\"datasets.main.prompts.isl\": $isl, \"datasets.main.prompts.osl\": $osl, \"phases.profiling.concurrency\": $c}}" &&
		runs="$runs${runs:+, }{\"variation\": $i, \"trial\": 0, \"dir\": \"$d\"}" &&
		i=$((i + 1))
	done &&
	printf "{\"sweep_id\": \"u\", \"type\": \"scenarios\", \"iteration_order\": \"repeated\", \"trials\": 1, \"parameters\": [], \"variations\": [%s], \"runs\": [%s], \"recipe\": {\"name\": \"pareto-sweep\"}}" \
		"$vars" "$runs" >ps/sweep_plan.json &&
	aiperf-aggregate --sweep ps/sweep_plan.json &&
	jq -e ".x_metric == \"time_to_first_token\" and .x_stat == \"p95\" and
		.y_metric == \"output_token_throughput\" and .y_stat == \"avg\" and
		[.cells[] | [.isl, .osl, .concurrency, .x, .y, .pareto_optimal]] ==
		[[128, 128, 1, 10, 50, true], [128, 128, 4, 20, 80, true],
		 [512, 256, 1, 10, 50, true], [512, 256, 4, 30, 70, false],
		 [2048, 512, 1, 40, 90, true]]" ps/sweep_aggregate/pareto_sweep.json &&
	jq -e ".per_combination_metrics[0].parameters == {isl: 128, osl: 128, concurrency: 1}
		and .metadata.pareto_axes == {x_metric: \"time_to_first_token\", x_stat: \"p95\",
			x_minimize: true, y_metric: \"output_token_throughput\", y_stat: \"avg\",
			y_maximize: true, series_keys: [\"isl\", \"osl\"]}
		and (.metadata | keys_unsorted) == [\"sweep_parameters\", \"num_combinations\",
			\"sweep_mode\", \"confidence_level\", \"num_trials_per_value\",
			\"pareto_axes\", \"aggregation_type\"]" \
		ps/sweep_aggregate/profile_export_aiperf_sweep.json &&
	jq -e ".metadata.pareto_axes == null" p/sweep_aggregate/profile_export_aiperf_sweep.json
'

test_expect_success 'max-concurrency-under-sla, grid: sla_breach.json and sla_constraints' '
	sweep sl concurrency phases.profiling.concurrency \
		"{\"name\": \"max-concurrency-under-sla\", \"search_style\": \"grid\", \"ttft_sla_ms\": 25, \"e2e_sla_ms\": 1}" \
		4:30:90:18 1:10:50:15 2:20:80:16 8:15:100:20 &&
	aiperf-aggregate --sweep sl/sweep_plan.json &&
	jq -e "keys_unsorted == [\"swept_param\", \"max_passing_concurrency\",
		\"first_failing_concurrency\", \"first_failing_breach\", \"all_points\",
		\"monotonicity_check\", \"filters\"]
		and .swept_param == \"phases.profiling.concurrency\"
		and .max_passing_concurrency == null and .first_failing_concurrency == 1
		and .first_failing_breach == {metric_tag: \"request_latency\", stat: \"p99\",
			op: \"lt\", threshold: 1, observed: null}
		and [.all_points[] | .concurrency] == [1, 2, 4, 8]
		and ([.all_points[].feasible] | all | not)
		and .all_points[2].breaches[0].observed == 30
		and (.all_points[0].breaches | length) == 1
		and (.all_points[2].breaches | length) == 2
		and .monotonicity_check == true
		and .filters == [{metric_tag: \"time_to_first_token\", stat: \"p95\", op: \"lt\", threshold: 25},
			{metric_tag: \"request_latency\", stat: \"p99\", op: \"lt\", threshold: 1}]" \
		sl/sweep_aggregate/sla_breach.json &&
	sweep sm concurrency phases.profiling.concurrency \
		"{\"name\": \"max-concurrency-under-sla\", \"search_style\": \"grid\", \"ttft_sla_ms\": 25}" \
		4:30:90:18 1:10:50:15 2:20:80:16 8:15:100:20 &&
	aiperf-aggregate --sweep sm/sweep_plan.json &&
	jq -e ".max_passing_concurrency == 8 and .first_failing_concurrency == 4 and
		.first_failing_breach.observed == 30 and .monotonicity_check == false" \
		sm/sweep_aggregate/sla_breach.json &&
	jq -e ".metadata.sla_constraints == {active_filters: [{metric_tag: \"time_to_first_token\",
		stat: \"p95\", op: \"lt\", threshold: 25}], feasible_count: 3, infeasible_count: 1}
		and (.metadata | keys_unsorted)[2] == \"sla_constraints\"" \
		sm/sweep_aggregate/profile_export_aiperf_sweep.json &&
	# another search style: no grid post-processing, no filters here
	sweep so concurrency phases.profiling.concurrency \
		"{\"name\": \"max-concurrency-under-sla\", \"ttft_sla_ms\": 25}" 1:10:50:15 &&
	aiperf-aggregate --sweep so/sweep_plan.json &&
	jq -e ".metadata.sla_constraints == null" so/sweep_aggregate/profile_export_aiperf_sweep.json &&
	test ! -e so/sweep_aggregate/sla_breach.json
'

test_expect_success 'decode-itl-curve: the ITL surface, null where unmeasured' '
	mkdir -p it && vars="" runs="" i=0 &&
	for cell in 4:256:3 1:128:1 1:256:2 4:128:-1 8:128:5; do
		IFS=: read -r c osl itl <<-EOT
		$cell
		EOT
		d=cell_$i && mkdir -p it/$d && echo 0 >it/$d/exit_status &&
		printf "{\"request_count\": {\"unit\": \"requests\", \"avg\": 3}, \"inter_token_latency\": {\"unit\": \"ms\", \"avg\": %s}}" \
			"$itl" >it/$d/profile_export_aiperf.json &&
		vars="$vars${vars:+, }{\"index\": $i, \"label\": \"g$i\", \"dir_name\": \"$d\", \"values\": {\"phases.profiling.concurrency\": $c, \"datasets.main.prompts.osl\": $osl}}" &&
		runs="$runs${runs:+, }{\"variation\": $i, \"trial\": 0, \"dir\": \"$d\"}" &&
		i=$((i + 1))
	done &&
	printf "{\"sweep_id\": \"u\", \"type\": \"grid\", \"iteration_order\": \"repeated\", \"trials\": 1, \"parameters\": [], \"variations\": [%s], \"runs\": [%s], \"recipe\": {\"name\": \"decode-itl-curve\"}}" \
		"$vars" "$runs" >it/sweep_plan.json &&
	aiperf-aggregate --sweep it/sweep_plan.json 2>err &&
	grep -q "dropped 0 non-finite and 1 negative" err &&
	jq -e ".swept_metric == \"inter_token_latency\" and .stat == \"avg\" and
		.swept_params == [\"phases.profiling.concurrency\", \"datasets.main.prompts.osl\"] and
		.raw_points == [{concurrency: 1, osl: 128, itl_ms: 1}, {concurrency: 1, osl: 256, itl_ms: 2},
			{concurrency: 4, osl: 256, itl_ms: 3}, {concurrency: 8, osl: 128, itl_ms: 5}] and
		.surface == {concurrency_axis: [1, 4, 8], osl_axis: [128, 256],
			itl_grid: [[1, 2], [null, 3], [5, null]]} and
		.surface_fit_failed == false" it/sweep_aggregate/decode_itl_surface.json &&
	grep -q "\"concurrency\": 1.0," it/sweep_aggregate/decode_itl_surface.json
'

test_expect_success 'a recipe without post-processing: nothing beside the sweep' '
	sweep x concurrency phases.profiling.concurrency "{\"name\": \"no-such-recipe\"}" 1:10:50:15 &&
	aiperf-aggregate --sweep x/sweep_plan.json &&
	test -s x/sweep_aggregate/profile_export_aiperf_sweep.json &&
	test "$(ls x/sweep_aggregate)" = "profile_export_aiperf_sweep.csv
profile_export_aiperf_sweep.json"
'

test_done
