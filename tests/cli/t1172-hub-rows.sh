#!/bin/sh
# aiperf-hub rows and fetch against a loopback hub (tests/hub/fake-hub.py):
# the dataset viewer's /rows pages, then the cache, then a dataset folder
# with no network at all; retries, refusals (cut cells, gated datasets,
# bad names, links and FIFOs in the cache) and a repository's JSONL file.
# shellcheck disable=SC2016,SC2034,SC2154 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"

unset HF_TOKEN HF_TOKEN_PATH HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE \
	HF_DATASETS_OFFLINE TRANSFORMERS_OFFLINE AIPERF_HUB_ROWS_URL XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome" AIPERF_CACHE_DIR="$TMP/aicache"
trap 'for p in $(cat "$TMP/.hub.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done; cleanup' EXIT

# A split of 250 rows (3 pages), compact JSON as the viewer writes it.
mkdir -p "$TMP/root/org/ds/default" "$TMP/repo/org/big"
python3 - "$TMP/root/org/ds/default/test.jsonl" <<'P'
import json, sys
with open(sys.argv[1], "w", encoding="utf-8") as f:
    for i in range(250):
        f.write(json.dumps({"question": "q%d \u00e9 \"x\"" % i, "answer": i,
                            "choices": ["a", "b"]}, ensure_ascii=False,
                           separators=(",", ":")) + "\n")
P
printf '{"id":1,"t":"one"}\n{"id":2,"t":"two"}\n' >"$TMP/repo/org/big/test6.jsonl"
want=$TMP/root/org/ds/default/test.jsonl

