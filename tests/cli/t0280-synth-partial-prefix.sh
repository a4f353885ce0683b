#!/bin/sh
# aiperf-trace synthesize on real mooncake traces, whose lines may have
# shared prefix blocks covering more than input_length (a partial last
# block: line 41 of conversation_trace.jsonl). The original raises
# ValueError and synthesizes nothing; we take the prefix as the whole input
# (prompt length 0), say how many lines on stderr, and --strict restores
# the original's error. Checked against tests/trace/ref.py with the same
# rule, and every synthesized line must still fit its hash-id blocks.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
REF="$TOP/tests/trace/ref.py"
DATA="$SHARED/data/mooncake"

if ! command -v python3 >/dev/null || [ ! -f "$DATA/conversation_trace.jsonl" ]; then
	test_skip_all "python3 or shared mooncake data missing"
fi

# fits B: every line with hash ids has (n-1)*B < input_length <= n*B
fits() {
	python3 -c '
import json, sys
B = int(sys.argv[1])
for n, line in enumerate(sys.stdin, 1):
    t = json.loads(line)
    ids = t.get("hash_ids") or []
    if ids and not (len(ids) - 1) * B < t["input_length"] <= len(ids) * B:
        sys.exit("line %d: %d ids, input_length %d" % (n, len(ids), t["input_length"]))
' "$1"
}

for args in "--prompt-len-multiplier 2" "--prefix-len-multiplier 1.5" \
	"--prefix-len-multiplier 0.5 --prefix-root-multiplier 3 --random-seed 9" \
	"--prefix-len-multiplier 2 --prompt-len-multiplier 0.5"; do
	test_expect_success "synthesize $args: the reference's bytes, lines that fit" "
		aiperf-trace synthesize $args '$DATA/conversation_trace.jsonl' >c.jsonl 2>err &&
		python3 '$REF' synthesize $args '$DATA/conversation_trace.jsonl' >py.jsonl &&
		test \$(wc -l <c.jsonl) -eq \$(wc -l <'$DATA/conversation_trace.jsonl') &&
		cmp c.jsonl py.jsonl && fits 512 <c.jsonl &&
		grep -q '^aiperf-trace: [0-9][0-9]* lines with shared prefix blocks longer than their input_length' err
	"
done

test_expect_success 'line 41: the prefix is its input, hash ids and length kept' '
	aiperf-trace synthesize --prompt-len-multiplier 2 "$DATA/conversation_trace.jsonl" >c.jsonl 2>/dev/null &&
	sed -n 41p c.jsonl >l41 &&
	echo "{\"timestamp\":12000,\"input_length\":1902,\"output_length\":587,\"hash_ids\":[0,975,976,977]}" >want &&
	test_cmp want l41
'

test_expect_success 'the count on stderr is the lines the reference clamps' '
	aiperf-trace synthesize --prompt-len-multiplier 2 "$DATA/conversation_trace.jsonl" >/dev/null 2>err &&
	n=$(python3 -c "
import argparse, json, sys
sys.path.insert(0, \"$TOP/tests/trace\")
import ref
a = argparse.Namespace(block_size=512, prefix_len_multiplier=1.0, prompt_len_multiplier=2.0,
                       prefix_root_multiplier=1, random_seed=0, strict=False,
                       max_isl=None, speedup_ratio=1.0)
ref.synthesize([json.loads(x) for x in open(\"$DATA/conversation_trace.jsonl\")], a)
print(a.clamped)") &&
	test "$n" -gt 0 &&
	echo "aiperf-trace: $n lines with shared prefix blocks longer than their input_length: prompt length taken as 0, the prefix as the whole input (--strict: an error, as in the original)" >want &&
	test_cmp want err
'

test_expect_success '--strict: the original error, nothing written' '
	test_expect_code 1 aiperf-trace synthesize --strict --prompt-len-multiplier 2 \
		"$DATA/conversation_trace.jsonl" >out 2>err &&
	test ! -s out &&
	echo "aiperf-trace: $DATA/conversation_trace.jsonl:41: input_len (1902) < prefix_len (2048): trace has fewer tokens than its shared prefix blocks" >want &&
	test_cmp want err
'

test_expect_success 'a synthesized real trace loads in aiperf-gen' '
	aiperf-trace synthesize --prefix-len-multiplier 1.5 "$DATA/conversation_trace.jsonl" 2>/dev/null |
		head -200 >s.jsonl &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file s.jsonl \
		--custom-dataset-type mooncake_trace --request-count 200 >rec &&
	test $(wc -l <rec) -eq 200
'

test_done
