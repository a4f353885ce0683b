#!/bin/sh
# Instructions aiperf-tok --count executes to encode the first 1.5 MB of
# tinyshakespeare, load cancelled out (a run on empty input is subtracted):
# callgrind counts, repeatable on a busy machine, unlike times. Compare two
# builds with bench/builds.sh REV tok-instructions.sh.
# Usage: bench/tok-instructions.sh [tokenizer...]   (needs valgrind)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
S=$TOP/../shared
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
head -c 1500000 "$S/data/corpus/tinyshakespeare.txt" >"$TMP/in"
ins() {	# tokenizer input
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$TOP/bin/aiperf-tok" --tokenizer "$1" --count <"$2" 2>&1 >/dev/null |
		awk '/Collected/ { print $4 }'
}
[ $# -gt 0 ] || set -- o200k_base llama3 qwen3
for t in "$@"; do
	case $t in
	o200k_base | cl100k_base) spec=$t ;;
	*) spec=$S/tokenizers/$t ;;
	esac
	printf '%-12s %12d instructions to encode 1.5 MB\n' "$t" \
		$(($(ins "$spec" "$TMP/in") - $(ins "$spec" /dev/null)))
done
