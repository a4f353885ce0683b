#!/bin/sh
# aiperf-tok against the reference on the generated corpus in tests/tok
# (4000 lines; see tests/tok/regen.sh): encode ids, decode of those ids
# with --skip-special, and decode of random id arrays, for all 8 tokenizers
# and 3 synthetic ones (tests/tok/gen-synth.py) for the rarer features.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

T=$SHARED/tokenizers
D=$TOP/tests/tok
[ -d "$T" ] || test_skip_all "no ../shared/tokenizers"
export D

for t in qwen3 llama3 deepseek-v3 gpt-oss llama2 mistral-7b o200k_base cl100k_base \
	synth-flags synth-behaviors synth-metaspace; do
	case $t in
	o200k_base | cl100k_base) S=$t ;;
	synth-*) S=$D/synth/${t#synth-}.json.zst ;;
	*) S=$T/$t ;;
	esac
	export S t
	test_expect_success "$t: corpus ids" '
		aiperf-tok --tokenizer "$S" --json <"$D/corpus.jsonl.zst" >out &&
		zstd -dc "$D/$t.ids.zst" >expect &&
		test_cmp expect out
	'
	test_expect_success "$t: decode of the corpus ids and of random ids" '
		zstd -dc "$D/$t.ids.zst" "$D/$t.rand.zst" |
			aiperf-tok --tokenizer "$S" --decode --skip-special >out &&
		zstd -dc "$D/$t.dec.zst" "$D/$t.randdec.zst" >expect &&
		test_cmp expect out
	'
done

test_done
