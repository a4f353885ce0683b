#!/bin/sh
# bench/trace.sh: aiperf-trace analyze throughput against jq on the same
# >= 1 GB file (the mooncake conversation trace repeated), plus its .zst,
# and peak RSS to show memory bounded by distinct prefixes, not file size.
# Usage: sh bench/trace.sh [copies]   (default 340 copies, about 1.03 GB)
set -eu
cd "$(dirname "$0")/.."
SRC=${TRACE_SRC:-../shared/data/mooncake/conversation_trace.jsonl}
COPIES=${1:-340}
BIN=bin/aiperf-trace
[ -x "$BIN" ] || { echo "build first: make" >&2; exit 2; }
[ -f "$SRC" ] || { echo "missing $SRC" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq not installed" >&2; exit 2; }
DIR=$(mktemp -d /tmp/aiperf-trace-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT INT TERM

i=0
while [ "$i" -lt "$COPIES" ]; do
	cat "$SRC"
	i=$((i + 1))
done >"$DIR/big.jsonl"
zstd -q -T2 -3 "$DIR/big.jsonl" -o "$DIR/big.jsonl.zst"
BYTES=$(wc -c <"$DIR/big.jsonl")
LINES=$(wc -l <"$DIR/big.jsonl")

# run NAME CMD...: wall seconds and peak RSS (KB) into $DIR/NAME.{s,kb}
run() {
	name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$DIR/$name.t" "$@" >"$DIR/$name.out"
	cut -d' ' -f1 "$DIR/$name.t" >"$DIR/$name.s"
	cut -d' ' -f2 "$DIR/$name.t" >"$DIR/$name.kb"
}

run one "$BIN" analyze --json "$SRC"
run analyze "$BIN" analyze --json "$DIR/big.jsonl"
run zst "$BIN" analyze --json "$DIR/big.jsonl.zst"
run jq jq -c .input_length "$DIR/big.jsonl"

cmp -s "$DIR/analyze.out" "$DIR/zst.out" || { echo "zst result differs" >&2; exit 1; }
[ "$(wc -l <"$DIR/jq.out")" -eq "$LINES" ] || { echo "jq line count differs" >&2; exit 1; }

mb() { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.1f", b / 1048576 / s }'; }
printf 'file: %d bytes, %d lines (%d copies of %s)\n' "$BYTES" "$LINES" "$COPIES" "$SRC"
printf '%-40s %8s s %8s MB/s %8s KB RSS\n' \
	"aiperf-trace analyze (1 copy)" "$(cat "$DIR/one.s")" "-" "$(cat "$DIR/one.kb")" \
	"aiperf-trace analyze" "$(cat "$DIR/analyze.s")" "$(mb "$(cat "$DIR/analyze.s")")" "$(cat "$DIR/analyze.kb")" \
	"aiperf-trace analyze (.zst)" "$(cat "$DIR/zst.s")" "$(mb "$(cat "$DIR/zst.s")")" "$(cat "$DIR/zst.kb")" \
	"jq -c .input_length" "$(cat "$DIR/jq.s")" "$(mb "$(cat "$DIR/jq.s")")" "$(cat "$DIR/jq.kb")"
awk -v a="$(cat "$DIR/analyze.s")" -v z="$(cat "$DIR/zst.s")" -v j="$(cat "$DIR/jq.s")" \
	-v r1="$(cat "$DIR/one.kb")" -v rn="$(cat "$DIR/analyze.kb")" 'BEGIN {
	printf "speed ratio analyze/jq: %.2fx (zst: %.2fx); RSS 340 copies / 1 copy: %.2f\n",
		j / a, j / z, rn / r1 }'
