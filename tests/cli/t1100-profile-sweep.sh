#!/bin/sh
# run.sh: long
# aiperf profile sweeps (issue #29; the original's docs/tutorials/sweeps.md
# and docs/api/sweep-aggregates.md): list values make a grid or zip of
# cells, laid out as the original lays them (one trial: <base>/<dir_name>/;
# trials repeated: profile_runs/trial_NNNN/<dir_name>/; independent:
# <dir_name>/profile_runs/trial_NNNN/), run in its order, each run's
# run_info (schema 1.3) naming its cell, trial and seed; a failed cell does
# not stop the sweep; the original's checks of the sweep options.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {	# [options]: a short run against the mock
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 4 --request-count 8 --ui-type none \
		--no-server-metrics --no-gpu-telemetry "$@"
}

# ri DIR FIELD: run_info.FIELD of the run in DIR, compact
ri() {
	jq -c ".run_info.$2" "$1/profile_export_aiperf.json"
}

test_expect_success '3 concurrencies x 2 trials, repeated: the layout, the order, run_info' '
	prof --concurrency 1,2,4 --num-profile-runs 2 --artifact-dir s >out 2>err &&
	for t in 1 2; do
		for c in 1 2 4; do
			d=s/profile_runs/trial_000$t/concurrency_$c &&
			test -s $d/profile_export_aiperf.json &&
			test "$(cat $d/exit_status)" = 0 &&
			test "$(ri $d trial)" = $((t - 1)) &&
			test "$(ri $d run_label)" = "\"concurrency_$c\"" &&
			test "$(ri $d variation_values)" = "{\"phases.profiling.concurrency\":$c}" ||
			return 1
		done
	done &&
	grep "run [0-9] of 6" err | sed "s/.*of 6: //" >order &&
	printf "%s\n" "$PWD"/s/profile_runs/trial_0001/concurrency_1 \
		"$PWD"/s/profile_runs/trial_0001/concurrency_2 "$PWD"/s/profile_runs/trial_0001/concurrency_4 \
		"$PWD"/s/profile_runs/trial_0002/concurrency_1 "$PWD"/s/profile_runs/trial_0002/concurrency_2 \
		"$PWD"/s/profile_runs/trial_0002/concurrency_4 >want &&
	test_cmp want order &&
	test "$(ri s/profile_runs/trial_0002/concurrency_4 random_seed)" = 44 &&
	test "$(ri s/profile_runs/trial_0001/concurrency_4 random_seed)" = 44 &&
	test "$(ri s/profile_runs/trial_0001/concurrency_1 variation_index)" = 0 &&
	test "$(ri s/profile_runs/trial_0001/concurrency_4 variation_index)" = 2 &&
	test "$(jq -r .schema_version s/profile_runs/trial_0001/concurrency_1/profile_export_aiperf.json)" = 1.3 &&
	id=$(jq -r .sweep_id s/sweep_plan.json) &&
	test "$(ri s/profile_runs/trial_0002/concurrency_2 sweep_id)" = "\"$id\"" &&
	test "$(jq -c "[.runs[].dir]" s/sweep_plan.json)" = "$(jq -R . order | sed "s#$PWD/s/##" | jq -sc .)" &&
	test "$(jq -c ".parameters[0] | [.name, .path, .values]" s/sweep_plan.json)" = \
		"[\"concurrency\",\"phases.profiling.concurrency\",[1,2,4]]"
'

test_expect_success 'one trial: <base>/<dir_name>/, no profile_runs' '
	prof --concurrency 1,2 --artifact-dir one >out 2>err &&
	test -s one/concurrency_1/profile_export_aiperf.json &&
	test -s one/concurrency_2/profile_export_aiperf.json &&
	test ! -e one/profile_runs &&
	test "$(ri one/concurrency_2 trial)" = 0
'

test_expect_success 'independent order: <dir_name>/profile_runs/trial_NNNN/, all trials of a cell first' '
	prof --concurrency 1,2 --num-profile-runs 2 --parameter-sweep-mode independent \
		--artifact-dir ind >out 2>err &&
	grep "run [0-9] of 4" err | sed "s#.*of 4: $PWD/ind/##" >order &&
	printf "%s\n" concurrency_1/profile_runs/trial_0001 concurrency_1/profile_runs/trial_0002 \
		concurrency_2/profile_runs/trial_0001 concurrency_2/profile_runs/trial_0002 >want &&
	test_cmp want order &&
	test "$(jq -r .iteration_order ind/sweep_plan.json)" = independent
