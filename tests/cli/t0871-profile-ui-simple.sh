#!/bin/sh
# --ui-type simple (progress bars per phase), the plain lines both views
# print when stderr is not a terminal, and the status lines they come from
# (aiperf-metrics --status-fd).
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --error-rate 25 || test_skip_all "aiperf-mock did not start"
P="-m m --url $MOCK_URL --tokenizer builtin --isl 8 --osl 2 --concurrency 4"
ESC=$(printf "\\033")
CR=$(printf "\\r")

test_expect_success 'simple: a progress bar per phase on a terminal' '
	command -v script >/dev/null || skip_because "no script(1)"
	script -qec "aiperf profile $P --request-count 60 --warmup-request-count 6 \
		--ui-type simple --artifact-dir s 2>&1 >/dev/null" /dev/null >tty.out &&
	grep -a -q "^.*Warmup    \[#*\] 100.0% 6/6  [0-9]* errors" tty.out &&
	grep -a -q "Profiling \[##############################\] 100.0% 60/60  [0-9]* errors  [0-9.]* req/s  ETA 00:00" tty.out &&
	grep -a -q "${ESC}\[2A" tty.out &&
	! grep -a -q "aiperf: done" tty.out
'

# The bars of a lone sender are the sender's own (aiperf-send --ui-type
# simple): aiperf-metrics waits for the end (its gate), no aiperf-ui runs
# beside the sender; several senders keep aiperf-ui's view, summed.
test_expect_success 'simple on a terminal, one sender: the sender draws, aiperf-metrics is gated' '
	command -v script >/dev/null || skip_because "no script(1)"
	mkdir run1 runw &&
	script -qec "aiperf-plan --run-dir $TMP/run1 --plan $TMP/p1.json -- $P --request-count 10 \
		--ui-type simple --artifact-dir g1 >/dev/null" /dev/null >/dev/null &&
	jq -e ".plan.ui == [] and (.plan.metrics_gate | type) == \"string\" and
		(.plan.senders[0].send | index([\"--ui-type\", \"simple\"]))" p1.json &&
	script -qec "aiperf-plan --run-dir $TMP/runw --plan $TMP/pw.json -- $P --request-count 10 \
		--workers-max 2 --ui-type simple --artifact-dir gw >/dev/null" /dev/null >/dev/null &&
	jq -e ".plan.ui[0] == \"aiperf-ui\" and
		all(.plan.senders[].send; index([\"--ui-type\", \"none\"]))" pw.json
'

test_expect_success 'simple: the sender CPU (client health) on the profiling line' '
	command -v script >/dev/null || skip_because "no script(1)"
	script -qec "aiperf profile $P --request-count 40 --request-rate 20 \
		--ui-type simple --artifact-dir cpu 2>&1 >/dev/null" /dev/null >tty.out &&
	grep -a -q "Profiling \[[#-]*\] .* req/s .* send CPU [0-9]*%" tty.out
'

test_expect_success 'simple and dashboard print plain lines when stderr is not a terminal' '
	for t in simple dashboard; do
		aiperf profile $P --request-count 60 --ui-type $t --artifact-dir p$t >out 2>err &&
		cat err &&
		grep -q "^aiperf: done, profiling 60/60 requests (100%), [0-9]* errors, [0-9.]* requests/s" err &&
		! grep -q "$ESC" err && ! grep -q "$CR" err &&
		! grep -q "aiperf: done" out || return 1
	done
'

test_expect_success 'the default prints nothing when stderr is not a terminal; none prints nothing' '
	aiperf profile $P --request-count 20 --artifact-dir n1 >out 2>err &&
	! grep -q "aiperf: done" err &&
	command -v script >/dev/null || skip_because "no script(1)"
	script -qec "aiperf profile $P --request-count 20 --ui-type none --artifact-dir n2" \
		/dev/null >tty.out &&
	! grep -a -q "aiperf: done" tty.out && ! grep -a -q "Profiling \[" tty.out
'

test_expect_success 'aiperf-metrics --status-fd: counts, errors by type, percentiles, the end' '
	aiperf-gen -m m --tokenizer builtin --isl 8 --osl 4 --streaming --request-count 80 \
		--warmup-request-count 8 --request-rate 200 >req &&
	aiperf-send -u "$MOCK_URL" --ui-type none <req >raw &&
	aiperf-metrics --tokenizer builtin --streaming --drop-warmup --status-fd 3 <raw \
		3>status >metrics &&
	tail -1 status >last &&
	jq -e ".end == true and .phase == \"profiling\" and .warmup.done == 8" last &&
	n=$(grep -c "" metrics) && test "$n" = 80 &&
	errs=$(grep -c "\"error\"" metrics) &&
	jq -e --argjson e "$errs" ".profiling.done == 80 and .profiling.errors == \$e and
		([.errors_by_type[]] | add // 0) == \$e" last &&
	ok=$((80 - errs)) &&
	jq -e --argjson ok "$ok" ".latency_ms.n == \$ok and .ttft_ms.n == \$ok and
		.lateness_us.n == 80 and .ttft_ms.p50 <= .ttft_ms.p99 and .ttft_ms.p99 <= .ttft_ms.max" last &&
	test "$(jq -s "map(select(.end)) | length" status)" = 1
'

test_expect_success 'status p50 within 1% of the exact median of the metric records' '
	jq -r "select(.metrics.request_latency) | .metrics.request_latency.value" metrics |
		sort -g >lat &&
	n=$(grep -c "" lat) &&
	exact=$(sed -n "$(( (n - 1) / 2 + 1 ))p" lat) &&
	jq -e --argjson x "$exact" "(.latency_ms.p50 - \$x) | fabs <= 0.011 * \$x" last
'

test_expect_success 'aiperf-ui: plain lines from status lines, at most one an interval, and the last' '
	aiperf-ui --ui-type dashboard --request-count 80 --interval 3600 <status 2>ui.err >ui.out &&
	test ! -s ui.out &&
	test "$(grep -c "" ui.err)" -le 2 &&
	tail -1 ui.err | grep -q "^aiperf: done, profiling 80/80 requests (100%)" &&
	test_expect_code 2 aiperf-ui --ui-type fancy </dev/null 2>err &&
	grep -q "invalid value for --ui-type" err
'

test_expect_success 'aiperf-ui: hostile status lines are skipped; the real last line is shown' '
	{
		echo "not json"
		printf "{\"profiling\": {\"done\": 3}\n"
		printf "\000\001\033[2J\n"
		echo "{\"phase\": \"\\u001b[31mred\", \"profiling\": {\"done\": 1e999, \"errors\": \"x\"}, \"errors_by_type\": [1]}"
		head -c 300000 /dev/zero | tr "\\000" a
		echo
		tail -1 status
	} >hostile &&
	aiperf-ui --ui-type simple --request-count 80 --interval 3600 <hostile 2>ui.err >ui.out &&
	test ! -s ui.out &&
	! grep -q "$ESC" ui.err &&
	tail -1 ui.err | grep -q "^aiperf: done, profiling 80/80 requests (100%)"
'

test_done
