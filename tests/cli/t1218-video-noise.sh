#!/bin/sh
# --video-synth-type noise through aiperf profile against aiperf-mock:
# every video item is a new one (a noise video per turn, not one kept for
# all as moving_shapes is), the same for a seed, of int(duration x fps)
# frames of the asked size whose pixels are noise (decoded: a mean near
# 127.5 and neighbours far apart, where moving_shapes is flat areas);
# a bad synth type names the three.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v ffmpeg >/dev/null || test_skip_all "no ffmpeg"
start_mock --ttft-ms 0 --itl-ms 0 --output-tokens 1 || exit 1
export MOCK_URL

# run DIR [options]: 3 requests over 3 entries, one 32x24 video each, 2 s
# at 4 fps; the videos sent as files DIR.N.webm
run() {
	d=$1
	shift
	aiperf profile -m m --url "$MOCK_URL" --endpoint-type chat --tokenizer builtin \
		--request-count 3 --num-dataset-entries 3 --isl 4 --osl 1 \
		--video-width 32 --video-height 24 --video-fps 4 --video-duration 2 \
		--video-format webm --inputs-json-full-media --ui-type none \
		--artifact-dir "$d" "$@" >"$d.out" 2>"$d.err" || { cat "$d.err"; return 1; }
	jq -r ".data[].payloads[0].messages[0].content[] | select(.type == \"video_url\") |
		.video_url.url" "$d/inputs.json" >"$d.urls" &&
	i=0 &&
	while read -r u; do
		printf "%s" "${u#*,}" | base64 -d >"$d.$i.webm"
		i=$((i + 1))
	done <"$d.urls"
}

# stats FILE: "FRAMES MEAN NEIGHBOUR" of the decoded RGB frames: the
# mean byte and the mean difference of horizontally adjacent bytes
stats() {
	ffmpeg -v error -i "$1" -f rawvideo -pix_fmt rgb24 - >"$1.rgb" &&
	python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
w = 32 * 3
d = sum(abs(b[i] - b[i + 3]) for i in range(len(b) - 3) if i % w < w - 3)
print(len(b) // (32 * 24 * 3), round(sum(b) / len(b)), round(d / len(b)))
' "$1.rgb"
}

test_expect_success 'noise: a new video for every item, 8 frames of noise' '
	run n1 --video-synth-type noise --random-seed 6 &&
	test "$(wc -l <n1.urls)" = 3 && test "$(sort -u n1.urls | wc -l)" = 3 &&
	stats n1.0.webm >s && read -r f m d <s &&
	test "$f" = 8 && test "$m" -ge 100 && test "$m" -le 155 && test "$d" -ge 40
'

test_expect_success 'the same seed, the same videos; another seed, others' '
	run n2 --video-synth-type noise --random-seed 6 &&
	test_cmp n1.urls n2.urls &&
	run n3 --video-synth-type noise --random-seed 7 &&
	! cmp -s n1.urls n3.urls
'

test_expect_success 'moving_shapes: one video kept for every item, flat areas' '
	run ms --random-seed 6 &&
	test "$(sort -u ms.urls | wc -l)" = 1 &&
	stats ms.0.webm >s && read -r f m d <s && test "$f" = 8 && test "$d" -lt 20
'

test_expect_success 'a bad synth type names the three' '
	st=0 && aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--video-width 32 --video-height 24 --video-synth-type static \
		--ui-type none >out 2>err || st=$? &&
	test "$st" = 2 && grep -q "moving_shapes, grid_clock, noise" err
'

test_done
