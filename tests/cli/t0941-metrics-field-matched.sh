#!/bin/sh
# A template record's response_field that matches a value which is neither
# text, embeddings nor rankings says what it matched (its type and text)
# and what was expected; one that matches nothing (or null) still says it
# did not match, with the body's top-level keys.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

REC="python3 $TOP/tests/cli/endpoint-record.py"
WANT="in a 200 OK response, where a non-empty string (text), a list of numbers or of lists of numbers (embeddings) or a list of objects (rankings) was expected"

# matched BODY FIELD: the error message of a template record
matched() {
	echo "$1" | $REC template body - | jq -c --arg f "$2" '.aiperf.response_field = $f' |
		aiperf-metrics --tokenizer test:words | jq -r .error.message
}

test_expect_success 'a number: its type and value, and what was expected' '
	matched "{\"usage\":{\"n\":7}}" .usage.n >got &&
	echo "ValueError(\"response_field '"'"'.usage.n'"'"' matched a number (7) $WANT\")" >expect &&
	test_cmp expect got
'

test_expect_success 'each kind of value is named' '
	for b in false true 0 "\"\"" "[]" "{}" "{\"a\":1}" "[\"a\",\"b\"]" "[[\"x\"]]" "[true]"; do
		matched "{\"v\":$b}" .v | sed "s/^ValueError(.* matched //; s/ in a 200 OK.*//"
	done >got &&
	printf "%s\n" "a boolean (false)" "a boolean (true)" "a number (0)" "an empty string (\"\")" \
		"an empty list ([])" "an empty object ({})" "an object ({\"a\":1})" \
		"a list of strings ([\"a\",\"b\"])" "a list of lists of strings ([[\"x\"]])" \
		"a list of booleans ([true])" >expect &&
	test_cmp expect got
'

test_expect_success 'a long value is cut' '
	matched "{\"v\":{\"k\":\"$(printf "%0300d" 0)\"}}" .v >got &&
	grep -q "matched an object ({\"k\":\"0000.*\.\.\.) in a 200 OK" got &&
	test "$(wc -c <got)" -lt 400
'

test_expect_success 'null and no value: did not match, with the top-level keys' '
	matched "{\"v\":null}" .v >got &&
	matched "{\"v\":1}" .w >>got &&
	printf "%s\n" "ValueError(\"response_field '"'"'.v'"'"' did not match any value in a 200 OK response (top-level keys: ['"'"'v'"'"'])\")" \
		"ValueError(\"response_field '"'"'.w'"'"' did not match any value in a 200 OK response (top-level keys: ['"'"'v'"'"'])\")" >expect &&
	test_cmp expect got
'

test_expect_success 'a stream: a chunk that matches text makes the record valid' '
	printf "%s\n" "data: {\"v\":\"a b\"}" "data: {\"v\":3}" "data: [DONE]" >s.sse &&
	$REC template stream s.sse | jq -c ".aiperf.response_field = \".v\"" |
		aiperf-metrics --tokenizer test:words | jq -c "[.error, .metrics.output_sequence_length.value]" >got &&
	echo "[null,2]" >expect && test_cmp expect got
'

test_done
