#!/bin/sh
# aiperf speed-bench-report (issue #31): three aiperf profile runs of
# SPEED-Bench categories against aiperf-mock, each scraping a loopback
# endpoint of one engine's speculative-decoding metrics
# (tests/cli/speed-metrics.py), assembled into the matrix; its values
# against hand-computed ones; the table as rich prints it and the CSV as
# Python's csv module writes it; run folders in the original's
# input_config shape; hostile folders.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1
python3 -u "$TOP/tests/cli/speed-metrics.py" >"$TMP/metrics.log" 2>&1 &
HTTP_PID=$!
wait_line "$TMP/metrics.log" port || exit 1
SPEC="http://127.0.0.1:$(sed -n 's/^port \([0-9]*\)$/\1/p' "$TMP/metrics.log")"
export SPEC

test_expect_success 'three runs, one a category, each with its engine'\''s metrics' '
	for c in coding math writing; do
		aiperf profile -m meta/llama-3.1-8b-instruct --url "$MOCK_URL" \
			--endpoint-type chat --streaming --tokenizer builtin \
			--custom-dataset-type "speed_bench_$c" \
			--input-file "$TOP/tests/data/speedbench" --request-count 4 \
			--server-metrics "$SPEC/$c" \
			--output-artifact-dir "art/speed_bench_$c" >log 2>&1 ||
			{ cat log; exit 1; }
	done &&
	test -s art/speed_bench_writing/server_metrics_export.json
'

# Hand-computed: coding from vLLM counters moving 6 accepted tokens, 4
# drafts and 20 draft tokens a scrape: length 6/4 + 1 = 2.50, rate
# 6/20 = 0.30; math SGLang gauges 2.75 and 0.35; writing TensorRT-LLM
# gauges 1.90 and 0.18. Overall: (2.50 + 2.75 + 1.90) / 3 = 2.3833 and
# (0.30 + 0.35 + 0.18) / 3 = 0.2767.
test_expect_success 'acceptance length: the table (rich'\''s, as it prints it) and the CSV' '
	aiperf speed-bench-report art/ >out 2>err &&
	test ! -s err &&
	{ echo "Found 3 run directories." &&
	  printf "%21s%s%21s\n" "" "Acceptance Length Report" "" && cat <<-\EOF; } >want &&
	┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━┳━━━━━━━━━┳━━━━━━━━━┓
	┃ Model                      ┃ coding ┃ math ┃ writing ┃ Overall ┃
	┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━╇━━━━━━━━━╇━━━━━━━━━┩
	│ meta/llama-3.1-8b-instruct │   2.50 │ 2.75 │    1.90 │    2.38 │
	└────────────────────────────┴────────┴──────┴─────────┴─────────┘
	CSV written to speed_bench_report.csv
	EOF
	test_cmp want out &&
	printf "Model,coding,math,writing,Overall\r\nmeta/llama-3.1-8b-instruct,2.50,2.75,1.90,2.38\r\n" >want &&
	cmp want speed_bench_report.csv
'

test_expect_success 'acceptance rate, CSV alone, to --output' '
	mkdir -p rep &&
	aiperf speed-bench-report art --metric accept_rate --format csv --output ./rep//r.csv >out &&
	printf "Found 3 run directories.\nCSV written to rep/r.csv\n" >want &&
	test_cmp want out &&
	printf "Model,coding,math,writing,Overall\r\nmeta/llama-3.1-8b-instruct,0.30,0.35,0.18,0.28\r\n" >want &&
	cmp want rep/r.csv
'

test_expect_success 'throughput: each run'\''s output token throughput, table alone' '
	aiperf speed-bench-report art/speed_bench_math art/speed_bench_coding \
		--metric throughput --format table >out &&
	c=$(jq -r ".output_token_throughput.avg" art/speed_bench_coding/profile_export_aiperf.json) &&
	m=$(jq -r ".output_token_throughput.avg" art/speed_bench_math/profile_export_aiperf.json) &&
	row=$(python3 -c "import sys; c, m = map(float, sys.argv[1:]); print(\"%.2f %.2f %.2f\" % (c, m, (c + m) / 2))" "$c" "$m") &&
	sed -n "2p" out | grep -q "Throughput Report (tokens/sec)" &&
	grep "^│ meta" out | tr -d "│" | awk "{ print \$2, \$3, \$4 }" >got &&
	echo "$row" >want &&
	test_cmp want got
'

