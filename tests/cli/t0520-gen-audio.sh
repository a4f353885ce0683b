#!/bin/sh
# aiperf-gen synthetic audio: every WAV and MP3 it puts in input_audio
# parts decodes with independent decoders (Python's wave module, ffprobe,
# ffmpeg, file) with the asked length, sample rate, channels and depth;
# the same seed gives the same bytes; bad depths, formats, rates and
# lengths are refused with the original's messages.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"

# audio FILE [options]: the first audio part's bytes into FILE, its format
# into FILE.fmt
audio() {
	f=$1
	shift
	$G "$@" >rec || return 1
	jq -r ".payload.messages[0].content[1].input_audio.format" rec >"$f.fmt" &&
	jq -r ".payload.messages[0].content[1].input_audio.data" rec | base64 -d >"$f"
}

# wav_info FILE: "channels bytes-per-sample rate frames" by Python's wave
wav_info() {
	$PY -c 'import sys, wave
w = wave.open(sys.argv[1])
print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())' "$1"
}

test_expect_success 'WAV: every depth, both channel counts, decoded by wave and file' '
	for d in 8 16 24 32; do
		for c in 1 2; do
			audio a.wav --audio-length-mean 0.5 --audio-depths $d \
				--audio-num-channels $c --audio-sample-rates 22.05 || exit 1
			test "$(cat a.wav.fmt)" = wav || exit 1
			test "$(wav_info a.wav)" = "$c $((d / 8)) 22050 11025" || { wav_info a.wav; exit 1; }
			file a.wav | grep -q "WAVE audio, Microsoft PCM, $d bit" || { file a.wav; exit 1; }
		done
	done
'

test_expect_success 'WAV: the samples are noise around 0 within the depth (numpy)' '
	audio n.wav --audio-length-mean 1 --audio-depths 16 &&
	$PY -c "import sys, wave, numpy as np
w = wave.open(sys.argv[1])
x = np.frombuffer(w.readframes(w.getnframes()), dtype=\"<i2\") / 32767.0
assert abs(x.mean()) < 0.02, x.mean()
assert 0.27 < x.std() < 0.33, x.std()
assert len(set(x[:100])) > 50
" n.wav
'

test_expect_success 'MP3: each MPEG rate, mono and stereo: ffprobe and the decoded length' '
	for r in 8 11.025 16 22.05 32 44.1 48; do
		for c in 1 2; do
			audio a.mp3 --audio-format mp3 --audio-length-mean 0.7 \
				--audio-sample-rates $r --audio-num-channels $c || exit 1
			test "$(cat a.mp3.fmt)" = mp3 || exit 1
			hz=$(awk "BEGIN { printf \"%d\", $r * 1000 }")
			want=$(awk "BEGIN { printf \"%d\", 2 * int(0.7 * $hz) }")
			test "$(ffprobe -v error -show_entries stream=codec_name,sample_rate,channels \
				-of csv=p=0 a.mp3)" = "mp3,$hz,$c" || exit 1
			# LAME tag: decoders trim delay and padding to int(0.7 * rate)
			n=$(ffmpeg -v error -i a.mp3 -f s16le -ac 1 - | wc -c)
			test "$n" -eq "$want" || { echo "$r $c: $n bytes, want $want"; exit 1; }
			file a.mp3 | grep -q "MPEG ADTS, layer III" || exit 1
		done
	done
'

test_expect_success 'lengths from mean and stddev; rates and depths picked from the lists' '
	$G --num-dataset-entries 40 --request-count 40 --audio-length-mean 0.3 \
		--audio-length-stddev 0.1 --audio-sample-rates 8,16 --audio-depths "[8, 16]" \
		--audio-batch-size 2 >recs &&
	test "$(jq "[.payload.messages[0].content[] | select(.type == \"input_audio\")] | length" recs |
		sort -u)" = 2 &&
	jq -r ".payload.messages[0].content[] | select(.type == \"input_audio\") | .input_audio.data" recs |
	while read -r d; do
		echo "$d" | base64 -d >x.wav && wav_info x.wav || exit 1
	done >info &&
	test "$(wc -l <info)" -eq 80 &&
	test "$(cut -d" " -f2,3 info | sort -u | tr "\n" ";")" = "1 16000;1 8000;2 16000;2 8000;" &&
	awk "{ s = \$4 / \$3; if (s < 0.01 || s > 1) bad++; sum += s; ss += s * s }
		END { m = sum / NR; sd = sqrt(ss / NR - m * m)
			if (bad || m < 0.25 || m > 0.35 || sd < 0.06 || sd > 0.14) { print m, sd, bad; exit 1 } }" info
'

test_expect_success 'the same seed gives the same audio, another seed other audio' '
	audio s1.mp3 --audio-format mp3 --audio-length-mean 0.2 &&
	audio s2.mp3 --audio-format mp3 --audio-length-mean 0.2 &&
	cmp s1.mp3 s2.mp3 &&
	audio s3.mp3 --audio-format mp3 --audio-length-mean 0.2 --random-seed 2 &&
	! cmp -s s1.mp3 s3.mp3
'

test_expect_success 'no audio without a length mean; --batch-size-audio 0: none' '
	$G --audio-format mp3 | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got &&
	$G --audio-length-mean 1 --batch-size-audio 0 | payload_t >got &&
	test_cmp expect got
'

test_expect_success 'a bad depth, format, MP3 rate, channel count or length is refused' '
	test_expect_code 2 $G --audio-length-mean 1 --audio-depths 12 2>err &&
	grep -q "Unsupported bit depth: 12. Supported bit depths are: \[8, 16, 24, 32\]" err &&
	test_expect_code 2 $G --audio-length-mean 1 --audio-format flac 2>err &&
	grep -q "audio-format" err &&
	test_expect_code 2 $G --audio-length-mean 1 --audio-format mp3 --audio-sample-rates 44 2>err &&
	grep -q "MP3 format only supports the following sample rates (in Hz).*Got 44000 Hz" err &&
	test_expect_code 2 $G --audio-length-mean 1 --audio-num-channels 3 2>err &&
	grep -q "audio-num-channels" err &&
	test_expect_code 2 $G --audio-length-mean 0.001 2>err &&
	grep -q "Audio length must be greater than 0.01 seconds" err &&
	test_expect_code 2 $G --audio-length-mean 100000 2>err &&
	grep -q "audio-length-mean" err &&
	test_expect_code 2 $G --audio-length-mean 1 --audio-sample-rates 0 2>err &&
	grep -q "audio-sample-rates" err &&
	test_expect_code 2 $G --audio-length-mean 1 --audio-depths x 2>err &&
	grep -q "invalid value for --audio-depths" err
'

test_done
