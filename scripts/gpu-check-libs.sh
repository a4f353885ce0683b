#!/bin/sh
# scripts/gpu-check-libs.sh DIR: copies into DIR every shared library the
# built tools (bin/aiperf-*) link with, the C library and its loader
# included, so that scripts/gpu-check.sh can run them (AIPERF_LIBS=DIR) on
# a GPU machine that has none of them installed or an older C library.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:?usage: scripts/gpu-check-libs.sh DIR}
mkdir -p "$DIR"
for b in "$TOP"/bin/aiperf-*; do
	head -c 4 "$b" | grep -q ELF || continue
	ldd "$b"
done | awk '/=> \// { print $3 } /^[ \t]*\/.*ld-linux/ { print $1 }' | sort -u |
	while read -r lib; do cp -L "$lib" "$DIR/"; done
ls "$DIR"/ld-linux-x86-64.so.2 >/dev/null
echo "$(find "$DIR" -type f | wc -l) libraries in $DIR ($(du -sh "$DIR" | cut -f1))"
