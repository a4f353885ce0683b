#!/bin/sh
# aiperf-gen --public-dataset sharegpt: the file downloaded from a loopback
# HuggingFace hub (the resolve URL, its redirect to a CDN, X-Repo-Commit and
# X-Linked-Etag) into the hub cache's datasets layout, read from that cache
# with the hub gone, from the original's own cache and from --input-file;
# offline without a copy, a clear message naming where to put the file.
# shellcheck disable=SC2016,SC2034,SC2119,SC2120,SC2154 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"

unset HF_TOKEN HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE TRANSFORMERS_OFFLINE XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome"
REPO=anon8231489123/ShareGPT_Vicuna_unfiltered
FILE=ShareGPT_V3_unfiltered_cleaned_split.json
DIR=datasets--anon8231489123--ShareGPT_Vicuna_unfiltered
COMMIT=$(printf 'aiperf test hub' | sha1sum | cut -c1-40)
# every hub started (also inside a test's subshell) is stopped at the end
trap 'for p in $(cat "$TMP/.hub.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done; cleanup' EXIT

# A ShareGPT file whose first two entries pass the filter.
mkdir -p "$TMP/root/datasets/$REPO"
cat >"$TMP/root/datasets/$REPO/$FILE" <<'J'
[{"id": "a", "conversations": [
   {"from": "human", "value": "What is the capital city of France?"},
   {"from": "gpt", "value": "The capital city of France is Paris."}]},
 {"id": "b", "conversations": [
   {"from": "human", "value": "Write a haiku about the sea, please."},
   {"from": "gpt", "value": "Waves fold into foam / salt wind carries gull voices / the tide keeps its time"},
   {"from": "human", "value": "Thanks!"}]},
 {"id": "c", "conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello there, how can I help?"}]}]
J
SHA=$(sha256sum "$TMP/root/datasets/$REPO/$FILE" | cut -c1-64)

# start_hub [options]: the mock hub on a free port; sets HF_ENDPOINT.
start_hub() {
	rm -f "$TMP/.hub.url"
	python3 "$TOP/tests/cli/hfhub-mock.py" "$TMP/root" "$@" >"$TMP/.hub.url" 2>"$TMP/.hub.err" &
	HUB_PID=$!
	echo "$HUB_PID" >>"$TMP/.hub.pids"
	i=0
	while [ ! -s "$TMP/.hub.url" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	HF_ENDPOINT=$(head -1 "$TMP/.hub.url")
	export HF_ENDPOINT
	[ -n "$HF_ENDPOINT" ]
}

stop_hub() {
	kill "$HUB_PID" && wait "$HUB_PID" 2>/dev/null
	HUB_PID=
}

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 3 --public-dataset sharegpt \
		--request-count 3 "$@"
}

export HUB_LOG="$TMP/hub.log"
start_hub
URL="$HF_ENDPOINT/datasets/$REPO/resolve/main/$FILE"

test_expect_success 'the first run downloads into the datasets cache layout' '
	gen >first 2>err &&
	test "$(wc -l <first)" = 3 &&
	printf "%s\n" "aiperf-gen: downloading $URL into $HF_HOME/hub" >expect &&
	head -1 err >got && test_cmp expect got &&
	c="$HF_HOME/hub/$DIR" &&
	test "$(cat "$c/refs/main")" = "$COMMIT" &&
	test "$(wc -c <"$c/refs/main")" = 40 &&
	test -L "$c/snapshots/$COMMIT/$FILE" &&
	test "$(readlink "$c/snapshots/$COMMIT/$FILE")" = "../../blobs/$SHA" &&
	cmp "$c/blobs/$SHA" "root/datasets/$REPO/$FILE" &&
	test "$(ls -A "$c/blobs")" = "$SHA"
'

test_expect_success 'one request to the hub, one to the CDN it redirects to' '
	test "$(wc -l <hub.log)" = 2 &&
	grep -qx "GET /datasets/$REPO/resolve/main/$FILE" hub.log &&
	grep -q "^GET /cdn/$SHA?" hub.log
'

test_expect_success 'the records hold the first two entries, in file order' '
	jq -r .conversation_id first >ids &&
	printf "%s\n" session_000000 session_000001 session_000000 >expect &&
	test_cmp expect ids &&
	jq -r ".payload.messages[0].content" first | head -2 >prompts &&
	printf "%s\n" "What is the capital city of France?" \
		"Write a haiku about the sea, please." >expect &&
	test_cmp expect prompts
'

test_expect_success 'a second run reads the cache, with the hub gone' '
	stop_hub &&
	gen >second 2>err &&
	test_cmp first second &&
	test_cmp /dev/null err &&
	test "$(wc -l <hub.log)" = 2
'

test_expect_success 'HF_HUB_OFFLINE with the file cached' '
	HF_HUB_OFFLINE=1 gen >third &&
	test_cmp first third
'

