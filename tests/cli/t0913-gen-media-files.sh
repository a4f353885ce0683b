#!/bin/sh
# Issue #27 R6, R22: a file a dataset names for an image, audio or video
# is read only if it is a regular file, its size checked before it is
# read: a FIFO or a device is refused at once (it would block forever, or
# be read without end), and every such error names the dataset's
# file:line, a missing audio file's too.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

# gen FILE TYPE: aiperf-gen on dataset FILE; a watchdog stops one that
# blocks (the defect), which then fails the test as any other status would
gen() {
	timeout 60 aiperf-gen -m m --tokenizer builtin --random-seed 1 \
		--input-file "$1" --custom-dataset-type "$2" >out
}

# refused FILE TYPE "why": exit 1, "aiperf-gen: FILE:2: why", nothing written
refused() {
	test_expect_code 1 gen "$1" "$2" 2>err &&
	echo "aiperf-gen: $1:2: $3" >want && test_cmp want err && test_cmp /dev/null out
}

test_expect_success 'a FIFO named as an image, audio or video is refused at once' '
	mkfifo pipe.png pipe.wav pipe.mp4 &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"image\":\"pipe.png\"}" >i.jsonl &&
	refused i.jsonl single_turn "image '\''pipe.png'\'': Not a regular file" &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"audio\":\"pipe.wav\"}" >a.jsonl &&
	refused a.jsonl single_turn "cannot open audio file '\''pipe.wav'\'': Not a regular file" &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"video\":\"pipe.mp4\"}" >v.jsonl &&
	refused v.jsonl single_turn "cannot open video file '\''pipe.mp4'\'': Not a regular file"
'

test_expect_success 'a device or a directory named as media is refused' '
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"image\":\"/dev/null\"}" >n.jsonl &&
	refused n.jsonl single_turn "image '\''/dev/null'\'': Not a regular file" &&
	mkdir d.wav &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"audios\":[\"d.wav\"]}" >d.jsonl &&
	refused d.jsonl single_turn "cannot open audio file '\''d.wav'\'': Is a directory"
'

test_expect_success 'a file over the cap is refused by its size, before it is read' '
	truncate -s 65M big.png && truncate -s 257M big.wav &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"image\":\"big.png\"}" >bi.jsonl &&
	refused bi.jsonl single_turn "image '\''big.png'\'': larger than 64 MiB" &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"audio\":\"big.wav\"}" >ba.jsonl &&
	refused ba.jsonl single_turn "audio file '\''big.wav'\'' is too large (at most 256 MiB)"
'

MISSING="audio 'missing.wav': no such file, and not a URL or a \"format,base64\" string"

test_expect_success 'a missing audio file names the dataset file and line (single_turn, streamed and held)' '
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"audio\":\"missing.wav\"}" >m.jsonl &&
	refused m.jsonl single_turn "$MISSING" &&
	printf "%s\n" "{\"text\":\"a\",\"session_id\":\"s\"}" \
		"{\"text\":\"b\",\"audio\":\"missing.wav\",\"session_id\":\"s\"}" >ms.jsonl &&
	refused ms.jsonl single_turn "$MISSING"
'

test_expect_success 'a missing audio or video file names file:line (multi_turn, random_pool)' '
	printf "%s\n" "{\"turns\":[{\"text\":\"a\"}]}" \
		"{\"turns\":[{\"text\":\"a\"},{\"text\":\"b\",\"audio\":\"missing.wav\"}]}" >mt.jsonl &&
	refused mt.jsonl multi_turn "$MISSING" &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"videos\":[\"missing.mp4\"]}" >p.jsonl &&
	refused p.jsonl random_pool "video '\''missing.mp4'\'': no such file, and not a URL"
'

test_expect_success 'a regular audio file and a format,base64 string are still sent' '
	printf "RIFF" >ok.wav &&
	printf "%s\n" "{\"text\":\"a\",\"audio\":\"ok.wav\"}" "{\"text\":\"b\",\"audio\":\"wav,UklGRg==\"}" >ok.jsonl &&
	gen ok.jsonl single_turn &&
	test -s out &&
	test "$(grep -c "\"data\":\"UklGRg==\",\"format\":\"wav\"" out)" -eq "$(wc -l <out)"
'

test_done
