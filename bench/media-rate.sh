#!/bin/sh
# Synthetic image generation rate and memory (issue #17): aiperf-gen makes
# N distinct 512x512 images (one per dataset entry), PNG then JPEG, and
# writes their records; /usr/bin/time -v gives the wall time and the peak
# resident set. A baseline run without images is subtracted from the time.
# Every image is made before the first record is written, and held (as
# base64 in its payload) until the end, so memory grows with
# N x the encoded size: the numbers plan a 10,000-image run.
# Not a test: numbers only.
# Usage: bench/media-rate.sh [images] [side]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-200}
S=${2:-512}
[ -x /usr/bin/time ] || bench_die "needs /usr/bin/time (Debian package time)"

# run NAME [aiperf-gen options]: "seconds peak_kib bytes_out"
run() {
	name=$1
	shift
	/usr/bin/time -v -o "$TMP/$name.time" aiperf-gen -m m --tokenizer builtin \
		--random-seed 1 --isl 16 --num-dataset-entries "$N" --request-count "$N" \
		"$@" >"$TMP/$name.out"
	awk -v b="$(wc -c <"$TMP/$name.out")" '
		/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + t[i] }
		/Maximum resident set size/ { m = $NF }
		END { printf "%.3f %d %d\n", s, m, b }' "$TMP/$name.time"
}

base=$(run base)
echo "aiperf-gen: $N images of ${S}x${S} (one a dataset entry), $(nproc) CPUs"
printf "%-6s %10s %10s %12s %14s %14s\n" format images/s "s total" "peak MiB" "KiB/image b64" "MiB/1k images"
for f in png jpeg; do
	# shellcheck disable=SC2046,SC2086 # three and three numbers, split on purpose
	set -- $(run "$f" --image-width-mean "$S" --image-height-mean "$S" --image-format "$f")
	# shellcheck disable=SC2086
	set -- "$@" $base
	awk -v f="$f" -v n="$N" -v s="$1" -v m="$2" -v b="$3" -v s0="$4" -v m0="$5" -v b0="$6" 'BEGIN {
		t = s - s0; if (t <= 0) t = 0.001
		printf "%-6s %10.1f %10.2f %12.1f %14.1f %14.1f\n", f, n / t, s, m / 1024,
			(b - b0) / n / 1024, (m - m0) / 1024 / n * 1000 }'
done
echo "baseline (no images): $(echo "$base" | awk '{ printf "%.2f s, peak %.1f MiB", $1, $2 / 1024 }')"
