#!/bin/sh
# Raw records of multi-turn sessions with media (issue #17): the sender
# puts the earlier turns (with their images) into a later turn's body;
# every copy of an image in the raw records is the same marker, and the
# records stay small however many turns repeat it. Audio files of a
# random_pool directory ({name, contents} objects) reach the raw records
# as markers of their own bytes.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"
start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'setup: a 96x96 noise PNG (larger than 256 base64 chars) and a WAV file' '
	$PY -c "import os
from PIL import Image
Image.frombytes(\"RGB\", (96, 96), os.urandom(96 * 96 * 3)).save(\"n.png\")
import wave
w = wave.open(\"s.wav\", \"wb\")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
w.writeframes(os.urandom(4000)); w.close()" &&
	test "$(wc -c <n.png)" -gt 1000
'

test_expect_success 'a three-turn session: its image in every later body, one marker' '
	echo "{\"session_id\": \"s\", \"turns\": [{\"text\": \"one\", \"image\": \"n.png\"}, {\"text\": \"two\"}, {\"text\": \"three\"}]}" >mt.jsonl &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file mt.jsonl \
		--custom-dataset-type multi_turn --request-count 3 >req &&
	aiperf-send -u "$MOCK_URL" <req >raw &&
	test "$(wc -l <raw)" = 3 &&
	d=$(base64 -w0 n.png | wc -c) &&
	h=$(sha256sum <n.png | cut -d" " -f1) &&
	jq -r ".payload | .. | .url? // empty" raw | sort | uniq -c >got &&
	printf "%7d %s\n" 3 "data:image/png;base64,<elided: $d base64 chars, sha256 $h>" >want &&
	test_cmp want got &&
	test "$(jq -c ".payload.messages | length" raw | tr "\n" " ")" = "1 3 5 " &&
	test "$(wc -c <raw)" -lt "$d"
'

test_expect_success 'random_pool directory, audio by {name, contents}: markers of the file' '
	mkdir pool &&
	echo "{\"audios\": [{\"name\": \"a\", \"contents\": [\"s.wav\"]}], \"text\": \"hear\"}" >pool/a.jsonl &&
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file pool \
		--num-sessions 2 >req &&
	aiperf-send -u "$MOCK_URL" <req >raw &&
	d=$(base64 -w0 s.wav | wc -c) &&
	h=$(sha256sum <s.wav | cut -d" " -f1) &&
	jq -r ".payload.messages[0].content[1].input_audio.data" raw | sort -u >got &&
	echo "<elided: $d base64 chars, sha256 $h>" >want &&
	test_cmp want got
'

test_done
