#!/bin/sh
# Where aiperf-tok's --tokenizer comes from: shipped names beside the binary,
# local folders, the HuggingFace cache offline, and the errors.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

unset AIPERF_DATA_DIR HF_TOKEN HF_ENDPOINT HF_HUB_CACHE XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome" HF_HUB_OFFLINE=1
C=0123456789abcdef0123456789abcdef01234567

test_expect_success 'builtin is found beside the binary' '
	echo "hello world" | aiperf-tok --tokenizer builtin --count >out &&
	echo 2 >expect &&
	test_cmp expect out
'

# Ids looked up in the rank files (data/*.tiktoken.zst, "<base64> <rank>"):
# o200k_base "hello" 24912, " world" 2375, "end" 419, "of" 1440, "text" 919;
# cl100k_base "hello" 15339, " world" 1917, "endo" 8862, "ft" 728, "ext" 428;
# "<" 27, "|" 91, ">" 29 in both. <|endoftext|> in the text is plain text.
test_expect_success 'o200k_base and cl100k_base by name' '
	printf "%s\n" "hello world" "<|endoftext|>" >in &&
	aiperf-tok --tokenizer o200k_base <in >o200k &&
	aiperf-tok --tokenizer cl100k_base <in >cl100k &&
	printf "%s\n" "[24912,2375]" "[27,91,419,1440,919,91,29]" >expect &&
	test_cmp expect o200k &&
	printf "%s\n" "[15339,1917]" "[27,91,8862,728,428,91,29]" >expect &&
	test_cmp expect cl100k &&
	aiperf-tok --tokenizer cl100k_base --count <in >count &&
	printf "%s\n" 2 7 >expect &&
	test_cmp expect count
'

test_expect_success 'AIPERF_DATA_DIR points elsewhere' '
	mkdir empty &&
	! AIPERF_DATA_DIR="$TMP/empty" aiperf-tok --tokenizer builtin \
		--count </dev/null 2>err &&
	grep -q AIPERF_DATA_DIR err
'

if [ -f "$SHARED/tokenizers/llama2/tokenizer.json" ]; then
	test_expect_success 'a HuggingFace id from the cache, offline' '
		snap="$HF_HOME/hub/models--meta--llama2/snapshots/$C" &&
		mkdir -p "$snap" "$HF_HOME/hub/models--meta--llama2/refs" &&
		cp "$SHARED/tokenizers/llama2/tokenizer.json" \
			"$SHARED/tokenizers/llama2/tokenizer_config.json" "$snap" &&
		printf %s "$C" >"$HF_HOME/hub/models--meta--llama2/refs/main" &&
		echo "Hello, world!" >in &&
		aiperf-tok --tokenizer meta/llama2 --ids <in >hub &&
		aiperf-tok --tokenizer "$snap" --ids <in >local &&
		echo "[15043,29892,3186,29991]" >expect &&
		test_cmp expect hub && test_cmp expect local
	'

	test_expect_success 'a pinned commit needs no ref' '
		aiperf-tok --tokenizer meta/llama2 --tokenizer-revision "$C" \
			--ids <in >pinned &&
		test_cmp expect pinned
	'

	test_expect_success 'an unknown revision offline' '
		! aiperf-tok --tokenizer meta/llama2 --tokenizer-revision v9 \
			--ids <in 2>err &&
		grep -q "revision v9" err
	'
fi

test_expect_success 'a revision with .. is refused' '
	! aiperf-tok --tokenizer acme/x --tokenizer-revision ../x \
		--count </dev/null 2>err &&
	grep -q "invalid revision" err
'


if [ -f "$SHARED/tokenizers/qwen3/tokenizer.json.zst" ]; then
	test_expect_success 'a folder holding tokenizer.json.zst' '
		mkdir qwen &&
		cp "$SHARED/tokenizers/qwen3/tokenizer.json.zst" qwen/ &&
		echo "hello world" | aiperf-tok --tokenizer qwen --count >out &&
		echo 2 >expect &&
		test_cmp expect out
	'
fi

test_expect_success 'offline and not cached: suggests builtin' '
	! aiperf-tok --tokenizer acme/nothing --count </dev/null 2>err &&
	grep -q "HF_HUB_OFFLINE" err && grep -q -- "--tokenizer builtin" err
'

test_expect_success 'an id with .. is not a path into the cache' '
	! aiperf-tok --tokenizer "acme/../../x" --count </dev/null 2>err &&
	grep -q "not a file or folder" err
'

test_expect_success 'a folder without tokenizer.json' '
	mkdir nothing &&
	! aiperf-tok --tokenizer nothing --count </dev/null 2>err &&
	grep -q "holds no tokenizer.json" err
'

test_done
