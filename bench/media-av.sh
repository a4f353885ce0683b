#!/bin/sh
# Synthetic audio and video generation rate and memory (issue #17):
# aiperf-gen makes N distinct audio clips (one per dataset entry) as WAV
# then MP3, and the synthetic video (made once per run and shared by every
# entry, as the original does) in each container/codec asked; /usr/bin/time
# -v gives the wall time and the peak resident set. A baseline run without
# media is subtracted from the time. Every clip is made before the first
# record is written (never inside the measured window) and held as base64
# in its payload, so memory grows with N x the encoded size.
# Then aiperf-send's CPU per request (user + system, /usr/bin/time) on
# R (environment, default 1000) requests to aiperf-mock carrying a 512x512 PNG each (20 distinct
# images), raw records with the media elided (the default) against
# --raw-full-media, and text-only requests: what the elision costs the
# sender, and the raw record size either way.
# Not a test: numbers only; the defaults take well under a minute.
# Usage: bench/media-av.sh [clips] [clip seconds] [video WxH] [video seconds]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-40}
SEC=${2:-2}
WH=${3:-640x480}
VSEC=${4:-2}
W=${WH%x*}
H=${WH#*x}
[ -x /usr/bin/time ] || bench_die "needs /usr/bin/time (Debian package time)"

# run NAME COUNT [aiperf-gen options]: "seconds peak_kib bytes_out"
run() {
	name=$1 count=$2
	shift 2
	/usr/bin/time -v -o "$TMP/$name.time" aiperf-gen -m m --tokenizer builtin \
		--random-seed 1 --isl 16 --num-dataset-entries "$count" \
		--request-count "$count" "$@" >"$TMP/$name.out"
	awk -v b="$(wc -c <"$TMP/$name.out")" '
		/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + t[i] }
		/Maximum resident set size/ { m = $NF }
		END { printf "%.3f %d %d\n", s, m, b }' "$TMP/$name.time"
}

# row LABEL ITEMS UNIT RESULT BASE: one line of the table
row() {
	# shellcheck disable=SC2086 # three and three numbers, split on purpose
	set -- "$1" "$2" "$3" $4 $5
	awk -v f="$1" -v n="$2" -v u="$3" -v s="$4" -v m="$5" -v b="$6" -v s0="$7" \
		-v m0="$8" -v b0="$9" 'BEGIN {
		t = s - s0; if (t <= 0) t = 0.001
		printf "%-22s %10.2f %-8s %8.2f %10.1f %14.1f\n", f, n / t, u, s,
			m / 1024, (b - b0) / n / 1024 }'
}

echo "aiperf-gen: $N audio clips of ${SEC} s (16 kHz, 16-bit, mono), one a dataset entry;"
echo "the synthetic video ${W}x${H}, ${VSEC} s at 4 fps (one a run); $(nproc) CPUs"
printf "%-22s %10s %-8s %8s %10s %14s\n" what rate "" "s total" "peak MiB" "KiB/item b64"
base=$(run base "$N")
for f in wav mp3; do
	row "audio $f" "$N" clips/s "$(run "a$f" "$N" --audio-length-mean "$SEC" \
		--audio-format "$f" --audio-sample-rates 16 --audio-depths 16)" "$base"
done
command -v ffmpeg >/dev/null || { echo "no ffmpeg: no video rows"; exit 0; }
vbase=$(run vbase 1)
for fc in webm:libvpx-vp9 mp4:libx264; do
	f=${fc%:*} c=${fc#*:}
	ffmpeg -hide_banner -encoders 2>/dev/null | grep -q " $c " ||
		{ echo "video $f/$c: ffmpeg has no $c encoder"; continue; }
	row "video $f/$c" 1 videos/s "$(run "v$f" 1 --video-width "$W" --video-height "$H" \
		--video-fps 4 --video-duration "$VSEC" --video-format "$f" --video-codec "$c")" "$vbase"
done
echo "baseline (no media): $(echo "$base" | awk '{ printf "%.2f s, peak %.1f MiB", $1, $2 / 1024 }')"

R=${R:-1000}
bench_mock --ttft-ms 0 --itl-ms 0
aiperf-gen -m m --tokenizer builtin --random-seed 1 --isl 16 --osl 4 \
	--num-dataset-entries 20 --request-count "$R" --image-width-mean 512 \
	--image-height-mean 512 >"$TMP/img.req"
aiperf-gen -m m --tokenizer builtin --random-seed 1 --isl 16 --osl 4 \
	--num-dataset-entries 20 --request-count "$R" >"$TMP/txt.req"
# send NAME REQ [aiperf-send options]: "cpu_seconds raw_bytes"
send() {
	name=$1 req=$2
	shift 2
	/usr/bin/time -f "%U %S" -o "$TMP/$name.cpu" aiperf-send -u "$URL" \
		--concurrency 4 "$@" <"$TMP/$req.req" >"$TMP/$name.raw"
	awk -v b="$(wc -c <"$TMP/$name.raw")" '{ printf "%.3f %d\n", $1 + $2, b }' "$TMP/$name.cpu"
}
echo
echo "aiperf-send: $R requests, concurrency 4; image requests carry a 512x512 PNG"
printf "%-28s %14s %16s\n" what "CPU us/request" "raw KiB/record"
for c in "text only:txt" "images, elided:img" "images, --raw-full-media:img:--raw-full-media"; do
	label=${c%%:*} rest=${c#*:}
	req=${rest%%:*} opt=${rest#"$req"}
	opt=${opt#:}
	# shellcheck disable=SC2046,SC2086 # no option or one; two numbers
	set -- $(send x "$req" $opt)
	awk -v l="$label" -v r="$R" -v c="$1" -v b="$2" 'BEGIN {
		printf "%-28s %14.1f %16.1f\n", l, c / r * 1e6, b / r / 1024 }'
done