'

test_expect_success 'two lists: a grid, the first outermost, dir names joined by __, rates as floats' '
	prof --concurrency 1,2 --request-rate 50,100 --artifact-dir g >out 2>err &&
	jq -r ".variations[].dir_name" g/sweep_plan.json >names &&
	printf "%s\n" concurrency_1__rate_50.0 concurrency_1__rate_100.0 \
		concurrency_2__rate_50.0 concurrency_2__rate_100.0 >want &&
	test_cmp want names &&
	test "$(ri g/concurrency_2__rate_100.0 variation_label)" = \
		"\"phases.profiling.concurrency=2, phases.profiling.rate=100.0\""
'

test_expect_success 'zip: lockstep cells; lists of unequal length refused' '
	prof --sweep-type zip --isl 8,16 --osl 2,4 --concurrency 1 --artifact-dir z >out 2>err &&
	test "$(jq -r "[.variations[].dir_name] | join(\" \")" z/sweep_plan.json)" = \
		"mean_8__mean_2 mean_16__mean_4" &&
	test "$(jq -r .type z/sweep_plan.json)" = zip &&
	test "$(jq -c "[.parameters[].name]" z/sweep_plan.json)" = \
		"[\"datasets.main.prompts.isl.mean\",\"datasets.main.prompts.osl.mean\"]" &&
	jq ".parameters[1].name = .parameters[0].name" z/sweep_plan.json >z/dup_plan.json &&
	aiperf-aggregate --sweep z/dup_plan.json -o z/dup &&
	jq -e ".per_combination_metrics | length == 2" z/dup/profile_export_aiperf_sweep.json &&
	test_expect_code 2 prof --sweep-type zip --isl 8,16 --osl 2,4,8 --artifact-dir z2 2>err &&
	grep -q "zip needs lists of one length: --isl has 2 values, --osl has 3" err
'

test_expect_success 'seeds: base + variation index, or the same with --parameter-sweep-same-seed' '
	prof --concurrency 1,2 --random-seed 7 --artifact-dir sd >out 2>err &&
	test "$(ri sd/concurrency_1 random_seed) $(ri sd/concurrency_2 random_seed)" = "7 8" &&
	prof --concurrency 1,2 --random-seed 7 --parameter-sweep-same-seed --artifact-dir ss >out 2>err &&
	test "$(ri ss/concurrency_1 random_seed) $(ri ss/concurrency_2 random_seed)" = "7 7"
'

test_expect_success 'a failed cell does not stop the sweep; it is named; a line a cell on stdout and in the log' '
	test_expect_code 0 prof --concurrency 1,0,2 --artifact-dir f >out 2>err &&
	test "$(cat f/concurrency_0/exit_status)" = 2 &&
	test -s f/concurrency_2/profile_export_aiperf.json &&
	grep -q "run concurrency_0 failed (status 2): the sweep goes on" err &&
	grep -q "1 of 3 runs failed" err &&
	grep "^cell " out >cells &&
	test "$(wc -l <cells)" = 3 &&
	grep -q "^cell 1/3 concurrency_1: ok, [0-9.]* requests/sec, [0-9.]* tokens/sec, TTFT p99 [0-9.]* ms, latency p99 [0-9.]* ms\$" cells &&
	grep -q "^cell 2/3 concurrency_0: failed (exit status 2)\$" cells &&
	grep -q "INFO - cell 3/3 concurrency_2: ok" f/logs/aiperf.log &&
	prof --concurrency 1,2 --no-sweep-table --artifact-dir nt >out 2>err &&
	! grep -q "^cell " out && grep -q "INFO - cell 2/2 concurrency_2: ok" nt/logs/aiperf.log
'

