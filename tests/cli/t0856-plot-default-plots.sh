#!/bin/sh
# The original's default plots: dispersed throughput on records whose
# step function is worked out by hand; the per-request and timeline plots;
# GPU utilization with throughput only with GPU telemetry; ttft_vs_throughput
# for every sweep; the per-GPU Pareto curves only for a sweep whose runs all
# have GPU telemetry (tests/data/plot/gpu-c1, gpu-c2), equal to numpy
# (plot-check.py multi), a changed number caught.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
"$PY" -c "import numpy" 2>/dev/null || test_skip_all "no python3-numpy"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

# rec START_NS END_NS TTFT_MS OSL: one metric record
rec() {
	printf '{"metadata":{"request_start_ns":%s,"request_end_ns":%s},' "$1" "$2"
	printf '"metrics":{"time_to_first_token":{"value":%s,"unit":"ms"},' "$3"
	printf '"request_latency":{"value":1,"unit":"ms"},'
	printf '"inter_token_latency":{"value":%s,"unit":"ms"},' "$3"
	printf '"output_sequence_length":{"value":%s,"unit":"tokens"}}}\n' "$4"
}

test_expect_success 'dispersed throughput: the step function by hand' '
	{
		rec 1000000000 4000000000 1000 4 &&	# 2 tok/s over [1, 3)
		rec 2000000000 6000000000 2000 6 &&	# 3 tok/s over [3, 5)
		rec 1000000000 3000000000 500 0		# no tokens: nothing
	} >recs.jsonl &&
	aiperf-plot --paths - --output hand <recs.jsonl >/dev/null &&
	grep -v "^#" hand/data/dispersed_throughput_over_time.dat | grep . >got &&
	printf "0 0\n1 2\n3 3\n5 0\n" >want &&
	test_cmp want got
'

test_expect_success 'the timeline: TTFT part, then the rest, per request' '
	grep -v "^#" hand/data/ttft_timeline.dat >tl &&
	printf "0 1\n1 1\n\n1 2\n3 2\n\n0 3\n0.5 3\n\n\n1 1\n3 1\n\n3 2\n5 2\n\n0.5 3\n2 3\n\n\n" >want &&
	test_cmp want tl &&
	grep -v "^#" hand/data/ttft_over_time.dat | grep . >got &&
	printf "0 1000 1\n1 2000 2\n0 500 3\n" >want &&
	test_cmp want got
'

test_expect_success 'GPU utilization with throughput only with GPU telemetry' '
	test ! -f hand/data/gpu_utilization_and_throughput_over_time.dat &&
	aiperf-plot --paths "$DATA/single" --output one >/dev/null &&
	test -s one/gpu_utilization_and_throughput_over_time.png &&
	grep -q "axes x1y2" one/data/gpu_utilization_and_throughput_over_time.gp &&
	grep -q "<figure id=.fig-gpu_utilization_and_throughput_over_time" one/report.html
'

test_expect_success 'a sweep with GPU telemetry: per-GPU Pareto curves equal numpy' '
	aiperf-plot --paths "$DATA"/gpu-c1 "$DATA"/gpu-c2 --output gpu >out 2>err &&
	test ! -s err &&
	"$PY" "$TOP/tests/cli/plot-check.py" multi gpu "$DATA"/gpu-c1 "$DATA"/gpu-c2 >out &&
	grep "ok pareto_curve_throughput_per_gpu_vs_latency" out &&
	grep "ok pareto_curve_throughput_per_gpu_vs_interactivity" out &&
	grep "ok ttft_vs_throughput" out &&
	grep -q "<figure id=.fig-pareto_curve_throughput_per_gpu_vs_latency" gpu/report.html
'

test_expect_success 'a changed throughput per GPU is caught' '
	f=gpu/data/pareto_curve_throughput_per_gpu_vs_latency.dat &&
	sed "/^#/!s/^\([^ ]*\) \([0-9]\)/\1 9\2/" $f >x &&
	! cmp -s x $f && cp x $f &&
	! "$PY" "$TOP/tests/cli/plot-check.py" multi gpu "$DATA"/gpu-c1 "$DATA"/gpu-c2 >out &&
	grep "pareto_curve_throughput_per_gpu_vs_latency block 0" out
'

test_expect_success 'no per-GPU curves unless every run has GPU telemetry' '
	aiperf-plot --paths "$DATA"/gpu-c1 "$DATA"/pareto-c2 --output mixed >/dev/null &&
	test -f mixed/data/ttft_vs_throughput.dat &&
	test ! -f mixed/data/pareto_curve_throughput_per_gpu_vs_latency.dat &&
	test ! -f mixed/data/pareto_curve_throughput_per_gpu_vs_interactivity.dat &&
	"$PY" "$TOP/tests/cli/plot-check.py" multi mixed "$DATA"/gpu-c1 "$DATA"/pareto-c2 >/dev/null
'
test_done
