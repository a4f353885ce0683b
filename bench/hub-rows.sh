#!/bin/sh
# The cost of reading a hub dataset split from the dataset viewer against
# reading it from the cache (issue 30): a synthetic split of N rows
# (default 20000, MMLU-sized rows of ~400 bytes) served by the loopback hub
# tests/hub/fake-hub.py, fetched once with aiperf-hub rows (N/100 pages),
# then read again from the cache it filled. Prints the wall time of each,
# their ratio, the requests the hub logged for each run and the bytes.
# Usage: bench/hub-rows.sh [rows]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
n=${1:-20000}
command -v python3 >/dev/null || bench_die "python3 is needed"
mkdir -p "$TMP/root/bench/mmlu/default"
python3 - "$n" "$TMP/root/bench/mmlu/default/test.jsonl" <<'P'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w", encoding="utf-8") as f:
    for i in range(n):
        f.write(json.dumps({"question": "Question %d: " % i + "which of these is right? " * 8,
                            "subject": "abstract_algebra",
                            "choices": ["choice %d" % k + " text" * 10 for k in range(4)],
                            "answer": i % 4}, separators=(",", ":")) + "\n")
P
python3 "$TOP/tests/hub/fake-hub.py" --root "$TMP/root" --port-file "$TMP/port" \
	--log "$TMP/hub.log" --idle 60 --max 600 &
bench_reap $!
i=0
while [ ! -s "$TMP/port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$TMP/port" ] || bench_die "the hub did not start"
url=http://127.0.0.1:$(cat "$TMP/port")
: >"$TMP/hub.log"

# run NAME: aiperf-hub rows into $TMP/NAME.out; prints the seconds it took
run() {
	t0=$(date +%s.%N)
	aiperf-hub rows --cache-dir "$TMP/cache" --hub-url "$url" bench/mmlu default test \
		>"$TMP/$1.out" </dev/null 2>"$TMP/$1.err" || bench_die "$1: $(cat "$TMP/$1.err")"
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

hub_s=$(run hub)
hub_req=$(wc -l <"$TMP/hub.log")
cache_s=$(run cache)
cache_req=$(($(wc -l <"$TMP/hub.log") - hub_req))
cmp -s "$TMP/hub.out" "$TMP/root/bench/mmlu/default/test.jsonl" || bench_die "the hub's rows differ"
cmp -s "$TMP/cache.out" "$TMP/hub.out" || bench_die "the cache's rows differ"
bytes=$(wc -c <"$TMP/hub.out")
echo "rows $n bytes $bytes"
echo "hub   ${hub_s}s requests $hub_req"
echo "cache ${cache_s}s requests $cache_req"
echo "$hub_s $cache_s" | awk '{ printf "ratio hub/cache %.1f\n", ($2 > 0 ? $1 / $2 : 0) }'
