#!/bin/sh
# aiperf config: init's templates, validate's verdicts and exit statuses,
# expand's variations (grid, zip, scenarios, sobol, latin_hypercube,
# implicit lists), ${VAR} and {{ }} values, and ten broken files refused
# with the field named (the original's messages where it has them).
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

T=$TOP/data/config-templates

# body NAME: a file NAME.yaml of a config whose benchmark is the common
# base, with stdin appended (indented as written)
base() {
	cat <<-EOF
	schemaVersion: "2.0"
	benchmark:
	  model: m
	  endpoint: {url: "http://127.0.0.1:9"}
	  dataset: {type: synthetic, entries: 10, prompts: {isl: 64, osl: 8}}
	  phases: {type: concurrency, concurrency: 4, requests: 20}
	EOF
}

test_expect_success 'every bundled template is valid' '
	for t in "$T"/*.yaml; do
		aiperf config validate "$t" >out 2>err || { cat err; exit 1; }
		test "$(cat out)" = "Configuration valid: $t" && test ! -s err || exit 1
	done
'

test_expect_success 'init --list groups the templates; --search filters; --template prints one' '
	aiperf config init --list >out &&
	grep -q "^Sweep & Multi-Run$" out && grep -q "^  concurrency_sweep  *A grid sweep" out &&
	aiperf config init --search zip >out &&
	grep -q isl_osl_zip out && ! grep -q minimal out &&
	aiperf config init --template minimal >out &&
	! grep -q SPDX out && grep -q "^schemaVersion: \"2.0\"" out
'

test_expect_success 'init --model --url --output: the file written, its model and URL replaced, valid' '
	aiperf config init --template latency_test --model my/model --url http://10.0.0.1:8000 \
		--output sub/dir/b.yaml >out &&
	test "$(cat out)" = "Wrote latency_test template to sub/dir/b.yaml" &&
	grep -q "^  model: \"my/model\"" sub/dir/b.yaml &&
	grep -q "^    url: \"http://10.0.0.1:8000\"" sub/dir/b.yaml &&
	aiperf config expand sub/dir/b.yaml --full | grep -q -- "--model my/model"
'

test_expect_success 'init: no template named, an unknown one' '
	test_expect_code 2 aiperf config init 2>err &&
	grep -q "Specify a template with --template" err &&
	test_expect_code 1 aiperf config init --template nope 2>err &&
	grep -q "Unknown template: nope. Available: " err
'

test_expect_success 'expand a grid: the original text, paths sorted, the last varying fastest' '
	{ base; cat <<-EOF
	sweep:
	  type: grid
	  parameters:
	    rate: [10, 20]
	    datasets.default.prompts.isl: [128, 512]
	EOF
	} >g.yaml &&
	sed -i "s/type: concurrency, concurrency: 4/type: poisson, rate: 1, concurrency: 4/" g.yaml &&
	aiperf config expand g.yaml >out &&
	cat >want <<-EOF &&
	Sweep type: GridSweep (4 variations)

	[0] dir=isl_128__rate_10  label=datasets.default.prompts.isl=128, phases.profiling.rate=10
	[1] dir=isl_128__rate_20  label=datasets.default.prompts.isl=128, phases.profiling.rate=20
	[2] dir=isl_512__rate_10  label=datasets.default.prompts.isl=512, phases.profiling.rate=10
	[3] dir=isl_512__rate_20  label=datasets.default.prompts.isl=512, phases.profiling.rate=20
	EOF
	test_cmp want out &&
	aiperf config expand g.yaml --index 3 >out &&
	grep -q "^Sweep type: GridSweep (showing 1 of 4)" out &&
	grep -q "^        isl: 512$" out &&
	grep -q "^    # aiperf profile .*--isl 512 .*--request-rate 20 .*--arrival-pattern poisson" out
'

test_expect_success 'expand --format json and yaml: the original payload, options with --full' '
	aiperf config expand g.yaml --format json --full >out.json &&
	jq -e ".sweep_type == \"GridSweep\" and (.variations | length) == 4 and
		.variations[1].values == {\"datasets.default.prompts.isl\": 128, \"phases.profiling.rate\": 20} and
		.variations[1].dir_name == \"isl_128__rate_20\" and
		.variations[1].benchmark.phases[0].rate == 20 and
		(.variations[1].options | index(\"--request-rate\")) != null" out.json >/dev/null &&
	aiperf config expand g.yaml --format yaml >out.yaml &&
	grep -q "^sweep_type: GridSweep$" out.yaml && grep -q "^  dir_name: isl_512__rate_20$" out.yaml
'

test_expect_success 'zip in lockstep; unequal lengths refused' '
	aiperf config expand "$T/isl_osl_zip.yaml" >out &&
	grep -q "^\[2\] dir=isl_4096__osl_64  label=datasets.default.prompts.isl=4096, datasets.default.prompts.osl=64$" out &&
	{ base; printf "sweep:\n  type: zip\n  parameters:\n    concurrency: [1, 2]\n    requests: [5]\n"; } >z.yaml &&
	test_expect_code 1 aiperf config validate z.yaml 2>err &&
	grep -q "zip sweep parameters must all have equal length" err
'

test_expect_success 'scenarios: named, deep-merged (phases by name), values given or the override' '
	aiperf config expand "$T/scenarios.yaml" --format json --full >out.json &&
	jq -e "[.variations[].dir_name] == [\"chat-short\", \"summarize\"] and
		.variations[1].benchmark.phases[0].concurrency == 8 and
		.variations[1].benchmark.phases[0].requests == 300 and
		.variations[1].benchmark.datasets[0].prompts.isl == 4096 and
		.variations[0].benchmark.phases[0].concurrency == 16 and
		.variations[0].values.benchmark.dataset.prompts.isl == 256" out.json >/dev/null
'

test_expect_success 'sobol and latin_hypercube: in range, the same points for a seed, others for another' '
	aiperf config expand "$T/sobol_search.yaml" --format json >a.json &&
	aiperf config expand "$T/sobol_search.yaml" --format json >b.json &&
	cmp a.json b.json &&
	jq -e "(.variations | length) == 8 and .variations[0].label == \"sobol_0000\" and
		all(.variations[].values; .\"phases.profiling.concurrency\" >= 1 and
			.\"phases.profiling.concurrency\" <= 64 and
			(.\"phases.profiling.concurrency\" | floor) == .\"phases.profiling.concurrency\")" a.json >/dev/null &&
	sed "s/seed: 42/seed: 7/" "$T/sobol_search.yaml" >s7.yaml &&
	aiperf config expand s7.yaml --format json >c.json && ! cmp -s a.json c.json &&
	sed "s/type: sobol .*/type: latin_hypercube/; s/label_format.*//" "$T/sobol_search.yaml" |
		sed "s/  seed: 42/  seed: 42\n  label_format: kv/" >l.yaml &&
	aiperf config expand l.yaml >out &&
	grep -q "^Sweep type: LatinHypercubeSweep (8 variations)" out &&
	grep -q "label=phases.profiling.concurrency=[0-9]*, datasets.default.prompts.isl=[0-9]*$" out