test_expect_success 'offline and not cached: the message names where to put the file' '
	(export HF_HUB_OFFLINE=1 HF_HOME="$TMP/none" && test_expect_code 1 gen >out 2>err) &&
	test_cmp /dev/null out &&
	printf "%s\n" "aiperf-gen: --public-dataset sharegpt: '\''$REPO'\'' (revision main) is not in the HuggingFace cache '\''$TMP/none/hub'\'' and the hub is off limits (HF_HUB_OFFLINE): download $URL yourself and give it with --input-file FILE, or put it at ./.cache/aiperf/datasets/$FILE" >expect &&
	test_cmp expect err
'

test_expect_success 'the hub unreachable: the same advice' '
	(export HF_HOME="$TMP/none" && test_expect_code 1 gen >out 2>err) &&
	test_cmp /dev/null out &&
	grep -q "^aiperf-gen: --public-dataset sharegpt: cannot download '\''$URL'\'': " err &&
	grep -q "(to work offline download $URL yourself and give it with --input-file FILE, or put it at ./.cache/aiperf/datasets/$FILE)$" err &&
	test ! -e "$TMP/none/hub/$DIR/snapshots"
'

test_expect_success 'HF_HUB_CACHE, and TRANSFORMERS_OFFLINE as HF_HUB_OFFLINE' '
	mkdir -p "$TMP/other/$DIR" && cp -R "$HF_HOME/hub/$DIR/." "$TMP/other/$DIR/" &&
	HF_HUB_CACHE="$TMP/other" HF_HOME="$TMP/none" TRANSFORMERS_OFFLINE=1 gen >out &&
	test_cmp first out &&
	(export HF_HUB_CACHE="$TMP/none2" TRANSFORMERS_OFFLINE=1 && test_expect_code 1 gen 2>err) &&
	grep -q "HF_HUB_OFFLINE" err
'

test_expect_success 'the original'\''s own cache in the working directory comes first' '
	mkdir -p wd/.cache/aiperf/datasets &&
	sed "s/capital city of France/largest planet of the solar system/" \
		"root/datasets/$REPO/$FILE" >"wd/.cache/aiperf/datasets/$FILE" &&
	(cd wd && HF_HUB_OFFLINE=1 HF_HOME="$TMP/none" gen --request-count 1) >out &&
	test "$(jq -r ".payload.messages[0].content" out)" = \
		"What is the largest planet of the solar system?"
'

test_expect_success '--input-file is a local copy, before any cache' '
	sed "s/capital city of France/tallest mountain on Earth/" \
		"root/datasets/$REPO/$FILE" >copy.json &&
	(cd wd && gen --request-count 1 --input-file ../copy.json) >out &&
	test "$(jq -r ".payload.messages[0].content" out)" = \
		"What is the tallest mountain on Earth?" &&
	test_expect_code 1 gen --input-file missing.json 2>err &&
	grep -q "^aiperf-gen: cannot open '\''missing.json'\'': No such file" err
'

test_expect_success 'a download cut short leaves no file in the cache' '
	start_hub --cut &&
	(export HF_HOME="$TMP/cut" && test_expect_code 1 gen >out 2>err) &&
	stop_hub &&
	test_cmp /dev/null out &&
	grep -q "cannot download" err &&
	test ! -e "$TMP/cut/hub/$DIR/snapshots" && test ! -e "$TMP/cut/hub/$DIR/refs" &&
	test -z "$(ls -A "$TMP/cut/hub/$DIR/blobs")"
'

test_expect_success 'a file the hub does not have: HTTP 404' '
	mv "root/datasets/$REPO/$FILE" moved.json &&
	start_hub &&
	(export HF_HOME="$TMP/404" && test_expect_code 1 gen 2>err) &&
	stop_hub &&
	mv moved.json "root/datasets/$REPO/$FILE" &&
	grep -q "HTTP 404 (no such repository, revision or file)" err
'

# A file big enough to download in several pieces (about 1.3 MB).
python3 - "$TMP/root/datasets/$REPO/$FILE" <<'P'
import json, sys
e = {"conversations": [{"from": "human", "value": "Tell me about number %d please"},
                       {"from": "gpt", "value": "It is a number, one of many, " * 10}]}
rows = [json.loads(json.dumps(e).replace("%d", str(i))) for i in range(4000)]
json.dump(rows, open(sys.argv[1], "w"))
P

test_expect_success 'on a terminal: a progress line redrawn, ending at 100%' '
	command -v script >/dev/null || skip_because "script(1) is not installed" &&
	start_hub --slow 40 &&
	HF_HOME="$TMP/tty" script -qec "aiperf-gen -m m --tokenizer builtin --public-dataset sharegpt --request-count 1 >/dev/null" /dev/null >tty.out &&
	stop_hub &&
	tr "\r" "\n" <tty.out | grep "downloading $FILE: " >lines &&
	test "$(wc -l <lines)" -ge 3 &&
	tail -1 lines | grep -q "of 1\.[0-9] MB (100%), [0-9.]* MB/s"
'

test_expect_success 'not on a terminal: the start line and one line at the end' '
	start_hub --slow 5 &&
	HF_HOME="$TMP/notty" gen >/dev/null 2>err &&
	stop_hub &&
	test "$(wc -l <err)" = 2 &&
	! grep -q "$(printf "\r")" err &&
	tail -1 err | grep -q "^aiperf-gen: downloading $FILE: 1\.[0-9] of 1\.[0-9] MB (100%)"
'

test_done
