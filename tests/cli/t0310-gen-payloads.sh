#!/bin/sh
# aiperf-gen payloads: key order for chat, completions, embeddings,
# streaming, usage, legacy max tokens and extra inputs. The corpus is
# only "a" words, so prompt text is replaced by T whatever the tokenizer.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"

test_expect_success 'chat: messages, model, stream' '
	$G | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'chat: max_completion_tokens when --osl is given' '
	$G --osl 7 | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"max_completion_tokens\":7}" >expect &&
	test_cmp expect got
'

test_expect_success 'chat: --use-legacy-max-tokens' '
	$G --osl 7 --use-legacy-max-tokens | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"max_tokens\":7}" >expect &&
	test_cmp expect got
'

test_expect_success 'chat: streaming without and with server token counts' '
	$G --streaming | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":true}" >expect &&
	test_cmp expect got &&
	$G --streaming --use-server-token-count --osl 3 | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":true,\"max_completion_tokens\":3,\"stream_options\":{\"include_usage\":true}}" >expect &&
	test_cmp expect got
'

test_expect_success 'usage flag without streaming adds nothing' '
	$G --use-server-token-count | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'chat: batch of prompts becomes text parts' '
	$G -b 2 | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"T\"},{\"type\":\"text\",\"text\":\"T\"}]}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'completions: prompt list, max_tokens, stream_options' '
	$G --endpoint-type completions -b 2 --osl 4 --streaming --use-server-token-count >rec &&
	payload_t <rec >got &&
	echo "{\"prompt\":[\"T\",\"T\"],\"model\":\"m\",\"stream\":true,\"max_tokens\":4,\"stream_options\":{\"include_usage\":true}}" >expect &&
	test_cmp expect got &&
	grep -q "\"endpoint_type\":\"completions\",\"path\":\"/v1/completions\",\"stream\":true,\"max_tokens\":4," rec
'

test_expect_success 'embeddings: model and input, never streaming' '
	$G --endpoint-type embeddings --streaming --osl 4 >rec 2>err &&
	payload_t <rec >got &&
	echo "{\"model\":\"m\",\"input\":[\"T\"]}" >expect &&
	test_cmp expect got && grep -q "\"path\":\"/v1/embeddings\",\"stream\":false,\"payload\"" rec &&
	grep -q "does not stream" err
'

test_expect_success 'extra inputs: coercion and order' '
	$G --extra-inputs "t:true,b:False,c:none,d:NULL,e:42,f:-7,g:007,h:-0,i:1.5,j:-.25,k:1.,l:1.2.3,m:hi there,n:0,o:-01" | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false,\"t\":true,\"b\":false,\"c\":null,\"d\":null,\"e\":42,\"f\":-7,\"g\":\"007\",\"h\":0,\"i\":1.5,\"j\":-0.25,\"k\":1.0,\"l\":\"1.2.3\",\"m\":\"hi there\",\"n\":0,\"o\":\"-01\"}" >expect &&
	test_cmp expect got
'

test_expect_success 'extra inputs: JSON object, override in place, repeat' '
	$G --streaming --use-server-token-count --extra-inputs "{\"stream_options\":{\"continuous_usage_stats\":true},\"top_p\":0.50,\"n\":1e2,\"nested\":{\"x\":[1,2.0]}}" \
		--extra-inputs "model:other,top_p:0.9" | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"other\",\"stream\":true,\"stream_options\":{\"continuous_usage_stats\":true,\"include_usage\":true},\"top_p\":0.9,\"n\":100.0,\"nested\":{\"x\":[1,2.0]}}" >expect &&
	test_cmp expect got
'

test_expect_success 'record model and stream follow the final payload' '
	$G --streaming --extra-inputs "model:other,stream:false" >rec &&
	grep -q "\"phase\":\"profiling\",\"model\":\"other\",\"endpoint_type\":\"chat\",\"path\":\"/v1/chat/completions\",\"stream\":false,\"payload\"" rec
'

test_expect_success 'models: round robin and random' '
	$G -m m2,m3 --num-dataset-entries 3 --request-count 3 --inputs-json rr.json >/dev/null &&
	grep "\"model\"" rr.json | tr -d " " >got &&
	printf "%s\n" "\"model\":\"m\"," "\"model\":\"m2\"," "\"model\":\"m3\"," >expect &&
	test_cmp expect got &&
	$G -m m2 --model-selection-strategy random --num-dataset-entries 40 --inputs-json r.json >/dev/null &&
	grep -c "\"model\": \"m2\"" r.json >n && test "$(cat n)" -gt 5 && test "$(cat n)" -lt 35
'

test_expect_success 'custom endpoint path' '
	$G --endpoint /v2/chat | grep -q "\"path\":\"/v2/chat\""
'

test_expect_success 'inputs.json: orjson indent 2, no final newline' '
	$G --osl 2 --inputs-json in.json >/dev/null &&
	sed -e "s/\"[a ]*\"$/\"T\"/" in.json >got && echo >>got &&
	cat >expect <<-\EOT &&
	{
	  "data": [
	    {
	      "session_id": "session_000000",
	      "payloads": [
	        {
	          "messages": [
	            {
	              "role": "user",
	              "content": "T"
	            }
	          ],
	          "model": "m",
	          "stream": false,
	          "max_completion_tokens": 2
	        }
	      ]
	    }
	  ]
	}
	EOT
	test_cmp expect got && test "$(tail -c 1 in.json)" = "}"
'

test_done
