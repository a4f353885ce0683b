#!/bin/sh
# run.sh: long
# Every `aiperf` example command of the original's documentation runs here
# unchanged but for the URL (aiperf-mock), small counts and a builtin
# tokenizer where the docs name a hub model (tests/cli/docs-examples.py),
# and writes sound artifacts; an example that needs what is not built yet
# is refused as "not supported yet" with the capability, and one the
# original itself refuses is refused with its message (issue #11). As
# capabilities land, their examples run here by themselves. `aiperf plot`
# examples read a committed sweep (tests/data/plot) copied where they look,
# artifacts/; the --dashboard one runs unchanged (port 8050) until its page
# has been fetched, then is stopped with SIGTERM.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

REF=$SHARED/reference/original
[ -d "$REF" ] || test_skip_all "no $REF"
start_mock --ttft-ms 2 --itl-ms 1

# The input files the examples name.
fixtures() {
	for i in 0 1 2 3; do
		printf '{"timestamp": %d, "text": "example prompt number %d"}\n' $((i * 100)) "$i"
	done >trace.jsonl
	cp trace.jsonl schedule.jsonl
	for i in 0 1 2 3; do
		printf '{"timestamp": %d, "input_length": 64, "output_length": 4, "hash_ids": [%d]}\n' \
			$((i * 100)) "$i"
	done >prod-trace.jsonl
	cp prod-trace.jsonl mooncake_trace.jsonl
	printf '%s\n' '{"session_id": "a", "turns": [{"text": "hi"}, {"text": "more"}]}' \
		'{"session_id": "b", "turns": [{"text": "hello"}]}' \
		'{"session_id": "c", "turns": [{"text": "hey"}, {"text": "again"}]}' >conversations.jsonl
	# --public-dataset sharegpt: a small file where the original keeps its copy
	mkdir -p .cache/aiperf/datasets
	printf '[%s]\n' '{"id": "x", "conversations": [{"from": "human", "value": "Name three rivers of Europe, please."}, {"from": "gpt", "value": "The Danube, the Rhine and the Seine."}]}' \
		>.cache/aiperf/datasets/ShareGPT_V3_unfiltered_cleaned_split.json
}

# plot_fixtures: the runs `aiperf plot` examples read, and their config.
plot_fixtures() {
	mkdir -p artifacts &&
	cp -r "$TOP"/tests/data/plot/pareto-c* artifacts/ &&
	printf '%s\n' '# plot configuration (the original'"'"'s layout)' 'visualization:' \
		'  multi_run_defaults: [pareto, ttft_vs_throughput]' '  multi_run_plots:' \
		'    pareto: {type: pareto, labels: [run_name]}' \
		'    ttft_vs_throughput: {type: scatter_line, x: time_to_first_token_avg, y: request_throughput_avg}' \
		>my_plots.yaml
}

# check_plot DIR: DIR (the default output: the first path's plots/) holds
# the report and the plots of the three runs, Pareto included.
check_plot() {
	test -s "$1/report.html" && test -s "$1/pareto.png" && test -s "$1/pareto.svg" &&
	grep -q "3 runs," "$1/report.html"
}