# start_hub NAME [fake-hub options]: a hub logging to $TMP/NAME.log; sets URL.
start_hub() {
	n=$1
	shift
	rm -f "$TMP/$n.port"
	python3 "$TOP/tests/hub/fake-hub.py" --root "$TMP/root" --repo "$TMP/repo" \
		--port-file "$TMP/$n.port" --log "$TMP/$n.log" --idle 30 --max 200 "$@" &
	echo $! >>"$TMP/.hub.pids"
	i=0
	while [ ! -s "$TMP/$n.port" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	URL=http://127.0.0.1:$(cat "$TMP/$n.port")
	touch "$TMP/$n.log"
}

# a port nothing listens on
CLOSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

start_hub main || exit 1
MAIN=$URL

test_expect_success 'rows: 250 rows from the hub, in 3 pages, in order, text as served' '
	aiperf-hub rows --hub-url "$MAIN" org/ds default test >out 2>err &&
	test_cmp "$want" out &&
	test_cmp /dev/null err &&
	sed "s/.*offset=\([0-9]*\).*/\1/" main.log >offsets &&
	printf "0\n100\n200\n" >expect &&
	test_cmp expect offsets &&
	test_cmp "$want" "$AIPERF_CACHE_DIR/datasets/org/ds/default/test.jsonl"
'

test_expect_success 'rows: the second run reads the cache, no request' '
	aiperf-hub rows --hub-url "$MAIN" org/ds default test >out &&
	test_cmp "$want" out &&
	test "$(wc -l <main.log)" -eq 3
'

test_expect_success 'rows: offline with an empty cache fails, saying so' '
	test_expect_code 1 aiperf-hub rows --offline --cache-dir empty --hub-url "$MAIN" \
		org/ds default test >out 2>err &&
	grep -q "not in the cache .*offline" err &&
	test_cmp /dev/null out &&
	HF_HUB_OFFLINE=1 test_expect_code 1 aiperf-hub rows --cache-dir empty \
		--hub-url "$MAIN" org/ds default test 2>err &&
	grep -q offline err &&
	test "$(wc -l <main.log)" -eq 3
'

test_expect_success 'rows: a 429 is tried again' '
	start_hub r429 --429-once --retry-after 1 &&
	aiperf-hub rows --cache-dir c429 --hub-url "$URL" org/ds default test >out &&
	test_cmp "$want" out &&
	test "$(grep -c "offset=0&" r429.log)" -eq 2
'

test_expect_success 'rows: a 429 with --retries 0 fails, naming it' '
	start_hub n429 --429-once &&
	test_expect_code 1 aiperf-hub rows --retries 0 --cache-dir cn429 --hub-url "$URL" \
		org/ds default test 2>err &&
	grep -q "failed 1 time .*HTTP 429" err &&
	test ! -e cn429/org/ds/default/test.jsonl
'

test_expect_success 'rows: a cut cell is refused, naming the column; nothing cached' '
	start_hub cut --truncate question &&
	test_expect_code 1 aiperf-hub rows --cache-dir ccut --hub-url "$URL" \
		org/ds default test >out 2>err &&
	grep -q "column .question. (truncated_cells)" err &&
	test_cmp /dev/null out &&
	test ! -e ccut/org/ds/default/test.jsonl
'

test_expect_success 'rows: gated without a token: refused with the HF_TOKEN hint' '
	start_hub gated --token sekrit-123 &&
	test_expect_code 1 aiperf-hub rows --cache-dir cg --hub-url "$URL" \
		org/ds default test 2>err &&
	grep -q "HTTP 401.*set HF_TOKEN.*accepted the dataset.s terms" err &&
	HF_TOKEN=wrong-456 test_expect_code 1 aiperf-hub rows --cache-dir cg \
		--hub-url "$URL" org/ds default test 2>err2 &&
	grep -q "HTTP 401.*has no access" err2 &&
	! grep -q wrong-456 err2 &&
	test "$(wc -l <gated.log)" -eq 2
'

test_expect_success 'rows: gated with the token (HF_TOKEN, or HF_HOME/token): served' '
	start_hub gated2 --token sekrit-123 &&
	HF_TOKEN=sekrit-123 aiperf-hub rows --cache-dir cg --hub-url "$URL" \
		org/ds default test >out 2>err &&
	test_cmp "$want" out &&
	! grep -q sekrit err &&
	mkdir -p "$HF_HOME" && printf "sekrit-123\n" >"$HF_HOME/token" &&
	aiperf-hub rows --cache-dir cg2 --hub-url "$URL" org/ds default test >out &&
	rm "$HF_HOME/token" &&
	test_cmp "$want" out &&
	grep -c . gated2.log >n && echo 6 >six && test_cmp six n
'

test_expect_success 'rows: a dataset folder is used with no network at all' '
	aiperf-hub rows --dataset-dir root --hub-url "$CLOSED" org/ds default test >out &&
	test_cmp "$want" out &&
	test_expect_code 1 aiperf-hub rows --dataset-dir root --hub-url "$MAIN" \
		org/ds default nosuch 2>err &&
	grep -q "root/org/ds/default/nosuch.jsonl" err &&
	test "$(wc -l <main.log)" -eq 3
'

test_expect_success 'rows: a hub that is down fails clearly' '
	test_expect_code 1 aiperf-hub rows --retries 0 --cache-dir cdown --hub-url "$CLOSED" \
		org/ds default test 2>err &&
	grep -q "org/ds/default/test: the dataset viewer failed 1 time" err
'

test_expect_success 'rows: a missing split is a 404 with the viewer'"'"'s reason' '
	test_expect_code 1 aiperf-hub rows --cache-dir c404 --hub-url "$MAIN" \
		org/ds default nosuch 2>err &&
	grep -q "HTTP 404 from the dataset viewer: The config or the split" err
'

test_expect_success 'rows: bad names are refused before any request' '
	n=$(wc -l <main.log) &&
	for args in "../x default test" "org/ds .. test" "org/ds default ../t" \
		"a/b/c default test" "/abs default test" "org/ds default .hidden"; do
		# shellcheck disable=SC2086 # one word each
		test_expect_code 1 aiperf-hub rows --hub-url "$MAIN" $args 2>err &&
		grep -q "not a valid" err || exit 1
	done &&
	test "$(wc -l <main.log)" -eq "$n" &&
	test_expect_code 2 aiperf-hub rows org/ds default 2>err &&
	test_expect_code 2 aiperf-hub nosuch 2>err &&
	test_expect_code 2 aiperf-hub fetch org/ds default test 2>err &&
	grep -q "needs --to" err
'

test_expect_success 'rows: a cache file that is a symlink is not followed' '
	mkdir -p cl/org/ds/default &&
	printf "{\"secret\":1}\n" >secret.jsonl &&
	ln -s "$PWD/secret.jsonl" cl/org/ds/default/test.jsonl &&
	test_expect_code 1 aiperf-hub rows --cache-dir cl --hub-url "$MAIN" \
		org/ds default test >out 2>err &&
	grep -q "never followed" err &&
	test_cmp /dev/null out &&
	test -L cl/org/ds/default/test.jsonl &&
	test "$(cat secret.jsonl)" = "{\"secret\":1}"
'

test_expect_success 'rows: a cache file that is a FIFO is not opened, nor a linked folder' '
	mkdir -p cf/org/ds/default &&
	mkfifo cf/org/ds/default/test.jsonl &&
	test_expect_code 1 timeout 10 aiperf-hub rows --cache-dir cf --hub-url "$MAIN" \
		org/ds default test 2>err &&
	grep -q "never followed" err &&
	test -p cf/org/ds/default/test.jsonl &&
	mkdir -p cd/org elsewhere/default && ln -s "$PWD/elsewhere" cd/org/ds &&
	test_expect_code 1 aiperf-hub rows --cache-dir cd --hub-url "$MAIN" \
		org/ds default test 2>err &&
	grep -q "never followed" err &&
	test ! -e elsewhere/default/test.jsonl
'

test_expect_success 'fetch: fills a folder for an offline machine' '
	n=$(wc -l <main.log) &&
	aiperf-hub fetch --cache-dir cfetch --hub-url "$MAIN" --to offline org/ds default test &&
	test_cmp "$want" offline/org/ds/default/test.jsonl &&
	test_cmp "$want" cfetch/org/ds/default/test.jsonl &&
	test "$(wc -l <main.log)" -eq $((n + 3)) &&
	aiperf-hub rows --dataset-dir offline --hub-url "$CLOSED" org/ds default test >out &&
	test_cmp "$want" out &&
	test_expect_code 1 aiperf-hub fetch --cache-dir cfetch --hub-url "$MAIN" --to offline \
		org/ds default test nosuch 2>err &&
	grep -q "HTTP 404" err
'

test_expect_success 'rows --repo-file: a repository JSONL file through the hub cache' '
	HF_ENDPOINT=$MAIN aiperf-hub rows --repo-file org/big main test6.jsonl >out &&
	test_cmp repo/org/big/test6.jsonl out &&
	grep -q "^GET /datasets/org/big/resolve/main/test6.jsonl" main.log &&
	n=$(wc -l <main.log) &&
	HF_ENDPOINT=$CLOSED aiperf-hub rows --repo-file org/big main test6.jsonl >out &&
	test_cmp repo/org/big/test6.jsonl out &&
	test "$(wc -l <main.log)" -eq "$n" &&
	HF_ENDPOINT=$CLOSED aiperf-hub fetch --repo-file --to rf org/big main test6.jsonl &&
	test_cmp repo/org/big/test6.jsonl rf/org/big/main/test6.jsonl &&
	HF_ENDPOINT=$CLOSED aiperf-hub rows --repo-file --dataset-dir rf org/big main test6.jsonl >out &&
	test_cmp repo/org/big/test6.jsonl out &&
	test_expect_code 1 aiperf-hub rows --repo-file org/big main test6.json 2>err &&
	grep -q "not a valid" err &&
	HF_ENDPOINT=$MAIN test_expect_code 1 aiperf-hub rows --offline --repo-file org/big main \
		nosuch.jsonl 2>err &&
	grep -q "not in the HuggingFace cache" err
'

test_expect_success 'rows: a closed stdout is no error' '
	aiperf-hub rows --hub-url "$MAIN" org/ds default test | head -1 >out &&
	test "$(wc -l <out)" -eq 1
'

test_done
