#!/bin/sh
# Installs the Debian 12 packages aiperf needs to build, test and lint.
# Runs apt-get only for what is missing; needs root for that.
set -eu
pkgs="make gcc clang pkg-config libcurl4-openssl-dev libssl-dev libzstd-dev zstd
libonig-dev libjq-dev libutf8proc-dev mandoc shellcheck cppcheck jq wrk curl parallel python3-yaml
openssl time python3 python3-numpy python3-scipy python3-rich libclang-rt-14-dev nginx-light
libgsl-dev gnuplot-nox chromium libncurses-dev tmux libyaml-dev
libpng-dev libjpeg62-turbo-dev python3-pil libmp3lame-dev ffmpeg file
liburing-dev python3-aiohttp strace iproute2 rsync g++ libsimdjson-dev bubblewrap
python3-sympy"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root or install them)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
