#!/bin/sh
# Every `genai-perf` example command of GenAI-Perf's README runs here
# against aiperf-mock, unchanged but for the URL, small counts and a
# builtin tokenizer (tests/cli/genai-perf-examples.py), and writes sound
# artifacts; an example that uses a Triton backend is refused with the
# option's name and what to use instead, and then runs as that message
# advises (--service-kind openai --endpoint-type chat).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

README=$SHARED/reference/original/genai-perf-readme.md
[ -f "$README" ] || test_skip_all "no $README"
start_mock --ttft-ms 2 --itl-ms 1

# The files the examples name: config.yaml (the README's <config_file>),
# genai_perf_config.yaml (create-template's, model and server filled in),
# payload.jsonl (a mooncake trace: payload:FILE).
fixtures() {
	cat >config.yaml <<YAML
model_names: gpt2
endpoint:
  service_kind: openai
  type: chat
  streaming: true
  url: $MOCK_URL
perf_analyzer:
  measurement:
    num: 4
tokenizer:
  name: builtin
YAML
	genai-perf create-template -f template.yaml 2>/dev/null &&
	sed -e 's|^model_names:$|model_names: gpt2|' -e "s|url: localhost:8001|url: $MOCK_URL|" \
		-e 's|name: ""|name: builtin|' -e 's|type: kserve|type: chat|' \
		-e 's|service_kind: triton|service_kind: openai|' -e 's|^    num: 10$|    num: 4|' \
		template.yaml >genai_perf_config.yaml &&
	for i in 0 1 2 3; do
		printf '{"timestamp": %d, "input_length": 64, "output_length": 4, "hash_ids": [%d]}\n' \
			$((i * 50)) "$i"
	done >payload.jsonl
}

# check_run DIR: DIR holds one artifact directory, its summary counting
# requests and no errors.
check_run() {
	j=$(find "$1" -name profile_export_aiperf.json) &&
	test "$(printf '%s\n' "$j" | wc -l)" -eq 1 &&
	test "$(jq .request_count.avg "$j")" -gt 0 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test -s "$(dirname "$j")/profile_export_aiperf.csv"
}

python3 "$TOP/tests/cli/genai-perf-examples.py" "$README" "$MOCK_URL" >"$TMP/examples"

test_expect_success 'the README holds the examples this test knows' '
	test "$(wc -l <examples)" -ge 7 &&
	test "$(grep -c "^run	" examples)" -ge 3 &&
	grep -q "^refused:--backend	genai-perf profile -m gpt2 --backend tensorrtllm --streaming --concurrency 1 --generate-plots" examples &&
	grep -q "^template	genai-perf create-template$" examples &&
	grep -q -- "--override-config --warmup-request-count 2 --concurrency 2" examples
'

n=0
while IFS='	' read -r kind cmd; do
	n=$((n + 1))
	test_expect_success "example $n ($kind): $cmd" '
		mkdir e'$n' && cd e'$n' && fixtures && rm -f template.yaml &&
		st=0 && eval "$cmd" >out 2>err </dev/null || st=$?
		case $kind in
		help) test $st -eq 0 && grep -q "^usage: genai-perf profile" out ;;
		template) test $st -eq 0 && test -s genai_perf_config.yaml &&
			grep -q "^endpoint:" genai_perf_config.yaml && ! grep -q "#" genai_perf_config.yaml ;;
		run) test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_run . ;;
		refused:*) test $st -eq 2 && grep -q -- "'"'"'${kind#refused:}'"'"' has no counterpart" err &&
			grep -q -- "--service-kind openai" err && test ! -e artifacts ;;
		esac
	'
	case $kind in refused:--backend)
		# as the refusal advises
		cmd=$(printf '%s\n' "$cmd" | sed 's/--backend tensorrtllm/--service-kind openai --endpoint-type chat/')
		test_expect_success "example $n, as advised: $cmd" '
			mkdir e'$n'a && cd e'$n'a &&
			st=0 && eval "$cmd --request-count 4" >out 2>err </dev/null || st=$?
			test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_run . &&
			case $cmd in *--generate-plots*)
				test -s artifacts/gpt2-openai-chat-concurrency1/plots/report.html ;;
			esac
		' ;;
	esac
done <"$TMP/examples"

test_expect_success 'the payload example replays the trace (a mooncake file on its timestamps)' '
	cd e7 && grep -q "timing mode: fixed_schedule$" artifacts/*/logs/aiperf.log &&
	test "$(jq .request_count.avg artifacts/*/profile_export_aiperf.json)" -eq 4
'

test_expect_success 'the override example: the config file with the command line on top' '
	cd e5 && j=$(find . -name profile_export_aiperf.json) &&
	jq -r .input_config.cli_command "$j" >cli &&
	grep -q -- "--concurrency 2" cli && grep -q -- "--warmup-request-count 2" cli &&
	grep -q -- "--model gpt2" cli && grep -q -- "--request-count 4" cli
'
test_done
