#!/bin/sh
# run.sh: long
# Prompt shaping, exactly: the chat payloads of inputs.json equal those the
# independent reference (tests/cli/gen-prompt-ref.py: Python's random
# module, the original's algorithms from its source, the js-tiktoken
# oracle for the corpus and decoding) rebuilds from the same arguments:
# synthetic prompts, prefix pools, the shared system prompt and per-session
# user context, --seq-dist pairs, and mooncake hash-id blocks behind a
# prefix pool's corpus draws.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
REF="$TOP/tests/cli/gen-prompt-ref.py"
PY=/usr/bin/python3

if ! "$PY" -c 'import numpy' 2>/dev/null || ! command -v node >/dev/null ||
	! node -e "require('${TOK_ORACLE_MODULES:-/tmp/tok-oracle}/node_modules/js-tiktoken')" 2>/dev/null; then
	test_skip_all "no /usr/bin/python3 with numpy, or no node with the tokenizer oracle"
fi

# same ARGS...: aiperf-gen's inputs.json against the reference
same() {
	aiperf-gen -m m --tokenizer builtin --request-count 1 --inputs-json in.json "$@" >/dev/null &&
	"$PY" "$REF" in.json "$@"
}

cat >"$TMP/mc.jsonl" <<\END
{"input_length": 1000, "hash_ids": [1, 2], "output_length": 5}
{"input_length": 700, "hash_ids": [1, 3], "session_id": "a"}
{"input_length": 30}
{"input_length": 1024, "hash_ids": [1, 2], "session_id": "a"}
{"input_length": 512, "hash_ids": [3]}
END

MC="--input-file $TMP/mc.jsonl --custom-dataset-type mooncake_trace"
while IFS='|' read -r what args; do
	test_expect_success "$what" "same $args"
done <<END
synthetic prompts with a length stddev|--random-seed 3 --isl 20 --isl-stddev 5 --num-dataset-entries 20
a prefix pool, batches, later turns, max_tokens|--random-seed 3 --isl 20 --num-dataset-entries 10 --prompt-prefix-pool-size 3 --prompt-prefix-length 7 --session-turns-mean 2 -b 2 --osl 9 --osl-stddev 2
a pool of empty prompts still draws|--random-seed 6 --isl 5 --num-dataset-entries 5 --num-prefix-prompts 4 --prefix-prompt-length 0
system prompt and user context over multi-turn sessions|--random-seed 4 --num-dataset-entries 12 --shared-system-prompt-length 9 --user-context-prompt-length 6 --session-turns-mean 2 --session-turns-stddev 1 --isl 11
user context alone|--random-seed 7 --num-dataset-entries 6 --user-context-prompt-length 13 --isl 3
--seq-dist pairs with stddevs|--random-seed 5 --num-dataset-entries 40 --seq-dist '8,4:30;16|3,8|2:50;40,20:20'
--seq-dist over batches, --isl-stddev and --osl ignored|--random-seed 2 --num-dataset-entries 10 -b 3 --isl-stddev 9 --osl 100 --seq-dist '12,6:60;5|1,3:40'
mooncake hash ids behind a prefix pool|--random-seed 8 $MC --prompt-prefix-pool-size 2 --prompt-prefix-length 5
mooncake with system and user context|--random-seed 8 $MC --shared-system-prompt-length 7 --user-context-prompt-length 3 --num-dataset-entries 4
mooncake with --seq-dist max_tokens|--random-seed 9 $MC --seq-dist '8,4:50;9|2,5|3:50'
END

test_expect_success 'the reference tells a wrong stream: another seed differs' '
	aiperf-gen -m m --tokenizer builtin --request-count 1 --inputs-json in.json \
		--random-seed 3 --isl 20 --num-dataset-entries 4 --prompt-prefix-pool-size 3 \
		--prompt-prefix-length 7 >/dev/null &&
	test_expect_code 1 "$PY" "$REF" in.json --random-seed 4 --isl 20 --num-dataset-entries 4 \
		--prompt-prefix-pool-size 3 --prompt-prefix-length 7 >/dev/null
'

test_done
