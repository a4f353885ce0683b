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

# A blank line as aiperf-records(5) defines it: empty after Python's
# str.strip(), here form feed, space, NBSP (UTF-8 C2 A0) and CR.
printf '\f \302\240\r\n' >"$TMP/blank"

test_expect_success 'send: a white-space-only line is skipped, and counted' '
	{ cat blank; echo x; } >in &&
	test_expect_code 1 aiperf-send <in >out 2>err &&
	echo "aiperf-send: <stdin>:2: invalid JSON: at byte 0: unexpected character" >expect &&
	test_cmp expect err
'

test_expect_success 'metrics: a white-space-only line is skipped, and counted' '
	d=$G/aiperf-metrics/chat-stream &&
	{ cat blank "$d/in.ndjson" blank; echo "{"; } >in &&
	test_expect_code 1 aiperf-metrics $(cat "$d/args") <in >out 2>err &&
	test_cmp "$d/out.ndjson" out &&
	n=$(($(wc -l <"$d/in.ndjson") + 3)) &&
	grep -q "^aiperf-metrics: <stdin>:$n: " err
'

test_expect_success 'export: a white-space-only line is skipped, and counted' '
	d=$G/aiperf-export/streaming &&
	eval "set -- $(cat "$d/args")" &&
	{ cat blank "$d/in.ndjson" blank; } >in &&
	aiperf-export "$@" <in >out 2>err &&
	test_cmp "$d/out.txt" out &&
	{ cat blank; echo "[]"; } >in &&
	test_expect_code 1 aiperf-export "$@" <in >out 2>err &&
	grep -q "^aiperf-export: <stdin>:2: " err
'

test_expect_success 'trace analyze, synthesize, convert: white-space-only lines skipped, and counted' '
	d=$G/aiperf-trace/analyze-spec71-console &&
	{ cat blank "$d/in.txt" blank; } >in &&
	aiperf-trace analyze <in >out && test_cmp "$d/out.txt" out &&
	d=$G/aiperf-trace/synth-spec72 &&
	{ cat blank "$d/in.txt" blank; } >in &&
	aiperf-trace $(cat "$d/args") <in >out && test_cmp "$d/out.txt" out &&
	d=$G/aiperf-trace/convert-bailian &&
	{ cat blank "$d/in.txt" blank; } >in &&
	aiperf-trace convert --from bailian <in >out && test_cmp "$d/out.txt" out &&
	{ cat blank; echo "[]"; } >in &&
	test_expect_code 1 aiperf-trace analyze <in 2>err &&
	grep -q "^aiperf-trace: <stdin>:2: " err &&
	test_expect_code 1 aiperf-trace convert --from bailian <in 2>err &&
	grep -q "^aiperf-trace: <stdin>:2: " err
'

test_expect_success 'gen mooncake_trace: white-space-only lines skipped, and counted' '
	d=$G/aiperf-gen/mooncake-fixed &&
	{ cat blank "$d/trace.jsonl" blank; } >trace.jsonl &&
	eval "set -- $(cat "$d/args")" &&
	aiperf-gen "$@" >out && test_cmp "$d/out.ndjson" out &&
	{ cat blank "$d/trace.jsonl" blank; echo "[]"; } >trace.jsonl &&
	n=$(($(wc -l <"$d/trace.jsonl") + 3)) &&
	test_expect_code 1 aiperf-gen "$@" >out 2>err &&
	grep -q "^aiperf-gen: trace.jsonl:$n: " err
'

test_expect_success 'tok --decode and --json: white-space-only lines skipped, and counted' '
	{ cat blank; echo "[24912]"; cat blank; echo "x"; } >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >out 2>err &&
	echo "\"hello\"" >expect && test_cmp expect out &&
	grep -q "^aiperf-tok: -:4: " err &&
	{ cat blank; echo "\"hello\""; cat blank; } >in &&
	aiperf-tok --tokenizer builtin --json <in >out &&
	echo "[24912]" >expect && test_cmp expect out
'

test_expect_success 'trace analyze and synthesize reject negative lengths, naming the field' '
	printf "%s\n" "{\"input_length\":3}" "{\"input_length\":-1}" >in &&
	test_expect_code 1 aiperf-trace analyze <in >out 2>err &&
	echo "aiperf-trace: <stdin>:2: input_length: must not be negative" >expect &&
	test_cmp expect err &&
	printf "%s\n" "{\"input_length\":3,\"output_length\":-2}" >in &&
	test_expect_code 1 aiperf-trace synthesize <in >out 2>err &&
	echo "aiperf-trace: <stdin>:1: output_length: must not be negative" >expect &&
	test_cmp expect err
'

test_expect_success 'trace convert rejects negative lengths, naming the field or column' '
	echo "{\"chat_id\":1,\"timestamp\":1,\"input_length\":5,\"output_length\":-1}" >in &&
	test_expect_code 1 aiperf-trace convert --from bailian <in >out 2>err &&
	echo "aiperf-trace: <stdin>:1: output_length: must not be negative" >expect &&
	test_cmp expect err &&
	printf "%s\n" "Timestamp,Model,Request tokens,Response tokens" "1,m,-5,3" >in &&
	test_expect_code 1 aiperf-trace convert --from burstgpt <in >out 2>err &&
	echo "aiperf-trace: <stdin>:2: '\''Request tokens'\'': must not be negative" >expect &&
	test_cmp expect err &&
	printf "%s\n" "TIMESTAMP,ContextTokens,GeneratedTokens" \
		"2023-11-16 18:15:46.6805900,374,-44" >in &&
	test_expect_code 1 aiperf-trace convert --from azure <in >out 2>err &&
	echo "aiperf-trace: <stdin>:2: '\''GeneratedTokens'\'': must not be negative" >expect &&
	test_cmp expect err
