#!/bin/sh
# aiperf-gen --public-dataset for the original's media datasets (mmstar,
# vision_arena, llava_onevision, mmvu and the five ASR sets) from fixture
# rows in HF's undecoded form (tests/data/public/media, made by
# tests/public/make-media-fixtures.py): the messages sent are what the
# reference (tests/public/ref-media.py) builds, from a folder, from a
# loopback hub that serves the viewer's {"src": URL} cells with signed
# asset URLs (tests/hub/fake-hub.py --media), and offline from the cache
# that run filled (the media stored inline); hostile cells.
# shellcheck disable=SC2016,SC2154 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"

unset HF_TOKEN HF_TOKEN_PATH HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE \
	HF_DATASETS_OFFLINE TRANSFORMERS_OFFLINE AIPERF_HUB_ROWS_URL XDG_CACHE_HOME \
	AIPERF_FFMPEG
export HF_HOME="$TMP/hfhome" AIPERF_CACHE_DIR="$TMP/aicache"
FIX=$TOP/tests/data/public/media
REF=$TOP/tests/public/ref-media.py
MEDIA="mmstar vision_arena llava_onevision mmvu librispeech voxpopuli gigaspeech ami spgispeech"
export FIX REF MEDIA
trap 'for p in $(cat "$TMP/.hub.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done; cleanup' EXIT

