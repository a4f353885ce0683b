#!/bin/sh
# aiperf-gen for the nim_rankings, cohere_rankings and hf_tei_rankings
# endpoints: payloads byte for byte (key order included) as the original's
# rankings endpoints build them (src/aiperf/endpoints/*rankings*.py), the
# synthetic rankings composer (a query and --rankings-passages-* passages
# per entry), named texts from single_turn, multi_turn and random_pool
# files, and the original's warnings and errors. The corpus is only "a"
# words, so prompt text is T.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --random-seed 1"
R="--rankings-passages-mean 2 --rankings-passages-prompt-token-mean 3 --rankings-query-prompt-token-mean 2"

head_of() {
	sed -e 's/.*"endpoint_type"/"endpoint_type"/' -e 's/,"payload".*//'
}

test_expect_success 'nim_rankings: model, query object, passage objects, extras after' '
	$G --request-count 1 --endpoint-type nim_rankings $R --extra-inputs truncate:END | payload_t >got &&
	echo "{\"model\":\"m\",\"query\":{\"text\":\"T\"},\"passages\":[{\"text\":\"T\"},{\"text\":\"T\"}],\"truncate\":\"END\"}" >expect &&
	test_cmp expect got &&
	$G --request-count 1 --endpoint-type nim_rankings $R | head_of >got &&
	echo "\"endpoint_type\":\"nim_rankings\",\"path\":\"/v1/ranking\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'cohere_rankings: model, query, documents; an extra overrides in place' '
	$G --request-count 1 --endpoint-type cohere-rankings $R --extra-inputs top_n:1 --extra-inputs model:other | payload_t >got &&
	echo "{\"model\":\"other\",\"query\":\"T\",\"documents\":[\"T\",\"T\"],\"top_n\":1}" >expect &&
	test_cmp expect got &&
	$G --request-count 1 --endpoint-type Cohere_Rankings $R | head_of >got &&
	echo "\"endpoint_type\":\"cohere_rankings\",\"path\":\"/v2/rerank\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'hf_tei_rankings: query and texts, no model' '
	$G --request-count 1 --endpoint-type hf-tei-rankings $R --extra-inputs return_text:true | payload_t >got &&
	echo "{\"query\":\"T\",\"texts\":[\"T\",\"T\"],\"return_text\":true}" >expect &&
	test_cmp expect got &&
	$G --request-count 1 --endpoint-type hf_tei_rankings $R | head_of >got &&
	echo "\"endpoint_type\":\"hf_tei_rankings\",\"path\":\"/rerank\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'composer: token lengths of the query and each passage, passage counts drawn' '
	$G --endpoint-type nim_rankings --num-dataset-entries 6 --request-count 6 \
		--rankings-passages-mean 3 --rankings-passages-prompt-token-mean 4 \
		--rankings-query-prompt-token-mean 5 |
		jq -c "[(.payload.query.text | split(\" \") | length - 1),
			(.payload.passages | map(.text | split(\" \") | length - 1))]" >got &&
	for k in 1 2 3 4 5 6; do echo "[5,[4,4,4]]"; done >expect &&
	test_cmp expect got &&
	$G --endpoint-type nim_rankings --num-dataset-entries 40 --request-count 40 \
		--rankings-passages-mean 4 --rankings-passages-stddev 2 \
		--rankings-passages-prompt-token-mean 2 --rankings-query-prompt-token-mean 2 |
		jq ".payload.passages | length" | sort -n | uniq >counts &&
	test "$(wc -l <counts)" -gt 2 &&
	test "$(head -1 counts)" -ge 1
'

test_expect_success 'composer: seeded runs are the same, other seeds differ' '
	SD="--endpoint-type cohere_rankings --num-dataset-entries 5 --request-count 5 --rankings-passages-mean 4 --rankings-passages-stddev 3 --rankings-passages-prompt-token-mean 2 --rankings-query-prompt-token-mean 2"
	$G $SD | jq -c ".payload.documents | length" >a &&
	$G $SD | jq -c ".payload.documents | length" >b &&
	test_cmp a b &&
	aiperf-gen -m m --tokenizer builtin --corpus "$TMP/a.txt" --random-seed 2 $SD |
		jq -c ".payload.documents | length" >c &&
	! cmp -s a c
'

test_expect_success 'composer: --osl is drawn but never sent, with the original warning' '
	$G --request-count 1 --endpoint-type nim_rankings $R --osl 5 2>err >out &&
	jq -e ".max_tokens == null and .payload.max_tokens == null" out >/dev/null &&
	grep -qx "aiperf-gen: Max_tokens is provided but is not supported for rankings." err &&
	test "$(wc -l <err)" -eq 1
'

test_expect_success '--streaming is ignored with a warning' '
	$G --request-count 1 --endpoint-type hf_tei_rankings $R --streaming 2>err | head_of >got &&
	grep -q "hf_tei_rankings does not stream; ignoring --streaming" err &&
	grep -q "\"stream\":false" got
'

test_expect_success 'the --rankings-* options still need a rankings endpoint' '
	test_expect_code 2 $G --endpoint-type chat --rankings-passages-mean 2 2>err &&
	grep -q "can only be used with rankings endpoint types" err
'

test_expect_success 'single_turn file: texts named query/queries and passages, others ignored' '
	cat >st.jsonl <<-\EOF &&
	{"texts": [{"name": "query", "contents": ["what is x?"]}, {"name": "passages", "contents": ["x is y", ""]}]}
	{"texts": [{"name": "other", "contents": ["o"]}, {"name": "queries", "contents": ["q1", "q2"]}, {"name": "passages", "contents": ["p"]}]}
	EOF
	$G --input-file st.jsonl --custom-dataset-type single_turn --request-count 2 \
		--endpoint-type cohere_rankings 2>err | sed "s/.*\"payload\"://" >got &&
	printf "%s\n" "{\"model\":\"m\",\"query\":\"what is x?\",\"documents\":[\"x is y\",\"\"]}}" \
		"{\"model\":\"m\",\"query\":\"q1\",\"documents\":[\"p\"]}}" >expect &&
	test_cmp expect got &&
	grep -qx "aiperf-gen: Ignoring text with name .other. - rankings expects .query./.queries. and .passages." err &&
	grep -qx "aiperf-gen: Multiple query texts found, using the first one. Found 2 queries." err
'

test_expect_success 'a query and no passages: sent, with the warning' '
	echo "{\"texts\": [{\"name\": \"query\", \"contents\": [\"q\"]}]}" >q.jsonl &&
	$G --input-file q.jsonl --custom-dataset-type single_turn --request-count 1 \
		--endpoint-type hf_tei_rankings 2>err | sed "s/.*\"payload\"://" >got &&
	echo "{\"query\":\"q\",\"texts\":[]}}" >expect &&
	test_cmp expect got &&
	grep -q "Rankings request has query but no passages to rank." err
'

test_expect_success 'no query: the original error, exit 1, no records' '
	echo "{\"text\": \"plain\"}" >plain.jsonl &&
	test_expect_code 1 $G --input-file plain.jsonl --custom-dataset-type single_turn \
		--request-count 1 --endpoint-type nim_rankings >out 2>err &&
	test ! -s out &&
	grep -q "Rankings request requires a text with name .query. or .queries.. Provide a Text object" err
'

test_expect_success 'multi_turn: one turn is fine, a second is the original error' '
	echo "{\"session_id\": \"s\", \"turns\": [{\"texts\": [{\"name\": \"query\", \"contents\": [\"q\"]}, {\"name\": \"passages\", \"contents\": [\"p\"]}]}]}" >m1.jsonl &&
	$G --input-file m1.jsonl --custom-dataset-type multi_turn --request-count 1 \
		--endpoint-type nim_rankings | sed "s/.*\"payload\"://" >got &&
	echo "{\"model\":\"m\",\"query\":{\"text\":\"q\"},\"passages\":[{\"text\":\"p\"}]}}" >expect &&
	test_cmp expect got &&
	echo "{\"session_id\": \"s\", \"turns\": [{\"texts\": [{\"name\": \"query\", \"contents\": [\"q\"]}]}, {\"texts\": [{\"name\": \"query\", \"contents\": [\"r\"]}]}]}" >m2.jsonl &&
	test_expect_code 1 $G --input-file m2.jsonl --custom-dataset-type multi_turn \
		--request-count 1 --endpoint-type nim_rankings >out 2>err &&
	grep -q "Rankings endpoint only supports one turn." err
'

test_expect_success 'random_pool directory: each file names its texts (queries.jsonl, passages.jsonl)' '
	mkdir pool &&
	printf "{\"text\": \"q%s\"}\n" 1 2 >pool/queries.jsonl &&
	printf "{\"text\": \"p%s\"}\n" 1 2 3 >pool/passages.jsonl &&
	$G --input-file pool --custom-dataset-type random_pool --num-sessions 4 \
		--endpoint-type hf_tei_rankings >out &&
	test "$(wc -l <out)" -eq 4 &&
	jq -se "all(.[].payload; (.query | test(\"^q[12]$\")) and (.texts | length == 1) and
		(.texts[0] | test(\"^p[123]$\")))" out >/dev/null
'

test_done
