#!/bin/sh
# aiperf-aggregate --sweep (issue #29): a sweep over 3 concurrencies x 2
# trials of real single runs against the mock, plus a cell whose runs
# failed, read through a hand-written sweep_plan.json. The sweep aggregate
# (JSON and CSV) against normalised goldens (tests/golden/sweep-aggregate.*)
# field by field, its numbers, best configurations and Pareto frontier
# against values jq computes from the runs' own summaries; the failed runs
# in failed_runs; the per-variation confidence aggregates where the
# original puts them; single-trial and independent layouts; hostile plans.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/golden
start_mock --ttft-ms 4 --itl-ms 1 --jitter-ms 3

prof() {	# DIR CONCURRENCY: one whole run, its exit status beside it
	mkdir -p "$1"
	st=0
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 8 --concurrency "$2" --request-count 12 \
		--no-server-metrics --no-gpu-telemetry --artifact-dir "$1" \
		>"$1.out" 2>"$1.err" || st=$?
	echo "$st" >"$1/exit_status"
}

# plan ORDER TRIALS LAYOUT...: sweep_plan.json on stdout; each run's dir
# from the layout function (variation dir_name, trial number 1-based).
var() {	# INDEX CONCURRENCY
	printf '{"index": %s, "label": "concurrency_%s", "dir_name": "concurrency_%s", ' "$1" "$2" "$2"
	printf '"values": {"phases.profiling.concurrency": %s}}' "$2"
}
plan() {	# ORDER TRIALS DIRFN
	printf '{"sweep_id": "0b0c0d0e-0000-4000-8000-000000000029", "type": "grid",\n'
	printf ' "iteration_order": "%s", "trials": %s, "confidence_level": 0.95,\n' "$1" "$2"
	printf ' "parameters": [{"name": "concurrency", "path": "phases.profiling.concurrency", "values": [1, 2, 4, 8]}],\n'
	printf ' "variations": [%s, %s, %s, %s],\n' "$(var 0 1)" "$(var 1 2)" "$(var 2 4)" "$(var 3 8)"
	printf ' "runs": ['
	sep=
	t=1
	while [ "$t" -le "$2" ]; do
		v=0
		for c in 1 2 4 8; do
			printf '%s\n  {"variation": %s, "trial": %s, "dir": "%s"}' "$sep" "$v" $((t - 1)) "$($3 "$c" "$t")"
			sep=,
			v=$((v + 1))
		done
		t=$((t + 1))
	done
	printf '],\n "recipe": null}\n'
}
repeated() { echo "profile_runs/trial_000$2/concurrency_$1"; }
single() { echo "concurrency_$1"; }
indep() { echo "concurrency_$1/profile_runs/trial_000$2"; }

# norm FILE: the sweep JSON with its run-varying numbers zeroed.
norm() {
	jq '.per_combination_metrics[].metrics[] |=
		with_entries(if .key == "unit" then . else .value = 0 end)
		| (.best_configurations[] | .metric, .parameters.concurrency) |= 0
		| .pareto_optimal |= "checked by jq"' "$1"
}
# normcsv FILE: the sweep CSV with its run-varying numbers as N.
normcsv() {
	tr -d '\r' <"$1" | awk -F, -v OFS=, '
		# the table: every number N, an empty one (a non-finite cv) too
		NR == 1 { table = 1; print; next }
		table && /^$/ { table = 0 }
		table { for (i = 2; i <= NF; i++) $i = "N"; print; next }
		/^Pareto Optimal Points$/ { print; print "(checked by jq)"; skip = 1; next }
		skip && /^$/ { skip = 0 }
		skip { next }
		/^Best (Throughput|Latency P99),/ { sub(/,[0-9]+,/, ",P,") }
		{ gsub(/-?[0-9]+\.[0-9]+/, "N"); print }'
}

