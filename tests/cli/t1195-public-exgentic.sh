#!/bin/sh
# --public-dataset exgentic and exgentic_v2: recorded agent sessions from
# a loopback hub (tests/hub/fake-hub.py serving the fixture rows of
# tests/data/public/hub, written from the loader's schema), replayed as
# the reference (tests/public/ref-exgentic.py, a second implementation of
# the original's loaders) says: each replayable call's recorded messages,
# tools, output limit and controls, sent without the session's history;
# closed loop with the recorded gaps as delays, or under --fixed-schedule
# one request a call at its start offset; the filters and their messages.
# Then offline from the cache, and once through aiperf profile against
# aiperf-mock (the bodies sent, in order).
# shellcheck disable=SC2016,SC2034,SC2154 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
command -v jq >/dev/null || test_skip_all "jq is not installed"

unset HF_TOKEN HF_TOKEN_PATH HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE \
	HF_DATASETS_OFFLINE TRANSFORMERS_OFFLINE AIPERF_HUB_ROWS_URL XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome" AIPERF_CACHE_DIR="$TMP/aicache"
ROOT=$TOP/tests/data/public/hub
REF=$TOP/tests/public/ref-exgentic.py
V1=$ROOT/Exgentic/agent-llm-traces/default/train.jsonl
V2=$ROOT/Exgentic/agent-llm-traces-v2/default/train.jsonl
export ROOT REF V1 V2
trap 'for p in $(cat "$TMP/.hub.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done; cleanup' EXIT

rm -f "$TMP/hub.port"
python3 "$TOP/tests/hub/fake-hub.py" --root "$ROOT" --port-file "$TMP/hub.port" \
	--log "$TMP/hub.log" --idle 60 --max 300 &
echo $! >>"$TMP/.hub.pids"
i=0
while [ ! -s "$TMP/hub.port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
HUB=http://127.0.0.1:$(cat "$TMP/hub.port")
CLOSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export HUB CLOSED
touch "$TMP/hub.log"

# The fields of aiperf-gen's records the reference writes, one a line.
cat >"$TMP/proj.py" <<'P'
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    o = {k: r[k] for k in ("conversation_id", "turn_index", "max_tokens", "delay_ns", "at_ns")
         if k in r}
    if "headers" in r:
        o["headers"] = r["headers"]
    o["payload"] = r["payload"]
    print(json.dumps(o, separators=(",", ":"), ensure_ascii=False))
P
PROJ="$TMP/proj.py"
export PROJ

# gen NAME [aiperf-gen options]: the records' projection
gen() {
	AIPERF_HUB_ROWS_URL=${ROWS_URL-$HUB} aiperf-gen -m m --tokenizer builtin \
		--endpoint-type chat --random-seed 1 --public-dataset "$@" | python3 "$PROJ"
}

test_expect_success 'v1 from the hub: every replayable call, recorded gaps as delays' '
	python3 "$REF" --rows "$V1" --version 1 --bound 100 >want &&
	test "$(wc -l <want)" -eq 9 &&
	gen exgentic --num-dataset-entries 100 --request-count 9 >got &&
	test_cmp want got &&
	grep -q "dataset=Exgentic/agent-llm-traces&config=default&split=train" hub.log &&
	jq -e -s "[.[].delay_ns // empty] == [0, 13250000000, 0, 500000000]" got >/dev/null &&
	jq -e -s "map(has(\"history\")) | all(. == false)" got >/dev/null
'

test_expect_success 'v1: the first call of the rich session as the original writes it' '
	head -1 got | jq -c ".payload.messages[2], .payload.messages[3], .payload.tools[0].function.name" >m &&
	cat >expect <<-\EOF &&
	{"role":"assistant","content":"Searching.","reasoning_content":"I should search first.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_flights","arguments":"{\"origin\":\"SFO\",\"dest\":\"JFK\"}"}}]}
	{"role":"tool","tool_call_id":"call_1","content":"[{\"type\":\"text\",\"text\":\"UA 1: 09:00, 312 USD\"}]"}
	"search_flights"
	EOF
	test_cmp expect m &&
	head -1 got | jq -e ".payload.messages[0] == {role: \"system\", content: \"You are a travel agent. Use the tools.\"}" >/dev/null
'