# hub ROOT NAME: a fake hub serving ROOT with --media; its URL in NAME.url
hub() {
	rm -f "$TMP/$2.port"
	python3 "$TOP/tests/hub/fake-hub.py" --root "$1" --media \
		--port-file "$TMP/$2.port" --log "$TMP/$2.log" --idle 60 --max 300 &
	echo $! >>"$TMP/.hub.pids"
	i=0
	while [ ! -s "$TMP/$2.port" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	echo "http://127.0.0.1:$(cat "$TMP/$2.port")" >"$TMP/$2.url"
	touch "$TMP/$2.log"
}
hub "$FIX" main
start_mock --ttft-ms 1 --itl-ms 1 || exit 1
export MOCK_URL
CLOSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export CLOSED

# got NAME [options]: the first user message of each of the reference's
# conversations and one more (sequential sampling wraps to the first), normalized
got() {
	name=$1
	shift
	python3 "$REF" --root "$FIX" --dataset "$name" >"$name.ref" &&
	n=$(wc -l <"$name.ref") &&
	test "$n" -gt 0 &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --public-dataset "$name" \
		--num-sessions $((n + 1)) "$@" >"$name.rec" 2>"$name.err" &&
	python3 "$REF" --normalize <"$name.rec" >"$name.all" &&
	head -n "$n" "$name.all" >"$name.got" &&
	test_cmp "$name.ref" "$name.got" &&
	tail -n 1 "$name.all" >"$name.wrap" &&
	head -n 1 "$name.ref" | cmp - "$name.wrap"
}

test_expect_success 'each media dataset from --public-dataset-dir: the reference'"'"'s messages' '
	for d in $MEDIA; do
		got "$d" --public-dataset-dir "$FIX" || { echo "dataset $d"; cat "$d.err"; exit 1; }
	done &&
	test "$(wc -l <mmstar.ref)" = 5 && test "$(wc -l <vision_arena.ref)" = 4 &&
	test "$(wc -l <mmvu.ref)" = 3 && test "$(wc -l <voxpopuli.ref)" = 1 &&
	grep -q "column '"'"'images'"'"': not a valid JPEG image: Premature end of JPEG file; the row goes without it" vision_arena.err &&
	grep -q "column '"'"'image'"'"': not an image" llava_onevision.err &&
	grep -q "Row has no video in column '"'"'video'"'"'" mmvu.err &&
	grep -q "column '"'"'audio'"'"': WAV: fmt chunk is truncated; the row is skipped" gigaspeech.err
'

test_expect_success 'from the hub: {"src"} cells fetched, stored inline in the cache; offline again' '
	AIPERF_HUB_ROWS_URL=$(cat main.url) &&
	export AIPERF_HUB_ROWS_URL &&
	for d in $MEDIA; do
		got "$d" || { echo "dataset $d"; cat "$d.err"; exit 1; }
	done &&
	grep -q "GET /assets/Lin-Chen/MMStar/--/default/val/0/image/0/0.jpg?Expires=" main.log &&
	grep -q "GET /assets/openslr/librispeech_asr/--/clean/test/1/audio/0/1089-0001.flac" main.log &&
	c=$AIPERF_CACHE_DIR/datasets &&
	! grep -rl "\"src\"" "$c" &&
	! grep -rl Signature "$c" &&
	jq -e -s "all(.[]; .image | keys == [\"bytes\", \"path\"])" "$c/Lin-Chen/MMStar/default/val.jsonl" &&
	jq -e -s ".[0].images[0].path == \"c0.png\"" "$c"/lmarena-ai/VisionArena-Chat/default/train*.jsonl &&
	ls "$c"/openslr/librispeech_asr/clean/test*.jsonl | head -n 1 >a.path &&
	jq -e -s ".[1].audio.path == \"1089-0001.flac\"" "$(cat a.path)" &&
	logn=$(wc -l <main.log) &&
	AIPERF_HUB_ROWS_URL=$CLOSED HF_HUB_OFFLINE=1 &&
	export AIPERF_HUB_ROWS_URL HF_HUB_OFFLINE &&
	for d in $MEDIA; do
		mv "$d.got" "$d.hub" &&
		got "$d" && cmp "$d.hub" "$d.got" || { echo "offline $d"; cat "$d.err"; exit 1; }
	done &&
	test "$(wc -l <main.log)" = "$logn"
'

# bad ROW_JSON: a one-row MMStar split in the folder bad/
bad() {
	mkdir -p bad/Lin-Chen/MMStar/default &&
	printf "%s\n" "$1" >bad/Lin-Chen/MMStar/default/val.jsonl
}

test_expect_success 'hostile cells in a folder: missing, bad base64, an unsupported format, a {"src"} offline' '
	bad "{\"question\": \"q\"}" &&
	aiperf-gen -m m --tokenizer builtin --public-dataset mmstar --public-dataset-dir bad \
		--num-sessions 1 >r.out &&
	jq -e ".payload.messages[0].content == \"q\"" r.out &&
	bad "{\"question\": \"q\", \"image\": {\"bytes\": \"AAA*\", \"path\": \"x.png\"}}" &&
	! aiperf-gen -m m --tokenizer builtin --public-dataset mmstar --public-dataset-dir bad \
		--num-sessions 1 2>err >/dev/null &&
	grep "column '"'"'image'"'"': base64: not a base64 character at offset 3" err &&
	bad "{\"question\": \"q\", \"image\": {\"bytes\": \"R0lGODlhAQABAAAAACw=\", \"path\": \"x.gif\"}}" &&
	! aiperf-gen -m m --tokenizer builtin --public-dataset mmstar --public-dataset-dir bad \
		--num-sessions 1 2>err >/dev/null &&
	grep "column '"'"'image'"'"': a '"'"'image/gif'"'"' image is not decoded here (PNG and JPEG are)" err &&
	bad "{\"question\": \"q\", \"image\": {\"src\": \"http://127.0.0.1:1/x.png?Signature=k\"}}" &&
	! HF_HUB_OFFLINE=1 aiperf-gen -m m --tokenizer builtin --public-dataset mmstar \
		--public-dataset-dir bad --num-sessions 1 2>err >/dev/null &&
	grep "off limits (offline)" err
'

test_expect_success 'hostile assets on the hub: gone (404), over 64 MiB: errors naming row, column and URL, no cache' '
	python3 -c "
import json, base64
r = json.loads(open(\"$FIX/Lin-Chen/MMStar/default/val.jsonl\").readline())
for name in (\"gone\", \"huge\"):
    r[\"image\"][\"path\"] = name + \".png\"
    d = \"h\" + name + \"/Lin-Chen/MMStar/default\"
    import os; os.makedirs(d)
    open(d + \"/val.jsonl\", \"w\").write(json.dumps(r) + \"\\n\" + json.dumps(r) + \"\\n\")
" &&
	hub "$TMP/hgone" gone && hub "$TMP/hhuge" huge &&
	for k in gone huge; do
		! AIPERF_HUB_ROWS_URL=$(cat $k.url) AIPERF_CACHE_DIR=$TMP/c-$k aiperf-gen -m m \
			--tokenizer builtin --public-dataset mmstar --num-sessions 1 2>$k.err >/dev/null &&
		cat $k.err &&
		! grep Signature $k.err &&
		! test -e "$TMP/c-$k/datasets/Lin-Chen/MMStar/default/val.jsonl" || exit 1
	done &&
	grep "row 0: column '"'"'image'"'"': cannot fetch '"'"'http://127.0.0.1:[0-9]*/assets/Lin-Chen/MMStar/--/default/val/0/image/0/gone.png'"'"': '"'"'.*'"'"': HTTP 404" gone.err &&
	grep "row 0: column '"'"'image'"'"': cannot fetch .*huge.png'"'"': .*more than 64 MiB" huge.err
'

test_expect_success 'audio that is not WAV without ffmpeg: the row skipped, the message names the package' '
	AIPERF_FFMPEG=/nonexistent/ffmpeg aiperf-gen -m m --tokenizer builtin \
		--public-dataset librispeech --public-dataset-dir "$FIX" --num-sessions 2 \
		>r.out 2>err &&
	grep "Debian package ffmpeg" err &&
	test "$(jq -r ".payload.messages[0].content[1].input_audio.data" r.out | sort -u | wc -l)" = 1
'

test_expect_success 'aiperf profile against aiperf-mock: the bodies sent (raw export) are aiperf-gen'"'"'s' '
	for d in mmstar llava_onevision mmvu librispeech; do
		aiperf-gen -m m --tokenizer builtin --random-seed 1 --public-dataset "$d" \
			--public-dataset-dir "$FIX" --request-count 3 2>/dev/null |
			python3 "$REF" --digest >"$d.want" &&
		test "$(wc -l <"$d.want")" = 3 &&
		aiperf profile --model m --url "$MOCK_URL" --tokenizer builtin --random-seed 1 \
			--public-dataset "$d" --public-dataset-dir "$FIX" --request-count 3 \
			--export-level raw --artifact-dir "p-$d" >"p-$d.out" 2>"p-$d.err" &&
		test "$(jq -r ".error // empty" "p-$d/profile_export_raw.jsonl" | wc -l)" = 0 &&
		python3 "$REF" --digest <"p-$d/profile_export_raw.jsonl" >"$d.sent" &&
		test_cmp "$d.want" "$d.sent" || { echo "dataset $d"; cat "p-$d.err"; exit 1; }
	done
'

test_done
