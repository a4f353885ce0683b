#!/bin/sh
# run.sh: long
# aiperf profile --search-recipe max-concurrency-under-sla (issue #29):
# the wrapper's loop runs the concurrency aiperf-search(1) asks for, one
# search_iter_NNNN/profile_runs/run_0001/ an iteration, until it is done;
# against aiperf-mock's load model (TTFT = 5 ms + 10 ms per other request
# in flight: p95 TTFT at concurrency c is about 5 + 10 (c - 1)), the
# boundary under --ttft-sla-ms 60 is 6, within one search step.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 5 --ttft-per-request-ms 10

prof() {	# [options]: a short run against the mock
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 4 --request-count 16 --ui-type none \
		--no-server-metrics --no-gpu-telemetry "$@"
}

# model_boundary SLA: the highest c with 5 + 10 (c - 1) < SLA
model_boundary() {
	awk -v s="$1" 'BEGIN { c = 1; while (5 + 10 * c < s) c++; print c }'
}

for style in monotonic smooth_isotonic; do
	test_expect_success "$style: the boundary of the mock's model, within one step" '
		prof --search-recipe max-concurrency-under-sla --ttft-sla-ms 60 \
			--search-style '$style' --concurrency-max 32 --artifact-dir '$style' >out 2>err &&
		want=$(model_boundary 60) &&
		got=$(sed -n "s/^Boundary: concurrency \([0-9]*\) .*/\1/p" out) &&
		test -n "$got" && test $((got - want)) -le 1 && test $((want - got)) -le 1 &&
		test "$(jq .boundary_summary.feasible_max.value '$style'/search_history.json)" = "$got" &&
		test -s '$style'/search_iter_0000/profile_runs/run_0001/profile_export_aiperf.json &&
		n=$(ls -d '$style'/search_iter_* | wc -l) && test "$n" -le 30 &&
		for d in '$style'/search_iter_*; do
			c=$(jq .input_config.loadgen.concurrency $d/profile_runs/run_0001/profile_export_aiperf.json) &&
			grep -q "search iteration [0-9]*: concurrency $c: $PWD/$d\$" err || return 1
		done
	'
done

test_expect_success 'the search takes one trial an iteration' '
	test_expect_code 2 prof --search-recipe max-concurrency-under-sla --ttft-sla-ms 60 \
		--num-profile-runs 2 2>err &&
	grep -q "searches one trial an iteration" err
'

test_done