'

test_expect_success 'gen mooncake_trace rejects negative lengths, naming the field' '
	printf "%s\n" "{\"input_length\":4}" "" "{\"input_length\":-4}" >trace.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file trace.jsonl \
		--custom-dataset-type mooncake_trace >out 2>err &&
	echo "aiperf-gen: trace.jsonl:3: input_length: must not be negative" >expect &&
	test_cmp expect err
'

test_expect_success 'send rejects a stream that is not a boolean, naming it' '
	echo "{\"id\":\"a\",\"payload\":{},\"stream\":\"yes\"}" >in &&
	test_expect_code 1 aiperf-send <in >out 2>err &&
	echo "aiperf-send: <stdin>:1: '\''stream'\'': expected true or false" >expect &&
	test_cmp expect err && test_cmp /dev/null out &&
	echo "{\"id\":\"a\",\"payload\":{\"stream\":1}}" >in &&
	test_expect_code 1 aiperf-send <in >out 2>err &&
	echo "aiperf-send: <stdin>:1: '\''payload.stream'\'': expected true or false" >expect &&
	test_cmp expect err
'

test_expect_success 'export rejects a metadata that is not an object' '
	echo "{\"metadata\":3,\"metrics\":{}}" >in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	echo "aiperf-export: <stdin>:1: '\''metadata'\'' is not an object" >expect &&
	test_cmp expect err
'

test_expect_success 'export rejects a value that is infinite in base units, naming the metric' '
	echo "{\"metrics\":{\"request_latency\":{\"value\":2,\"unit\":\"ms\"}}}" >in &&
	echo "{\"metrics\":{\"request_latency\":{\"value\":1e308,\"unit\":\"ms\"}}}" >>in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	echo "aiperf-export: <stdin>:2: metric '\''request_latency'\'': value out of range" >expect &&
	test_cmp expect err &&
	echo "{\"metrics\":{\"inter_chunk_latency\":{\"value\":[1,-1e308],\"unit\":\"ms\"}}}" >in &&
	test_expect_code 1 aiperf-export --no-console <in 2>err &&
	echo "aiperf-export: <stdin>:1: metric '\''inter_chunk_latency'\'': value out of range" >expect &&
	test_cmp expect err
'

test_expect_success 'tok --decode rejects ids no token can have; ids past the vocabulary are skipped' '
	printf "%s\n" "[24912]" "[-1]" >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >out 2>err &&
	echo "\"hello\"" >expect && test_cmp expect out &&
	echo "aiperf-tok: -:2: token id -1 out of range" >expect && test_cmp expect err &&
	echo "[4294967296]" | test_expect_code 1 aiperf-tok --tokenizer builtin --decode 2>err &&
	echo "aiperf-tok: -:1: token id 4294967296 out of range" >expect && test_cmp expect err &&
	echo "[24912,999999]" | aiperf-tok --tokenizer builtin --decode >out &&
	echo "\"hello\"" >expect && test_cmp expect out
'

# long_line N: N bytes of "a" and a newline, made through a pipe.
long_line() {
	head -c "$1" /dev/zero | tr '\0' a && echo
}
MiB64=$((64 * 1024 * 1024))
export MiB64

test_expect_success 'export: a line over 64 MiB is reported with its own number, one of 64 MiB is read' '
	{ echo; long_line $((MiB64 + 1)); } >in &&
	test_expect_code 1 aiperf-export --no-console <in >out 2>err &&
	echo "aiperf-export: <stdin>:2: line longer than 67108864 bytes" >expect &&
	test_cmp expect err &&
	{ echo; long_line $MiB64; } >in &&
	test_expect_code 1 aiperf-export --no-console <in >out 2>err &&
	echo "aiperf-export: <stdin>:2: at byte 0: unexpected character" >expect &&
	test_cmp expect err
'

test_expect_success 'gen: a line over 64 MiB, first or later, is reported with its own number' '
	long_line $((MiB64 + 1)) >first.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file first.jsonl \
		--custom-dataset-type mooncake_trace >out 2>err &&
	echo "aiperf-gen: first.jsonl:1: line longer than 67108864 bytes" >expect &&
	test_cmp expect err &&
	{ echo "{\"input_length\":1}"; echo; long_line $((MiB64 + 1)); } >later.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file later.jsonl \
		--custom-dataset-type mooncake_trace >out 2>err &&
	echo "aiperf-gen: later.jsonl:3: line longer than 67108864 bytes" >expect &&
	test_cmp expect err &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file first.jsonl \
		>out 2>err &&
	echo "aiperf-gen: first.jsonl:1: line longer than 67108864 bytes" >expect &&
	test_cmp expect err
'

test_done
