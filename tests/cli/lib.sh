#!/bin/sh
# Shared setup for tests/cli/tNNNN-*.sh (git t/test-lib.sh): sourced, not run.
# Gives a scratch directory $TMP, test_expect_success, test_cmp, and a
# start_mock helper that runs aiperf-mock on a free loopback port.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=$(cd "$TOP/../shared" 2>/dev/null && pwd || echo "$TOP/../shared")
export SHARED
export LC_ALL=C TZ=UTC PATH="$TOP/bin:$PATH"
TMP=$(mktemp -d)
MOCK_PID=
cleanup() {
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
test_count=0
test_failed=0

# test_expect_success 'description' 'shell code'
test_expect_success() {
	test_count=$((test_count + 1))
	if (cd "$TMP" && eval "$2") >"$TMP/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TMP/.out" | tail -20
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

# start_mock [aiperf-mock options]: sets MOCK_URL and MOCK_PID.
start_mock() {
	rm -f "$TMP/.mock.url"
	aiperf-mock --port 0 "$@" >"$TMP/.mock.url" 2>"$TMP/.mock.err" &
	MOCK_PID=$!
	i=0
	while [ ! -s "$TMP/.mock.url" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	MOCK_URL=$(head -1 "$TMP/.mock.url")
	[ -n "$MOCK_URL" ]
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}
