#!/bin/sh
# aiperf-gen payloads of the responses, chat_embeddings, nim_embeddings,
# huggingface_generate and solido_rag endpoints, byte for byte (key order
# included) as the original builds them (spec 6.3, src/aiperf/endpoints/),
# their paths and stream flags, and --endpoint-type spellings. The corpus
# is only "a" words, so prompt text is T.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"

# the record's own fields: path, stream, max_tokens
head_of() {
	sed -e 's/.*"endpoint_type"/"endpoint_type"/' -e 's/,"payload".*//'
}

test_expect_success 'responses: input items, model, stream, max_output_tokens, extras' '
	$G --endpoint-type responses | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type responses --osl 7 --extra-inputs temperature:0.5 | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"max_output_tokens\":7,\"temperature\":0.5}" >expect &&
	test_cmp expect got
'

test_expect_success 'responses: streaming with server token counts adds stream_options' '
	$G --endpoint-type responses --streaming --use-server-token-count --osl 3 | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":true,\"max_output_tokens\":3,\"stream_options\":{\"include_usage\":true}}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type responses --streaming | head_of >got &&
	echo "\"endpoint_type\":\"responses\",\"path\":\"/v1/responses\",\"stream\":true" >expect &&
	test_cmp expect got
'

test_expect_success 'responses: a batch of prompts becomes input_text parts' '
	$G --endpoint-type responses -b 2 | payload_t >got &&
	echo "{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"T\"},{\"type\":\"input_text\",\"text\":\"T\"}]}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'chat_embeddings: the chat payload, never streamed, to /v1/embeddings' '
	$G --endpoint-type chat_embeddings --streaming 2>err | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got &&
	grep -q "chat_embeddings does not stream; ignoring --streaming" err &&
	$G --endpoint-type chat_embeddings | head_of >got &&
	echo "\"endpoint_type\":\"chat_embeddings\",\"path\":\"/v1/embeddings\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'nim_embeddings: model, input texts, extras; no max_tokens' '
	$G --endpoint-type nim_embeddings -b 2 --osl 9 --extra-inputs input_type:query | payload_t >got &&
	echo "{\"model\":\"m\",\"input\":[\"T\",\"T\"],\"input_type\":\"query\"}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type nim_embeddings --osl 9 | head_of >got &&
	echo "\"endpoint_type\":\"nim_embeddings\",\"path\":\"/v1/embeddings\",\"stream\":false" >expect &&
	test_cmp expect got
'

test_expect_success 'huggingface_generate: inputs joined, extras inside parameters' '
	$G --endpoint-type huggingface_generate -b 2 --osl 4 --extra-inputs temperature:0.5 \
		--extra-inputs max_new_tokens:8 | payload_t >got &&
	echo "{\"inputs\":\"T\",\"parameters\":{\"max_new_tokens\":8,\"temperature\":0.5}}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type huggingface_generate | payload_t >got &&
	echo "{\"inputs\":\"T\",\"parameters\":{}}" >expect &&
	test_cmp expect got
'

test_expect_success 'huggingface_generate: /generate, streaming /generate_stream' '
	$G --endpoint-type huggingface_generate --osl 4 | head_of >got &&
	echo "\"endpoint_type\":\"huggingface_generate\",\"path\":\"/generate\",\"stream\":false,\"max_tokens\":4" >expect &&
	test_cmp expect got &&
	$G --endpoint-type huggingface_generate --streaming | head_of >got &&
	echo "\"endpoint_type\":\"huggingface_generate\",\"path\":\"/generate_stream\",\"stream\":true" >expect &&
	test_cmp expect got
'

test_expect_success 'solido_rag: query, filters, inference_model, extras' '
	$G --endpoint-type solido_rag -b 2 --extra-inputs top_k:3 | payload_t >got &&
	echo "{\"query\":[\"T\",\"T\"],\"filters\":{\"family\":\"Solido\",\"tool\":\"SDE\"},\"inference_model\":\"m\",\"top_k\":3}" >expect &&
	test_cmp expect got &&
	$G --endpoint-type solido_rag --streaming | head_of >got &&
	echo "\"endpoint_type\":\"solido_rag\",\"path\":\"/rag/api/prompt\",\"stream\":true" >expect &&
	test_cmp expect got
'

test_expect_success 'the record names the model for bodies without a model key' '
	$G --endpoint-type huggingface_generate | grep -q "\"model\":\"m\",\"endpoint_type\"" &&
	$G --endpoint-type solido_rag | grep -q "\"model\":\"m\",\"endpoint_type\""
'

test_expect_success '--endpoint-type in any case, dashes for underscores' '
	$G --endpoint-type huggingface-generate | head_of | grep -q "^\"endpoint_type\":\"huggingface_generate\"" &&
	$G --endpoint-type NIM-Embeddings | head_of | grep -q "^\"endpoint_type\":\"nim_embeddings\"" &&
	$G --endpoint-type Responses | head_of | grep -q "^\"endpoint_type\":\"responses\""
'

test_expect_success 'the image endpoints are taken (t0530 has their payloads), a bogus one is not' '
	$G --endpoint-type image-generation | head_of | grep -q "^\"endpoint_type\":\"image_generation\"" &&
	test_expect_code 2 $G --endpoint-type bogus 2>err &&
	grep -q "invalid value for --endpoint-type" err
'

test_done
