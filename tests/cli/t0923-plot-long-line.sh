#!/bin/sh
# aiperf-plot names the over-long line itself (longer than 64 MiB, the
# cap of a record line), not the one after it: in records on stdin, in a
# run's profile_export.jsonl and in its gpu_telemetry_export.jsonl, with
# or without a newline after it; exit 1.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
MAX=67108864

# long: one line of MAX + 1 bytes, no newline.
head -c $((MAX + 1)) /dev/zero | tr '\0' x >"$TMP/long"
head -2 "$DATA/single/profile_export.jsonl" >"$TMP/two"

test_expect_success 'records on stdin: line 3 is named' '
	{ cat two long && echo && cat two; } |
		test_expect_code 1 aiperf-plot --output o >out 2>err &&
	test "$(cat err)" = "aiperf-plot: <stdin>:3: line longer than $MAX bytes"
'

test_expect_success 'the last line, without a newline: line 3 is named' '
	{ cat two long; } | test_expect_code 1 aiperf-plot --output o >out 2>err &&
	test "$(cat err)" = "aiperf-plot: <stdin>:3: line longer than $MAX bytes"
'

test_expect_success 'the first line of a run directory s profile_export.jsonl' '
	mkdir r && cp "$DATA/single/profile_export_aiperf.json" r/ &&
	{ cat long && echo && cat two; } >r/profile_export.jsonl &&
	test_expect_code 1 aiperf-plot --paths r --output o >out 2>err &&
	test "$(cat err)" = "aiperf-plot: r/profile_export.jsonl:1: line longer than $MAX bytes"
'

test_expect_success 'line 2 of gpu_telemetry_export.jsonl' '
	mkdir g && cp "$DATA/single/profile_export_aiperf.json" g/ &&
	{ head -1 "$DATA/single/gpu_telemetry_export.jsonl" && cat long; } \
		>g/gpu_telemetry_export.jsonl &&
	test_expect_code 1 aiperf-plot --paths g --output o >out 2>err &&
	test "$(cat err)" = "aiperf-plot: g/gpu_telemetry_export.jsonl:2: line longer than $MAX bytes"
'
test_done
