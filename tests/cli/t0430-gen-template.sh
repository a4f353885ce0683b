#!/bin/sh
# aiperf-gen --endpoint-type template: the payload is a jq program over the
# turn's variables, given inline, as a file, or by the original's name
# (nv-embedqa); the original's Jinja2 forms {{ var }} and {{ var|tojson }}
# are translated, anything else is refused with its jq equivalent shown;
# response_field reaches the record as jq; the other extras are merged in.
# The corpus is only "a" words, so prompt text is T.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1 --endpoint-type template"

# (an empty path is T too)
head_of() {
	sed -e 's/.*"endpoint_type"/"endpoint_type"/' -e 's/,"payload".*//' -e 's/"[a ]*"/"T"/g'
}

test_expect_success 'an inline jq program over the variables, extras merged after it' '
	$G --osl 4 --extra-inputs "payload_template:{model, input: .texts, n: .max_tokens, s: .stream, r: .role, q: .query, i: .request_info.turn_index}" \
		--extra-inputs temperature:0.5 --extra-inputs n:9 | payload_t >got &&
	echo "{\"model\":\"m\",\"input\":[\"T\"],\"n\":9,\"s\":false,\"r\":null,\"q\":null,\"i\":0,\"temperature\":0.5}" >expect &&
	test_cmp expect got
'

test_expect_success 'the record: no default path, stream and max_tokens, input_text, no response_field by default' '
	$G --osl 4 --extra-inputs "payload_template:{}" | head_of >got &&
	echo "\"endpoint_type\":\"template\",\"path\":\"T\",\"stream\":false,\"max_tokens\":4,\"input_text\":\"T\"" >expect &&
	test_cmp expect got &&
	$G --extra-inputs "payload_template:{}" | jq -e ".path == \"\"" >/dev/null &&
	$G --streaming --endpoint /x --extra-inputs "payload_template:{s: .stream}" >rec &&
	payload_t <rec >got && echo "{\"s\":true}" >expect && test_cmp expect got &&
	jq -e ".path == \"/x\" and .stream == true" rec >/dev/null
'

test_expect_success 'a template file (jq), and a Jinja2 one' '
	printf "%s\n" "# a jq file" "{prompt: .text, turn: .turn.texts[0].contents}" >t.jq &&
	$G --extra-inputs payload_template:t.jq | payload_t >got &&
	echo "{\"prompt\":\"T\",\"turn\":[\"T\"]}" >expect &&
	test_cmp expect got &&
	printf "%s\n" "{" "  \"model\": {{ model|tojson }}," "  \"prompt\": {{ text|tojson }}," \
		"  \"max_new_tokens\": {{ max_tokens|tojson }}," "  \"stream\": {{ stream|lower }}" "}" >chat_template.json &&
	$G --osl 3 --extra-inputs payload_template:./chat_template.json | payload_t >got &&
	echo "{\"model\":\"m\",\"prompt\":\"T\",\"max_new_tokens\":3,\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'named texts: query, queries, passages, passage, texts_by_name as the original names them' '
	printf "%s\n" "{\"texts\":[{\"name\":\"query\",\"contents\":[\"q1\"]},{\"name\":\"passage\",\"contents\":[\"p1\",\"p2\"]},{\"name\":\"query\",\"contents\":[\"q2\"]},{\"contents\":[\"u\"]}]}" >named.jsonl &&
	aiperf-gen -m m --tokenizer builtin --endpoint-type template --input-file named.jsonl \
		--custom-dataset-type single_turn --request-count 1 \
		--extra-inputs "payload_template:{q: .query, qs: .queries, p: .passage, ps: .passages, by: .texts_by_name, t: .texts}" |
		sed -e "s/.*\"payload\"://" -e "s/}\$//" >got &&
	echo "{\"q\":\"q1\",\"qs\":[\"q1\",\"q2\"],\"p\":\"p1\",\"ps\":[\"p1\",\"p2\"],\"by\":{\"query\":[\"q1\",\"q2\"],\"passage\":[\"p1\",\"p2\"]},\"t\":[\"q1\",\"p1\",\"p2\",\"q2\",\"u\"]}" >expect &&
	test_cmp expect got
'

test_expect_success 'the named template nv-embedqa' '
	$G --extra-inputs payload_template:nv-embedqa | payload_t >got &&
	echo "{\"text\":[\"T\"]}" >expect &&
	test_cmp expect got
'

