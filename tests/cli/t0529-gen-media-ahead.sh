#!/bin/sh
# aiperf-gen makes every media item before it writes its first request
# record (issue #17), so no encoding runs while aiperf-send measures: under
# strace, every image, audio and video file a dataset names is opened, and
# ffmpeg (the synthetic video) has run, before the first write to standard
# output; and each distinct file is opened once however many turns name it.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
if ! command -v strace >/dev/null 2>&1 || ! strace -o /dev/null true 2>/dev/null; then
	test_skip_all "no strace"
fi
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"

# traced STRACE-ARGS...: strace, with LeakSanitizer off (it cannot run
# under ptrace) for sanitizer builds
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace "$@"
}

# ahead TRACE PATTERN: the last line matching PATTERN comes before the
# first write to standard output, and there is one. (With -f, strace
# splits a call that another process interrupts into "<unfinished ...>"
# and "<... resumed>" lines: match what a split cannot cut. It pads a
# short pid with spaces.)
ahead() {
	first=$(grep -n "write(1, \"{" "$1" | head -1 | cut -d: -f1) &&
	last=$(grep -n -- "$2" "$1" | tail -1 | cut -d: -f1) &&
	test -n "$first" && test -n "$last" && test "$last" -lt "$first"
}

test_expect_success 'setup: an image, a WAV and a WebM file' '
	$PY -c "from PIL import Image
Image.new(\"RGB\", (4, 4), (1, 2, 3)).save(\"i.png\")
import wave
w = wave.open(\"s.wav\", \"wb\")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
w.writeframes(bytes(800)); w.close()" &&
	ffmpeg -v error -f lavfi -i testsrc=size=16x16:rate=2:duration=1 \
		-c:v libvpx-vp9 -f webm v.webm
'

test_expect_success 'single_turn and multi_turn files: every file read before the first record' '
	for i in 1 2 3 4 5 6; do
		echo "{\"text\": \"t$i\", \"image\": \"i.png\", \"audio\": \"s.wav\", \"video\": \"v.webm\"}"
	done >st.jsonl &&
	traced -f -e trace=open,openat,write -o tr aiperf-gen -m m --tokenizer builtin \
		--input-file st.jsonl --custom-dataset-type single_turn --request-count 6 >rec &&
	test "$(wc -l <rec)" = 6 &&
	ahead tr "\"i.png\"" && ahead tr "\"s.wav\"" && ahead tr "\"v.webm\"" &&
	test "$(grep -c "\"i.png\"" tr)" = 1 &&
	test "$(grep -c "\"s.wav\"" tr)" = 1 &&
	echo "{\"turns\": [{\"text\": \"a\", \"image\": \"i.png\"}, {\"text\": \"b\", \"images\": [\"i.png\"]}]}" >mt.jsonl &&
	traced -f -e trace=open,openat,write -o tr aiperf-gen -m m --tokenizer builtin \
		--input-file mt.jsonl --custom-dataset-type multi_turn >rec &&
	ahead tr "\"i.png\"" && test "$(grep -c "\"i.png\"" tr)" = 1
'

test_expect_success 'random_pool: pool files encoded while the pool is loaded' '
	printf "%s\n" "{\"type\": \"random_pool\", \"image\": \"i.png\", \"audios\": [\"s.wav\"]}" \
		"{\"text\": \"x\", \"videos\": [{\"name\": \"v\", \"contents\": [\"v.webm\"]}]}" >rp.jsonl &&
	traced -f -e trace=open,openat,write -o tr aiperf-gen -m m --tokenizer builtin \
		--random-seed 1 --input-file rp.jsonl --num-sessions 8 >rec &&
	test "$(wc -l <rec)" = 8 &&
	ahead tr "\"i.png\"" && ahead tr "\"s.wav\"" && ahead tr "\"v.webm\""
'

test_expect_success 'synthetic images, audio and video: ffmpeg has run before the first record' '
	traced -f -e trace=execve,write -o tr aiperf-gen -m m --tokenizer builtin \
		--random-seed 1 --isl 5 --num-dataset-entries 3 --request-count 6 \
		--image-width-mean 16 --image-height-mean 16 --audio-length-mean 0.2 \
		--video-width 32 --video-height 32 --video-duration 1 >rec &&
	test "$(wc -l <rec)" = 6 &&
	pids=$(awk "\$2 ~ /^execve\\(\"[^\"]*\\/ffmpeg\"/ { print \$1 }" tr | sort -u) &&
	test -n "$pids" &&
	for p in $pids; do ahead tr "^$p *+++ exited with 0 +++" || exit 1; done &&
	test "$(jq -r "[.payload.messages[0].content[].type] | join(\" \")" rec | sort -u)" = \
		"text image_url input_audio video_url"
'

test_done
