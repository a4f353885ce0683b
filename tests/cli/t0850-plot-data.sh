#!/bin/sh
# aiperf-plot on the committed artifact folders (tests/data/plot, real runs
# against aiperf-mock, remade by make.sh there): the data block behind
# every plot equals what tests/cli/plot-check.py computes with numpy from
# the artifact files; each plot has a non-empty PNG and SVG; a changed
# number is caught; usage errors and a missing gnuplot are clear.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
"$PY" -c "import numpy" 2>/dev/null || test_skip_all "no python3-numpy"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

test_expect_success 'single run: every plot data block equals numpy' '
	aiperf-plot --paths "$DATA/single" --output one >out 2>err &&
	test "$(cat out)" = one/report.html &&
	test ! -s err &&
	"$PY" "$TOP/tests/cli/plot-check.py" single "$DATA/single" one
'

test_expect_success 'a changed number in a data block is caught' '
	test -f one/data/ttft_histogram.dat &&
	sed "/^#/!s/^\([^ ]*\) 1 /\1 2 /" one/data/ttft_histogram.dat >x &&
	! cmp -s x one/data/ttft_histogram.dat &&
	cp x one/data/ttft_histogram.dat &&
	! "$PY" "$TOP/tests/cli/plot-check.py" single "$DATA/single" one >out &&
	grep "ttft_histogram block 0" out
'

test_expect_success 'sweep: Pareto and comparisons equal numpy (aiperf plot, --paths list)' '
	aiperf plot --paths "$DATA"/pareto-c* --output multi >out 2>err &&
	test ! -s err &&
	"$PY" "$TOP/tests/cli/plot-check.py" multi multi "$DATA"/pareto-c* &&
	grep -c "^[0-9.e+-]* [0-9.e+-]* \"c=[124]\"$" multi/data/pareto.dat >n &&
	test "$(cat n)" -ge 4
'

test_expect_success 'a parent folder is searched for runs; default output is <first path>/plots' '
	mkdir -p arts && cp -r "$DATA"/pareto-c1 "$DATA"/pareto-c2 arts/ &&
	aiperf-plot --paths arts >out &&
	test "$(cat out)" = arts/plots/report.html &&
	test -s arts/plots/pareto.png &&
	grep -c "c=[12]" arts/plots/data/pareto.dat
'

test_expect_success 'a run named twice is one run' '
	aiperf-plot --paths "$DATA/pareto-c1" "$DATA/pareto-c1/" "$DATA/pareto-c2" \
		--output twice >/dev/null &&
	grep -q "2 runs," twice/report.html &&
	test "$(grep -c "c=1" twice/data/pareto.dat)" -eq 2
'

test_expect_success 'the dark theme changes the colors, not the data' '
	aiperf-plot --paths "$DATA/single" --output dark --theme dark >/dev/null &&
	grep -q "background .#1e1e1e." dark/data/ttft_histogram.gp &&
	grep -q "background .#ffffff." one/data/latency_over_time.gp &&
	cmp one/data/latency_over_time.dat dark/data/latency_over_time.dat &&
	grep -q "<body class=\"dark\">" dark/report.html
'

test_expect_success 'errors: no runs, missing path, bad theme, no gnuplot' '
	mkdir empty &&
	test_expect_code 1 aiperf-plot --paths empty 2>err &&
	grep "no profiling runs in .empty." err &&
	test_expect_code 1 aiperf-plot --paths nothere 2>err &&
	grep "cannot open .nothere.: No such file" err &&
	test_expect_code 2 aiperf-plot --theme blue 2>err &&
	grep "invalid value for --theme" err &&
	test_expect_code 2 aiperf-plot --port 70000 2>err &&
	test_expect_code 1 env PATH=/nonexistent "$TOP/bin/aiperf-plot" --paths "$DATA/single" 2>err &&
	grep "gnuplot not found on PATH: install it (Debian: gnuplot-nox)" err &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" --config nope.yaml 2>err &&
	grep "cannot read .nope.yaml.: No such file" err
'

test_expect_success 'a malformed summary is an error naming the file' '
	mkdir -p bad && echo "{" >bad/profile_export_aiperf.json &&
	test_expect_code 1 aiperf-plot --paths bad --output bo 2>err &&
	grep "bad/profile_export_aiperf.json" err
'
test_done