'

test_expect_success 'a list at a phase field with no sweep: the original implicit grid' '
	base | sed "s/concurrency: 4,/concurrency: [2, 4],/" >m.yaml &&
	aiperf config expand m.yaml >out &&
	grep -q "^Sweep type: GridSweep (2 variations)" out &&
	grep -q "^\[1\] dir=concurrency_4  label=phases.profiling.concurrency=4$" out
'

test_expect_success 'no sweep: one variation, base' '
	base >one.yaml &&
	aiperf config expand one.yaml >out &&
	printf "Sweep type: none (1 variation)\n\n[0] dir=base  label=base\n" >want &&
	test_cmp want out
'

test_expect_success '${VAR}, ${VAR:default}, variables and {{ }}: values typed as the original types them' '
	aiperf config expand "$T/variables.yaml" --full --format json >out.json &&
	jq -e ".variations[0].benchmark as \$b |
		\$b.datasets[0].entries == 160 and \$b.datasets[0].prompts.isl.stddev == 51 and
		\$b.phases[0].concurrency == 8 and \$b.phases[1].concurrency == 64 and
		\$b.endpoint.timeout == 600.0 and \$b.models.items[0].name == \"meta-llama/Llama-3.1-8B-Instruct\"" out.json >/dev/null &&
	MODEL_NAME=x/y TIMEOUT=30 aiperf config expand "$T/variables.yaml" --full --format json >out.json &&
	jq -e ".variations[0] | .benchmark.endpoint.timeout == 30 and
		(.options | index(\"--request-timeout-seconds\")) as \$i | .options[\$i + 1] == \"30\"" out.json >/dev/null &&
	MODEL_NAME=x/y aiperf config expand "$T/variables.yaml" --full | grep -q -- "--model x/y"
'

test_expect_success 'a swept variable: every expression using it follows' '
	cat >v.yaml <<-EOF &&
	schemaVersion: "2.0"
	variables: {c: 2}
	benchmark:
	  model: m
	  endpoint: {url: "http://127.0.0.1:9"}
	  phases: {type: concurrency, concurrency: "{{ c }}", requests: "{{ c * 10 }}"}
	sweep: {type: grid, parameters: {variables.c: [1, 3]}}
	EOF
	aiperf config expand v.yaml --full >out &&
	grep -q "^\[1\] dir=c_3  label=variables.c=3" out &&
	grep -q -- "--concurrency 3 --request-count 30" out
'

test_expect_success 'camelCase names are the same fields' '
	cat >c.yaml <<-EOF &&
	schemaVersion: "2.0"
	multiRun: {numRuns: 3, cooldownSeconds: 15.0}
	benchmark:
	  model: m
	  endpoint: {url: "http://127.0.0.1:9", useServerTokenCount: true}
	  phases: {type: concurrency, concurrency: 2, requests: 4, gracePeriod: 5}
	EOF
	aiperf config expand c.yaml --full >out &&
	grep -q -- "--use-server-token-count" out && grep -q -- "--benchmark-grace-period 5" out &&
	grep -q "^      grace_period: 5$" out
'

# broken NAME MESSAGE: NAME.yaml is refused with MESSAGE, exit 1
broken() {
	test_expect_code 1 aiperf config validate "$1.yaml" >out 2>err &&
	test ! -s out &&
	grep -q "^Error: " err &&
	if ! grep -qF -- "$2" err; then cat err; return 1; fi
}

test_expect_success 'ten broken files: each refused with what is wrong and where' '
	{ base; echo "sweeps: {type: grid}"; } >b1.yaml &&
	broken b1 "Unknown top-level envelope key(s): '\''sweeps'\'' (did you mean '\''sweep'\''?). Known keys: ['\''benchmark'\'', '\''multiRun'\'', '\''multi_run'\''" &&
	base | sed "s/concurrency: 4,/concurency: 4,/" >b2.yaml &&
	broken b2 "b2.yaml:6: benchmark.phases.profiling: unknown field '\''concurency'\'' (did you mean '\''concurrency'\''?)" &&
	{ base; printf "sweep:\n  type: grid\n  parameters:\n    phases.profiling.concurency: [1, 2]\n"; } >b3.yaml &&
	broken b3 "benchmark.phases.profiling: unknown field '\''concurency'\''" &&
	base | sed "s|\"http://127.0.0.1:9\"|\"\${CFG_NO_SUCH_URL}\"|" >b4.yaml &&
	broken b4 "Required environment variable '\''CFG_NO_SUCH_URL'\'' is not set" &&
	base | sed "s/entries: 10/entries: \"{{ nope * 2 }}\"/" >b5.yaml &&
	broken b5 "benchmark.datasets.default.entries: undefined variable '\''nope'\''" &&
	base | sed "s/requests: 20/requests: many/" >b6.yaml &&
	broken b6 "benchmark.phases.profiling.requests: an integer, not a string" &&
	base | sed "s/type: concurrency,/type: burst,/" >b7.yaml &&
	broken b7 "'\''burst'\'' is not a phase type" &&
	{ base; echo "  otel: {metrics_url: http://x}"; } >b8.yaml &&
	broken b8 "benchmark.otel: not supported by this implementation (no OpenTelemetry export here)" &&
	{ base; printf "sweep:\n  type: grid\n  parameters:\n    benchmark.phases.profiling.rate: [1]\n"; } >b9.yaml &&
	broken b9 "must not include the redundant '\''benchmark.'\'' prefix" &&
	printf "a: 1\na: 2\n" >b10.yaml &&
	broken b10 "b10.yaml:2:1: duplicate key '\''a'\''"
'

test_expect_success 'more refusals: a bad choice, two profiling phases, a sweep of a missing entry, no benchmark' '
	base | sed "s|endpoint: {url: \"http://127.0.0.1:9\"}|endpoint: {url: \"http://127.0.0.1:9\", type: nope}|" >c1.yaml &&
	broken c1 "benchmark.endpoint.type: '\''nope'\'' is not one of --endpoint-type'\''s choices" &&
	cat >c2.yaml <<-EOF &&
	benchmark:
	  model: m
	  endpoint: {url: "http://127.0.0.1:9"}
	  phases:
	    - {name: a, type: concurrency, concurrency: 1, requests: 2}
	    - {name: b, type: concurrency, concurrency: 1, requests: 2}
	EOF
	broken c2 "one profiling phase is run here" &&
	{ base; printf "sweep: {type: grid, parameters: {phases.nope.rate: [1]}}\n"; } >c3.yaml &&
	broken c3 "sweep path '\''phases.nope.rate'\'': no entry named '\''nope'\'' found (existing: ['\''profiling'\''])" &&
	echo "schemaVersion: \"2.0\"" >c4.yaml &&
	broken c4 "no '\''benchmark:'\'' block" &&
	base | sed "s/schemaVersion: \"2.0\"/schemaVersion: \"1.0\"/" >c5.yaml &&
	broken c5 "schemaVersion: '\''1.0'\'' is not a version read here" &&
	{ base; echo "sweep: {type: adaptive_search}"; } >c6.yaml &&
	broken c6 "adaptive_search (Bayesian optimization) is not run here"
'

test_expect_success 'not a file, a missing file, usage errors' '
	test_expect_code 1 aiperf config validate /nonexistent.yaml 2>err &&
	grep -q "^Error: Configuration file not found: /nonexistent.yaml" err &&
	test_expect_code 1 aiperf config validate . 2>err &&
	test_expect_code 2 aiperf config validate 2>err &&
	test_expect_code 2 aiperf config expand one.yaml --format xml 2>err &&
	test_expect_code 1 aiperf config expand one.yaml --index 3 2>err &&
	grep -q "^Error: --index 3 out of range; sweep has 1 variation(s)." err &&
	test_expect_code 2 aiperf config nope 2>err
'

test_expect_success 'warnings: valid, counted, on stderr' '
	sed "s/samples: 8/samples: 6/" "$T/sobol_search.yaml" >w.yaml &&
	aiperf config validate w.yaml >out 2>err &&
	test "$(cat out)" = "Configuration valid with 1 warning: w.yaml" &&
	grep -q "^Warning: Sobol balance is best at powers of 2" err
'

test_done
