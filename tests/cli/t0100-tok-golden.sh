#!/bin/sh
# aiperf-tok against the reference (HF tokenizers 0.22, js-tiktoken): the
# golden cases and the tinyshakespeare sha256 table of ../shared/tokenizers.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

T=$SHARED/tokenizers
[ -d "$T/golden" ] || test_skip_all "no ../shared/tokenizers"
export T

spec() {
	case $1 in
	o200k_base | cl100k_base) echo "$1" ;;
	*) echo "$T/$1" ;;
	esac
}

for t in qwen3 llama3 deepseek-v3 gpt-oss llama2 mistral-7b o200k_base cl100k_base; do
	S=$(spec $t)
	export S t
	test_expect_success "$t: golden cases" '
		aiperf-tok --tokenizer "$S" --json <"$T/golden/cases.jsonl" >out &&
		test_cmp "$T/golden/$t.ids.jsonl" out
	'
	want=$(grep "^| $t |" "$T/README.md" | awk -F'|' '{gsub(/ /, "", $4); print $4}')
	export want
	test_expect_success "$t: tinyshakespeare sha256" '
		aiperf-tok --tokenizer "$S" <"$SHARED/data/corpus/tinyshakespeare.txt" |
			sha256sum | cut -d" " -f1 >got &&
		echo "$want" >expect &&
		test_cmp expect got
	'
done

test_done