test_expect_success 'the sweep options checked as the original checks them' '
	test_expect_code 2 prof --concurrency 1,2 --ui-type dashboard 2>err &&
	grep -q "Dashboard UI is not supported with sweep/multi-run mode" err &&
	test_expect_code 2 prof --concurrency 1,x 2>err &&
	grep -q "invalid value for --concurrency: .x. (a list of numbers" err &&
	test_expect_code 2 prof --concurrency 1,2.5 2>err &&
	grep -q "invalid value for --concurrency: .2.5. (an integer)" err &&
	test_expect_code 2 prof --concurrency 1,2 --parameter-sweep-mode sideways 2>err &&
	grep -q "invalid value for --parameter-sweep-mode" err &&
	test_expect_code 2 prof --concurrency 1,2 --sweep-type cube 2>err &&
	grep -q "invalid value for --sweep-type" err &&
	test_expect_code 2 prof --concurrency 1,2 --parameter-sweep-cooldown-seconds -1 2>err &&
	grep -q "invalid value for --parameter-sweep-cooldown-seconds" err
'

test_expect_success 'recipes: a grid recipe is a sweep; the others refused with what answers them' '
	prof --search-recipe concurrency-ramp --concurrency-max 4 --concurrency-steps 3 \
		--degradation-threshold 0.5 --artifact-dir r >out 2>err &&
	test "$(jq -c ".parameters[0].values" r/sweep_plan.json)" = "[1,2,4]" &&
	test "$(jq -c .recipe r/sweep_plan.json)" = \
		"{\"name\":\"concurrency-ramp\",\"degradation_threshold\":0.5,\"degradation_metric_tag\":\"request_latency\",\"degradation_stat\":\"p99\"}" &&
	test_expect_code 2 prof --search-recipe concurrency-ramp --concurrency 1,2 2>err &&
	grep -q "mutually exclusive with list values" err &&
	test_expect_code 2 prof --search-recipe max-throughput-ttft-sla --ttft-sla-ms 200 2>err &&
	grep -q "Bayesian-optimisation recipe: Bayesian optimisation (Optuna, BoTorch) is not built. --search-recipe max-concurrency-under-sla" err &&
	test_expect_code 2 prof --search-recipe max-concurrency-under-sla 2>err &&
	grep -q "requires at least one SLA" err &&
	test_expect_code 2 prof --search-recipe max-concurrency-under-sla --ttft-sla-ms 100 --search-style optuna 2>err &&
	grep -q "search-style optuna: Bayesian optimisation" err &&
	test_expect_code 2 prof --search-space concurrency:1,10:int 2>err &&
	grep -q "Bayesian optimisation (Optuna, BoTorch) is not built" err
'

test_expect_success 'recipes: pareto-sweep pairs and the streaming they need' '
	test_expect_code 2 prof --search-recipe pareto-sweep --isl-osl-pairs 128 2>err &&
	grep -q "isl-osl-pairs: .128. expected .<isl>/<osl>. (one slash)" err &&
	test_expect_code 2 prof --search-recipe pareto-sweep --isl-osl-pairs 0/128 2>err &&
	grep -q "both sides must be a positive int" err &&
	test_expect_code 2 prof --search-recipe pareto-sweep --isl-osl-pairs 8/4,8/4 2>err &&
	grep -q "duplicate pair .8/4." err &&
	test_expect_code 2 prof --search-recipe pareto-sweep --isl-osl-pairs 8/4 --concurrency 2 2>err &&
	grep -q "single point is meaningless" err &&
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin \
		--search-recipe prefill-ttft-curve 2>err &&
	grep -q "recipe .prefill-ttft-curve. requires --streaming" err &&
	prof --search-recipe pareto-sweep --isl-osl-pairs 8/4,16/2 --concurrency 1,2 --artifact-dir p >out 2>err &&
	test "$(jq -r "[.variations[] | .label + \"=\" + .dir_name] | join(\" \")" p/sweep_plan.json)" = \
		"shape_8_4_c1=isl_8__osl_4__concurrency_1 shape_8_4_c2=isl_8__osl_4__concurrency_2 shape_16_2_c1=isl_16__osl_2__concurrency_1 shape_16_2_c2=isl_16__osl_2__concurrency_2" &&
	test "$(jq -r .type p/sweep_plan.json)" = scenarios
'

test_expect_success '--auto-plot: aiperf plot on a run as it ends, on each cell of a sweep' '
	prof --auto-plot --artifact-dir ap >out 2>err &&
	test -s ap/plots/report.html &&
	grep -q "^Plots: $PWD/ap/plots\$" out &&
	prof --auto-plot --concurrency 1,2 --artifact-dir aps >out 2>err &&
	test -s aps/concurrency_1/plots/report.html &&
	test -s aps/concurrency_2/plots/report.html
'

test_done
