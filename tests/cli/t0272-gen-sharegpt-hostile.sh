#!/bin/sh
# aiperf-gen --public-dataset sharegpt on files that are not what they
# should be: "aiperf-gen: FILE: at byte N: why", exit 1, nothing written;
# the same from --print-timing-mode when the first entry shows it.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

export HF_HUB_OFFLINE=1 HF_HOME="$TMP/hfhome"
GOOD='{"conversations":[{"from":"human","value":"What is the capital of France?"},{"from":"gpt","value":"It is Paris, a city on the Seine."}]}'
N=${#GOOD}	# where things are in the files below

# fails FILE MESSAGE [options]: exit 1, nothing on stdout, stderr exactly
# "aiperf-gen: FILE: MESSAGE"
fails() {
	f=$1 m=$2
	shift 2
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset sharegpt \
		--input-file "$f" "$@" >out 2>err &&
	test_cmp /dev/null out &&
	printf "aiperf-gen: %s: %s\n" "$f" "$m" >expect &&
	test_cmp expect err
}

test_expect_success 'not an array' '
	printf "{\"conversations\": []}\n" >obj.json &&
	fails obj.json "at byte 0: not a JSON array (it starts with '\''{'\'')" &&
	printf "\n\n  \"text\"" >str.json &&
	fails str.json "at byte 4: not a JSON array (it starts with '\''\"'\'')" &&
	printf "\357\273\277[]" >bom.json &&
	fails bom.json "at byte 0: not a JSON array (it starts with byte 0xef)"
'

test_expect_success 'empty, blank, an empty array' '
	: >empty.json && fails empty.json "at byte 0: empty: not a JSON array" &&
	printf " \n\t" >blank.json && fails blank.json "at byte 3: empty: not a JSON array" &&
	printf "[ ]\n" >none.json && fails none.json "no conversations (the array is empty)"
'

test_expect_success 'wrong types: the element and the field named' '
	printf "[%s, 42]" "$GOOD" >num.json &&
	fails num.json "at byte $((N + 3)): [1]: expected an object, not a number" &&
	printf "[{\"conversations\": \"hello\"}]" >conv.json &&
	fails conv.json "at byte 1: [0].conversations: expected a list, not a string" &&
	printf "[{\"conversations\": [\"a\", \"b\"]}]" >turns.json &&
	fails turns.json "at byte 1: [0].conversations[0]: expected an object, not a string" &&
	printf "[{\"conversations\": [{\"value\": \"What is it?\"}, {\"value\": 12}]}]" >val.json &&
	fails val.json "at byte 1: [0].conversations[1].value: expected a string, not a number" &&
	printf "[{\"conversations\": [{\"from\": \"human\", \"text\": \"x\"}, {}]}]" >novalue.json &&
	fails novalue.json "at byte 1: [0].conversations[0]: no \"value\""
'

test_expect_success 'truncated: inside an entry, between entries' '
	printf "[%s, %s" "$GOOD" "$GOOD" >cut1.json &&
	fails cut1.json "at byte $((2 * N + 3)): truncated: the array is not closed after 2 elements" &&
	printf "[%s, %s" "$GOOD" "$GOOD" | head -c 200 >cut2.json &&
	fails cut2.json "at byte 200: truncated: element 1 (from byte $((N + 3))) is cut short" &&
	printf "[%s," "$GOOD" >cut3.json &&
	fails cut3.json "at byte $((N + 2)): truncated: the array is not closed after 1 elements"
'

test_expect_success 'JSON errors inside an entry, at their byte in the file' '
	printf "[%s, {\"conversations\" []}]" "$GOOD" >colon.json &&
	fails colon.json "at byte $((N + 20)): [1]: expected '\'':'\''" &&
	printf "[%s, {\"a\": \"tab\there\"}]" "$GOOD" >ctl.json &&
	fails ctl.json "at byte $((N + 13)): [1]: control character in string" &&
	printf "[%s,]" "$GOOD" >comma.json &&
	fails comma.json "at byte $((N + 2)): expected element 1, not '\'']'\''" &&
	printf "[%s] []" "$GOOD" >after.json &&
	fails after.json "at byte $((N + 3)): data after the array ('\''['\'')" &&
	printf "[%s %s]" "$GOOD" "$GOOD" >nocomma.json &&
	fails nocomma.json "at byte $((N + 2)): expected '\'','\'' or '\'']'\'' after element 0, not '\''{'\''"
'

test_expect_success 'deep nesting and a huge string do not take the process down' '
	python3 -c "print(\"[\" + \"[\" * 100000)" >deep.json &&
	fails deep.json "at byte 513: element 0 is nested deeper than 512 levels" &&
	python3 -c "print(\"[{\\\"conversations\\\": [{\\\"value\\\": \\\"\" + \"x\" * (65 << 20))" >huge.json &&
	fails huge.json "at byte 1: element 0 is larger than 67108864 bytes"
'

test_expect_success 'the first problem in file order, far into a big file' '
	python3 -c "
import json
g = json.loads(open(\"/dev/stdin\").read())
rows = [g] * 30000
rows[20000] = {\"conversations\": [g[\"conversations\"][0], {\"value\": False}]}
rows[25000] = 7
open(\"far.json\", \"w\").write(json.dumps(rows))
" <<-EOF &&
	$GOOD
	EOF
	at=$(python3 -c "
s = open(\"far.json\").read()
i, k = 1, 0
while k < 20000:
    i = s.index(\"{\\\"conversations\\\"\", i + 1); k += 1
print(i)") &&
	fails far.json "at byte $at: [20000].conversations[1].value: expected a string, not a boolean"
'

test_expect_success '--print-timing-mode reads the first entry' '
	fails conv.json "at byte 1: [0].conversations: expected a list, not a string" --print-timing-mode &&
	fails obj.json "at byte 0: not a JSON array (it starts with '\''{'\'')" --print-timing-mode &&
	fails none.json "no conversations (the array is empty)" --print-timing-mode &&
	printf "[%s, 42" "$GOOD" >later.json &&
	aiperf-gen -m m --tokenizer builtin --public-dataset sharegpt --input-file later.json \
		--print-timing-mode >mode && echo concurrency >expect && test_cmp expect mode
'

test_expect_success 'options: the other public datasets, the conflicts' '
	test_expect_code 2 aiperf-gen -m m --public-dataset speed_bench_math 2>err &&
	grep -q "^aiperf-gen: --public-dataset speed_bench_math: speed_bench_math is a custom dataset type, not a public dataset: .* give --input-file DIR --custom-dataset-type speed_bench_math$" err &&
	test_expect_code 2 aiperf-gen -m m --public-dataset nonesuch 2>err &&
	grep -q "^aiperf-gen: invalid value for --public-dataset: '\''nonesuch'\'' (sharegpt, aimo, " err &&
	test_expect_code 2 aiperf-gen -m m --public-dataset sharegpt --custom-dataset-type mooncake_trace 2>err &&
	grep -q "^aiperf-gen: The --public-dataset and --custom-dataset-type options cannot be set together$" err &&
	test_expect_code 2 aiperf-gen -m m --public-dataset sharegpt --fixed-schedule 2>err &&
	grep -q "Fixed schedule requires a file" err &&
	for o in "--prompt-prefix-pool-size 2 --prompt-prefix-length 4" "--seq-dist 10,2:100" \
		"--shared-system-prompt-length 8" "--user-context-prompt-length 8 --num-dataset-entries 2"; do
		test_expect_code 2 aiperf-gen -m m --public-dataset sharegpt $o 2>err &&
		grep -q "^aiperf-gen: --public-dataset brings its own prompts: " err || return 1
	done
'

test_expect_success 'a directory, an unreadable file' '
	mkdir dir.json &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset sharegpt \
		--input-file dir.json 2>err &&
	grep -q "^aiperf-gen: cannot open '\''dir.json'\'': Is a directory$" err
'

test_done
