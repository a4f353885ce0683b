#!/bin/sh
# bench/bailian-chain.sh: bailian_trace sessions found in linear time and
# memory. N chained turns (one session: chat i's parent is i-1) against
# the same N records as N one-turn sessions (parent -1), through
# aiperf-gen and aiperf-trace convert: wall seconds, peak RSS and the
# chained/flat ratios side by side (linear: within 2x; the quadratic
# root finder took 12.6 s and 3.2 GB for 8,000 chained turns).
# Usage: sh bench/bailian-chain.sh [turns]   (default 100000)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-100000}

# rows PARENT: N bailian records; PARENT "chain" links each to the one before
rows() {
	awk -v n="$N" -v chain="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"chat_id\": %d, \"parent_chat_id\": %d, \"timestamp\": %.3f, " \
		       "\"input_length\": 16, \"output_length\": 1, \"hash_ids\": [%d]}\n",
		       i, chain == "chain" && i ? i - 1 : -1, i / 1000, i }'
}
rows chain >"$TMP/chain.jsonl"
rows flat >"$TMP/flat.jsonl"

# run NAME CMD...: "seconds peak_kb" of CMD into $TMP/NAME.t
run() {
	name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$TMP/$name.t" "$@" >"$TMP/$name.out" ||
		bench_die "$name failed: $(tail -3 "$TMP/$name.t")"
}

for f in chain flat; do
	run "gen-$f" aiperf-gen -m m --tokenizer builtin --input-file "$TMP/$f.jsonl" \
		--custom-dataset-type bailian_trace --request-count 1
	run "conv-$f" aiperf-trace convert --from bailian "$TMP/$f.jsonl"
done
[ "$(grep -c '"session_id":"0"' "$TMP/conv-chain.out")" -eq "$N" ] ||
	bench_die "convert: the chained turns are not one session"
grep -q "\"num_turns\":$N," "$TMP/gen-chain.out" ||
	bench_die "aiperf-gen: the chained turns are not one session"

echo "bailian_trace, $N records: one session of $N chained turns vs $N one-turn sessions"
printf '%-22s %9s %9s %11s %11s %8s %8s\n' tool chain_s flat_s chain_kb flat_kb time_x rss_x
for t in gen conv; do
	read -r cs ck <"$TMP/$t-chain.t"
	read -r fs fk <"$TMP/$t-flat.t"
	awk -v t="$t" -v cs="$cs" -v ck="$ck" -v fs="$fs" -v fk="$fk" 'BEGIN {
		name = t == "gen" ? "aiperf-gen" : "aiperf-trace convert"
		x = cs / (fs > 0.01 ? fs : 0.01); r = ck / fk
		printf "%-22s %9.2f %9.2f %11d %11d %8.2f %8.2f %s\n", name, cs, fs, ck, fk,
			x, r, x <= 2 && r <= 2 ? "linear" : "NOT LINEAR" }'
done
