#!/bin/sh
# aiperf-metrics command line: several inputs in order, stdin, zstd, caps, options.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
G=$TOP/tests/golden/aiperf-metrics

test_expect_success 'files are read in argument order' '
	aiperf-metrics --tokenizer test:words "$G/reasoning/in.ndjson" "$G/chat-stream/in.ndjson" >out &&
	cat "$G/reasoning/out.ndjson" "$G/chat-stream/out.ndjson" >expect &&
	test_cmp expect out
'

test_expect_success '"-" reads stdin between files' '
	aiperf-metrics --tokenizer test:words "$G/reasoning/in.ndjson" - <"$G/chat-stream/in.ndjson" >out &&
	cat "$G/reasoning/out.ndjson" "$G/chat-stream/out.ndjson" >expect &&
	test_cmp expect out
'

test_expect_success 'zstd input is read transparently' '
	zstd -q -c "$G/chat-stream/in.ndjson" >in.zst &&
	aiperf-metrics --tokenizer test:words in.zst >out &&
	test_cmp "$G/chat-stream/out.ndjson" out
'

test_expect_success 'a line over the cap is an error naming file and line' '
	{ cat "$G/chat-stream/in.ndjson"; head -c 5000 /dev/zero | tr "\0" x; echo; } >big &&
	! AIPERF_METRICS_MAX_LINE=4096 aiperf-metrics --use-server-token-count big >out 2>err &&
	grep -q "^aiperf-metrics: big:2: line longer than 4096 bytes" err
'

test_expect_success '--keep-going skips the long line' '
	AIPERF_METRICS_MAX_LINE=4096 aiperf-metrics --keep-going --use-server-token-count big >out 2>err &&
	test $(wc -l <out) -eq 1 && grep -q "big:2: line too long (skipped)" err
'

test_expect_success 'missing file: exit 1' '
	! aiperf-metrics --use-server-token-count nope.ndjson 2>err &&
	grep -q "cannot open .nope.ndjson." err
'

test_expect_success 'unknown option and bad endpoint type: exit 2' '
	test_expect_code 2 aiperf-metrics --bogus </dev/null 2>err &&
	test_expect_code 2 aiperf-metrics --endpoint-type nope </dev/null 2>err
'

test_expect_success '--help and --version' '
	aiperf-metrics --help >out && grep -q "^usage: aiperf-metrics" out &&
	aiperf-metrics --version | grep -q "^aiperf-metrics [0-9]"
'

test_expect_success 'blank lines are ignored' '
	{ echo; cat "$G/chat-stream/in.ndjson"; echo "  "; } | aiperf-metrics --tokenizer test:words >out &&
	test_cmp "$G/chat-stream/out.ndjson" out
'

test_expect_success '--unbuffered writes the same bytes' '
	aiperf-metrics --unbuffered --tokenizer test:words <"$G/warmup/in.ndjson" >out &&
	test_cmp "$G/warmup/out.ndjson" out
'

test_expect_success 'hostile records never crash' '
	for l in "{}" "{\"metadata\":[]}" "{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{}]}" \
		"{\"metadata\":{},\"start_perf_ns\":-5,\"responses\":[{\"perf_ns\":1,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}\"}]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{\"perf_ns\":9223372036854775807,\"packets\":[]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"responses\":[{\"perf_ns\":5,\"packets\":[{\"name\":\"data\",\"value\":\"{nope\"}]}]}" \
		"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"messages\":7},\"responses\":[{\"perf_ns\":5,\"text\":\"[1]\"}]}"; do
		rc=0
		printf "%s\n" "$l" | aiperf-metrics --tokenizer test:words >/dev/null 2>&1 || rc=$?
		test $rc -le 1 || { echo "rc $rc for $l"; exit 1; }
	done
'

test_expect_success '--threads keeps input order and output bytes' '
	for i in 1 2 3 4 5 6 7 8 9 10; do cat "$G"/*/in.ndjson; done | grep "^{\"metadata\":{\"session" >many &&
	aiperf-metrics --tokenizer test:words many >expect &&
	aiperf-metrics --tokenizer test:words --threads 3 many >out &&
	test_cmp expect out && test $(wc -l <out) -gt 100
'

test_expect_success '--threads reports the first malformed line in order' '
	{ cat many; echo "[1]"; cat many; echo "{"; } >bad &&
	! aiperf-metrics --tokenizer test:words --threads 4 bad >out 2>err &&
	n=$(($(wc -l <many) + 1)) &&
	grep -q "^aiperf-metrics: bad:$n: not a JSON object" err &&
	aiperf-metrics --tokenizer test:words bad --keep-going >expect 2>/dev/null &&
	aiperf-metrics --tokenizer test:words bad --keep-going --threads 4 >out 2>err &&
	test_cmp expect out && grep -q "2 malformed lines skipped" err
'

test_expect_success 'each model gets its own tokenizer; unknown ones builtin, offline' '
	tokdir=$SHARED/tokenizers/llama3
	[ -d "$tokdir" ] || skip_because "no ../shared/tokenizers/llama3"
	export HF_HOME="$TMP/hf" HF_ENDPOINT=http://127.0.0.1:9
	sed "s|\"model\":\"m\"|\"model\":\"$tokdir\"|" "$G/chat-stream/in.ndjson" >a &&
	sed "s|\"model\":\"m\"|\"model\":\"no/such-model\"|" "$G/chat-stream/in.ndjson" >b &&
	aiperf-metrics a b a >out 2>err &&
	aiperf-metrics --tokenizer "$tokdir" a >expect-a &&
	aiperf-metrics --tokenizer builtin b >expect-b &&
	cat expect-a expect-b expect-a >expect && test_cmp expect out &&
	test $(grep -c "no tokenizer for model .no/such-model." err) -eq 1 &&
	! test -e "$TMP/hf/hub/models--no--such-model/snapshots"
'

test_expect_success 'no environment variable swaps the tokenizer' '
	aiperf-metrics --tokenizer builtin "$G/chat-stream/in.ndjson" >want &&
	AIPERF_METRICS_FAKE_TOKENIZER=words aiperf-metrics --tokenizer builtin \
		"$G/chat-stream/in.ndjson" >out &&
	test_cmp want out &&
	aiperf-metrics --tokenizer test:words "$G/chat-stream/in.ndjson" >words &&
	! cmp -s want words
'

test_expect_success '--tee copies every input line as read, whole lines on a full disk' '
	cat "$G"/*/in.ndjson >all &&
	aiperf-metrics --tokenizer test:words --keep-going --tee copy all >/dev/null 2>&1 &&
	cmp all copy &&
	for i in 1 2 3 4 5 6 7 8; do cat all; done >big &&
	test_expect_code 1 sh -c "trap \"\" XFSZ; ulimit -f 64; exec \"\$@\"" sh \
		aiperf-metrics --tokenizer test:words --keep-going --tee copy2 big >/dev/null 2>err &&
	n=$(sed -n "s/^aiperf-metrics: cannot write .copy2.: File too large (it holds the first \([0-9]*\) lines, whole)$/\1/p" err) &&
	test "$n" -gt 0 && test "$(wc -l <copy2)" -eq "$n" &&
	head -n "$n" big | cmp - copy2 &&
	test_expect_code 1 aiperf-metrics --tee no/such/dir/x </dev/null 2>err &&
	grep -q "cannot open .no/such/dir/x." err
'

test_done
