#!/bin/sh
# Issue #9, bad input: every reader treats bad lines, odd values, long
# lines and a reader that goes away the same way (aiperf-records(5)).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/golden
export G

# to_closed_pipe CMD [ARGS...]: runs CMD with stdout a pipe whose reader
# has already gone, so its first write fails with EPIPE (not a race); it
# gets SIGPIPE's default action, as from a shell (python ignores it).
to_closed_pipe() {
	command -v python3 >/dev/null || skip_because "no python3"
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
r, w = os.pipe(); os.close(r); os.dup2(w, 1); os.close(w)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

test_expect_success 'tok --decode: lines before a bad one keep their output, written first' '
	printf "%s\n" "[24912]" "[2375]" "[1,x]" "[24912]" >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >out 2>err &&
	printf "%s\n" "\"hello\"" "\" world\"" >expect &&
	test_cmp expect out &&
	echo "aiperf-tok: -:3: at byte 3: unexpected character" >expect &&
	test_cmp expect err &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >both 2>&1 &&
	cat out err >expect && test_cmp expect both
'

test_expect_success 'tok --json: the same for a bad line after good ones' '
	printf "%s\n" "\"hello\"" "42" >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --json <in >both 2>&1 &&
	printf "%s\n" "[24912]" "aiperf-tok: -:2: expected a JSON string" >expect &&
	test_cmp expect both
'

test_expect_success 'metrics | head -1: exit 0, nothing on stderr' '
	for i in $(seq 200); do cat "$G/aiperf-metrics/chat-stream/in.ndjson"; done >in &&
	{ aiperf-metrics --tokenizer builtin <in 2>err; echo $? >rc; } | head -1 >/dev/null &&
	echo 0 >expect && test_cmp expect rc && test_cmp /dev/null err &&
	{ aiperf-metrics --tokenizer builtin --threads 2 <in 2>err; echo $? >rc; } |
		head -1 >/dev/null &&
	test_cmp expect rc && test_cmp /dev/null err
'

test_expect_success 'tok | head -1: exit 0, nothing on stderr' '
	seq 100000 >in &&
	{ aiperf-tok --tokenizer builtin <in 2>err; echo $? >rc; } | head -1 >/dev/null &&
	echo 0 >expect && test_cmp expect rc && test_cmp /dev/null err
'

test_expect_success 'trace synthesize and convert | head -1: exit 0, nothing on stderr' '
	for i in $(seq 3000); do cat "$G/aiperf-trace/synth-spec72/in.txt"; done >in &&
	{ aiperf-trace synthesize <in 2>err; echo $? >rc; } | head -1 >/dev/null &&
	echo 0 >expect && test_cmp expect rc && test_cmp /dev/null err &&
	for i in $(seq 1000); do sed 1d "$G/aiperf-trace/convert-burstgpt/in.txt"; done >rows &&
	sed 1q "$G/aiperf-trace/convert-burstgpt/in.txt" | cat - rows >in &&
	{ aiperf-trace convert --from burstgpt <in 2>err; echo $? >rc; } | head -1 >/dev/null &&
	test_cmp expect rc && test_cmp /dev/null err &&
	for i in $(seq 1000); do cat "$G/aiperf-trace/convert-bailian/in.txt"; done >in &&
	{ aiperf-trace convert --from bailian <in 2>err; echo $? >rc; } | head -1 >/dev/null &&
	test_cmp expect rc && test_cmp /dev/null err
'

test_expect_success 'export and trace analyze into a closed pipe: exit 0, nothing on stderr' '
	aiperf-metrics --tokenizer builtin <"$G/aiperf-metrics/chat-stream/in.ndjson" \
		>m.ndjson 2>/dev/null &&
	to_closed_pipe aiperf-export --benchmark-id x <m.ndjson 2>err &&
	test_cmp /dev/null err &&
	to_closed_pipe aiperf-trace analyze <"$G/aiperf-trace/analyze-spec71-console/in.txt" 2>err &&
	test_cmp /dev/null err
'

test_done
