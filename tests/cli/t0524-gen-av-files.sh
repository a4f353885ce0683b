#!/bin/sh
# aiperf-gen audio(s) and video(s) fields in single_turn, multi_turn and
# random_pool files: a local file is read and encoded (audio as
# "format,b64", video as a data: URL) byte for byte; URLs, data: URLs and
# "format,b64" strings pass through; a missing file or an unknown audio
# format is a clear error.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
G="aiperf-gen -m m --tokenizer builtin --random-seed 1"

test_expect_success 'setup: a WAV file (Python) and a WebM file (ffmpeg)' '
	$PY -c "import wave
w = wave.open(\"s.wav\", \"wb\")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
w.writeframes(bytes(range(256)) * 10)
w.close()" &&
	ffmpeg -v error -f lavfi -i testsrc=size=32x32:rate=2:duration=1 \
		-c:v libvpx-vp9 -f webm s.webm &&
	test -s s.wav && test -s s.webm
'

# parts N: the content parts of record N (1-based) of rec as "type:x" lines
parts() {
	sed -n "${1}p" rec | jq -r ".payload.messages[-1].content |
		if type == \"string\" then \"string\" else .[] |
		if .type == \"text\" then \"text:\" + .text
		elif .type == \"input_audio\" then \"audio:\" + .input_audio.format + \":\" + (.input_audio.data | .[0:24])
		else \"video:\" + (.video_url.url | .[0:40]) end end"
}

test_expect_success 'single_turn: local files encoded, URLs and format,b64 passed through' '
	cat >st.jsonl <<-\EOF &&
	{"text": "hi", "audio": "s.wav"}
	{"texts": ["a", "b"], "audios": ["s.wav", "https://h/x.mp3"], "video": "s.webm"}
	{"audio": "mp3,AAAA", "videos": ["https://h/v.mp4", "data:video/mp4;base64,AAAA"]}
	EOF
	$G --input-file st.jsonl --custom-dataset-type single_turn --request-count 3 >rec &&
	parts 1 >got &&
	printf "%s\n" "text:hi" "audio:wav:$(base64 -w0 s.wav | cut -c1-24)" >want &&
	test_cmp want got &&
	parts 2 >got &&
	printf "%s\n" text:a text:b "audio:wav:$(base64 -w0 s.wav | cut -c1-24)" \
		"audio:mp3:https://h/x.mp3" "video:data:video/webm;base64,$(base64 -w0 s.webm | cut -c1-17)" >want &&
	test_cmp want got &&
	parts 3 >got &&
	printf "%s\n" audio:mp3:AAAA video:https://h/v.mp4 "video:data:video/mp4;base64,AAAA" >want &&
	test_cmp want got
'

test_expect_success 'the encoded bytes are the files'"'"' own' '
	sed -n 2p rec | jq -r ".payload.messages[0].content[2].input_audio.data" | base64 -d >a.out &&
	cmp s.wav a.out &&
	sed -n 2p rec | jq -r ".payload.messages[0].content[4].video_url.url" | cut -d, -f2 | base64 -d >v.out &&
	cmp s.webm v.out
'

test_expect_success 'multi_turn and random_pool carry them too' '
	echo "{\"session_id\": \"s\", \"turns\": [{\"text\": \"one\"}, {\"text\": \"two\", \"audio\": \"s.wav\", \"video\": \"s.webm\"}]}" >mt.jsonl &&
	$G --input-file mt.jsonl --custom-dataset-type multi_turn --request-count 2 >rec &&
	parts 1 >got && echo string >want && test_cmp want got &&
	test "$(parts 2 | cut -d: -f1 | tr "\n" " ")" = "text audio video " &&
	echo "{\"audios\": [\"s.wav\"], \"text\": \"p\"}" >pool.jsonl &&
	$G --input-file pool.jsonl --custom-dataset-type random_pool --request-count 2 >rec &&
	test "$(parts 1 | cut -d: -f1 | tr "\n" " ")" = "text audio "
'

test_expect_success 'a missing file, an unknown audio format: clear errors, nothing written' '
	echo "{\"text\": \"a\", \"audio\": \"nosuch.wav\"}" >bad.jsonl &&
	test_expect_code 1 $G --input-file bad.jsonl --custom-dataset-type single_turn >out 2>err &&
	test ! -s out &&
	grep -q "audio .nosuch.wav.: no such file, and not a URL or a \"format,base64\" string" err &&
	echo "{\"text\": \"a\", \"video\": \"nosuch.mp4\"}" >bad.jsonl &&
	test_expect_code 1 $G --input-file bad.jsonl --custom-dataset-type single_turn >out 2>err &&
	grep -q "video .nosuch.mp4.: no such file, and not a URL" err &&
	cp s.wav s.flac &&
	echo "{\"text\": \"a\", \"audio\": \"s.flac\"}" >bad.jsonl &&
	test_expect_code 1 $G --input-file bad.jsonl --custom-dataset-type single_turn >out 2>err &&
	grep -q "audio file .s.flac.: unsupported format .flac. (wav or mp3)" err
'

test_done