# run_dashboard CMD: runs it in the background until its page is served,
# fetches the page, stops it with SIGTERM; fails unless it exits 0.
run_dashboard() {
	eval "exec $1" >out 2>err </dev/null &
	pid=$!
	i=0
	while ! grep -q "serving http://127.0.0.1:8050/" err && kill -0 $pid 2>/dev/null &&
		[ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if grep -q "cannot listen on 127.0.0.1 port 8050: Address already in use" err; then
		wait $pid
		skip_because "port 8050 is in use here"
	fi
	curl -sf http://127.0.0.1:8050/ >page || { kill $pid; wait $pid; cat err; return 1; }
	kill -TERM $pid
	st=0 && wait $pid || st=$?
	test $st -eq 0 && grep -q "3 runs," page && grep -q "fig-pareto" page
}

# The accuracy example (MMLU, every subject) reads its rows from the cache
# (aiperf-accuracy(7), Data), offline: each subject gets the fixtures' five
# abstract_algebra dev rows and one test row.
export AIPERF_CACHE_DIR="$TMP/acc-cache" HF_DATASETS_OFFLINE=1
python3 - "$TOP" "$AIPERF_CACHE_DIR/datasets/lighteval/mmlu" <<'P' || exit 1
import os, runpy, shutil, sys
top, to = sys.argv[1], sys.argv[2]
ref = runpy.run_path(os.path.join(top, "tests/accuracy/prompts-ref.py"), run_name="ref")
src = os.path.join(top, "tests/data/accuracy/hub/lighteval/mmlu/abstract_algebra")
for s in ref["MMLU_SUBJECTS"]:
    os.makedirs(os.path.join(to, s))
    shutil.copy(os.path.join(src, "dev.jsonl"), os.path.join(to, s, "dev.jsonl"))
    with open(os.path.join(src, "test.jsonl")) as f, open(os.path.join(to, s, "test.jsonl"), "w") as g:
        g.write(f.readline())
P

python3 "$TOP/tests/cli/docs-examples.py" "$REF" "$TOP/data/profile-options.tsv" \
	"$MOCK_URL" >"$TMP/examples"

# later_value CMD: for an example whose missing capability is a value, not
# a flag of its own, that capability as the stage names it.
later_value() {
	case $1 in
	esac
}
test_expect_success 'the docs hold the examples this test knows' '
	test "$(wc -l <examples)" -ge 25 &&
	test "$(grep -c "^run	" examples)" -ge 15 &&
	grep -q "^plot	aiperf plot$" examples &&
	grep -q "^dashboard	aiperf plot --paths artifacts/pareto-c\* --dashboard$" examples &&
	grep -q "^refused:Invalid --goodput	" examples
'

# check_run DIR: DIR (an example's working folder) holds one artifact
# directory with a summary that counts requests and no errors (one for
# each of --num-profile-runs 2, and their aggregate).
check_run() {
	j=$(find "$1" -name profile_export_aiperf.json) &&
	if grep -q -- --num-profile-runs "$1/cmd"; then
		test "$(printf '%s\n' "$j" | wc -l)" -eq 2 &&
		a=$(find "$1" -name profile_export_aiperf_aggregate.json) &&
		test "$(jq .metadata.num_successful_runs "$a")" = 2 &&
		for r in $j; do check_summary "$1" "$r" || return 1; done
		return
	fi
	test "$(printf '%s\n' "$j" | wc -l)" -eq 1 &&
	check_summary "$1" "$j"
}

# check_summary DIR SUMMARY: one summary of the example in DIR.
check_summary() {
	j=$2
	test "$(jq .request_count.avg "$j")" -gt 0 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test -s "$(dirname "$j")/profile_export_aiperf.csv" &&
	test -f "$(dirname "$j")/logs/aiperf.log" &&
	if grep -q -- --goodput "$1/cmd"; then jq -e .good_request_count "$j" >/dev/null; fi
	if grep -q -- --user-context-prompt-length "$1/cmd"; then check_context "$j"; fi
}

# check_context SUMMARY: with --user-context-prompt-length (the usage
# guide's multi_turn example), what was sent: each conversation's first
# turn starts with the one shared system prompt, then its own user context
# prompt (one for each of the file's conversations, as the original 0.11's
# _inject_context_prompts draws them), then its turn.
check_context() {
	i=$(dirname "$1")/inputs.json &&
	jq -e "[.data[].payloads[0].messages] | length == 3 and
		all(.[]; length == 3 and map(.role) == [\"system\", \"user\", \"user\"]) and
		(map(.[0].content) | unique | length == 1) and
		(map(.[1].content) | unique | length == 3)" "$i" >/dev/null
}

n=0
while IFS='	' read -r kind cmd; do
	n=$((n + 1))
	v=$(later_value "$cmd")
	# what the original itself refuses stays refused
	case $kind in refused:*) v= ;; esac
	[ -z "$v" ] || kind="later:$v"
	test_expect_success "example $n ($kind): $cmd" '
		mkdir e'$n' && cd e'$n' && fixtures &&
		printf "%s\n" "$cmd" >cmd &&
		case $kind in plot|dashboard) plot_fixtures ;; esac &&
		st=0 &&
		case $kind in
		dashboard) run_dashboard "$cmd" ;;
		*) eval "$cmd" >out 2>err </dev/null || st=$? ;;
		esac
		case $kind in
		run) test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_run . ;;
		plot) test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_plot artifacts/plots ;;
		dashboard) check_plot artifacts/pareto-c1/plots ;;
		later:*) test $st -eq 2 && grep -q "not supported yet: .*\(issue #[0-9]*\|no issue\))" err &&
			grep -q -- "${kind#later:}" err && test ! -e artifacts ;;
		refused:*) test $st -eq 2 && grep -qF -- "${kind#refused:}" err &&
			test ! -e artifacts ;;
		esac
	'
done <"$TMP/examples"

test_done
