#!/bin/sh
# What aiperf-metrics --follow costs: CPU while it waits at the end of a file
# nobody writes (SECONDS, default 5; a busy loop would use them all), and CPU
# to read a finished file through --follow against reading it directly.
# Usage: bench/metrics-follow.sh [seconds [copies]]
#   copies: how many times the golden records are repeated (default 500)
set -eu
cd "$(dirname "$0")/.."
secs=${1:-5}
copies=${2:-500}
export PATH="$PWD/bin:$PATH" LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "bench/metrics-follow.sh: needs /usr/bin/time" >&2; exit 2; }

cat tests/golden/aiperf-metrics/*/in.ndjson | grep '^{"metadata":{"session' >"$tmp/recs"
awk -v n="$copies" '{ a[NR] = $0 } END { for (i = 0; i < n; i++) for (j = 1; j <= NR; j++) print a[j] }' \
	"$tmp/recs" >"$tmp/big"
set -- aiperf-metrics --use-server-token-count

# cpu label command...: prints wall, user+sys seconds and context switches
# (on fd 3: the command's stdout is its own).
exec 3>&1
cpu() {
	label=$1
	shift
	/usr/bin/time -f '%e %U %S %w %c' -o "$tmp/t" "$@"
	read -r wall usr sys vol invol <"$tmp/t"
	awk -v l="$label" -v w="$wall" -v u="$usr" -v s="$sys" -v v="$vol" -v i="$invol" \
		'BEGIN { printf "%-34s wall %6.2f s  cpu %6.3f s  (%.2f%% of wall)  switches %d+%d\n", l, w, u + s, (w > 0 ? 100 * (u + s) / w : 0), v, i }' >&3
}

echo "idle: --follow at the end of a file nobody writes, for $secs s"
sleep "$secs" | cpu "idle --follow ($secs s)" "$@" --follow "$tmp/recs" >/dev/null
echo "reading $(wc -l <"$tmp/big") records ($(($(wc -c <"$tmp/big") / 1048576)) MiB), finished file"
cpu "aiperf-metrics FILE" "$@" "$tmp/big" >"$tmp/a"
cpu "aiperf-metrics --follow FILE" "$@" --follow "$tmp/big" </dev/null >"$tmp/b"
cmp "$tmp/a" "$tmp/b" || { echo "bench/metrics-follow.sh: outputs differ" >&2; exit 1; }