test_expect_success 'v1 --fixed-schedule: one request a call, at its offset in its session' '
	python3 "$REF" --rows "$V1" --version 1 --bound 100 --fixed >want &&
	gen exgentic --num-dataset-entries 100 --fixed-schedule >got &&
	test_cmp want got &&
	jq -r "[.conversation_id, .at_ns] | @tsv" got | head -4 >at &&
	printf "%s\t%s\n" tc-kimi-0001:1 0 cc-gpt41-0001:0 0 smol-ds-0001:0 0 tcws-kimi-0001:0 0 >expect &&
	test_cmp expect at &&
	jq -e -s "map(select(.conversation_id == \"tc-kimi-0001:0\"))[0].at_ns == 20250000000" got >/dev/null
'

test_expect_success 'v1 filters: harness and an aliased source model, then the bound' '
	python3 "$REF" --rows "$V1" --version 1 --bound 100 --filter harness=tool_calling \
		--filter source_model=azure/KIMI-K2.5 >want &&
	gen exgentic --num-dataset-entries 100 --request-count 4 --dataset-filter harness=tool_calling \
		--dataset-filter source_model=azure/KIMI-K2.5 >got &&
	test_cmp want got &&
	jq -r .conversation_id got | uniq >ids &&
	printf "%s\n" tc-kimi-0001 tc-kimi-0002 >expect && test_cmp expect ids &&
	python3 "$REF" --rows "$V1" --version 1 --bound 1 --filter source_model=Kimi-K2.5 >want &&
	gen exgentic --num-conversations 1 --dataset-filter source_model=Kimi-K2.5 >got &&
	test_cmp want got &&
	test "$(jq -r .conversation_id got | sort -u)" = tc-kimi-0001
'

test_expect_success 'v2: benchmark filter, recorded max_tokens, temperature and stop' '
	python3 "$REF" --rows "$V2" --version 2 --bound 100 --filter benchmark=swebench \
		--filter harness=openai_solo --filter source_model=gpt-5.2-2025-12-11 >want &&
	gen exgentic_v2 --num-dataset-entries 100 --request-count 3 --dataset-filter benchmark=swebench \
		--dataset-filter harness=openai_solo --dataset-filter source_model=gpt-5.2-2025-12-11 >got &&
	test_cmp want got &&
	head -1 got | jq -c ".payload | [.messages[0], .max_completion_tokens, .temperature, .stop]" >m &&
	echo "[{\"role\":\"system\",\"content\":\"Follow the repository policy.\"},512,0.7,[\"END\",\"STOP\"]]" >expect &&
	test_cmp expect m &&
	python3 "$REF" --rows "$V2" --version 2 --bound 100 --fixed >want &&
	gen exgentic_v2 --num-dataset-entries 100 --fixed-schedule >got &&
	test_cmp want got
'

# refused NAME 'REF FILTERS' [aiperf-gen options]: exit 1, the message the
# reference raises said by aiperf-gen
refused() {
	name=$1 filters=$2
	shift 2
	v=1 rows=$V1
	[ "$name" = exgentic_v2 ] && v=2 rows=$V2
	# shellcheck disable=SC2086 # the filters are words
	test_expect_code 1 python3 "$REF" --rows "$rows" --version $v --bound 100 $filters >ref &&
	msg=$(sed -e "s/^error: //" ref) &&
	test_expect_code 1 env AIPERF_HUB_ROWS_URL="$HUB" aiperf-gen -m m --tokenizer builtin \
		--public-dataset "$name" --num-dataset-entries 100 "$@" >out 2>err &&
	test_cmp /dev/null out &&
	grep -F -x -q -e "aiperf-gen: --public-dataset $name: $msg" err
}

test_expect_success 'filters refused as the original refuses them, before the rows' '
	: >hub.log &&
	refused exgentic "--filter source_model=unknown" --dataset-filter source_model=unknown &&
	grep -q "available filters: harness=\[claude_code, .*source_model=\[DeepSeek-V3.2, Kimi-K2.5" err &&
	! grep -q "benchmark=\[" err &&
	refused exgentic "--filter benchmark=appworld" --dataset-filter benchmark=appworld &&
	refused exgentic "--filter harness=tool_calling_with_shortlisting --filter source_model=gpt-4.1" \
		--dataset-filter harness=tool_calling_with_shortlisting --dataset-filter source_model=gpt-4.1 &&
	grep -q "available source models for this harness: DeepSeek-V3.2, Kimi-K2.5, gemini-3-pro-preview$" err &&
	refused exgentic_v2 "--filter source_model=gpt-4.1" --dataset-filter source_model=gpt-4.1 &&
	grep -q "no harness supports it" err &&
	refused exgentic_v2 "--filter colour=red" --dataset-filter colour=red &&
	grep -q "benchmark=\[appworld, browsecompplus, swebench, tau2_airline, tau2_retail, tau2_telecom\]" err &&
	test_cmp /dev/null hub.log