# run folders written by hand: ours and the original's input_config
put_run() {	# DIR CONFIG-JSON THROUGHPUT [SERVER-METRICS-JSON]
	mkdir -p "$1" &&
	printf "{\"input_config\":%s,\"output_token_throughput\":{\"avg\":%s}}\n" \
		"$2" "$3" >"$1/profile_export_aiperf.json" &&
	if [ -n "${4:-}" ]; then
		printf "{\"metrics\":%s}\n" "$4" >"$1/server_metrics_export.json"
	fi
}
ser() {	# NAME STAT VALUE
	printf "\"%s\":{\"type\":\"gauge\",\"series\":[{\"stats\":{\"%s\":%s}}]}" "$1" "$2" "$3"
}
ours() {	# MODEL TYPE
	printf "{\"endpoint\":{\"model_names\":[\"%s\"]},\"input\":{\"custom_dataset_type\":\"%s\"}}" "$1" "$2"
}
v2() {	# MODEL KEY VALUE
	printf "{\"models\":{\"items\":[{\"name\":\"%s\"}]},\"datasets\":[{\"name\":\"d\",\"%s\":\"%s\"}]}" "$1" "$2" "$3"
}

test_expect_success 'the original'\''s folders: models and datasets, several models, a later run replacing' '
	put_run h/a "$(v2 qwen format speed_bench_qa)" 1 "{$(ser vllm:spec_decode_mean_accepted_length avg 2.5)}" &&
	put_run h/b "$(v2 qwen format speed_bench_math)" 1 "{$(ser engine_x:Spec_Accept_Length avg 1.5)}" &&
	put_run h/c "$(ours "a,\\\"b\\\"" speed_bench_qa)" 1 "{$(ser sglang:spec_accept_length avg 3.125)}" &&
	put_run h/d "$(v2 qwen format speed_bench_math)" 1 "{$(ser trtllm:spec_accept_length avg 1.75)}" &&
	aiperf speed-bench-report h --format csv >out &&
	printf "Model,math,qa,Overall\r\n\"a,\"\"b\"\"\",,3.12,3.12\r\nqwen,1.75,2.50,2.12\r\n" >want &&
	cmp want speed_bench_report.csv
'

test_expect_success 'spec_al_* runs in the benchmarks'\'' order, mixed categories sorted' '
	for b in mbpp gsm8k mtbench; do
		put_run s/$b "$(v2 m dataset spec_al_$b)" 1 "{$(ser sglang:spec_accept_length avg 2)}" || exit 1
	done &&
	aiperf speed-bench-report s --format csv --output s.csv >/dev/null &&
	head -1 s.csv | grep -q "^Model,gsm8k,mtbench,mbpp,Overall" &&
	put_run s/t "$(ours m speed_bench_throughput_1k_mixed)" 1 "{$(ser sglang:spec_accept_length avg 2)}" &&
	aiperf speed-bench-report s --format csv --output s.csv >/dev/null &&
	head -1 s.csv | grep -q "^Model,gsm8k,mbpp,mtbench,throughput_1k_mixed,Overall"
'

test_expect_success 'hostile folders: warned of and skipped, or an error' '
	put_run x/nocat "$(ours m multi_turn)" 1 &&
	put_run x/nometrics "$(ours m speed_bench_rag)" 1 &&
	mkdir -p x/broken && printf "{\"input_config\":" >x/broken/profile_export_aiperf.json &&
	mkdir -p x/emptyjson && printf "{}" >x/emptyjson/profile_export_aiperf.json &&
	mkdir -p x/isdir/profile_export_aiperf.json &&
	put_run x/ok "$(ours m speed_bench_stem)" 1 "{$(ser sglang:spec_accept_length avg 1.25)}" &&
	put_run x/badval "$(ours m speed_bench_qa)" 1 "{$(ser sglang:spec_accept_length avg "\"x\""),$(ser vllm:spec_decode_num_drafts total 0)}" &&
	: >nofolder &&
	aiperf speed-bench-report nofolder x --format table >out 2>err &&
	grep -q "^Warning: nofolder is not a directory, skipping$" err &&
	grep -q "^Warning: failed to read x/broken/profile_export_aiperf.json: " err &&
	grep -q "^Warning: no profile_export_aiperf.json in x/broken, skipping$" err &&
	grep -q "^Warning: no profile_export_aiperf.json in x/emptyjson, skipping$" err &&
	grep -q "^Warning: failed to read x/isdir/profile_export_aiperf.json: " err &&
	grep -q "^Warning: cannot determine category from x/nocat, skipping$" err &&
	grep -q "^Warning: no server_metrics_export.json in x/nometrics$" err &&
	grep -q "^Found 7 run directories.$" out &&
	grep -q "┃ Model ┃ qa ┃ rag ┃ stem ┃ Overall ┃" out &&
	grep -q "│ m     │  - │   - │ 1.25 │    1.25 │" out &&
	test_expect_code 1 aiperf speed-bench-report nofolder 2>err &&
	grep -q "^Error: no aiperf run directories found.$" err &&
	test_expect_code 1 aiperf speed-bench-report x/nometrics x/badval >out 2>err &&
	grep -q "^Error: no SPEED-Bench results extracted.$" err &&
	test_expect_code 2 aiperf speed-bench-report --metric speed x 2>err &&
	test_expect_code 2 aiperf speed-bench-report 2>err
'

test_done
