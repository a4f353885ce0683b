#!/bin/sh
# aiperf-plot on a sweep's artifact folder: besides the runs' comparisons,
# the sweep's own plots from sweep_aggregate/profile_export_aiperf_sweep.json
# (a small hand-written one here): sweep_pareto, request throughput vs
# TTFT p99 with the pareto_optimal cells as the frontier, and sweep_knee,
# p99 request latency vs concurrency with degradation_knee.json's knee and
# threshold marked; the repeated layout's aggregate/sweep_aggregate/ too.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
DATA=$TOP/tests/data/plot

# cell C THROUGHPUT TTFT_P99 LAT_P99: one per_combination_metrics entry
cell() {
	printf '{"parameters": {"concurrency": %s}, "metrics": {
	"request_throughput_avg": {"mean": %s, "std": 0.0, "unit": "requests/sec"},
	"time_to_first_token_p99": {"mean": %s, "std": 0.0, "unit": "ms"},
	"request_latency_p99": {"mean": %s, "std": 0.0, "unit": "ms"}}}' "$@"
}

# sweep DIR [pareto_optimal JSON]: the three runs and a sweep aggregate in DIR
sweep() {
	mkdir -p "$1/sweep_aggregate"
	for c in 1 2 4; do
		cp -r "$DATA/pareto-c$c" "$1/concurrency_$c"
	done
	{
		printf '{"aggregation_type": "sweep", "num_profile_runs": 4, "per_combination_metrics": [\n'
		cell 1 10.0 50.0 100.0; printf ',\n'
		cell 2 19.5 55.0 104.0; printf ',\n'
		cell 4 18.0 70.0 150.0; printf ',\n'
		cell 8 30.0 140.0 400.0
		printf '\n]%s}\n' "${2:+, \"pareto_optimal\": $2}"
	} >"$1/sweep_aggregate/profile_export_aiperf_sweep.json"
}

# rows FILE BLOCK: the data rows of gnuplot block BLOCK (0-based) of FILE
rows() {
	awk -v want="$2" '/^#/ { next } NF == 0 { if (prev) b++; prev = 0; next }
		{ prev = 1; if (b == want) print }' "$1"
}

test_expect_success 'sweep_pareto: every cell, the listed optimal ones as the frontier' '
	sweep s "[{\"concurrency\": 1}, {\"concurrency\": 2}, {\"concurrency\": 8}]" &&
	aiperf-plot --paths s --output out >o 2>err &&
	test "$(cat o)" = out/report.html &&
	test -s out/sweep_pareto.png && test -s out/sweep_pareto.svg &&
	rows out/data/sweep_pareto.dat 0 >pts &&
	printf "%s\n" "10 50 \"concurrency=1\"" "18 70 \"concurrency=4\"" \
		"19.5 55 \"concurrency=2\"" "30 140 \"concurrency=8\"" >want &&
	test_cmp want pts &&
	rows out/data/sweep_pareto.dat 1 >front &&
	printf "%s\n" "10 50" "19.5 55" "30 140" >want &&
	test_cmp want front &&
	grep -q "title \"Pareto frontier\"" out/data/sweep_pareto.gp &&
	grep -q sweep_pareto out/report.html
'

test_expect_success 'sweep_knee: p99 latency by concurrency, the knee and threshold marked' '
	sweep k &&
	printf "%s" "{\"baseline_concurrency\": 1, \"baseline_p99\": 100.0,
		\"knee_concurrency\": 4, \"knee_p99\": 150.0, \"threshold_pct\": 0.2,
		\"swept_metric\": \"request_latency\", \"stat\": \"p99\",
		\"all_points\": []}" >k/sweep_aggregate/degradation_knee.json &&
	aiperf-plot --paths k --output out >o 2>err &&
	test -s out/sweep_knee.png &&
	rows out/data/sweep_knee.dat 0 >pts &&
	printf "%s\n" "1 100" "2 104" "4 150" "8 400" >want &&
	test_cmp want pts &&
	rows out/data/sweep_knee.dat 1 >thr &&
	printf "%s\n" "1 120" "8 120" >want &&
	test_cmp want thr &&
	rows out/data/sweep_knee.dat 2 >kn &&
	test "$(cat kn)" = "4 150 \"knee: concurrency 4\"" &&
	grep -q "title \"knee\"" out/data/sweep_knee.gp
'

test_expect_success 'no pareto_optimal list: the frontier is computed; no knee file: no knee' '

	sweep n &&
	aiperf-plot --paths n --output out2 >o 2>err &&
	rows out2/data/sweep_pareto.dat 1 >front &&
	printf "%s\n" "10 50" "19.5 55" "30 140" >want &&
	test_cmp want front &&
	rows out2/data/sweep_knee.dat 1 >kn &&
	test ! -s kn
'

test_expect_success 'the repeated layout: aggregate/sweep_aggregate/' '
	sweep r && mkdir -p r/aggregate && mv r/sweep_aggregate r/aggregate/ &&
	aiperf-plot --paths r --output out3 >o 2>err &&
	test -s out3/sweep_pareto.png && test -s out3/sweep_knee.png
'

test_expect_success 'a malformed sweep aggregate fails naming the file' '
	sweep m && printf "{\"per_combination_metrics\": [" >m/sweep_aggregate/profile_export_aiperf_sweep.json &&
	test_expect_code 1 aiperf-plot --paths m --output out4 2>err &&
	grep -q "m/sweep_aggregate/profile_export_aiperf_sweep.json" err
'

test_expect_success 'cells without the metrics, or with non-numbers, are left out' '
	sweep h &&
	printf "%s" "{\"per_combination_metrics\": [{\"parameters\": {\"concurrency\": \"x\"},
		\"metrics\": {\"request_throughput_avg\": {\"mean\": \"fast\"}}}, {\"parameters\": 3},
		$(cell 2 5.0 6.0 7.0)]}" >h/sweep_aggregate/profile_export_aiperf_sweep.json &&
	aiperf-plot --paths h --output out5 >o 2>err &&
	rows out5/data/sweep_pareto.dat 0 >pts &&
	test "$(cat pts)" = "5 6 \"concurrency=2\"" &&
	rows out5/data/sweep_knee.dat 0 >pts &&
	test "$(cat pts)" = "2 7"
'

echo "1..$test_count"
test "$test_failed" -eq 0