test_expect_success 'Jinja2 {{ var }} and {{ var|tojson }} translated, commas and all' '
	$G --osl 2 --extra-inputs "payload_template:
	  {\"input\": {{ texts|tojson }}, \"model\": {{ model|tojson }},
	   \"p\": \"say: {{ text }} ({{max_tokens}})\", \"n\": {{ max_tokens }} {# a comment #} }" | payload_t >got &&
	echo "{\"input\":[\"T\"],\"model\":\"m\",\"p\":\"say:  a a a a a (2)\",\"n\":2}" >expect &&
	test_cmp expect got &&
	$G --osl 2 --extra-inputs "payload_template:{\"p\": \"{{ text }} ({{max_tokens}})\"}" |
		jq -r .payload.p | sed "s/^[a ]*//" >got &&
	echo "(2)" >expect && test_cmp expect got
'

test_expect_success 'the JSON form of --extra-inputs takes them too' '
	$G --extra-inputs "{\"payload_template\": \"{\\\"t\\\": {{ texts|tojson }}}\", \"response_field\": \"data[0].embedding\", \"top_k\": 3}" >rec &&
	payload_t <rec >got &&
	echo "{\"t\":[\"T\"],\"top_k\":3}" >expect && test_cmp expect got &&
	jq -e ".response_field == \".data?[0]?.embedding?\"" rec >/dev/null
'

test_expect_success 'response_field: jq kept, JMESPath translated, "text" is auto-detection' '
	$G --extra-inputs payload_template:nv-embedqa --extra-inputs "response_field:.a, .b" |
		jq -r .response_field >got &&
	echo ".a, .b" >expect && test_cmp expect got &&
	$G --extra-inputs payload_template:nv-embedqa --extra-inputs "response_field:data[*].embedding" |
		jq -r .response_field >got &&
	echo "[.data?[]?.embedding? | select(. != null)]" >expect && test_cmp expect got &&
	$G --extra-inputs payload_template:nv-embedqa --extra-inputs response_field:text >rec &&
	jq -e "has(\"response_field\") | not" rec >/dev/null
'

# refused EXPECTED EXTRA...: with these --extra-inputs, exit 2 and a
# message holding EXPECTED (and not the secret of another extra)
refused() {
	want=$1
	shift
	for x; do
		set -- "$@" --extra-inputs "$x"
		shift
	done
	# $G is words on purpose
	# shellcheck disable=SC2086
	if test_expect_code 2 $G --extra-inputs api_key:SEKRET "$@" >out 2>err &&
		test ! -s out && grep -qF -- "$want" err && ! grep -q SEKRET err; then
		return 0
	fi
	cat err
	return 1
}

test_expect_success 'unsupported Jinja2 refused with the jq equivalent, no secrets echoed' '
	refused "write the payload template in jq, where it reads if .stream then A else B end" "payload_template:{% if stream %}{}{% endif %}" &&
	refused "[.texts[] as \$t | ...]" "payload_template:[{% for t in texts %}{{ t }}{% endfor %}]" &&
	refused "(.texts | join(\", \"))" "payload_template:{\"t\": {{ texts|join(\", \") }}}" &&
	refused "(.max_tokens * 2)" "payload_template:{\"n\": {{ max_tokens * 2 }}}" &&
	refused "unknown template variable '"'"'prompt'"'"'" "payload_template:{\"p\": {{ prompt }}}" &&
	refused "unterminated Jinja2 tag" "payload_template:{\"p\": {{ text"
'

test_expect_success 'a jq program that does not compile, a bad field, no template: usage errors' '
	refused "invalid payload template: jq: error: syntax error" "payload_template:{a: }" &&
	refused "nope/0 is not defined" "payload_template:{a: .x | nope}" &&
	refused "such as '"'"'.length(data)'"'"'" payload_template:nv-embedqa "response_field:length(data)" &&
	test_expect_code 2 $G 2>err && grep -q "needs --extra-inputs payload_template:" err &&
	test_expect_code 2 $G --extra-inputs payload_template:nv-embedqa --extra-inputs "response_field:.[" 2>err &&
	grep -q "invalid response_field" err
'

test_expect_success 'a payload that is not one object fails the run' '
	test_expect_code 1 $G --extra-inputs "payload_template:[.texts]" 2>err &&
	grep -q "gave an array on turn 0 (want one JSON object)" err &&
	test_expect_code 1 $G --extra-inputs "payload_template:{a: .texts[]}, {}" 2>err &&
	grep -q "more than one value" err &&
	test_expect_code 1 $G --extra-inputs "payload_template:empty" 2>err &&
	grep -q "gave no value" err &&
	test_expect_code 1 $G --extra-inputs "payload_template:error(\"boom\")" 2>err &&
	grep -q "payload template failed on turn 0: jq: error: boom" err
'

test_expect_success 'multi-turn sessions: turn_index per turn' '
	aiperf-gen -m m --tokenizer builtin --corpus "$TMP/a.txt" --isl 5 --random-seed 1 \
		--num-sessions 1 --session-turns-mean 3 --endpoint-type template \
		--extra-inputs "payload_template:{k: .request_info.turn_index, n: (.turns | length)}" |
		jq -c .payload >got &&
	printf "%s\n" "{\"k\":0,\"n\":1}" "{\"k\":1,\"n\":1}" "{\"k\":2,\"n\":1}" >expect &&
	test_cmp expect got
'

test_done