'

test_expect_success 'no session matches: the combinations the rows have' '
	refused exgentic "--filter harness=openai_solo --filter source_model=Kimi-K2.5" \
		--dataset-filter harness=openai_solo --dataset-filter source_model=Kimi-K2.5 &&
	sed -e "s/^error: //" ref >expect &&
	sed -e "s/^aiperf-gen: --public-dataset exgentic: //" err >got &&
	test_cmp expect got
'

test_expect_success 'chat only, and a finite bound needed' '
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset exgentic \
		--endpoint-type completions --request-count 2 2>err &&
	grep -q "needs --endpoint-type chat" err &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset exgentic 2>err &&
	grep -q "Exgentic requires a finite entry or request count; set --num-conversations, --num-dataset-entries, or --request-count" err
'

test_expect_success 'offline from the cache: the same records, no request' '
	: >hub.log &&
	python3 "$REF" --rows "$V1" --version 1 --bound 100 >want &&
	HF_HUB_OFFLINE=1 ROWS_URL=$CLOSED gen exgentic --num-dataset-entries 100 --request-count 9 >got &&
	test_cmp want got &&
	python3 "$REF" --rows "$V2" --version 2 --bound 100 --fixed >want &&
	HF_HUB_OFFLINE=1 ROWS_URL=$CLOSED gen exgentic_v2 --num-dataset-entries 100 --fixed-schedule >got &&
	test_cmp want got &&
	test_cmp /dev/null hub.log &&
	test_expect_code 1 env HF_HUB_OFFLINE=1 AIPERF_CACHE_DIR="$TMP/empty" AIPERF_HUB_ROWS_URL="$CLOSED" \
		aiperf-gen -m m --tokenizer builtin --public-dataset exgentic --request-count 2 2>err &&
	grep -q "offline" err
'

test_expect_success 'aiperf profile against aiperf-mock: the bodies sent are the recorded ones, in order' '
	start_mock --ttft-ms 1 --itl-ms 1 &&
	python3 "$REF" --rows "$V2" --version 2 --bound 4 --model test/model >want &&
	HF_HUB_OFFLINE=1 AIPERF_HUB_ROWS_URL=$CLOSED aiperf profile --model test/model --url "$MOCK_URL" \
		--tokenizer builtin --random-seed 7 --public-dataset exgentic_v2 --num-conversations 4 \
		--export-level raw --artifact-dir a1 >out 2>err &&
	jq -c ".payload" want >want.bodies &&
	jq -c ".payload" a1/profile_export_raw.jsonl >got.bodies &&
	test_cmp want.bodies got.bodies &&
	jq -r "[.conversation_id, .turn_index] | @tsv" want >want.ids &&
	jq -r "[.metadata.conversation_id, .metadata.turn_index] | @tsv" a1/profile_export_raw.jsonl >got.ids &&
	test_cmp want.ids got.ids &&
	jq -r ".headers[\"x-dynamo-session-id\"]" want >want.hdr &&
	jq -r ".request_headers[\"x-dynamo-session-id\"]" a1/profile_export_raw.jsonl >got.hdr &&
	test_cmp want.hdr got.hdr &&
	test "$(jq "[.error // empty] | length" a1/profile_export_raw.jsonl | sort -u)" = 0 &&
	HF_HUB_OFFLINE=1 AIPERF_HUB_ROWS_URL=$CLOSED aiperf profile --model test/model --url "$MOCK_URL" \
		--tokenizer builtin --public-dataset exgentic_v2 --num-dataset-entries 2 --fixed-schedule \
		--export-level raw --artifact-dir a2 >out 2>err &&
	test "$(wc -l <a2/profile_export_raw.jsonl)" -eq 3 &&
	kill "$MOCK_PID"
'

test_done
