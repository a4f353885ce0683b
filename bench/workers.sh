#!/bin/bash
# (run by sh, as bench/builds.sh runs the bench scripts: bash it is)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
# Several senders against one (issue #18): `aiperf profile --workers-max 2`
# and `--workers-max 1` side by side in one run, on the same mock, the same
# load, alternating (1, 2, 1, 2 ...) so that the machine's other load falls
# on both alike. Every figure comes from the run's raw records:
#
#   rate   --request-rate RATE constant, RATE_SECS s of requests,
#          non-streaming: achieved requests/s (successes / (last end - first
#          start)) and the schedule lateness (start_perf_ns -
#          intended_perf_ns) p50 and p99 in us.
#   conc   --concurrency CONC, --benchmark-duration DUR s, non-streaming:
#          achieved requests/s (as above).
#
# Errors count failed requests (records read ahead but never sent when the
# duration ended, NotSentError, are not failures).
#
# Usage: bench/workers.sh [rounds]  (default 2; env RATE, RATE_SECS, CONC,
# DUR, W: the senders to compare with one, default 2)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-2}
RATE=${RATE:-4000} RATE_SECS=${RATE_SECS:-3}
CONC=${CONC:-64} DUR=${DUR:-3}
W=${W:-2}

bench_mock --fast
echo "machine: $(nproc) CPUs; mock: aiperf-mock --fast on this host"

prof() {	# DIR WORKERS [options]
	local d=$1 w=$2
	shift 2
	aiperf profile -m m --tokenizer builtin --url "$URL" --isl 8 --osl 4 \
		--random-seed 1 --export-level raw --ui-type none --no-server-metrics \
		--no-gpu-telemetry --workers-max "$w" --artifact-dir "$d" "$@" \
		>"$d.out" 2>"$d.err" || bench_die "aiperf profile failed: $(tail -3 "$d.err")"
}

# stats DIR: "req/s p50_us p99_us errors" of DIR's raw records.
stats() {
	/usr/bin/python3 - "$1/profile_export_raw.jsonl" <<'PY'
import json, sys
ok = err = 0
first = last = None
late = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["metadata"].get("benchmark_phase") != "profiling":
        continue
    if "error" in r:
        # read ahead but never sent when the duration ended: not a failure
        if r["error"].get("type") not in ("NotSentError", "NotFinishedError"):
            err += 1
        continue
    ok += 1
    s, e = r["start_perf_ns"], r["aiperf"]["end_perf_ns"]
    first = s if first is None else min(first, s)
    last = e if last is None else max(last, e)
    i = r["aiperf"].get("intended_perf_ns")
    if i is not None:
        late.append(s - i)
late.sort()
def pct(p):
    return late[int(p * (len(late) - 1))] / 1e3 if late else float("nan")
rate = ok / ((last - first) / 1e9) if ok and last > first else 0
print("%.0f %.1f %.1f %d" % (rate, pct(0.5), pct(0.99), err))
PY
}

declare -A RPS=() P50=() P99=() ERR=()
for ((r = 1; r <= ROUNDS; r++)); do
	for w in 1 "$W"; do
		prof "$TMP/rate$w.$r" "$w" --request-rate "$RATE" --arrival-pattern constant \
			--request-count $((RATE * RATE_SECS))
		read -r a b c e < <(stats "$TMP/rate$w.$r")
		RPS[rate$w]+=" $a" P50[rate$w]+=" $b" P99[rate$w]+=" $c" ERR[rate$w]+=" $e"
		prof "$TMP/conc$w.$r" "$w" --concurrency "$CONC" --benchmark-duration "$DUR" \
			--benchmark-grace-period 1
		read -r a b c e < <(stats "$TMP/conc$w.$r")
		RPS[conc$w]+=" $a" ERR[conc$w]+=" $e"
	done
done

med() {	# the median of the numbers given
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '\n%-44s %16s %16s %8s\n' "load (median of $ROUNDS rounds)" "1 sender" "$W senders" "ratio"
# shellcheck disable=SC2086 # word lists
{
	a=$(med ${RPS[rate1]}) b=$(med ${RPS[rate$W]})
	printf '%-44s %16s %16s %8s\n' "rate $RATE/s: achieved requests/s" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", b / a }')"
	a=$(med ${P50[rate1]}) b=$(med ${P50[rate$W]})
	printf '%-44s %16s %16s %8s\n' "rate $RATE/s: lateness p50 (us)" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", b / a }')"
	a=$(med ${P99[rate1]}) b=$(med ${P99[rate$W]})
	printf '%-44s %16s %16s %8s\n' "rate $RATE/s: lateness p99 (us)" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", b / a }')"
	a=$(med ${RPS[conc1]}) b=$(med ${RPS[conc$W]})
	printf '%-44s %16s %16s %8s\n' "concurrency $CONC, ${DUR} s: achieved requests/s" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", b / a }')"
	echo "each round's figures: rate req/s 1:${RPS[rate1]} $W:${RPS[rate$W]};" \
		"p99 1:${P99[rate1]} $W:${P99[rate$W]}; conc req/s 1:${RPS[conc1]} $W:${RPS[conc$W]}"
	echo "errors: rate 1:${ERR[rate1]} $W:${ERR[rate$W]}; conc 1:${ERR[conc1]} $W:${ERR[conc$W]}"
}
