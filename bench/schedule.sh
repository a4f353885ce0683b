#!/bin/sh
# Schedule adherence of aiperf-send: requests with intended send times (at_ns)
# against aiperf-mock; prints the lateness distribution (actual - intended
# send time) and the achieved rate against the target, for each case.
# Usage: bench/schedule.sh [rate-per-second [seconds [constant|poisson]]]
# With no arguments: constant and poisson at 1,000 and 10,000 req/s, 20 s each
# (issue 4's matrix). Env SEND_OPTS: extra aiperf-send options (--busy-poll).
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

bench_mock --ttft-ms 0 --itl-ms 0

# records RATE SECS PATTERN: request records with at_ns. Constant: the first
# request waits one interval (spec 5.2); poisson: exponential gaps (seed 1).
records() {
	awk -v r="$1" -v s="$2" -v p="$3" 'BEGIN { srand(1); n = r * s; t = 0
	for (i = 1; i <= n; i++) {
		t = p == "poisson" ? t - log(1 - rand()) * 1e9 / r : i * 1e9 / r
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"at_ns\":%.0f,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":1}}\n", i, t
	} }'
}

# run RATE SECS PATTERN: one case, one summary line pair.
run() {
	records "$1" "$2" "$3" >"$TMP/in"
	# shellcheck disable=SC2086 # SEND_OPTS is a list of options
	aiperf-send -u "$URL" --ui-type none ${SEND_OPTS:-} <"$TMP/in" >"$TMP/raw"
	awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		match($0, /"intended_perf_ns":[0-9]+/); t = substr($0, RSTART + 19, RLENGTH - 19) + 0
		# %.0f: print would give the %.6g of mawk, rounding ns stamps to 0.1 s
		printf "%.0f %.0f %.0f\n", s - t, s, t }' "$TMP/raw" >"$TMP/late"
	N=$(wc -l <"$TMP/late")
	ERR=$(grep -c '"error"' "$TMP/raw" || true)
	sort -n "$TMP/late" | awk -v n="$N" -v r="$1" -v err="$ERR" -v p="$3" -v s="$2" '
		{ l[NR] = $1; if (NR == 1 || $2 < lo) lo = $2; if ($2 > hi) hi = $2
		  if (NR == 1 || $3 < tlo) tlo = $3; if ($3 > thi) thi = $3 }
		END {
			p50 = l[int(0.50 * (n - 1)) + 1]; p99 = l[int(0.99 * (n - 1)) + 1]
			want = (n - 1) / ((thi - tlo) / 1e9); got = (n - 1) / ((hi - lo) / 1e9)
			printf "%s %d/s %ds: requests=%d errors=%d scheduled_rate=%.1f/s achieved_rate=%.1f/s (%+.3f%%)\n", p, r, s, n, err, want, got, 100 * (got / want - 1)
			printf "  lateness_us p50=%.1f p99=%.1f max=%.1f min=%.1f  p99 < 100 us: %s\n", p50 / 1e3, p99 / 1e3, l[n] / 1e3, l[1] / 1e3, p99 < 100e3 ? "PASS" : "FAIL"
		}'
}

if [ $# -gt 0 ]; then
	run "$1" "${2:-5}" "${3:-constant}"
	exit
fi
for p in constant poisson; do
	for r in 1000 10000; do
		run "$r" 20 "$p"
	done
done
