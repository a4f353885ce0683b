#!/bin/sh
# Measurement accuracy of the whole pipeline against a mock with a known
# latency model (issue 3): streaming chat, concurrency 8, 200 requests
# against `aiperf-mock --ttft-ms 40 --itl-ms 5`. Prints measured vs
# configured TTFT and ITL, OSL vs requested, request and error counts,
# and PASS/FAIL against: TTFT avg within 1 ms of 40, ITL avg within
# 0.2 ms of 5, OSL = requested, 200 requests, 0 errors.
# Usage: bench/accuracy.sh [requests] [concurrency]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
n=${1:-200} c=${2:-8} osl=64
tmp=$TMP
bench_mock --ttft-ms 40 --itl-ms 5
aiperf profile -m bench --url "$URL" --streaming --tokenizer builtin \
	--isl 128 --osl $osl --concurrency "$c" --request-count "$n" --random-seed 1 \
	--artifact-dir "$tmp/a" >/dev/null
j=$tmp/a/profile_export_aiperf.json
jq -r --argjson n "$n" --argjson osl $osl '
	def ok(c): if c then "PASS" else "FAIL" end;
	(.time_to_first_token.avg) as $ttft | (.inter_token_latency.avg) as $itl |
	(.error_request_count.avg // 0) as $err |
	"ttft_avg_ms \($ttft) (configured 40, |diff| \(($ttft - 40) | fabs)) \(ok((($ttft - 40) | fabs) <= 1))",
	"itl_avg_ms \($itl) (configured 5, |diff| \(($itl - 5) | fabs)) \(ok((($itl - 5) | fabs) <= 0.2))",
	"osl min/max \(.output_sequence_length.min)/\(.output_sequence_length.max) (requested \($osl)) \(ok(.output_sequence_length.min == $osl and .output_sequence_length.max == $osl))",
	"requests \(.request_count.avg) errors \($err) \(ok(.request_count.avg == $n and $err == 0))"' "$j"
