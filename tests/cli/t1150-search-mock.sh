#!/bin/sh
# aiperf-search drives a capacity search against aiperf-mock under load
# (--ttft-per-request-ms: TTFT = 20 + 4 * (c - 1) ms at concurrency c):
# the loop runs one aiperf profile at each concurrency it asks for, in the
# original's adaptive layout (search_iter_NNNN/profile_runs/run_0001), until
# it says done; p95 TTFT < 98 ms holds up to c = 20, so the boundary is 20.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 20 --ttft-per-request-ms 4 --itl-ms 1 --output-tokens 2 || exit 1
export MOCK_URL

# search NAME [aiperf-search options]: the loop (at most 40 runs); leaves
# NAME/search_history.json and the answer in NAME.out
search() {
	name=$1
	shift
	mkdir -p "$name"
	i=0
	dirs=
	while [ "$i" -lt 40 ]; do
		# shellcheck disable=SC2086 # dirs: one word each
		ans=$(aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 98 \
			"$@" --history "$name/search_history.json" $dirs) || return 1
		case $ans in
		done\ *) echo "$ans" >"$name.out"; return 0 ;;
		next\ *) ;;
		*) echo "bad answer: $ans" >&2; return 1 ;;
		esac
		c=${ans#next }
		d=$(printf '%s/search_iter_%04d' "$name" "$i")
		run=$d/profile_runs/run_0001
		rc=0
		aiperf profile --url "$MOCK_URL" -m m --endpoint-type chat --streaming \
			--tokenizer builtin --concurrency "$c" --request-count $((c * 3 + 6)) \
			--ui-type none --artifact-dir "$run" >"$name.log" 2>&1 || rc=$?
		echo "$rc" >"$run/exit_status"
		dirs="$dirs $d"
		i=$((i + 1))
	done
	echo "no answer after 40 runs" >&2
	return 1
}

# within_step N: N is the model's boundary, 20, within one search step (5%)
within_step() {
	test "$1" -ge 19 && test "$1" -le 20
}

test_expect_success 'smooth_isotonic (the default): the boundary of the load model' '
	search si &&
	n=$(cut -d" " -f2 si.out) &&
	within_step "$n" &&
	jq -e ".boundary_summary.feasible_max.value == $n and
		.boundary_summary.infeasible_min.value > $n and
		.boundary_summary.infeasible_min.first_breach.metric_tag == \"time_to_first_token\" and
		.boundary_summary.infeasible_min.first_breach.observed > 98 and
		.convergence_reason == \"smooth_isotonic_precision_reached\" and
		.config.planner == \"smooth_isotonic\" and .recipe == \"max-concurrency-under-sla\" and
		.config.sla_filters == [{metric_tag: \"time_to_first_token\", stat: \"p95\", op: \"lt\", threshold: 98.0}] and
		(.iterations | length) >= 8 and .iterations[0].variation_values == {\"phases.profiling.concurrency\": 1} and
		.best_trials[0].feasible" si/search_history.json >/dev/null
'

test_expect_success 'monotonic (one trial a verdict): the same boundary by bisection' '
	search mono --search-style monotonic --stability-trials 1 &&
	n=$(cut -d" " -f2 mono.out) &&
	within_step "$n" &&
	jq -e ".config.planner == \"monotonic_sla\" and
		.convergence_reason == \"monotonic_precision_reached\" and
		([.iterations[].variation_values[]] | .[:6]) == [1, 2, 4, 8, 16, 32]" \
		mono/search_history.json >/dev/null
'

test_expect_success 'replayed again, the finished search says done with the same boundary' '
	# shellcheck disable=SC2046
	aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 98 \
		--history again.json $(ls -d si/search_iter_*) >again.out &&
	test_cmp si.out again.out
'

test_expect_success 'an iteration that ran another concurrency than asked is an error' '
	test_expect_code 1 aiperf-search next --recipe max-concurrency-under-sla \
		--ttft-sla-ms 98 --history x.json si/search_iter_0001 2>err &&
	grep -q "ran concurrency 2, but the search asked for 1" err
'

test_expect_success 'no run at all: the first concurrency to try is the range low end' '
	aiperf-search next --recipe max-concurrency-under-sla --e2e-sla-ms 500 \
		--history h0.json >out &&
	test "$(cat out)" = "next 1" &&
	jq -e ".iterations == [] and .boundary_summary == null and .convergence_reason == null and
		.config.sla_filters[0].metric_tag == \"request_latency\" and
		.config.sla_filters[0].stat == \"p99\"" h0.json >/dev/null
'

test_expect_success 'a history named as a FIFO is written into it, never replaced (as /dev/null)' '
	mkfifo hist.fifo &&
	{ cat hist.fifo >hist.out & } &&
	aiperf-search next --recipe max-concurrency-under-sla --e2e-sla-ms 500 \
		--history hist.fifo >out &&
	wait &&
	test -p hist.fifo &&
	jq -e ".iterations == []" hist.out >/dev/null
'

test_expect_success 'Bayesian recipes and styles are refused, naming the grid-like answer' '
	for r in max-throughput-ttft-sla max-throughput-itl-sla max-goodput-under-slo; do
		test_expect_code 2 aiperf-search next --recipe $r --ttft-sla-ms 9 --history h.json 2>err &&
		grep -q "Bayesian optimisation (Optuna/BoTorch) is not built" err &&
		grep -q "max-concurrency-under-sla" err && grep -q "monotonic" err || exit 1
	done &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 9 \
		--search-style bo --history h.json 2>err && grep -q "not built" err &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 9 \
		--search-style optuna --history h.json 2>err && grep -q "not built" err &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla \
		--search-space concurrency:1,1000:int --history h.json 2>err && grep -q "not built" err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --history h.json 2>err &&
	grep -q "requires at least one of" err &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms x --history h.json &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 9 &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla \
		--tpot-sla-ms 5 --itl-sla-ms 6 --history h.json &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla \
		--search-sla "ttft:p95:lt" --history h.json &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla \
		--search-sla "ttft:p42:lt:5" --history h.json &&
	test_expect_code 2 aiperf-search next --recipe max-concurrency-under-sla --ttft-sla-ms 9 \
		--concurrency-min 50 --concurrency-max 10 --history h.json &&
	test_expect_code 2 aiperf-search frob &&
	test_expect_code 2 aiperf-search
'

echo "1..$test_count"
test "$test_failed" -eq 0
