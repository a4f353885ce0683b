#!/bin/sh
# aiperf-send --start-at and aiperf clocks without namespaces (issue #18;
# t0817 plays the hosts where it may): nothing starts before the start,
# a start already past is a warning, bad values are usage errors; the
# clock offsets of a local runner, and a skewed one's warning.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 3 \
		--synthetic-input-tokens-mean 8 --output-tokens-mean 2 \
		--request-count 5 --request-rate 100 --arrival-pattern constant
}

# start_at S: now + S seconds, epoch seconds with 3 decimals. (The
# margins leave room for a sanitizer build on a loaded machine to start:
# a moment already past would start the run at once.)
start_at() {
	awk -v s="$1" 'BEGIN { srand(); printf "%.3f\n", srand() + s }'
}

test_expect_success 'no request starts before --start-at' '
	S=$(start_at 4) &&
	gen | aiperf-send -u "$MOCK_URL" --start-at "$S" >raw 2>err &&
	test "$(wc -l <raw)" = 5 &&
	ns=$(echo "$S" | awk -F. "{ printf \"%s%s000000\", \$1, \$2 }") &&
	jq -r .metadata.request_start_ns raw | while read -r t; do
		test "$t" -ge "$ns" || { echo "$t before $ns"; exit 1; }
	done &&
	! grep -q past err
'

test_expect_success 'a start already past: a warning, and the run goes on' '
	gen | aiperf-send -u "$MOCK_URL" --start-at 1000000000.5 >raw 2>err &&
	test "$(wc -l <raw)" = 5 &&
	grep -q "start-at 1000000000.5 is .* s past: the run starts now" err
'

test_expect_success 'bad values and --phase-cue with it are usage errors' '
	for v in soon 1.2.3 -5 1.1234567891 ""; do
		test_expect_code 2 aiperf-send -u "$MOCK_URL" --start-at "$v" </dev/null 2>err &&
		grep -q "invalid value for --start-at" err || exit 1
	done &&
	test_expect_code 2 aiperf-send -u "$MOCK_URL" --start-at 1 --phase-cue a --phase-ack b \
		</dev/null 2>err &&
	grep -q "cannot be used together" err
'

test_expect_success 'aiperf profile --start-at: one sender or two, none starts before it' '
	for w in 1 2; do
		S=$(start_at 6) &&
		aiperf profile -m m --tokenizer builtin --url "$MOCK_URL" --random-seed 3 \
			--isl 8 --osl 2 --request-count 6 --request-rate 100 \
			--request-rate-mode constant --export-level raw --ui-type none \
			--workers-max $w --start-at "$S" --artifact-dir w$w >out 2>err &&
		test "$(wc -l <w$w/profile_export_raw.jsonl)" = 6 &&
		ns=$(echo "$S" | awk -F. "{ printf \"%s%s000000\", \$1, \$2 }") &&
		jq -r .metadata.request_start_ns w$w/profile_export_raw.jsonl | while read -r t; do
			test "$t" -ge "$ns" || { echo "$t before $ns"; exit 1; }
		done || exit 1
	done &&
	grep -q "the warmup phase starts at ${ns}" w2/logs/aiperf.log
'

test_expect_success 'aiperf clocks: a local runner agrees, a skewed one is reported (exit 1)' '
	printf "#!/bin/sh\nshift\nexec \"\$@\"\n" >local &&
	printf "#!/bin/sh\necho \$((\$(date +%%s%%N) + 5000000000))\n" >skewed &&
	chmod +x local skewed &&
	aiperf clocks --via ./local a b --json c.json >out 2>err &&
	test "$(grep -c "^[ab] " out)" = 2 && test ! -s err &&
	jq -e "[.hosts[].ok] == [true, true] and .max_skew_ms == 1" c.json &&
	test_expect_code 1 aiperf clocks --via ./skewed --samples 1 h >out 2>err &&
	grep -q "beyond 1 ms on h" err && grep -q chrony err &&
	aiperf clocks --via ./skewed --max-skew-ms 6000 --json - h >out &&
	jq -e ".hosts[0].offset_ms > 4000" out &&
	test_expect_code 2 aiperf clocks 2>err && grep -q "no host" err &&
	test_expect_code 2 aiperf clocks --samples 0 h 2>err
'

test_done