test_expect_success 'the runs: 3 concurrencies x 2 trials, and a failed cell' '
	for t in 1 2; do
		for c in 1 2 4; do
			prof "$TMP/s/profile_runs/trial_000$t/concurrency_$c" "$c"
			test "$(cat "$TMP/s/profile_runs/trial_000$t/concurrency_$c/exit_status")" = 0
		done
	done &&
	mkdir -p s/profile_runs/trial_0001/concurrency_8 s/profile_runs/trial_0002/concurrency_8 &&
	echo 1 >s/profile_runs/trial_0001/concurrency_8/exit_status &&
	echo 0 >s/profile_runs/trial_0002/concurrency_8/exit_status &&
	plan repeated 2 repeated >s/sweep_plan.json &&
	jq -e ".runs | length == 8" s/sweep_plan.json
'

test_expect_success 'aiperf-aggregate --sweep: files where the original puts them' '
	aiperf-aggregate --sweep s/sweep_plan.json 2>err &&
	test -s s/aggregate/sweep_aggregate/profile_export_aiperf_sweep.json &&
	test -s s/aggregate/sweep_aggregate/profile_export_aiperf_sweep.csv &&
	for c in 1 2 4; do
		jq -e --argjson c "$c" ".metadata.aggregation_type == \"confidence\" and
			.metadata.num_successful_runs == 2 and
			.metadata.run_labels == [\"run_0001\", \"run_0002\"] and
			.metadata.variation_label == \"concurrency_\(\$c)\" and
			.metadata.variation_values == {\"phases.profiling.concurrency\": \$c} and
			.metadata.sweep_mode == \"repeated\" and .metadata.cooldown_seconds == 0 and
			(.metadata | keys_unsorted)[-4:] == [\"cooldown_seconds\", \"variation_label\",
				\"variation_values\", \"sweep_mode\"]" \
			s/aggregate/concurrency_$c/profile_export_aiperf_aggregate.json &&
		test -s s/aggregate/concurrency_$c/profile_export_aiperf_aggregate.csv || exit 1
	done &&
	test ! -e s/aggregate/concurrency_8 &&
	grep -q "concurrency_8: exit status 1" err &&
	grep -q "missing profile_export_aiperf.json" err
'

J=s/aggregate/sweep_aggregate/profile_export_aiperf_sweep.json
C=s/aggregate/sweep_aggregate/profile_export_aiperf_sweep.csv

test_expect_success 'the JSON equals the golden, run-varying numbers aside' '
	norm "$J" >got.json &&
	test_cmp "$G/sweep-aggregate.json" got.json
'

test_expect_success 'the failed cell in failed_runs; counts' '
	jq -e ".num_profile_runs == 8 and .num_successful_runs == 6 and
		.failed_runs == [{label: \"run_0001\", error: \"exit status 1\"},
		{label: \"run_0002\", error: \"missing profile_export_aiperf.json: No such file or directory\"}]
		and .metadata.num_combinations == 4 and
		.metadata.sweep_parameters == [{name: \"concurrency\", values: [1, 2, 4, 8]}] and
		([.per_combination_metrics[].parameters.concurrency] == [1, 2, 4])" "$J"
'

# summaries C: the two trials' summaries of concurrency C, as a jq array
summaries() {
	jq -s . "s/profile_runs/trial_0001/concurrency_$1/profile_export_aiperf.json" \
		"s/profile_runs/trial_0002/concurrency_$1/profile_export_aiperf.json"
}

test_expect_success 'mean, std, min, max, cv and the CI of each cell from its two runs (jq)' '
	for c in 1 2 4; do
		summaries "$c" >runs$c.json &&
		jq -e --slurpfile r runs$c.json --argjson c "$c" "
			def near(a; b): ((a - b) | fabs) <= 1e-9 * ([1, (b | fabs)] | max);
			(.per_combination_metrics[] | select(.parameters.concurrency == \$c)
			 .metrics) as \$m
			| [\"request_throughput\", \"time_to_first_token\", \"request_latency\"]
			| all(. as \$k | [\$r[0][][\$k].avg] as \$v
				| (\$v | add / 2) as \$mean
				| ((\$v[0] - \$v[1]) | fabs / (2 | sqrt)) as \$std
				| \$m[\$k + \"_avg\"] as \$s
				| near(\$s.mean; \$mean) and near(\$s.std; \$std)
				and \$s.min == (\$v | min) and \$s.max == (\$v | max)
				and near(\$s.cv; \$std / \$mean)
				and near(\$s.ci_high - \$s.mean; 12.706204736174707 * \$std / (2 | sqrt))
				and near(\$s.mean - \$s.ci_low; \$s.ci_high - \$s.mean)
				and \$s.unit == \$r[0][0][\$k].unit)" "$J" || exit 1
	done
'

test_expect_success 'best configurations and the Pareto frontier, computed by hand (jq)' '
	jq -s "[.[] | {c: .[0].c, tp: ([.[0].tp, .[1].tp] | add / 2),
		lat: ([.[0].lat, .[1].lat] | add / 2)}]" \
		$(for c in 1 2 4; do for t in 1 2; do
			f=s/profile_runs/trial_000$t/concurrency_$c/profile_export_aiperf.json
			jq -c "{c: $c, tp: .request_throughput.avg, lat: .time_to_first_token.p99}" "$f" \
				>cell$c-$t.json
		done; jq -s . cell$c-1.json cell$c-2.json >cell$c.json; echo cell$c.json; done) \
		>cells.json &&
	jq -e --slurpfile k cells.json "
		def near(a; b): ((a - b) | fabs) <= 1e-9 * ([1, (b | fabs)] | max);
		\$k[0] as \$cells
		| (\$cells | reduce .[] as \$x (null; if . == null or \$x.tp > .tp then \$x else . end)) as \$bt
		| (\$cells | reduce .[] as \$x (null; if . == null or \$x.lat < .lat then \$x else . end)) as \$bl
		| [\$cells[] | . as \$a | select(all(\$cells[]; . as \$b |
			(\$b.tp >= \$a.tp and \$b.lat <= \$a.lat and (\$b.tp > \$a.tp or \$b.lat < \$a.lat)) | not))
		   | {concurrency: .c}] as \$front
		| .best_configurations.best_throughput.parameters == {concurrency: \$bt.c}
		and near(.best_configurations.best_throughput.metric; \$bt.tp)
		and .best_configurations.best_throughput.unit == \"requests/sec\"
		and .best_configurations.best_latency_p99.parameters == {concurrency: \$bl.c}
		and near(.best_configurations.best_latency_p99.metric; \$bl.lat)
		and .best_configurations.best_latency_p99.unit == \"ms\"
		and .pareto_optimal == (\$front | sort_by(.concurrency))" "$J"
'

test_expect_success 'the CSV equals the golden, run-varying numbers aside' '
	normcsv "$C" >got.csv &&
	test_cmp "$G/sweep-aggregate.csv" got.csv &&
	# CRLF line ends, as Python csv writes them
	test "$(grep -c "$(printf "\r")\$" "$C")" = "$(wc -l <"$C")"
'

test_expect_success 'the CSV numbers are the JSON numbers, %.2f (cv %.4f)' '
	tr -d "\r" <"$C" | awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i }
		NR > 1 && NR <= 4 { print \$1, \$col[\"request_throughput_avg_mean\"],
			\$col[\"request_throughput_avg_cv\"], \$col[\"time_to_first_token_p99_max\"] }" >csvrow &&
	jq -r ".per_combination_metrics[] | [.parameters.concurrency,
		(.metrics.request_throughput_avg.mean, .metrics.request_throughput_avg.cv,
		 .metrics.time_to_first_token_p99.max)] | @tsv" "$J" |
	while read -r c m cv mx; do
		printf "%s %.2f %.4f %.2f\n" "$c" "$m" "$cv" "$mx"
	done >jsonrow &&
	test_cmp jsonrow csvrow &&
	tr -d "\r" <"$C" | grep -qx "Number of Successful Runs,6"
'

test_expect_success 'single trial: point estimates, the avg alias, percentiles; no best, None frontier' '
	mkdir -p one &&
	for c in 1 2 4; do ln -s "$TMP/s/profile_runs/trial_0001/concurrency_$c" one/concurrency_$c; done &&
	mkdir one/concurrency_8 && echo 2 >one/concurrency_8/exit_status &&
	plan repeated 1 single >one/sweep_plan.json &&
	aiperf-aggregate --sweep one/sweep_plan.json 2>err &&
	test ! -e one/aggregate &&
	O=one/sweep_aggregate/profile_export_aiperf_sweep.json &&
	jq -e --slurpfile r s/profile_runs/trial_0001/concurrency_2/profile_export_aiperf.json "
		(.per_combination_metrics[1].metrics.time_to_first_token) as \$t
		| \$r[0].time_to_first_token as \$s
		| (\$t | keys_unsorted) == [\"mean\", \"avg\", \"std\", \"min\", \"max\", \"cv\",
			\"ci_low\", \"ci_high\", \"unit\", \"p1\", \"p5\", \"p10\", \"p25\", \"p50\",
			\"p75\", \"p90\", \"p95\", \"p99\", \"count\", \"sum\"][:(\$t | length)]
		and \$t.mean == \$s.avg and \$t.avg == \$s.avg and \$t.std == 0 and \$t.cv == 0
		and \$t.ci_low == \$s.avg and \$t.ci_high == \$s.avg and \$t.p99 == \$s.p99
		and \$t.min == \$s.min and \$t.max == \$s.max
		and .metadata.num_trials_per_value == 1
		and .failed_runs == [{label: \"run_0001\", error: \"exit status 2\"}]
		and .best_configurations == {} and .pareto_optimal == []" "$O" &&
	tr -d "\r" <one/sweep_aggregate/profile_export_aiperf_sweep.csv >one.csv &&
	grep -A1 -x "Pareto Optimal Points" one.csv | tail -1 | grep -qx None &&
	grep -A1 -x "Best Configurations" one.csv | tail -1 | grep -qx ""
'

test_expect_success 'independent order: aggregates in <dir>/aggregate, the sweep in sweep_aggregate' '
	mkdir -p ind &&
	for c in 1 2 4 8; do
		mkdir -p ind/concurrency_$c/profile_runs &&
		for t in 1 2; do
			ln -s "$TMP/s/profile_runs/trial_000$t/concurrency_$c" \
				ind/concurrency_$c/profile_runs/trial_000$t || exit 1
		done
	done &&
	plan independent 2 indep >ind/sweep_plan.json &&
	aiperf-aggregate --sweep ind/sweep_plan.json 2>err &&
	test -s ind/concurrency_1/aggregate/profile_export_aiperf_aggregate.json &&
	test ! -e ind/aggregate &&
	jq -e ".metadata.sweep_mode == \"independent\"" \
		ind/sweep_aggregate/profile_export_aiperf_sweep.json &&
	jq -e "del(.metadata.sweep_mode)" ind/sweep_aggregate/profile_export_aiperf_sweep.json >a &&
	jq -e "del(.metadata.sweep_mode)" "$J" >b &&
	test_cmp b a
'
test_expect_success 'concurrency-ramp: degradation_knee.json equals jq over the cells' '
	jq ".recipe = {name: \"concurrency-ramp\", degradation_threshold: 0.0001,
		degradation_metric_tag: \"time_to_first_token\", degradation_stat: \"p99\"}" \
		s/sweep_plan.json >s/ramp.json &&
	aiperf-aggregate --sweep s/ramp.json 2>err &&
	K=s/aggregate/sweep_aggregate/degradation_knee.json &&
	jq -e --slurpfile a "$J" "
		[\$a[0].per_combination_metrics[] | {concurrency: .parameters.concurrency,
		  p99: .metrics.time_to_first_token_p99.mean}] as \$pts
		| (\$pts[0].p99 * 1.0001) as \$cut
		| ([\$pts[1:][] | select(.p99 > \$cut)] | first) as \$knee
		| keys_unsorted == [\"baseline_concurrency\", \"baseline_p99\", \"knee_concurrency\",
			\"knee_p99\", \"threshold_pct\", \"swept_metric\", \"stat\", \"swept_param\",
			\"all_points\"]
		and .baseline_concurrency == 1 and .baseline_p99 == \$pts[0].p99
		and .knee_concurrency == \$knee.concurrency and .knee_p99 == \$knee.p99
		and .all_points == \$pts and .threshold_pct == 0.0001
		and .swept_metric == \"time_to_first_token\"
		and .swept_param == \"phases.profiling.concurrency\"" "$K" &&
	test ! -e s/aggregate/sweep_aggregate/post_process_errors.json
'

test_expect_success 'a failing post-process: post_process_errors.json, the sweep still written' '
	jq ".recipe = {name: \"concurrency-ramp\", degradation_stat: \"p98\"}" \
		s/sweep_plan.json >s/bad-ramp.json &&
	aiperf-aggregate --sweep s/bad-ramp.json --output-dir br 2>err &&
	test -s br/profile_export_aiperf_sweep.json &&
	test ! -e br/degradation_knee.json &&
	jq -e ".handler == \"degradation_knee_detect\" and
		.output_filename == \"degradation_knee.json\" and .type == \"ValueError\" and
		(.error | test(\"p98\"))" br/post_process_errors.json &&
	grep -q "post-process handler .degradation_knee_detect. failed" err
'

test_expect_success 'one successful trial of two: the degraded aggregate (single_run), point stats' '
	mkdir -p d1/profile_runs/trial_0001 d1/profile_runs/trial_0002/concurrency_1 &&
	ln -s "$TMP/s/profile_runs/trial_0001/concurrency_1" d1/profile_runs/trial_0001/concurrency_1 &&
	echo 1 >d1/profile_runs/trial_0002/concurrency_1/exit_status &&
	jq ".variations |= .[:1] | .runs |= map(select(.variation == 0))" s/sweep_plan.json \
		>d1/sweep_plan.json &&
	aiperf-aggregate --sweep d1/sweep_plan.json 2>err &&
	A=d1/aggregate/concurrency_1/profile_export_aiperf_aggregate.json &&
	jq -e --slurpfile r s/profile_runs/trial_0001/concurrency_1/profile_export_aiperf.json "
		.metadata.single_run == true and .metadata.num_successful_runs == 1
		and .metrics.time_to_first_token_p99 == {mean: \$r[0].time_to_first_token.p99,
			std: 0, min: \$r[0].time_to_first_token.p99, max: \$r[0].time_to_first_token.p99,
			cv: 0, se: 0, ci_low: \$r[0].time_to_first_token.p99,
			ci_high: \$r[0].time_to_first_token.p99, t_critical: null, unit: \"ms\"}" "$A" &&
	jq -e --slurpfile r s/profile_runs/trial_0001/concurrency_1/profile_export_aiperf.json "
		.per_combination_metrics[0].metrics.request_throughput_avg ==
		{mean: \$r[0].request_throughput.avg, std: 0, min: \$r[0].request_throughput.avg,
		 max: \$r[0].request_throughput.avg, cv: 0, ci_low: \$r[0].request_throughput.avg,
		 ci_high: \$r[0].request_throughput.avg, unit: \"requests/sec\"}
		and .best_configurations.best_throughput.parameters == {concurrency: 1}" \
		d1/aggregate/sweep_aggregate/profile_export_aiperf_sweep.json
'

test_expect_success '--output-dir DIR: the sweep files there' '
	aiperf-aggregate --sweep s/sweep_plan.json 2>/dev/null &&
	aiperf-aggregate --sweep s/sweep_plan.json --output-dir od 2>/dev/null &&
	cmp od/profile_export_aiperf_sweep.json "$J" &&
	cmp od/profile_export_aiperf_sweep.csv "$C"
'

test_expect_success 'hostile plans: exit 1 naming the file; usage errors exit 2' '
	sed "s|\"profile_runs/trial_0001/concurrency_1\"|\"../../etc\"|" s/sweep_plan.json >s/bad.json &&
	test_expect_code 1 aiperf-aggregate --sweep s/bad.json 2>err &&
	grep -q "s/bad.json: runs\[0\]: \"dir\" is no relative path" err &&
	sed "s|\"profile_runs/trial_0001/concurrency_1\"|\"/etc\"|" s/sweep_plan.json >s/bad.json &&
	test_expect_code 1 aiperf-aggregate --sweep s/bad.json 2>err &&
	printf "{\"trials\": 2" >s/bad.json &&
	test_expect_code 1 aiperf-aggregate --sweep s/bad.json 2>err &&
	grep -q "invalid JSON" err &&
	test_expect_code 1 aiperf-aggregate --sweep s/none.json 2>err &&
	grep -q "cannot read .s/none.json." err &&
	test_expect_code 1 aiperf-aggregate --sweep s 2>err &&
	test_expect_code 2 aiperf-aggregate --sweep s/sweep_plan.json d 2>err
'

test_done
