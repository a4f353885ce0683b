#!/bin/sh
# Hostile replay inputs: every one stops aiperf-gen with status 1 (2 for a
# usage error) and a message naming the file (and line, or data[] entry),
# before any record is written; nothing waits on a FIFO, reads a
# directory as a file or a file past its bound; aiperf profile refuses the
# run before a request is sent.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

# bad CODE TYPE FILE MESSAGE [options]: aiperf-gen exits CODE, prints no
# record, and says MESSAGE (a fixed string) on stderr.
bad() {
	code=$1 type=$2 file=$3 msg=$4
	shift 4
	test_expect_code "$code" aiperf-gen -m m --tokenizer builtin --random-seed 1 \
		--custom-dataset-type "$type" --input-file "$file" "$@" >out 2>err ||
		return 1
	test ! -s out || return 1
	if ! grep -q -F -- "$msg" err; then
		cat err
		return 1
	fi
}

test_expect_success 'raw_payload: bad JSON, a non-object, no messages, each at file:line' '
	printf "{\"messages\":[]}\n\n{\"messages\": [1,\n" >json.jsonl &&
	bad 1 raw_payload json.jsonl "json.jsonl:3: invalid JSON: at byte 16: unexpected end of input" &&
	printf "{\"messages\":[]}\n[1]\n" >list.jsonl &&
	bad 1 raw_payload list.jsonl "list.jsonl:2: raw_payload line must be a JSON object, got list" &&
	printf "\"s\"\n" >str.jsonl &&
	bad 1 raw_payload str.jsonl "str.jsonl:1: raw_payload line must be a JSON object, got str" &&
	printf "{\"model\":\"x\"}\n" >nomsg.jsonl &&
	bad 1 raw_payload nomsg.jsonl "nomsg.jsonl:1: raw_payload line missing required '"'"'messages'"'"' array (got NoneType)" &&
	printf "{\"messages\":{}}\n" >obj.jsonl &&
	bad 1 raw_payload obj.jsonl "array (got dict)" &&
	mkdir d && cp json.jsonl d/b.jsonl && printf "{\"messages\":[]}\n" >d/a.jsonl &&
	bad 1 raw_payload d "d/b.jsonl:3: invalid JSON" &&
	mkdir e && printf "x\n" >e/notes.txt &&
	bad 1 raw_payload e "'"'"'e'"'"' has no .jsonl file with a raw_payload line" &&
	: >empty.jsonl &&
	bad 1 raw_payload empty.jsonl "'"'"'empty.jsonl'"'"' has no records"
'

test_expect_success 'inputs_json: not the layout, a bad entry, a repeated session id' '
	printf "[]" >a.json &&
	bad 1 inputs_json a.json "a.json: expected an object with a '"'"'data'"'"' list (AIPerf'"'"'s inputs.json), got list" &&
	printf "{\"data\": [{\"session_id\": \"a\", \"payloads\": [{}]}, {\"session_id\": \"b\"}]}" >b.json &&
	bad 1 inputs_json b.json "b.json: data[1]: payloads: expected a list, got NoneType" &&
	printf "{\"data\": [{\"session_id\": \"a\", \"payloads\": [{}, [1]]}]}" >c.json &&
	bad 1 inputs_json c.json "c.json: data[0]: payloads[1]: expected an object, got list" &&
	printf "{\"data\": [{\"payloads\": []}]}" >d.json &&
	bad 1 inputs_json d.json "d.json: data[0]: session_id: expected a string, got NoneType" &&
	printf "{\"data\": [{\"session_id\": \"s\", \"payloads\": [{}]}, {\"session_id\": \"s\", \"payloads\": [{}]}]}" >e.json &&
	bad 1 inputs_json e.json "e.json: data[1] duplicate session_id '"'"'s'"'"' (already declared earlier in the file); each session_id must be unique" &&
	printf "{\"data\": [" >f.json &&
	bad 1 inputs_json f.json "f.json: invalid JSON: at byte 10" &&
	printf "{\"data\": [{\"session_id\": \"s\", \"payloads\": []}]}" >g.json &&
	bad 1 inputs_json g.json "'"'"'g.json'"'"' has no records"
'

