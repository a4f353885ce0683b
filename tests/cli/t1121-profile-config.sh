#!/bin/sh
# aiperf profile --config FILE: one run from the file, the command line
# over it (defaults < file < command line), a sweep and a multi-run from
# the file, through the wrapper as users run it, against aiperf-mock.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1 --output-tokens 4 || exit 1
export MOCK_URL

# conf NAME: NAME.yaml, the common base with stdin after it
conf() {
	{
		cat <<-EOF
		schemaVersion: "2.0"
		benchmark:
		  model: m
		  endpoint: {url: "\${MOCK_URL}", streaming: true}
		  tokenizer: builtin
		  dataset: {type: synthetic, entries: 20, prompts: {isl: 16, osl: 4}}
		  gpu_telemetry: false
		  server_metrics: false
		  runtime: {ui: none}
		EOF
		cat
	} >"$1.yaml"
}

test_expect_success 'one run from the file: its options, its artifact directory' '
	conf one <<-EOF &&
	  phases: {type: concurrency, concurrency: 2, requests: 12}
	  artifacts: {dir: ./art1}
	EOF
	aiperf profile --config one.yaml >out 2>err &&
	jq -e ".input_config.loadgen.concurrency == 2 and .input_config.loadgen.request_count == 12 and
		.request_count.avg == 12" art1/profile_export_aiperf.json >/dev/null &&
	test "$(wc -l <art1/profile_export.jsonl)" = 12
'

test_expect_success 'the command line wins over the file; -f is --config' '
	aiperf profile -f one.yaml --request-count 5 --artifact-dir art2 >out 2>err &&
	test "$(wc -l <art2/profile_export.jsonl)" = 5 &&
	test ! -e art1/profile_export.jsonl.new &&
	jq -e ".input_config.loadgen.request_count == 5" art2/profile_export_aiperf.json >/dev/null
'

test_expect_success 'a grid sweep from the file: a run a variation, the sweep aggregate' '
	conf grid <<-EOF &&
	  phases: {type: concurrency, concurrency: 1, requests: 8}
	  artifacts: {dir: ./sw}
	sweep:
	  type: grid
	  parameters:
	    concurrency: [1, 3]
	EOF
	aiperf profile --config grid.yaml >out 2>err &&
	jq -e ".input_config.loadgen.concurrency == 1" sw/concurrency_1/profile_export_aiperf.json >/dev/null &&
	jq -e ".input_config.loadgen.concurrency == 3" sw/concurrency_3/profile_export_aiperf.json >/dev/null &&
	jq -e ".type == \"grid\" and .parameters[0].path == \"phases.profiling.concurrency\" and
		.parameters[0].values == [1, 3] and [.variations[].dir_name] == [\"concurrency_1\", \"concurrency_3\"]" \
		sw/sweep_plan.json >/dev/null &&
	test -s sw/sweep_aggregate/profile_export_aiperf_sweep.json &&
	grep -q "^cell 2/2 concurrency_3: ok" out
'

test_expect_success 'the sweep run again: its log made anew, not appended to' '
	aiperf profile --config grid.yaml >out 2>err &&
	test "$(grep -c "sweep of 2 runs" sw/logs/aiperf.log)" -eq 1 &&
	test "$(grep -c "concurrency_3: ok" sw/logs/aiperf.log)" -eq 1
'

test_expect_success 'scenarios from the file: folders by name, each its merged options' '
	conf scen <<-EOF &&
	  phases: {type: concurrency, concurrency: 1, requests: 6}
	  artifacts: {dir: ./sc}
	sweep:
	  type: scenarios
	  runs:
	    - {name: small, benchmark: {dataset: {prompts: {isl: 8}}}}
	    - {name: big, benchmark: {dataset: {prompts: {isl: 32}}, phases: [{name: profiling, concurrency: 2}]}}
	EOF
	aiperf profile --config scen.yaml >out 2>err &&
	jq -e ".input_config.input.prompt.input_tokens.mean == 8" sc/small/profile_export_aiperf.json >/dev/null &&
	jq -e ".input_config.input.prompt.input_tokens.mean == 32 and .input_config.loadgen.concurrency == 2" \
		sc/big/profile_export_aiperf.json >/dev/null &&
	jq -e ".type == \"scenarios\"" sc/sweep_plan.json >/dev/null
'

test_expect_success 'multi_run from the file: the trials and their aggregate' '
	conf mr <<-EOF &&
	  phases: {type: concurrency, concurrency: 1, requests: 4}
	  artifacts: {dir: ./mr}
	multi_run: {num_runs: 2, cooldown_seconds: 0}
	EOF
	aiperf profile --config mr.yaml >out 2>err &&
	test -s mr/profile_runs/run_0001/profile_export_aiperf.json &&
	test -s mr/profile_runs/run_0002/profile_export_aiperf.json &&
	test -s mr/aggregate/profile_export_aiperf_aggregate.json
'

test_expect_success 'an option the sweep varies, on the command line too: a usage error, nothing run' '
	test_expect_code 2 aiperf profile --config grid.yaml --concurrency 5 --artifact-dir nope >out 2>err &&
	grep -q "concurrency on the command line, and the config file.s sweep varies it" err &&
	test ! -e nope
'

test_expect_success 'a broken file: exit 1 with the file, line and field, nothing run' '
	conf bad <<-EOF &&
	  phases: {type: concurrency, concurency: 1, requests: 4}
	  artifacts: {dir: ./bad}
	EOF
	test_expect_code 1 aiperf profile --config bad.yaml >out 2>err &&
	grep -q "^aiperf profile: bad.yaml:[0-9]*: benchmark.phases.profiling: unknown field .concurency. (did you mean .concurrency.?)" err &&
	test ! -e bad &&
	test_expect_code 1 aiperf profile --config nope.yaml 2>err &&
	grep -q "Configuration file not found: nope.yaml" err &&
	test_expect_code 2 aiperf profile --config 2>err
'

test_done
