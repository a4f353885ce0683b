#!/bin/sh
# Regenerates the tokenizer test data in tests/tok/ (run from the repo root):
# the corpus, and for each tokenizer the reference ids (encode), the
# reference text of those ids (decode, skip_special_tokens) and random id
# arrays with their reference decode. HF tokenizers: ../shared/tools/
# tok-oracle.mjs (Rust tokenizers 0.22.2). tiktoken: OpenAI's tiktoken
# (tests/tok/tiktoken-ref.cjs); js-tiktoken, the oracle's tiktoken engine,
# agrees except on lines holding U+FEFF or U+0085 (JavaScript's \s) and
# strips a leading BOM when decoding. Needs node, zstd, python3 and:
#   npm install --no-save --ignore-scripts --prefix /tmp/tok-oracle \
#     @anush008/tokenizers@0.6.0 @huggingface/tokenizers@0.2.0 js-tiktoken@1.0.21
#   npm install --no-save --ignore-scripts --prefix /tmp/tiktoken-wasm tiktoken
set -eu
cd "$(dirname "$0")/../.."
D=tests/tok
S=../shared
ORACLE="node $S/tools/tok-oracle.mjs"
export TOK_ORACLE_MODULES="${TOK_ORACLE_MODULES:-/tmp/tok-oracle}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 $D/gen-corpus.py >"$tmp/corpus"
zstd -q -19 -f "$tmp/corpus" -o $D/corpus.jsonl.zst
mkdir -p "$tmp/synth" $D/synth
python3 $D/gen-synth.py $S/tokenizers "$tmp/synth"
for f in "$tmp"/synth/*.json; do
	zstd -q -19 -f "$f" -o "$D/synth/${f##*/}.zst"
done
for t in qwen3 llama3 deepseek-v3 gpt-oss llama2 mistral-7b o200k_base cl100k_base \
	synth-flags synth-behaviors synth-metaspace; do
	case $t in
	synth-*)
		f=$tmp/synth/${t#synth-}.json
		enc="$ORACLE $f --json"
		dec="$ORACLE $f --decode"
		max=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(max([*j["model"]["vocab"].values(), *(a["id"] for a in j["added_tokens"])]) + 1)' "$f") ;;
	o200k_base | cl100k_base)
		enc="node $D/tiktoken-ref.cjs $t"
		dec="node $D/tiktoken-ref.cjs $t --decode"
		max=$(if [ $t = o200k_base ]; then echo 200019; else echo 100277; fi) ;;
	*)
		enc="$ORACLE $S/tokenizers/$t --json"
		dec="$ORACLE $S/tokenizers/$t --decode"
		max=$(zstd -dcf "$S/tokenizers/$t"/tokenizer.json* | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(max([*j["model"]["vocab"].values(), *(a["id"] for a in j["added_tokens"])]) + 1)') ;;
	esac
	$enc <"$tmp/corpus" >"$tmp/ids"
	$dec <"$tmp/ids" >"$tmp/dec"
	python3 -c '
import random, sys
r = random.Random(sys.argv[1]); m = int(sys.argv[2])
for i in range(400):
    n = r.choice([0, 1, 2, 3, 5, 8, 20, 60])
    print("[" + ",".join(str(r.randrange(m + 3)) for _ in range(n)) + "]")' "$t" "$max" >"$tmp/rand"
	$dec <"$tmp/rand" >"$tmp/randdec"
	for f in ids dec rand randdec; do
		zstd -q -19 -f "$tmp/$f" -o "$D/$t.$f.zst"
	done
done
