#!/bin/sh
# aiperf-export: file names, export levels, input_config, determinism, exit status.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

IN=$TOP/tests/golden/aiperf-export/streaming/in.ndjson
ID=00000000-0000-4000-8000-000000000000

test_expect_success 'write error on stdout: exit 1 with a message' '
	test_expect_code 1 aiperf-export </dev/null >/dev/full 2>err &&
	grep -q "^aiperf-export: write error on .stdout.: " err
'

test_expect_success '--profile-export-prefix strips a known suffix' '
	aiperf-export --no-console --benchmark-id $ID --artifact-dir a \
		--profile-export-prefix my_run.jsonl <"$IN" &&
	[ -f a/my_run.json ] && [ -f a/my_run.csv ] && [ -f a/my_run.jsonl ] &&
	[ "$(ls a | wc -l)" -eq 3 ]
'

test_expect_success '--export-level summary writes only the summaries' '
	aiperf-export --no-console --export-level summary --artifact-dir s <"$IN" &&
	[ "$(ls s)" = "profile_export_aiperf.csv
profile_export_aiperf.json" ]
'

test_expect_success 'console names the written files' '
	aiperf-export --benchmark-id $ID --artifact-dir ./c --log-file c/logs/aiperf.log \
		<"$IN" >out &&
	tail -4 out >got &&
	printf "%s\n" "CSV Export: $TMP/c/profile_export_aiperf.csv" \
		"JSON Export: $TMP/c/profile_export_aiperf.json" \
		"Log File: $TMP/c/logs/aiperf.log" "" >want &&
	test_cmp want got
'

test_expect_success 'same input and id: byte-identical outputs' '
	aiperf-export --benchmark-id $ID --artifact-dir r1 <"$IN" >o1 &&
	aiperf-export --benchmark-id $ID --artifact-dir r2 "$IN" >o2 &&
	sed "s/r1/r2/" o1 | cmp - o2 &&
	cmp r1/profile_export_aiperf.json r2/profile_export_aiperf.json &&
	cmp r1/profile_export_aiperf.csv r2/profile_export_aiperf.csv
'

test_expect_success 'benchmark_id defaults to a uuid4' '
	aiperf-export --no-console --artifact-dir u <"$IN" &&
	grep -Eq "^  \"benchmark_id\": \"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\",$" \
		u/profile_export_aiperf.json
'

test_expect_success 'several input files read in order' '
	head -3 "$IN" >p1 && tail -n +4 "$IN" >p2 &&
	aiperf-export --benchmark-id $ID --no-console --artifact-dir f p1 p2 &&
	aiperf-export --benchmark-id $ID --no-console --artifact-dir g <"$IN" &&
	cmp f/profile_export_aiperf.json g/profile_export_aiperf.json &&
	cmp f/profile_export.jsonl g/profile_export.jsonl
'

test_expect_success '--input-config is copied, pretty-printed' '
	printf "{\"endpoint\":{\"model_names\":[\"m\"],\"streaming\":true},\"loadgen\":{\"concurrency\":8,\"x\":[]}}" >cfg.json &&
	aiperf-export --no-console --benchmark-id $ID --artifact-dir i \
		--input-config cfg.json <"$IN" &&
	cat >want <<-\EOT &&
	  "input_config": {
	    "endpoint": {
	      "model_names": [
	        "m"
	      ],
	      "streaming": true
	    },
	    "loadgen": {
	      "concurrency": 8,
	      "x": []
	    }
	  },
	  "run_info": {
	    "benchmark_id": "00000000-0000-4000-8000-000000000000"
	  },
	  "was_cancelled": false,
	EOT
	sed -n "/\"input_config\"/,/was_cancelled/p" i/profile_export_aiperf.json >got &&
	test_cmp want got
'

test_expect_success '--run-info: the planner'"'"'s fields in the original'"'"'s order, nulls left out' '
	printf "{\"variation_values\":{\"phases.profiling.concurrency\":2},\"trial\":1,\"sweep_id\":\"s\",\"run_label\":null}" >ri.json &&
	aiperf-export --no-console --benchmark-id $ID --artifact-dir ri --cli-command "aiperf profile --api-key sekrit" \
		--run-info ri.json <"$IN" &&
	test "$(jq -c .run_info ri/profile_export_aiperf.json)" = \
		"{\"benchmark_id\":\"$ID\",\"sweep_id\":\"s\",\"trial\":1,\"variation_values\":{\"phases.profiling.concurrency\":2},\"cli_command\":\"aiperf profile --api-key '"'"'<redacted>'"'"'\"}" &&
	echo "[1]" >bad.json &&
	test_expect_code 1 aiperf-export --run-info bad.json --artifact-dir rb <"$IN" 2>err &&
	grep -q "bad.json: not a JSON object" err
'

test_expect_success 'bad --input-config: exit 1' '
	echo "[1]" >bad.json &&
	! aiperf-export --input-config bad.json </dev/null 2>err &&
	grep -q "bad.json: not a JSON object" err
'

test_expect_success '--min-goodput-pct gates on the good share' '
	aiperf-export --no-console --goodput request_latency:300 \
		--min-goodput-pct 66 <"$IN" &&
	test_expect_code 3 aiperf-export --no-console --goodput request_latency:300 \
		--min-goodput-pct 67 <"$IN" 2>err &&
	grep -q "below --min-goodput-pct" err
'

test_expect_success 'goodput as a JSON object, ms thresholds in ns' '
	aiperf-export --goodput "{\"request_latency\": 298.201063}" <"$IN" >o &&
	grep -q "Goodput (requests/sec) │   5.43 " o &&
	aiperf-export --goodput "request_latency:298.201062" <"$IN" >o &&
	grep -q "Goodput (requests/sec) │   2.72 " o
'

test_expect_success 'start_time/end_time in local time' '
	TZ=Europe/Berlin aiperf-export --no-console --artifact-dir t <"$IN" &&
	grep -q "\"start_time\": \"2025-10-07T07:00:07.532900\"" t/profile_export_aiperf.json &&
	grep -q "\"end_time\": \"2025-10-07T07:00:07.900923\"" t/profile_export_aiperf.json
'

test_expect_success '--help prints usage on stdout, exit 0; bad flag exit 2' '
	aiperf-export --help | grep -q "^usage: aiperf-export" &&
	test_expect_code 2 aiperf-export --bogus 2>/dev/null &&
	test_expect_code 2 aiperf-export --export-level all 2>/dev/null
'
test_expect_success '--slice-duration: epoch-aligned windows, each its own run' '
	aiperf-export --no-console --benchmark-id $ID --artifact-dir ts \
		--profile-export-prefix run.csv --slice-duration 0.1 <"$IN" &&
	tr -d "\r" <ts/run_timeslices.csv >csv &&
	head -1 csv | grep -qx "Timeslice,Metric,Unit,Stat,Value" &&
	grep -qx "0,Request Count,requests,avg,2.00" csv &&
	grep -qx "1,Request Count,requests,avg,1.00" csv &&
	grep -qx "1,Error Request Count,requests,avg,3.00" csv &&
	! grep -q "^0,Error Request Count" csv &&
	grep -qx "0,Request Latency,ms,p50,329.56" csv &&
	[ "$(grep -c "^1,Request Latency,ms," csv)" -eq 14 ] &&
	[ "$(tail -c 2 ts/run_timeslices.csv | od -An -c | tr -d " ")" = "\r\n" ] &&
	grep -q "^      \"timeslice_index\": 1,$" ts/run_timeslices.json &&
	! grep -q "timeslice_index\": 2" ts/run_timeslices.json
'

test_done
