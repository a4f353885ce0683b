#!/bin/sh
# bench/cpu-floor.c, the floor row of bench/cpu-per-chunk.sh: on both of
# its receive paths it completes every request and counts every SSE
# message of the mock's streams (one per token and [DONE]), as aiperf-send
# counts them from its records; a bad count would make its us/chunk lie.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null || test_skip_all "no C compiler ($CC)"

test_expect_success 'bench/cpu-floor.c builds' '
	$CC -O2 -o floor "$TOP/bench/cpu-floor.c" -luring
'

start_mock --ttft-ms 0 --itl-ms 0 --output-tokens 7 --max-connections 1000
PORT=${MOCK_URL##*:}

test_expect_success 'epoll: 40 requests on 8 connections, 8 messages each' '
	./floor epoll "$PORT" 8 40 7 >out &&
	read -r ok err chunks user sys <out &&
	test "$ok $err $chunks" = "40 0 320" &&
	awk -v u="$user" -v s="$sys" "BEGIN { exit !(u >= 0 && s >= 0) }"
'

test_expect_success 'uring: the same counts (when the kernel has multishot receives)' '
	echo "{\"id\":\"p\",\"path\":\"/v1/chat/completions\",\"stream\":true,\"payload\":{\"model\":\"m\",\"stream\":true}}" |
	aiperf-send -u "$MOCK_URL" --io uring >/dev/null 2>&1 ||
		skip_because "aiperf-send --io uring refuses here"
	./floor uring "$PORT" 8 40 7 >out &&
	read -r ok err chunks user sys <out &&
	test "$ok $err $chunks" = "40 0 320"
'

test_expect_success 'more connections than requests, one token each' '
	./floor epoll "$PORT" 16 3 1 >out &&
	read -r ok err chunks _ _ <out &&
	test "$ok $err $chunks" = "3 0 6"
'

test_expect_success 'a wrong mode is a usage error' '
	test_expect_code 2 ./floor poll "$PORT" 1 1 1
'

test_done
