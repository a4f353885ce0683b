#!/bin/sh
# Encode throughput of `aiperf-tok --count` against the reference, in one run:
# HF tokenizers 0.22.2 (Rust, via @anush008/tokenizers, encodeBatch on one
# thread) for tokenizer.json files, OpenAI's tiktoken (wasm) for tiktoken
# encodings, both timed in-process by bench/tok-ref.mjs on the same lines.
# Ours: wall time of the whole run minus the load time (best of 3 each).
# Also: load time of each tokenizer file and our peak RSS (/usr/bin/time -v).
# Usage: bench/tokenizer.sh [tokenizer...]   (run from anywhere)
# Needs node and the modules of ../shared/tools/README.md in
# $TOK_ORACLE_MODULES (default /tmp/tok-oracle) and tiktoken in
# $TIKTOKEN_MODULES (default /tmp/tiktoken-wasm); see tests/tok/regen.sh.
set -eu
cd "$(dirname "$0")/.."
S=../shared
export PATH="$PWD/bin:$PATH" LC_ALL=C
export TOKENIZERS_PARALLELISM=false RAYON_NUM_THREADS=1
export TOK_ORACLE_MODULES="${TOK_ORACLE_MODULES:-/tmp/tok-oracle}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The lines: tinyshakespeare, then the test corpus as plain lines.
cat "$S/data/corpus/tinyshakespeare.txt" >"$tmp/in"
zstd -dc tests/tok/corpus.jsonl.zst | node -e '
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (l) => console.log(JSON.parse(l).replace(/[\r\n]/g, " ")));' >>"$tmp/in"
bytes=$(wc -c <"$tmp/in")
lines=$(wc -l <"$tmp/in")

now() { date +%s.%N; }

# best of 3 wall times of: aiperf-tok --tokenizer $1 --count < $2
best() {
	b=
	for _ in 1 2 3; do
		t0=$(now)
		aiperf-tok --tokenizer "$1" --count <"$2" >"$tmp/count"
		t=$(echo "$(now) - $t0" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

echo "input: $lines lines, $bytes bytes (tinyshakespeare + tests/tok corpus)"
printf '%-12s %9s %9s %7s %9s %9s %9s %s\n' tokenizer ours_s ref_s ratio \
	load_ours load_ref rss_MB tokens
[ $# -gt 0 ] || set -- qwen3 llama3 deepseek-v3 gpt-oss llama2 mistral-7b o200k_base cl100k_base
for t in "$@"; do
	case $t in
	o200k_base | cl100k_base) spec=$t ;;
	*) spec=$S/tokenizers/$t ;;
	esac
	load=$(best "$spec" /dev/null)
	all=$(best "$spec" "$tmp/in")
	ours=$(awk '{ n += $1 } END { print n }' "$tmp/count")
	ours_s=$(echo "$all - $load" | bc)
	rss=$( { /usr/bin/time -v aiperf-tok --tokenizer "$spec" --count <"$tmp/in" \
		>/dev/null; } 2>&1 | awk '/Maximum resident/ { printf "%.0f", $6 / 1024 }')
	read -r ref_s ref_n ref_load <<-EOT
	$(node bench/tok-ref.mjs "$spec" "$tmp/in")
	EOT
	[ "$ref_n" = "$ours" ] || echo "warning: $t: $ours tokens, reference $ref_n" >&2
	printf '%-12s %9.3f %9.3f %6.2fx %9.3f %9.3f %9s %s\n' "$t" "$ours_s" \
		"$ref_s" "$(echo "$ref_s / $ours_s" | bc -l)" "$load" "$ref_load" \
		"$rss" "$ours"
done
