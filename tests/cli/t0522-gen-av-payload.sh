#!/bin/sh
# aiperf-gen chat payloads with audio and video parts (spec 6.3), golden
# at a fixed seed: text parts, then input_audio ({data, format} from the
# original's "format,b64" form), then video_url (a data: URL). The audio
# bytes are ours (a WAV of seeded noise) and golden whole; the video's are
# ffmpeg's, so the golden has VIDEO for its URL and the URL is decoded.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"
AV="--audio-length-mean 0.01 --audio-sample-rates 8 --audio-depths 8 --video-width 16 --video-height 16 --video-fps 1 --video-duration 1"

# the payload, prompts T, the video URL VIDEO
payload_v() {
	payload_t | sed 's/"data:video\/webm;base64,[^"]*"/"VIDEO"/g'
}

test_expect_success 'chat: a text, an audio and a video part (golden)' '
	$G $AV --osl 3 >rec &&
	payload_v <rec >got &&
	cat >expect <<-\EOF &&
	{"messages":[{"role":"user","content":[{"type":"text","text":"T"},{"type":"input_audio","input_audio":{"data":"UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAAAxgn5aRmpognlCppuqYWX3eWROqZtRiJyUUMSYXN6VgWE7bJaKSpqvYnl8l2S8pWeMeWSFhogmZDdNw302n1tgUq+mi1iZaJVzcmp5T71kbQ==","format":"wav"}},{"type":"video_url","video_url":{"url":"VIDEO"}}]}],"model":"m","stream":false,"max_completion_tokens":3}
	EOF
	test_cmp expect got &&
	jq -r ".payload.messages[0].content[2].video_url.url" rec | cut -d, -f2 | base64 -d >v.webm &&
	test "$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 v.webm)" = "vp9,16,16"
'

test_expect_success 'chat: batches keep the order texts, audios, videos' '
	$G $AV -b 2 --audio-batch-size 2 --video-batch-size 2 | jq -c "[.payload.messages[0].content[].type]" >got &&
	echo "[\"text\",\"text\",\"input_audio\",\"input_audio\",\"video_url\",\"video_url\"]" >expect &&
	test_cmp expect got
'

test_expect_success 'chat streaming: the same parts, then stream' '
	$G $AV --streaming | payload_v >got &&
	grep -q "\"video_url\":{\"url\":\"VIDEO\"}}\]}\],\"model\":\"m\",\"stream\":true}\$" got &&
	grep -q "\"format\":\"wav\"" got
'

test_expect_success 'MP3 audio: format mp3 and MPEG bytes' '
	$G --audio-length-mean 0.1 --audio-format mp3 >rec &&
	test "$(jq -r ".payload.messages[0].content[1].input_audio.format" rec)" = mp3 &&
	jq -r ".payload.messages[0].content[1].input_audio.data" rec | base64 -d >a.mp3 &&
	file a.mp3 | grep -q "MPEG ADTS, layer III"
'

test_done
