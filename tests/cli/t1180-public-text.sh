#!/bin/sh
# aiperf-gen --public-dataset for the original's text datasets (the
# instruction/response ones, MT-Bench, SpecBench) against a loopback hub
# (tests/hub/fake-hub.py) serving fixture rows written from the dataset
# cards: the turns sent are what the reference (tests/public/ref-text.py, a
# second implementation of the original's loaders) builds, in order; the
# rows are cached and a second run needs no network; --public-dataset-dir,
# --hf-subset and --dataset-filter; one aiperf profile run through the
# wrapper against aiperf-mock.
# shellcheck disable=SC2016,SC2154 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"

unset HF_TOKEN HF_TOKEN_PATH HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE \
	HF_DATASETS_OFFLINE TRANSFORMERS_OFFLINE AIPERF_HUB_ROWS_URL XDG_CACHE_HOME \
	AIPERF_SPEC_BENCH_URL
export HF_HOME="$TMP/hfhome" AIPERF_CACHE_DIR="$TMP/aicache"
FIX=$TOP/tests/data/public
HUB=$FIX/hub
REF=$TOP/tests/public/ref-text.py
SB_COMMIT=fd2c1cd7d2201ef71db4c5f4e455008f017967bf
export FIX HUB REF SB_COMMIT
trap 'for p in $(cat "$TMP/.hub.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done; cleanup' EXIT

rm -f "$TMP/hub.port"
python3 "$TOP/tests/hub/fake-hub.py" --root "$HUB" --repo "$FIX/github" \
	--port-file "$TMP/hub.port" --log "$TMP/hub.log" --idle 60 --max 300 &
echo $! >>"$TMP/.hub.pids"
i=0
while [ ! -s "$TMP/hub.port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
URL=http://127.0.0.1:$(cat "$TMP/hub.port")
touch "$TMP/hub.log"
CLOSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
AIPERF_HUB_ROWS_URL=$URL
AIPERF_SPEC_BENCH_URL=$URL/datasets/hemingkx/Spec-Bench/resolve/main/question.jsonl
export URL CLOSED AIPERF_HUB_ROWS_URL AIPERF_SPEC_BENCH_URL
start_mock --ttft-ms 1 --itl-ms 1 || exit 1
export MOCK_URL

TEXT="aimo aimo_aime aimo_numina_cot aimo_numina_1_5 spec_al_gsm8k spec_al_math500
spec_al_humaneval spec_al_mbpp instruct_coder blazedit_5k blazedit_10k spec_al_mtbench spec_bench"
export TEXT

# turns NAME [aiperf-gen options]: the conversations sent, one JSON array
# of turn texts a line (each request one user message, history or not)
turns() {
	name=$1
	shift
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --public-dataset "$name" "$@" >"$name.rec" &&
	jq -e -s "all(.[]; .payload.messages | length == 1 and .[0].role == \"user\")" "$name.rec" >/dev/null &&
	jq -c -s "reduce .[] as \$r ([]; if \$r.turn_index == 0 then . + [[\$r.payload.messages[0].content]]
		else .[length - 1] += [\$r.payload.messages[0].content] end) | .[]" "$name.rec"
}

# ref NAME [reference options]: the reference's conversations into NAME.ref
ref() {
	name=$1
	shift
	python3 "$REF" --hub "$HUB" --spec-bench "$FIX/github/hemingkx/Spec-Bench/question.jsonl" \
		--dataset "$name" "$@" >"$name.ref"
}

# golden NAME [aiperf-gen options]: every conversation of the reference,
# in order, sent once
golden() {
	name=$1
	shift
	ref "$name" &&
	n=$(wc -l <"$name.ref") &&
	test "$n" -gt 0 &&
	turns "$name" --num-sessions "$n" "$@" >"$name.got" &&
	test_cmp "$name.ref" "$name.got"
}

