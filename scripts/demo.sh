#!/bin/sh
# make demo: start aiperf-mock on a free loopback port, run `aiperf profile`
# against it (streaming chat, the builtin tokenizer) and print the table.
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
export PATH
out=$(mktemp -d)
mock_pid=
cleanup() {
	[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
	rm -rf "$out"
}
trap cleanup EXIT INT TERM
aiperf-mock --port 0 --ttft-ms 40 --itl-ms 5 >"$out/url" 2>"$out/mock.log" &
mock_pid=$!
i=0
while [ ! -s "$out/url" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
url=$(head -1 "$out/url")
[ -n "$url" ] || { echo "demo: aiperf-mock did not start:" >&2; cat "$out/mock.log" >&2; exit 1; }
echo "demo: aiperf-mock listening on $url" >&2
aiperf profile --model demo-model --url "$url" --endpoint-type chat --streaming \
	--tokenizer builtin --isl 128 --osl 64 --concurrency 8 --request-count 64 \
	--random-seed 42 --artifact-dir "${DEMO_ARTIFACTS:-artifacts/demo}"
