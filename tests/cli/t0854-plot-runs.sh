#!/bin/sh
# aiperf-plot with several runs: besides the comparisons and the Pareto
# plot, each run's single-run plots under runs/NAME/ (data blocks equal to
# numpy, plot-check.py single) and a section per run in report.html.
# Server histogram metrics (estimated percentiles, observations per bucket)
# and, for a run without --slice-duration, counters and gauges as overall
# bars: data blocks checked independently in plot-check.py.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
"$PY" -c "import numpy" 2>/dev/null || test_skip_all "no python3-numpy"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

test_expect_success 'server histograms of one run equal the export' '
	aiperf-plot --paths "$DATA/single" --output one >/dev/null &&
	"$PY" "$TOP/tests/cli/plot-check.py" single "$DATA/single" one >out &&
	grep "^ok server_histogram_percentiles: 2 blocks, 18 rows" out &&
	grep "^ok server_histogram_buckets_vllm_time_to_first_token_seconds: 1 blocks, 23 rows" out &&
	grep "^ok server_histogram_buckets_vllm_e2e_request_latency_seconds: 1 blocks" out &&
	grep -q "^4 16 \"0.04\"$" one/data/server_histogram_buckets_vllm_time_to_first_token_seconds.dat
'

test_expect_success 'a changed bucket count is caught' '
	f=one/data/server_histogram_buckets_vllm_time_to_first_token_seconds.dat &&
	sed "s/^4 16 \"0.04\"$/4 15 \"0.04\"/" $f >x &&
	! cmp -s x $f &&
	cp x $f &&
	! "$PY" "$TOP/tests/cli/plot-check.py" single "$DATA/single" one >out &&
	grep "server_histogram_buckets_vllm_time_to_first_token_seconds block 0 row 4" out
'

test_expect_success 'a run without timeslices: server counters and gauges as overall bars' '
	cp -r "$DATA/single" flat &&
	rm flat/profile_export_aiperf_timeslices.json &&
	"$PY" -c "
import json, sys
p = sys.argv[1]
d = json.load(open(p))
for m in d[\"metrics\"].values():
    for s in m[\"series\"]:
        s.pop(\"timeslices\", None)
json.dump(d, open(p, \"w\"))
" flat/server_metrics_export.json &&
	aiperf-plot --paths flat --output flatp >/dev/null &&
	"$PY" "$TOP/tests/cli/plot-check.py" single flat flatp >out &&
	grep "^ok server_counter_overall: 1 blocks" out &&
	grep "^ok server_gauge_overall: 1 blocks, 4 rows" out &&
	test ! -f flatp/data/server_counter_rates.dat &&
	test ! -f flatp/data/timeslices_latency.dat &&
	grep -q "id=\"fig-server_gauge_overall\"" flatp/report.html
'

test_expect_success 'several runs: each run has its own plots and report section' '
	aiperf-plot --paths "$DATA/single" "$DATA/pareto-c2" "$DATA/pareto-c4" \
		--output many >/dev/null &&
	"$PY" "$TOP/tests/cli/plot-check.py" multi many "$DATA/single" "$DATA/pareto-c2" \
		"$DATA/pareto-c4" &&
	"$PY" "$TOP/tests/cli/plot-check.py" single "$DATA/single" many/runs/single &&
	test "$(ls many/runs)" = single &&
	grep -q "<section class=\"run\" id=\"run-[0-9]*\">" many/report.html &&
	grep -q "<h2>Run single</h2>" many/report.html &&
	grep -q "<figure id=\"fig-runs-single-ttft_histogram\">" many/report.html &&
	grep -q "href=\"runs/single/ttft_histogram.png\"" many/report.html &&
	grep -q "<figure id=\"fig-pareto\">" many/report.html
'

test_expect_success 'runs with the same name get separate folders' '
	mkdir -p a b && cp -r "$DATA/single" a/r && cp -r "$DATA/single" b/r &&
	aiperf-plot --paths a/r b/r --output same >/dev/null &&
	ls same/runs >runs &&
	test "$(wc -l <runs)" -eq 2 &&
	grep -qx r runs && grep -qx "r-2" runs &&
	cmp same/runs/r/data/ttft_histogram.dat same/runs/r-2/data/ttft_histogram.dat
'
test_done