test_expect_success 'each text dataset: the reference'"'"'s turns, in order, from the hub' '
	for d in $TEXT; do
		golden "$d" || { echo "dataset $d differs" >&2; return 1; }
	done &&
	test "$(wc -l <aimo.ref)" = 3 &&
	test "$(sed -n 2p aimo_numina_1_5.ref)" = "[\"12345\"]" &&
	test "$(wc -l <spec_bench.ref)" = 4 &&
	head -1 spec_al_mtbench.ref | jq -e "length == 2" >/dev/null &&
	head -1 blazedit_5k.ref | jq -e ".[0] | startswith(\"Given a code file\") and contains(\"{braces} stay\")" >/dev/null
'

test_expect_success 'each split asked of the hub once, then cached in the layout' '
	for d in $TEXT; do echo "$d"; done >names &&
	grep -c "GET /rows" hub.log >n && test "$(cat n)" = 12 &&
	test "$(grep -c "GET /datasets/hemingkx/Spec-Bench/resolve/main/question.jsonl" hub.log)" = 1 &&
	test_cmp "$HUB/openai/gsm8k/main/test.jsonl" "$AIPERF_CACHE_DIR/datasets/openai/gsm8k/main/test.jsonl" &&
	test_cmp "$FIX/github/hemingkx/Spec-Bench/question.jsonl" \
		"$AIPERF_CACHE_DIR/datasets/hemingkx/Spec-Bench/$SB_COMMIT/question.jsonl"
'

test_expect_success 'a second run offline, the hub closed: the same turns from the cache' '
	: >hub.log &&
	for d in $TEXT; do
		n=$(wc -l <"$d.ref") &&
		HF_HUB_OFFLINE=1 AIPERF_HUB_ROWS_URL=$CLOSED AIPERF_SPEC_BENCH_URL=$CLOSED/q.jsonl \
			turns "$d" --num-sessions "$n" >"$d.off" &&
		test_cmp "$d.ref" "$d.off" || return 1
	done &&
	test_cmp /dev/null hub.log
'

test_expect_success 'offline with nothing cached: the dataset is named, exit 1' '
	HF_HUB_OFFLINE=1 AIPERF_CACHE_DIR="$TMP/empty" test_expect_code 1 \
		aiperf-gen -m m --tokenizer builtin --public-dataset aimo 2>err &&
	grep -q "^aiperf-gen: --public-dataset aimo: AI-MO/NuminaMath-TIR/default/train: not in the cache" err
'

test_expect_success '--public-dataset-dir: the rows from the folder only, no network' '
	AIPERF_CACHE_DIR="$TMP/empty" AIPERF_HUB_ROWS_URL=$CLOSED turns spec_al_math500 \
		--public-dataset-dir "$HUB" --num-sessions 2 >dir.got &&
	test_cmp spec_al_math500.ref dir.got &&
	mkdir -p sb/hemingkx/Spec-Bench/$SB_COMMIT &&
	printf "{\"turns\":[\" from the folder \"]}\n" >sb/hemingkx/Spec-Bench/$SB_COMMIT/question.jsonl &&
	AIPERF_SPEC_BENCH_URL=$CLOSED/q turns spec_bench --public-dataset-dir sb --request-count 1 >sb.got &&
	echo "[\"from the folder\"]" >expect && test_cmp expect sb.got &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset aimo \
		--public-dataset-dir nowhere 2>err &&
	grep -q "nowhere/AI-MO/NuminaMath-TIR/default/train.jsonl" err &&
	test_expect_code 2 aiperf-gen -m m --public-dataset-dir "$HUB" 2>err &&
	grep -q "^aiperf-gen: --public-dataset-dir requires --public-dataset$" err
'

test_expect_success 'the original'"'"'s own SpecBench cache under the working folder is read first' '
	mkdir -p wd/.cache/aiperf/datasets &&
	printf "{\"turns\":[\"cached by the original\"]}\n" >wd/.cache/aiperf/datasets/spec_bench.jsonl &&
	(cd wd && AIPERF_SPEC_BENCH_URL=$CLOSED/q turns spec_bench --request-count 1) >wd.got &&
	echo "[\"cached by the original\"]" >expect && test_cmp expect wd.got
