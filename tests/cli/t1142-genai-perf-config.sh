#!/bin/sh
# genai-perf create-template and config -f: GenAI-Perf's template (the
# README's keys at GenAI-Perf's defaults; -v with the descriptions), and
# a config file mapped onto aiperf profile's options (--dry-run): keys at
# their defaults left to aiperf's, --override-config on top, bad files
# refused naming the file and the key; one config runs against aiperf-mock.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

test_expect_success 'create-template writes genai_perf_config.yaml, YAML with the README'"'"'s keys' '
	genai-perf create-template 2>err &&
	grep -q "template written to genai_perf_config.yaml" err &&
	python3 -c "import sys, yaml; c = yaml.safe_load(open(sys.argv[1])); e = c[\"endpoint\"]
assert e[\"model_selection_strategy\"] == \"round_robin\" and e[\"backend\"] == \"tensorrtllm\"
assert e[\"type\"] == \"kserve\" and e[\"streaming\"] is False and e[\"url\"] == \"localhost:8001\"
assert e[\"custom\"] is None and e[\"grpc_method\"] is None
assert c[\"input\"][\"synthetic_tokens\"][\"mean\"] == 550 and c[\"input\"][\"num_dataset_entries\"] == 100
assert c[\"perf_analyzer\"][\"stimulus\"] == {\"concurrency\": 1}" genai_perf_config.yaml &&
	! grep -q "#" genai_perf_config.yaml
'

test_expect_success 'create-template -v: the same keys, each with its description' '
	genai-perf create-template -f verbose.yaml -v 2>/dev/null &&
	grep -q "^  # An option to enable the use of the streaming API.$" verbose.yaml &&
	grep -q "^  # URL of the endpoint to target for benchmarking.$" verbose.yaml &&
	sed -e "/^ *#/d" -e "/^ *\$/d" verbose.yaml >stripped &&
	test_cmp genai_perf_config.yaml stripped
'

test_expect_success 'the template as written sets nothing: aiperf'"'"'s defaults, the model asked for' '
	genai-perf config -f genai_perf_config.yaml --dry-run >got &&
	test "$(cat got)" = "aiperf profile" &&
	genai-perf config -f genai_perf_config.yaml --override-config model_names=gpt2 \
		--warmup-request-count 100 --concurrency 32 --dry-run >got &&
	test "$(cat got)" = "aiperf profile --model gpt2 --warmup-request-count 100 --concurrency 32"
'

cat >"$TMP/c.yaml" <<'YAML'
model_names: [gpt2, gpt2-lora]
endpoint:
  model_selection_strategy: random
  service_kind: openai
  type: completions
  streaming: true
  url: localhost:8000
  custom: v1/completions
input:
  extra:
    max_tokens: 8
    ignore_eos: true
  header: ["X-A: 1", "X-B: 2"]
  synthetic_tokens: {mean: 64, stddev: 4}
  output_tokens: {mean: 8}
  goodput: request_latency:300
perf_analyzer:
  stimulus: {request_rate: 5}
  warmup_request_count: 2
  measurement: {num: 6}
output:
  artifact_directory: ./results
  generate_plots: true
tokenizer: {name: builtin}
YAML
test_expect_success 'every section maps onto aiperf'"'"'s options, --generate-plots too' '
	genai-perf config -f c.yaml --dry-run >got &&
	test "$(sed -n 1p got)" = "aiperf profile --model gpt2 --model gpt2-lora --model-selection-strategy random --endpoint-type completions --streaming --url localhost:8000 --endpoint v1/completions --extra-inputs max_tokens:8 --extra-inputs ignore_eos:true --header '"'"'X-A: 1'"'"' --header '"'"'X-B: 2'"'"' --isl 64 --isl-stddev 4 --osl 8 --goodput request_latency:300 --request-rate 5 --warmup-request-count 2 --request-count 6 --artifact-dir ./results --tokenizer builtin --auto-plot" &&
	test "$(wc -l <got)" -eq 1
'

test_expect_success '--override-config: the command line wins, flags turn off, keys set' '
	genai-perf config -f c.yaml --override-config --request-rate 9 endpoint.streaming=false \
		output.generate_plots=false --dry-run >got &&
	test "$(wc -l <got)" -eq 1 && grep -q -- " --request-rate 9 " got && ! grep -q -- "--streaming" got
'

test_expect_success 'an analyze section is a sweep' '
	printf "model_names: m\nanalyze:\n  concurrency: {start: 4, stop: 16}\n" >a.yaml &&
	genai-perf config -f a.yaml --dry-run >got &&
	test "$(cat got)" = "aiperf profile --model m --concurrency 4,8,16"
'

test_expect_success 'bad config files and command lines are refused, naming the file and the key' '
	test_expect_code 2 genai-perf config -f c.yaml --concurrency 3 2>err &&
	grep -q "the config file from the command line, --override-config must be set" err &&
	printf "endpoint:\n  colour: red\n" >bad.yaml &&
	test_expect_code 2 genai-perf config -f bad.yaml 2>err &&
	grep -q "^genai-perf: bad.yaml: unknown key '"'"'endpoint.colour'"'"'" err &&
	printf "endpoint: {backend: vllm}\n" >bad.yaml &&
	test_expect_code 2 genai-perf config -f bad.yaml 2>err &&
	grep -q "'"'"'--backend'"'"' has no counterpart" err &&
	printf "endpoint: [a\n" >bad.yaml &&
	test_expect_code 2 genai-perf config -f bad.yaml 2>err &&
	grep -q "^genai-perf: bad.yaml: line " err &&
	test_expect_code 2 genai-perf config 2>err &&
	grep -q "the config file is required" err &&
	test_expect_code 1 genai-perf config -f missing.yaml 2>err &&
	grep -q "cannot read '"'"'missing.yaml'"'"'" err &&
	test_expect_code 2 genai-perf create-template -x 2>err
'

start_mock --ttft-ms 1 --itl-ms 1
test_expect_success 'a config file runs against aiperf-mock, plots included' '
	sed -e "s|url: localhost:8000|url: $MOCK_URL|" -e "s|request_rate: 5|request_rate: 50|" c.yaml >run.yaml &&
	{ genai-perf config -f run.yaml >out 2>err || { cat err; exit 1; }; } &&
	test "$(jq .request_count.avg results/profile_export_aiperf.json)" -eq 6 &&
	test -s results/plots/report.html
'
test_done
