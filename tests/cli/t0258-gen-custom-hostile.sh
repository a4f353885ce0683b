#!/bin/sh
# aiperf-gen on hostile custom dataset files: each bad record stops the
# run with "aiperf-gen: file:line: why", status 1, and nothing on stdout
# (the dataset is read whole before the first record is written).
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

# bad TYPE LINE WHY: a good first line, then LINE, fails with WHY at line 2
bad() {
	case $1 in
	single_turn|random_pool) good='{"text": "fine"}' ;;
	multi_turn) good='{"turns": [{"text": "fine"}]}' ;;
	bailian_trace) good='{"chat_id": 1, "timestamp": 1, "input_length": 3, "output_length": 1}' ;;
	esac
	printf "%s\n%s\n" "$good" "$2" >h.jsonl
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --random-seed 1 \
		--input-file h.jsonl --custom-dataset-type "$1" >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: h.jsonl:2: $3" >want &&
	test_cmp want err
}

test_expect_success 'single_turn: malformed lines and wrong types' '
	bad single_turn "{\"text\": \"a\"" "invalid JSON: at byte 12: expected '"'"','"'"' or '"'"'}'"'"'" &&
	bad single_turn "[\"text\"]" "expected a JSON object" &&
	bad single_turn "\"text\"" "expected a JSON object" &&
	bad single_turn "{}" "At least one modality must be provided" &&
	bad single_turn "{\"text\": \"\", \"texts\": []}" "At least one modality must be provided" &&
	bad single_turn "{\"text\": null, \"role\": \"user\"}" "At least one modality must be provided" &&
	bad single_turn "{\"text\": [\"a\"]}" "text: expected a string" &&
	bad single_turn "{\"texts\": \"a\"}" "texts: expected a list" &&
	bad single_turn "{\"texts\": [\"a\", {\"contents\": [\"b\"]}]}" "texts: expected a list of strings or a list of {name, contents} objects" &&
	bad single_turn "{\"texts\": [{\"contents\": [1]}]}" "texts: expected a list of strings or a list of {name, contents} objects" &&
	bad single_turn "{\"texts\": [{\"name\": 5, \"contents\": []}]}" "texts: expected a list of strings or a list of {name, contents} objects" &&
	bad single_turn "{\"text\": \"a\", \"texts\": [\"b\"]}" "text and texts cannot be set together" &&
	bad single_turn "{\"text\": \"a\", \"timestamp\": 1, \"delay\": 2}" "timestamp and delay cannot be set together" &&
	bad single_turn "{\"text\": \"a\", \"timestamp\": \"1\"}" "timestamp: expected a number" &&
	bad single_turn "{\"text\": \"a\", \"delay\": true}" "delay: expected a number" &&
	bad single_turn "{\"text\": \"a\", \"role\": 1}" "role: expected a string" &&
	bad single_turn "{\"text\": \"a\", \"session_id\": 7}" "session_id: expected a string" &&
	bad single_turn "{\"text\": \"a\", \"output_length\": 0}" "output_length: must be greater than 0" &&
	bad single_turn "{\"text\": \"a\", \"output_length\": -3}" "output_length: must be greater than 0" &&
	bad single_turn "{\"text\": \"a\", \"output_length\": 2.5}" "output_length: expected an integer" &&
	bad single_turn "{\"text\": \"a\", \"output_length\": \"9\"}" "output_length: expected an integer" &&
	bad single_turn "{\"text\": \"a\", \"type\": \"multi_turn\"}" "type: expected '"'"'single_turn'"'"'"
'

test_expect_success 'every modality field is parsed; a missing image file stops the run in every kind' '
	for m in image audio video; do
		bad single_turn "{\"$m\": \"x\", \"${m}s\": [\"y\"]}" "$m and ${m}s cannot be set together" &&
		bad single_turn "{\"text\": \"a\", \"${m}s\": 3}" "${m}s: expected a list" &&
		bad random_pool "{\"$m\": \"x\", \"${m}s\": [\"y\"]}" "$m and ${m}s cannot be set together" || return 1
	done &&
	bad single_turn "{\"text\": \"a\", \"image\": \"x\"}" "image '"'"'x'"'"': No such file or directory (not a file, nor an http(s) or data: URL)" &&
	bad single_turn "{\"images\": [{\"name\": \"n\", \"contents\": [\"x\"]}]}" "image '"'"'x'"'"': No such file or directory (not a file, nor an http(s) or data: URL)" &&
	bad random_pool "{\"image\": \"x\"}" "image '"'"'x'"'"': No such file or directory (not a file, nor an http(s) or data: URL)" &&
	bad random_pool "{\"images\": [{\"name\": \"n\", \"contents\": [\"\"]}]}" "image: expected a file path or URL"
