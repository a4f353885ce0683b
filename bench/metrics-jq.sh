#!/bin/sh
# The cost of running a template record's response_field in jqprog's helper
# process (lib/json/jqprog.h: the limits on user jq programs) against a
# path program run in aiperf-metrics itself: microseconds a record, wall
# and CPU (user + system, the helper's included), best of ROUNDS runs.
# Usage: bench/metrics-jq.sh [records]   (default 20000; ROUNDS=3)
# BASE=dir adds the rows of dir's aiperf-metrics (before the limits, when
# every program ran in the tool, unbounded).
#   stream8: 8 chunks a record (and [DONE]), .choices[0].delta.content
#   body:    one non-streaming body, .text
# The helper field is the same program in parentheses, which is no path.
#
# Measured 2026-12-01, 2 shared x86_64 cores (load 5 to 6: other builds
# running), 20,000 records, best of 3, BASE = 80958bf:
#                                        wall us   cpu us a record
#   stream8, path (here)                   61        35
#   stream8, helper                       262       172
#   stream8, path, AIPERF_NO_FASTPATH=1   184       158
#   BASE stream8 (all here, unbounded)     51        37
#   body, path (here)                      17         7
#   body, helper                           37        23
#   body, path, AIPERF_NO_FASTPATH=1       34        25
#   BASE body (all here, unbounded)        17         9
# A path program costs what it did; the helper ~17 us of CPU a response
# on this machine (two context switches, most of it the scheduler's: a
# socket round trip of 200 bytes alone measured 6 to 16 us wall here), so
# 2 to 5 times a path program. Batching a record's responses into one
# round trip would take most of that off a stream; not done.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
n=${1:-20000}
rounds=${ROUNDS:-3}

# record KIND FIELD: one template raw record
record() {
	awk -v kind="$1" -v field="$2" 'BEGIN {
		r = ""
		if (kind == "stream8") {
			for (i = 0; i < 8; i++)
				r = r sprintf("{\"perf_ns\":%d,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"id\\\":\\\"c\\\",\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\" tok%d\\\"}}]}\"}]},", 1100000000 + i * 5000000, i)
			r = r "{\"perf_ns\":1150000000,\"packets\":[{\"name\":\"data\",\"value\":\"[DONE]\"}]}"
		} else {
			r = "{\"perf_ns\":1200000000,\"text\":\"{\\\"text\\\":\\\"one two three four\\\"}\"}"
		}
		gsub(/"/, "\\\"", field)
		printf "{\"metadata\":{\"benchmark_phase\":\"profiling\"},\"start_perf_ns\":1000000000,\"payload\":{\"model\":\"m\",\"prompt\":\"a b c\"},\"status\":200,\"responses\":[%s],\"aiperf\":{\"schema\":\"aiperf.raw/1\",\"endpoint_type\":\"template\",\"stream\":%s,\"response_field\":\"%s\"}}\n", r, kind == "stream8" ? "true" : "false", field
	}'
}

# row LABEL FILE COMMAND...: best wall and CPU microseconds a record
row() {
	label=$1 file=$2
	shift 2
	: >"$TMP/runs"
	r=0
	while [ "$r" -lt "$rounds" ]; do
		r=$((r + 1))
		rm -f "$TMP/t"
		t0=$(date +%s%N)
		python3 "$TOP/bench/cputime.py" "$TMP/t" "$@" <"$file" >"$TMP/out"
		t1=$(date +%s%N)
		read -r usr sys _ <"$TMP/t"
		echo "$((t1 - t0)) $usr $sys" >>"$TMP/runs"
	done
	grep -q '"error"' "$TMP/out" && bench_die "$label: error records"
	awk -v n="$n" -v l="$label" '{ c = ($2 + $3) * 1e9; if (NR == 1 || $1 < w) w = $1; if (NR == 1 || c < bc) bc = c }
		END { printf "%-40s %8.1f wall us %8.1f cpu us a record\n", l, w / n / 1e3, bc / n / 1e3 }' "$TMP/runs"
}

for kind in stream8 body; do
	case $kind in
	stream8) f='.choices[0].delta.content' ;;
	*) f=.text ;;
	esac
	record $kind "$f" | awk -v n="$n" '{ for (i = 0; i < n; i++) print }' >"$TMP/$kind.path"
	record $kind "($f)" | awk -v n="$n" '{ for (i = 0; i < n; i++) print }' >"$TMP/$kind.helper"
done
echo "records: $n per case; best of $rounds run(s); $(nproc) cpus; load $(cut -d' ' -f1 /proc/loadavg)"
for kind in stream8 body; do
	row "$kind, path (here)" "$TMP/$kind.path" aiperf-metrics --tokenizer builtin
	row "$kind, helper" "$TMP/$kind.helper" aiperf-metrics --tokenizer builtin
	row "$kind, path, AIPERF_NO_FASTPATH=1" "$TMP/$kind.path" \
		env AIPERF_NO_FASTPATH=1 aiperf-metrics --tokenizer builtin
	[ -z "${BASE:-}" ] ||
		row "  BASE $kind, path (all here)" "$TMP/$kind.path" "$BASE/aiperf-metrics" --tokenizer builtin
done