test_expect_success 'sagemaker_data_capture: missing fields, no messages, bad encodings, at file:line' '
	printf "{\"captureData\": {\"endpointInput\": {\"data\": \"{}\", \"encoding\": \"JSON\"}}, \"eventMetadata\": {\"eventId\": \"e1\"}}\n" >t.jsonl &&
	bad 1 sagemaker_data_capture t.jsonl "t.jsonl:1: Capture record e1 missing required field: '"'"'inferenceTime'"'"'" &&
	printf "\n{\"captureData\": {}, \"eventMetadata\": {\"eventId\": \"e2\", \"inferenceTime\": \"2026-04-29T00:03:18Z\"}}\n" >i.jsonl &&
	bad 1 sagemaker_data_capture i.jsonl "i.jsonl:2: Capture record e2 missing captureData.endpointInput: '"'"'endpointInput'"'"'" &&
	printf "{\"captureData\": {\"endpointInput\": {\"data\": \"{\\\\\"prompt\\\\\": \\\\\"x\\\\\"}\", \"encoding\": \"JSON\"}}, \"eventMetadata\": {\"eventId\": \"e3\", \"inferenceTime\": \"2026-04-29T00:03:18Z\"}}\n" >m.jsonl &&
	bad 1 sagemaker_data_capture m.jsonl "m.jsonl:1: Capture record e3 has no '"'"'messages'"'"' key in payload. Only OpenAI-compatible chat endpoints are supported." &&
	printf "{\"captureData\": {\"endpointInput\": {\"data\": \"%%%%\"}}, \"eventMetadata\": {\"eventId\": \"e4\", \"inferenceTime\": \"2026-04-29T00:03:18Z\"}}\n" >b.jsonl &&
	bad 1 sagemaker_data_capture b.jsonl "b.jsonl:1: Capture record e4 malformed: endpointInput data: invalid base64" &&
	printf "{\"captureData\": {\"endpointInput\": {\"data\": \"e30=\"}}, \"eventMetadata\": {\"inferenceTime\": \"yesterday\"}}\n" >y.jsonl &&
	bad 1 sagemaker_data_capture y.jsonl "y.jsonl:1: Capture record <unknown> malformed: inferenceTime: expected an ISO 8601 time" &&
	printf "{\"captureData\": \n" >j.jsonl &&
	bad 1 sagemaker_data_capture j.jsonl "j.jsonl:1: Invalid JSON in capture record" &&
	mkdir none && bad 1 sagemaker_data_capture none "No .jsonl files found in directory '"'"'none'"'"'" &&
	bad 1 sagemaker_data_capture "$TOP/tests/data/replay/capture" "needs --endpoint-type chat, not '"'"'completions'"'"'" \
		--endpoint-type completions
'

test_expect_success 'a FIFO, a directory, a missing file where a file is expected; files past their bound' '
	mkfifo fifo &&
	bad 1 raw_payload fifo "cannot open '"'"'fifo'"'"': Not a regular file" &&
	bad 1 inputs_json fifo "cannot read '"'"'fifo'"'"': Not a regular file" &&
	bad 1 sagemaker_data_capture fifo "cannot open '"'"'fifo'"'"': Not a regular file" &&
	mkdir dir &&
	bad 1 inputs_json dir "cannot read '"'"'dir'"'"': Is a directory" &&
	mkdir -p tree/x.jsonl &&
	bad 1 raw_payload tree "cannot open '"'"'tree/x.jsonl'"'"': Is a directory" &&
	bad 1 inputs_json missing.json "cannot read '"'"'missing.json'"'"': No such file or directory" &&
	truncate -s 1100M big.json &&
	bad 1 inputs_json big.json "cannot read '"'"'big.json'"'"': larger than 1073741824 bytes" &&
	truncate -s 4097M big.jsonl &&
	bad 1 raw_payload big.jsonl "cannot read '"'"'big.jsonl'"'"': larger than 4294967296 bytes" &&
	rm -f big.json big.jsonl
'

test_expect_success 'no timestamps for --fixed-schedule: a usage error' '
	printf "{\"messages\":[]}\n" >p.jsonl &&
	bad 2 raw_payload p.jsonl "--fixed-schedule needs timestamps: a raw_payload dataset has none" \
		--fixed-schedule &&
	printf "{\"data\": [{\"session_id\": \"s\", \"payloads\": [{}]}]}" >s.json &&
	bad 2 inputs_json s.json "a inputs_json dataset has none" --fixed-schedule
'

start_mock --verbose
test_expect_success 'aiperf profile stops before any request' '
	printf "{\"messages\":[]}\n[1]\n" >list.jsonl &&
	test_expect_code 1 aiperf profile --model m --url "$MOCK_URL" --tokenizer builtin \
		--custom-dataset-type raw_payload --input-file list.jsonl --no-server-metrics \
		--artifact-dir art >out 2>err &&
	grep -q -F "list.jsonl:2: raw_payload line must be a JSON object, got list" err &&
	test ! -s art/profile_export.jsonl &&
	! grep -q "POST" "$TMP/.mock.err"
'

test_done
