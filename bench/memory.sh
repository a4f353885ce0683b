#!/bin/bash
# Memory of a long run: N streaming requests through aiperf-gen |
# aiperf-send (against aiperf-mock --fast) | aiperf-metrics, with the
# resident set (VmRSS) of aiperf-send and aiperf-metrics sampled every
# second. Target (issue 4): flat after warm-up. The RSS at the end of
# warm-up (the first fifth of the samples, at least 2 s) is the reference;
# the run passes when neither process grew past it by more than 10% or
# 4 MiB, whichever is larger. Not a test: numbers only.
# Usage: bench/memory.sh [requests] [concurrency]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-1000000}
C=${2:-64}
bench_mock --fast

mkfifo "$TMP/req" "$TMP/raw" "$TMP/rec"
aiperf-gen -m m --tokenizer builtin --isl 16 --osl 8 --streaming --random-seed 1 \
	--request-count "$N" >"$TMP/req" 2>"$TMP/gen.err" &
bench_reap "$!"
aiperf-send -u "$URL" --concurrency "$C" --ui-type none <"$TMP/req" >"$TMP/raw" &
SEND=$!
bench_reap "$SEND"
aiperf-metrics --use-server-token-count <"$TMP/raw" >"$TMP/rec" &
MET=$!
bench_reap "$MET"
wc -l <"$TMP/rec" >"$TMP/count" &
WC=$!

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

start=$(date +%s)
echo "requests=$N concurrency=$C (RSS in KiB, one sample a second)"
printf '%-6s %-10s %-10s\n' t_s send_kib metrics_kib
: >"$TMP/samples"
while kill -0 "$SEND" 2>/dev/null; do
	s=$(rss "$SEND") m=$(rss "$MET")
	t=$(($(date +%s) - start))
	[ "${s:-0}" -gt 0 ] && echo "$t ${s:-0} ${m:-0}" >>"$TMP/samples"
	printf '%-6s %-10s %-10s\n' "$t" "${s:-0}" "${m:-0}"
	sleep 1
done
wait "$SEND" || { echo "FAIL: aiperf-send exited with an error"; exit 1; }
wait "$MET" || { echo "FAIL: aiperf-metrics exited with an error"; exit 1; }
wait "$WC"
done_n=$(cat "$TMP/count")
secs=$(($(date +%s) - start))
echo "records=$done_n in ${secs}s"
awk -v n="$N" -v done="$done_n" '
	{ t[NR] = $1; s[NR] = $2; m[NR] = $3 }
	END {
		k = int(NR / 5); if (k < 2) k = 2
		if (NR <= k) { print "FAIL: too few samples (" NR ") for a warm-up and a run; use more requests"; exit 1 }
		for (i = k + 1; i <= NR; i++) { if (s[i] > ps) ps = s[i]; if (m[i] > pm) pm = m[i] }
		gs = ps - s[k]; gm = pm - m[k]
		lim_s = s[k] * 0.10 > 4096 ? s[k] * 0.10 : 4096
		lim_m = m[k] * 0.10 > 4096 ? m[k] * 0.10 : 4096
		printf "aiperf-send:    after warm-up (t=%ds) %d KiB, later peak %d KiB, ratio %.3f\n", t[k], s[k], ps, ps / s[k]
		printf "aiperf-metrics: after warm-up (t=%ds) %d KiB, later peak %d KiB, ratio %.3f\n", t[k], m[k], pm, pm / m[k]
		ok = gs <= lim_s && gm <= lim_m && done == n
		printf "%s: RSS flat after warm-up (growth send %+d KiB, metrics %+d KiB; limit 10%% or 4 MiB; %d of %d records)\n",
			ok ? "PASS" : "FAIL", gs, gm, done, n
		exit !ok
	}' "$TMP/samples"