'

test_expect_success '--hf-subset: another config of the same dataset' '
	ref spec_al_gsm8k --hf-subset socratic &&
	turns spec_al_gsm8k --hf-subset socratic --request-count 2 >sub.got &&
	test_cmp spec_al_gsm8k.ref sub.got &&
	grep -q "dataset=openai/gsm8k&config=socratic&split=test" hub.log &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset spec_al_gsm8k \
		--hf-subset nonesuch 2>err &&
	grep -q "openai/gsm8k/nonesuch/test: HTTP 404" err
'

test_expect_success 'the first row without the prompt column: the original'"'"'s message' '
	mkdir -p bad/openai/openai_humaneval/default &&
	printf "{\"task_id\":\"x\",\"text\":\"y\"}\n" >bad/openai/openai_humaneval/default/test.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset spec_al_humaneval \
		--public-dataset-dir bad 2>err &&
	grep -q "Column '\''prompt'\'' not found in dataset '\''openai/openai_humaneval'\''. Available columns: \['\''task_id'\'', '\''text'\''\]" err &&
	mkdir -p bad/vdaita/edit_5k_char/default &&
	printf "{\"code\":\"x\"}\n" >bad/vdaita/edit_5k_char/default/train.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset blazedit_5k \
		--public-dataset-dir bad 2>err &&
	grep -q "KeyError: '\''change_request'\''" err
'

test_expect_success '--dataset-filter: the original'"'"'s checks' '
	test_expect_code 2 aiperf-gen -m m --dataset-filter a=b 2>err &&
	grep -q "^aiperf-gen: --dataset-filter requires --public-dataset$" err &&
	for bad in a "=b" "a=" " = "; do
		test_expect_code 2 aiperf-gen -m m --public-dataset exgentic --dataset-filter "$bad" 2>err &&
		grep -q "^aiperf-gen: Invalid --dataset-filter '\''$bad'\''; expected non-empty key=value$" err || return 1
	done &&
	test_expect_code 2 aiperf-gen -m m --public-dataset exgentic --dataset-filter "harness = x" \
		--dataset-filter harness=y 2>err &&
	grep -q "^aiperf-gen: Duplicate --dataset-filter key '\''harness'\''$" err &&
	test_expect_code 1 aiperf-gen -m m --public-dataset aimo --dataset-filter k=v 2>err &&
	grep -q "^aiperf-gen: Public dataset '\''aimo'\'' does not support --dataset-filter$" err &&
	test_expect_code 1 aiperf-gen -m m --public-dataset sharegpt --dataset-filter k=v 2>err &&
	grep -q "does not support --dataset-filter" err
'

test_expect_success '--print-timing-mode reads the rows first' '
	echo concurrency >expect &&
	aiperf-gen -m m --tokenizer builtin --public-dataset spec_al_mbpp --print-timing-mode >mode &&
	test_cmp expect mode &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset aimo \
		--public-dataset-dir nowhere --print-timing-mode 2>err
'

test_expect_success 'aiperf profile: MT-Bench through the wrapper, every turn sent with its history' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --ui-type none \
		--public-dataset spec_al_mtbench --num-sessions 3 --export-level raw \
		--artifact-dir run >out 2>err || { cat out err >&2; false; } &&
	test "$(jq .request_count.avg run/profile_export_aiperf.json)" = 5 &&
	test "$(jq -s "[.[] | select(.error)] | length" run/profile_export_raw.jsonl)" = 0 &&
	test "$(jq -r .input_config.input.public_dataset run/profile_export_aiperf.json)" = spec_al_mtbench &&
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --ui-type none \
		--public-dataset spec_al_gsm8k --hf-subset socratic --request-count 2 \
		--artifact-dir run2 >out 2>err &&
	test "$(jq -r .input_config.input.hf_dataset_subset run2/profile_export_aiperf.json)" = socratic &&
	test "$(jq .request_count.avg run2/profile_export_aiperf.json)" = 2
'

test_done
