#!/bin/sh
# run.sh: long
# A user's jq program (a template record's aiperf.response_field,
# aiperf-gen's payload_template) runs under limits (lib/json/jqprog.h): one
# that grows without bound, loops forever, writes too much or crashes jq is
# stopped, with a clear error record for that response, and the run goes
# on. Path programs run in the tool, the others in a helper process: the
# same records either way (AIPERF_NO_FASTPATH=1 sends every one to the
# helper).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

REC="python3 $TOP/tests/cli/endpoint-record.py"

# field PROG: a template record, body {"a":"x y","n":[1,2]}, field PROG
field() {
	echo '{"a":"x y","n":[1,2],"o":[{"id":1}]}' | $REC template body - |
		jq -c --arg f "$1" '.aiperf.response_field = $f'
}

# asan_build: the tools were built with AddressSanitizer, whose shadow
# memory rules out the memory limit (lib/json/jqprog.h)
asan_build() {
	nm "$TOP/bin/aiperf-metrics" 2>/dev/null | grep -q __asan_init
}

# one PROG: the error type and message of PROG's record, a good record
# after it, and that good record's OSL (the run went on)
one() {
	{ field "$1" && field .a; } >in &&
		timeout 120 aiperf-metrics --tokenizer test:words <in >out &&
		test "$(wc -l <out)" -eq 2 &&
		sed -n 2p out | jq -e ".error == null and .metrics.output_sequence_length.value == 2" >/dev/null &&
		sed -n 1p out | jq -r ".error.type, .error.message"
}

test_expect_success 'the issue: [range(100000000)] is stopped, the run goes on' '
	one "[range(100000000)]" >got &&
	sed -n 1p got >type && echo ResponseFieldLimitError >expect && test_cmp expect type &&
	grep -q "response_field .\[range(100000000)\]. was stopped on a 200 OK response: jq: the program passed its \(memory\|CPU time\) limit" got
'

test_expect_success 'the issue: and the memory it takes stays far below its 2.8 GB' '
	test -x /usr/bin/time || skip_because "no /usr/bin/time"
	field "[range(100000000)]" >in &&
	/usr/bin/time -f %M -o rss timeout 120 aiperf-metrics --tokenizer test:words <in >out &&
	test "$(tail -n 1 rss)" -lt 1048576
'

test_expect_success 'memory: a string doubled 28 times passes the memory limit' '
	one "reduce range(28) as \$i (\"x\"; . + .)" >got &&
	sed -n 1p got >type && echo ResponseFieldLimitError >expect && test_cmp expect type &&
	if asan_build; then
		# no memory limit there: CPU time or the output cap stops it
		grep -q "CPU time limit\|jq output too large" got
	else
		grep -q "memory limit (272 MiB: 256 MiB and 16 MiB a MiB of its input, which was 37 bytes)" got
	fi
'

test_expect_success 'CPU time: an endless loop passes the CPU time limit' '
	one "until(false; .)" >got &&
	sed -n 1p got >type && echo ResponseFieldLimitError >expect && test_cmp expect type &&
	grep -q "CPU time limit (2000 ms: 2 s and 64 ms a MiB of its input, which was 37 bytes)" got
'

test_expect_success 'output: a 64 MiB string passes the output cap' '
	one "reduce range(26) as \$i (\"x\"; . + .)" >got &&
	sed -n 1p got >type && echo ResponseFieldLimitError >expect && test_cmp expect type &&
	if asan_build; then
		# its allocator may take the CPU time limit first
		grep -q "was stopped on a 200 OK response: jq\( output too large (over 67108864 bytes)\|: the program passed its CPU time limit\)" got
	else
		grep -q "was stopped on a 200 OK response: jq output too large (over 67108864 bytes)" got
	fi
'

test_expect_success 'a value that crashes jq is an error record, not a crash' '
	one "reduce range(1000000) as \$i (null; [.])" >got 2>/dev/null &&
	sed -n 1p got >type && echo ValueError >expect && test_cmp expect type &&
	grep -q "could not run on a 200 OK response: jq: the helper running the program" got
'

test_expect_success 'limits stop one record at a time: the helper starts again' '
	for f in "until(false; .)" "(.a)" "reduce range(28) as \$i (\"x\"; . + .)" "(.a)" \
		"[range(100000000)]" "(.a)"; do
		field "$f" || exit 1
	done >in &&
	timeout 300 aiperf-metrics --tokenizer test:words <in | jq -c "[.error.type, .metrics.output_sequence_length.value]" >got &&
	printf "%s\n" "[\"ResponseFieldLimitError\",null]" "[null,2]" "[\"ResponseFieldLimitError\",null]" \
		"[null,2]" "[\"ResponseFieldLimitError\",null]" "[null,2]" >expect &&
	test_cmp expect got
'

test_expect_success 'path programs here, the others in the helper: the same records' '
	for f in .a .n .o .missing .a.x ".n[5]" "[.n[]]" "[.o[]?.id? | select(. != null)]" \
		"(.a)" "(.n)" "(.o)" "error(\"boom\")" "{}" "{" "[.n[] | tostring]" \
		".a, .n" "empty" "halt" "input"; do
		field "$f" || exit 1
	done >in &&
	aiperf-metrics --tokenizer test:words <in >fast 2>fast.err &&
	AIPERF_NO_FASTPATH=1 aiperf-metrics --tokenizer test:words <in >slow 2>slow.err &&
	test_cmp slow fast && test_cmp slow.err fast.err &&
	jq -r "[.error.type, .metrics.output_sequence_length.value] | @tsv" fast >types &&
	printf "%s\t%s\n" "" 2 "" "" "" "" ValueError "" ValueError "" ValueError "" "" "" "" "" \
		"" 2 "" "" "" "" ValueError "" ValueError "" ValueError "" ValueError "" "" 2 \
		ValueError "" ValueError "" ValueError "" >expect &&
	test_cmp expect types
'

test_expect_success 'threads: each has its helper, the same records' '
	for i in 1 2 3 4 5 6 7 8; do field "(.a)" && field "[.n[] | tostring]" && field .a; done >in &&
	aiperf-metrics --tokenizer test:words <in >one &&
	aiperf-metrics --tokenizer test:words --threads 4 <in >four &&
	test_cmp one four
'

test_expect_success 'aiperf-gen: a payload template past its CPU time limit fails the run' '
	a_corpus &&
	test_expect_code 1 timeout 120 aiperf-gen -m m --tokenizer builtin --corpus "$TMP/a.txt" \
		--isl 5 --random-seed 1 --request-count 1 --num-dataset-entries 1 \
		--endpoint-type template --extra-inputs "payload_template:{x: until(false; .)}" 2>err &&
	grep -q "payload template failed on turn 0: jq: the program passed its CPU time limit (2000 ms" err
'

test_done