'

test_expect_success 'image_uuids is no field of the original: ignored, and no modality' '
	bad single_turn "{\"image_uuids\": [\"u\"]}" "At least one modality must be provided" &&
	bad random_pool "{\"image_uuids\": [\"u\"]}" "At least one modality must be provided" &&
	bad multi_turn "{\"turns\": [{\"text\": \"a\"}, {\"image_uuids\": [\"x\"]}]}" "turns[1]: At least one modality must be provided" &&
	printf "%s\n" "{\"text\": \"a\", \"image_uuids\": [\"u\"]}" >u.jsonl &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file u.jsonl \
		--custom-dataset-type single_turn >out &&
	grep -q "\"content\":\"a\"" out && ! grep -q uuid out
'

test_expect_success 'multi_turn: empty and malformed turns' '
	bad multi_turn "{\"session_id\": \"a\"}" "turns: field required" &&
	bad multi_turn "{\"turns\": {}}" "turns: expected a list" &&
	bad multi_turn "{\"turns\": []}" "At least one turn must be provided" &&
	bad multi_turn "{\"turns\": [{\"text\": \"a\"}, {}]}" "turns[1]: At least one modality must be provided" &&
	bad multi_turn "{\"turns\": [\"hi\"]}" "turns[0]: expected a JSON object" &&
	bad multi_turn "{\"turns\": [{\"text\": \"a\", \"delay\": \"x\"}]}" "turns[0]: delay: expected a number" &&
	bad multi_turn "{\"turns\": [{\"text\": \"a\", \"type\": \"random_pool\"}]}" "turns[0]: type: expected '"'"'single_turn'"'"'" &&
	bad multi_turn "{\"session_id\": [1], \"turns\": [{\"text\": \"a\"}]}" "session_id: expected a string" &&
	bad multi_turn "{\"type\": \"single_turn\", \"turns\": [{\"text\": \"a\"}]}" "type: expected '"'"'multi_turn'"'"'"
'

test_expect_success 'random_pool: records and types' '
	bad random_pool "{\"texts\": [1]}" "texts: expected a list of strings or a list of {name, contents} objects" &&
	bad random_pool "{\"session_id\": \"x\"}" "At least one modality must be provided" &&
	bad random_pool "{\"type\": \"single_turn\", \"text\": \"a\"}" "type: expected '"'"'random_pool'"'"'"
'

test_expect_success 'bailian_trace: wrong types' '
	bad bailian_trace "{\"chat_id\": \"1\", \"timestamp\": 1, \"input_length\": 3, \"output_length\": 1}" "not a bailian_trace record: chat_id, input_length, output_length (integers) and timestamp (seconds) are needed" &&
	bad bailian_trace "{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": -3, \"output_length\": 1}" "input_length: must not be negative" &&
	bad bailian_trace "{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 3, \"output_length\": 1, \"hash_ids\": [\"a\"]}" "hash_ids: expected a list of integers"
'

test_expect_success 'a line over 64 MiB is refused, not buffered without bound' '
	python3 -c "
import sys
sys.stdout.write(\"{\\\"text\\\": \\\"ok\\\"}\n{\\\"text\\\": \\\"\" + \"x\" * (64 << 20) + \"\\\"}\n\")
" >big.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file big.jsonl >out 2>err &&
	test ! -s out &&
	grep -q "big.jsonl:2: line longer than 67108864 bytes" err
'

test_expect_success 'invalid UTF-8 and NUL bytes in a string are a JSON error, not a crash' '
	printf "{\"text\": \"ok\"}\n{\"text\": \"a\\000b\"}\n" >n.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file n.jsonl >out 2>err &&
	test ! -s out && grep -q "n.jsonl:2: invalid JSON" err
'

test_done
