#!/bin/sh
# aiperf-gen synthetic video: frames drawn in C, encoded by ffmpeg; every
# video_url data: URL decodes with ffprobe to the asked codec, container,
# size, frame rate, duration and frame count, its frames move; the video
# is made once and shared; ffmpeg missing, an unknown codec or format and
# sizes past the bounds are clear errors. Videos are tiny (encoding is slow).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

a_corpus
G="aiperf-gen -m m --tokenizer builtin --corpus $TMP/a.txt --isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1"
V="--video-width 64 --video-height 48 --video-duration 1 --video-fps 4"

# video FILE FORMAT [options]: the first video part's bytes into FILE
video() {
	f=$1 fmt=$2
	shift 2
	$G "$@" >rec || return 1
	url=$(jq -r ".payload.messages[0].content[1].video_url.url" rec) &&
	case $url in "data:video/$fmt;base64,"*) ;; *) echo "url: $(echo "$url" | cut -c1-40)"; return 1 ;; esac &&
	echo "${url#*,}" | base64 -d >"$f"
}

probe() {
	ffprobe -v error -count_frames -show_entries \
		stream=codec_name,width,height,r_frame_rate,nb_read_frames,pix_fmt:format=format_name \
		-of default=nw=1:nk=1 "$1" | tr "\n" " "
}

test_expect_success 'webm / libvpx-vp9 (the defaults), moving_shapes' '
	video v.webm webm $V &&
	test "$(probe v.webm)" = "vp9 64 48 yuv420p 4/1 4 matroska,webm " || { probe v.webm; exit 1; } &&
	d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 v.webm) &&
	awk "BEGIN { exit !($d > 0.99 && $d < 1.01) }"
'

test_expect_success 'mp4 / libx264, grid_clock, 2 s at 5 fps' '
	video v.mp4 mp4 --video-width 64 --video-height 64 --video-duration 2 \
		--video-fps 5 --video-format mp4 --video-codec libx264 \
		--video-synth-type grid_clock &&
	test "$(probe v.mp4)" = "h264 64 64 yuv420p 5/1 10 mov,mp4,m4a,3gp,3g2,mj2 " || { probe v.mp4; exit 1; } &&
	d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 v.mp4) &&
	awk "BEGIN { exit !($d > 1.99 && $d < 2.01) }"
'

test_expect_success 'the frames differ from one another and are not blank' '
	ffmpeg -v error -i v.webm -f rawvideo -pix_fmt gray - >frames &&
	test "$(wc -c <frames)" -eq $((64 * 48 * 4)) &&
	split -b $((64 * 48)) frames f. &&
	! cmp -s f.aa f.ab && ! cmp -s f.ab f.ac &&
	test "$(od -An -tu1 -v f.aa | tr -s " " "\n" | awk "\$1 > 64" | wc -l)" -gt 50
'

test_expect_success 'one video for every turn and batch item; same bytes every run' '
	$G --num-dataset-entries 3 --request-count 3 --video-batch-size 2 $V >recs &&
	test "$(jq -r ".payload.messages[0].content[] | select(.type == \"video_url\") | .video_url.url" recs |
		sort -u | wc -l)" -eq 1 &&
	test "$(jq "[.payload.messages[0].content[] | select(.type == \"video_url\")] | length" recs |
		sort -u)" = 2 &&
	video v2.webm webm $V && cmp v.webm v2.webm
'

test_expect_success 'no video without both width and height' '
	$G --video-width 64 | payload_t >got &&
	echo "{\"messages\":[{\"role\":\"user\",\"content\":\"T\"}],\"model\":\"m\",\"stream\":false}" >expect &&
	test_cmp expect got
'

test_expect_success 'ffmpeg missing: a clear error naming the Debian package' '
	test_expect_code 1 env PATH="$TOP/bin" aiperf-gen -m m --tokenizer builtin \
		--corpus "$TMP/a.txt" --isl 5 --request-count 1 --num-dataset-entries 1 $V \
		>out 2>err &&
	grep -q "FFmpeg binary not found.*Debian package ffmpeg" err &&
	test ! -s out
'

test_expect_success 'an unknown codec: ffmpeg'"'"'s own message' '
	test_expect_code 1 $G $V --video-codec nosuchcodec >out 2>err &&
	grep -q "ffmpeg failed to create the video (codec nosuchcodec, format webm, size 64x48, fps 4):" err &&
	grep -qi "encoder" err
'

test_expect_success 'unknown format or synth type, sizes past the bounds: usage errors' '
	test_expect_code 2 $G $V --video-format avi 2>err &&
	grep -q "video-format" err &&
	test_expect_code 2 $G $V --video-synth-type static 2>err &&
	grep -q "video-synth-type" err &&
	test_expect_code 2 $G --video-width 100000 --video-height 64 2>err &&
	grep -q "video-width" err &&
	test_expect_code 2 $G --video-width 8192 --video-height 8192 --video-fps 240 \
		--video-duration 3600 2>err &&
	grep -q "too large (more than 16 GiB of frames)" err &&
	test_expect_code 2 $G --video-width 64 --video-height 64 --video-duration 0.1 \
		--video-fps 4 2>err &&
	grep -q "has no frame" err
'

test_done
