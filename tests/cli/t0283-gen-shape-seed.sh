#!/bin/sh
# Reproducibility of prompt shaping: with the same --random-seed, two runs
# write byte-identical request streams and inputs.json, for every shaping
# option on synthetic and trace datasets; another seed changes them. Every
# new random choice has its own child generator (dataset.prompt.prefix,
# models.sequence.distribution), so adding one option leaves the draws of
# the others alone.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

printf '%s\n' '{"input_length": 600, "hash_ids": [1, 2], "session_id": "s"}' \
	'{"input_length": 40}' '{"input_length": 512, "hash_ids": [1], "session_id": "s"}' \
	>"$TMP/mc.jsonl"

# run TAG SEED ARGS...: TAG.rec and TAG.json
run() {
	tag=$1 seed=$2
	shift 2
	aiperf-gen -m a,b --tokenizer builtin --random-seed "$seed" --request-count 40 \
		--inputs-json "$tag.json" "$@" >"$tag.rec"
}

MC="--input-file $TMP/mc.jsonl --custom-dataset-type mooncake_trace"
while IFS='|' read -r what args; do
	test_expect_success "same seed, same bytes: $what" "
		run a 7 $args && run b 7 $args && cmp a.rec b.rec && cmp a.json b.json &&
		run c 8 $args && ! cmp -s a.json c.json && test \$(wc -l <a.rec) -eq 40
	"
done <<END
prefix pool|--isl 12 --num-dataset-entries 8 --prompt-prefix-pool-size 3 --prompt-prefix-length 5 --session-turns-mean 2 --session-turns-stddev 1
system and user context|--isl 12 --num-dataset-entries 8 --shared-system-prompt-length 6 --user-context-prompt-length 4 --session-turns-mean 3
seq-dist, random models, shuffle|--num-dataset-entries 8 --seq-dist '[(8|2,4|1):50,(16,8):50]' --model-selection-strategy random
seq-dist json, batches, completions|--num-dataset-entries 8 -b 2 --endpoint-type completions --seq-dist '{"pairs":[{"isl":5,"osl":2,"prob":70},{"isl":9,"isl_stddev":2,"osl":4,"prob":30}]}'
trace with pool and seq-dist|$MC --prompt-prefix-pool-size 2 --prompt-prefix-length 3 --seq-dist '8,4:50;9,5:50'
trace with system and user context|$MC --shared-system-prompt-length 4 --user-context-prompt-length 2 --num-dataset-entries 1
END

# the isl/osl of inputs.json's first payloads, for the independence check
lens() {
	jq -c '[.data[].payloads[] | .max_completion_tokens]' "$1"
}

test_expect_success 'a prefix pool leaves lengths and max_tokens draws alone' '
	run a 5 --isl 20 --isl-stddev 6 --osl 9 --osl-stddev 3 --num-dataset-entries 10 &&
	run b 5 --isl 20 --isl-stddev 6 --osl 9 --osl-stddev 3 --num-dataset-entries 10 \
		--prompt-prefix-pool-size 4 --prompt-prefix-length 6 &&
	lens a.json >la && lens b.json >lb && test_cmp la lb &&
	! cmp -s a.json b.json
'

test_expect_success 'the system prompt is the same in every session, user contexts differ' '
	run a 3 --isl 5 --num-dataset-entries 6 --shared-system-prompt-length 6 \
		--user-context-prompt-length 4 &&
	jq -r ".data[].payloads[0].messages[0].content" a.json | sort -u >sys &&
	test $(wc -l <sys) -eq 1 &&
	jq -r ".data[].payloads[0].messages[1].content" a.json | sort -u >ctx &&
	test $(wc -l <ctx) -eq 6 &&
	jq -r ".data[].payloads[0].messages | map(.role) | join(\",\")" a.json | sort -u >roles &&
	echo system,user,user >want && test_cmp want roles
'

test_expect_success 'a later turn carries no system prompt: the history brings it' '
	run a 3 --isl 5 --num-dataset-entries 2 --shared-system-prompt-length 6 \
		--session-turns-mean 2 &&
	jq -c "select(.turn_index == 1) | [.history, (.payload.messages | length)]" a.rec | sort -u >h &&
	echo "[true,1]" >want && test_cmp want h
'

test_done
