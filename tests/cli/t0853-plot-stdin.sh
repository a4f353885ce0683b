#!/bin/sh
# aiperf-plot as a filter: metric records (profile_export.jsonl lines, as
# aiperf-metrics writes them) on stdin, with no --paths or with --paths -,
# make the single-run plots that need only the records, their data blocks
# equal to those made from the artifact folder and to numpy
# (plot-check.py records), and a summary table computed from them. Bad
# input (garbage, a record cut short, nothing at all) is an error naming
# the line.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
REC=$DATA/single/profile_export.jsonl
"$PY" -c "import numpy" 2>/dev/null || test_skip_all "no python3-numpy"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

test_expect_success 'records piped in: plots and summary equal numpy' '
	cat "$REC" | aiperf-plot --output piped >out 2>err &&
	test "$(cat out)" = piped/report.html &&
	test ! -s err &&
	"$PY" "$TOP/tests/cli/plot-check.py" records "$DATA/single" piped &&
	grep -q "Metric records read on stdin: the summary below is computed" piped/report.html
'

test_expect_success '--paths - reads stdin too; the default output is ./plots' '
	aiperf plot --paths - <"$REC" >out &&
	test "$(cat out)" = plots/report.html &&
	"$PY" "$TOP/tests/cli/plot-check.py" records "$DATA/single" plots
'

test_expect_success 'the same data blocks as from the artifact folder' '
	aiperf-plot --paths "$DATA/single" --output dir >/dev/null &&
	for f in ttft_histogram request_latency_histogram itl_by_position \
		latency_over_time throughput_over_time; do
		cmp dir/data/$f.dat piped/data/$f.dat || return 1
	done &&
	test -f dir/data/timeslices_latency.dat &&
	test ! -f piped/data/timeslices_latency.dat
'

test_expect_success 'a garbage line is an error naming it' '
	{ head -3 "$REC"; echo "not json"; tail -2 "$REC"; } >bad.jsonl &&
	test_expect_code 1 aiperf-plot --output g <bad.jsonl 2>err &&
	grep "^aiperf-plot: <stdin>:4: " err &&
	test ! -f g/report.html
'

test_expect_success 'a JSON line that is no metric record is an error naming it' '
	{ head -2 "$REC"; echo "[1,2]"; } | test_expect_code 1 aiperf-plot --output g2 2>err &&
	grep "^aiperf-plot: <stdin>:3: not a metric record" err
'

test_expect_success 'stdin closed inside a record: an error naming the last line' '
	head -c 2500 "$REC" >cut.jsonl &&
	n=$(($(wc -l <cut.jsonl) + 1)) &&
	test_expect_code 1 aiperf-plot --output c <cut.jsonl 2>err &&
	grep "^aiperf-plot: <stdin>:$n: " err
'

test_expect_success 'no records at all, and stdin with other paths, are clear errors' '
	: | test_expect_code 1 aiperf-plot --output e 2>err &&
	grep "no metric records on stdin" err &&
	test_expect_code 2 aiperf-plot --paths - "$DATA/single" <"$REC" 2>err &&
	grep "goes alone" err &&
	test_expect_code 2 aiperf-plot --paths - --dashboard <"$REC" 2>err
'

test_expect_success 'composes after aiperf-metrics-style zstd input too (lines_open)' '
	command -v zstd >/dev/null || { echo "no zstd: skipped"; return 0; }
	zstd -q -c "$REC" | aiperf-plot --output z >/dev/null &&
	cmp z/data/ttft_histogram.dat piped/data/ttft_histogram.dat
'
start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'the stages piped into it: aiperf-gen | aiperf-send | aiperf-metrics | aiperf-plot' '
	mkdir live &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --request-count 12 --streaming |
	aiperf-send -u "$MOCK_URL" --concurrency 2 |
	aiperf-metrics --tokenizer builtin | tee live/profile_export.jsonl |
	aiperf-plot --output livep >out &&
	test "$(cat out)" = livep/report.html &&
	test "$(wc -l <live/profile_export.jsonl)" -eq 12 &&
	"$PY" "$TOP/tests/cli/plot-check.py" records live livep &&
	grep -q "12 requests with records, 0 errors" livep/report.html
'
test_done
