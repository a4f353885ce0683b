#!/bin/sh
# run.sh: long
# aiperf profile --num-profile-runs and aiperf-aggregate (issue #16, spec 8):
# 3 runs against a jittery mock; the aggregate's JSON and CSV checked key by
# key and number by number against numpy and scipy.stats.t
# (aggregate-check.py); failed runs (made by hand, and one of aiperf profile
# itself) listed in failed_runs; the original's option checks; adaptive
# stopping; SIGINT during run 2.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings (CHECK, PY used there)
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
CHECK=$TOP/tests/cli/aggregate-check.py
have_scipy() {
	"$PY" -c 'import numpy, scipy.stats' 2>/dev/null ||
		skip_because "no python3-numpy or python3-scipy"
}

start_mock --ttft-ms 4 --itl-ms 1 --jitter-ms 3

prof() {	# [options]: a short run against the mock
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 8 --concurrency 2 --request-count 24 \
		--no-server-metrics --no-gpu-telemetry "$@"
}

test_expect_success 'aiperf-aggregate: usage errors (exit 2)' '
	test_expect_code 2 aiperf-aggregate 2>err &&
	grep -q "no run directory given" err &&
	test_expect_code 2 aiperf-aggregate --confidence-level 1 d 2>err &&
	grep -q "invalid value for --confidence-level" err &&
	test_expect_code 2 aiperf-aggregate --check-convergence cv d 2>err &&
	grep -q "needs --metric" err &&
	test_expect_code 2 aiperf-aggregate --check-convergence median --metric x d 2>err
'

test_expect_success '3 runs: profile_runs/run_000N and aggregate/, as spec 8 lays them out' '
	prof --num-profile-runs 3 --warmup-request-count 2 --artifact-dir m >out 2>err &&
	for i in 1 2 3; do
		test -s m/profile_runs/run_000$i/profile_export_aiperf.json &&
		test -s m/profile_runs/run_000$i/profile_export_aiperf.csv &&
		test -s m/profile_runs/run_000$i/profile_export.jsonl &&
		test "$(cat m/profile_runs/run_000$i/exit_status)" = 0 || exit 1
	done &&
	test ! -e m/profile_runs/run_0004 &&
	test -s m/aggregate/profile_export_aiperf_aggregate.json &&
	test -s m/aggregate/profile_export_aiperf_aggregate.csv &&
	grep -qx "Aggregate: $PWD/m/aggregate/profile_export_aiperf_aggregate.json" out &&
	grep -q "Using default seed 42" err
'

test_expect_success 'the aggregate equals numpy and scipy.stats.t (1e-9), keys and formats as spec 8' '
	have_scipy &&
	"$PY" "$CHECK" m/aggregate 0.95 m/profile_runs/run_0001 m/profile_runs/run_0002 \
		m/profile_runs/run_0003 &&
	# the check fails on a wrong number
	cp -r m/aggregate bad &&
	sed "0,/\"mean\": \([0-9]\)/s//\"mean\": 9\1/" m/aggregate/profile_export_aiperf_aggregate.json \
		>bad/profile_export_aiperf_aggregate.json &&
	! "$PY" "$CHECK" bad 0.95 m/profile_runs/run_0001 m/profile_runs/run_0002 \
		m/profile_runs/run_0003 >diff && grep -q "mean" diff
'

test_expect_success 'CSV: CRLF, header, formats, metadata rows' '
	f=m/aggregate/profile_export_aiperf_aggregate.csv &&
	test "$(grep -c "$(printf "\r")\$" $f)" -eq "$(wc -l <$f)" &&
	head -1 $f | grep -q "^metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit" &&
	grep -q "^request_latency_avg,[0-9]*\.[0-9][0-9],[0-9]*\.[0-9][0-9],.*,[0-9]*\.[0-9]\{4\},[0-9]*\.[0-9]\{4\},[0-9.-]*,[0-9.]*,4\.3027,ms" $f &&
	tr -d "\r" <$f | sed -n "/^\$/,\$p" >meta &&
	printf "\nAggregation Type,confidence\nTotal Runs,3\nSuccessful Runs,3\nConfidence Level,0.95\nRun Labels,\"[%s, %s, %s]\"\n" \
		"'"'run_0001'"'" "'"'run_0002'"'" "'"'run_0003'"'" >want &&
	test_cmp want meta
'

test_expect_success 'JSON: top-level and metadata keys in order, failed_runs empty' '
	jq -c "[keys_unsorted, (.metadata | keys_unsorted), .metadata.failed_runs,
		.metadata.run_labels, (.metrics.request_latency_avg | keys_unsorted)]" \
		m/aggregate/profile_export_aiperf_aggregate.json >got &&
	echo "[[\"schema_version\",\"aiperf_version\",\"metadata\",\"metrics\"],[\"aggregation_type\",\"num_profile_runs\",\"num_successful_runs\",\"failed_runs\",\"confidence_level\",\"run_labels\"],[],[\"run_0001\",\"run_0002\",\"run_0003\"],[\"mean\",\"std\",\"min\",\"max\",\"cv\",\"se\",\"ci_low\",\"ci_high\",\"t_critical\",\"unit\"]]" >want &&
	test_cmp want got
'

test_expect_success 'every run has seed 42; warmup only in the first' '
	for i in 1 2 3; do
		jq -r ".. | .cli_command? // empty" m/profile_runs/run_000$i/profile_export_aiperf.json |
			grep -q -- "--random-seed 42" || exit 1
	done &&
	jq -r ".. | .cli_command? // empty" m/profile_runs/run_0001/profile_export_aiperf.json | grep -q -- --warmup-request-count &&
	! jq -r ".. | .cli_command? // empty" m/profile_runs/run_0002/profile_export_aiperf.json | grep -q -- --warmup-request-count &&
	! jq -r ".. | .cli_command? // empty" m/profile_runs/run_0003/profile_export_aiperf.json | grep -q -- --warmup-request-count
'

test_expect_success 'run directories made by hand: broken ones are failed_runs, with their error' '
	have_scipy &&
	mkdir -p hand/broken hand/crashed hand/empty &&
	cp -r m/profile_runs/run_0001 m/profile_runs/run_0002 m/profile_runs/run_0003 hand/ &&
	printf "{\"request_latency\": {\"unit\": \"ms\", \"avg\": 1" >hand/broken/profile_export_aiperf.json &&
	cp m/profile_runs/run_0001/profile_export_aiperf.json hand/crashed/ &&
	echo 1 >hand/crashed/exit_status &&
	aiperf-aggregate -o hand/agg hand/run_0001 hand/broken hand/run_0002 hand/crashed \
		hand/empty hand/run_0003 hand/gone 2>err &&
	jq -c ".metadata | [.num_profile_runs, .num_successful_runs, .failed_runs]" \
		hand/agg/profile_export_aiperf_aggregate.json >got &&
	grep -q "^\[7,3,\[{\"label\":\"broken\",\"error\":\"invalid JSON: at byte [0-9]*: " got &&
	grep -q "{\"label\":\"crashed\",\"error\":\"exit status 1\"}" got &&
	grep -q "{\"label\":\"empty\",\"error\":\"missing profile_export_aiperf.json: No such file or directory\"}" got &&
	grep -q "{\"label\":\"gone\",\"error\":\"no run directory .hand/gone.\"}\]\]" got &&
	grep -q "^aiperf-aggregate: hand/broken: invalid JSON" err &&
	"$PY" "$CHECK" hand/agg 0.95 hand/run_0001 hand/broken hand/run_0002 hand/crashed \
		hand/empty hand/run_0003 hand/gone
'

test_expect_success 'fewer than 2 successful runs: the original messages, nothing written' '
	test_expect_code 1 aiperf-aggregate -o few hand/run_0001 hand/broken 2>err &&
	grep -q "aiperf-aggregate: Insufficient successful runs for confidence intervals. Got 1 successful run(s), but need at least 2. Total runs: 2, Failed runs: 1." err &&
	test_expect_code 1 aiperf-aggregate -o few hand/broken hand/gone 2>err &&
	grep -q "aiperf-aggregate: All runs failed - cannot compute confidence statistics. Total runs: 2, Failed runs: 2." err &&
	test ! -e few
'

test_expect_success 'a run of aiperf profile that fails is listed, the others aggregated' '
	have_scipy &&
	mkdir -p f/profile_runs/run_0002 && : >f/profile_runs/run_0002/logs &&
	prof --num-profile-runs 3 --artifact-dir f >out 2>err &&
	test "$(cat f/profile_runs/run_0002/exit_status)" = 1 &&
	grep -q "run run_0002 failed (status 1)" err &&
	jq -c ".metadata | [.num_profile_runs, .num_successful_runs, .failed_runs, .run_labels]" \
		f/aggregate/profile_export_aiperf_aggregate.json >got &&
	echo "[3,2,[{\"label\":\"run_0002\",\"error\":\"exit status 1\"}],[\"run_0001\",\"run_0003\"]]" >want &&
	test_cmp want got &&
	"$PY" "$CHECK" f/aggregate 0.95 f/profile_runs/run_0001 f/profile_runs/run_0002 \
		f/profile_runs/run_0003
'

test_expect_success 'the original option checks (exit 2)' '
	test_expect_code 2 prof --num-profile-runs 11 2>err &&
	grep -q "invalid value for --num-profile-runs: .11." err &&
	test_expect_code 2 prof --num-profile-runs 3 --confidence-level 1 2>err &&
	grep -q "invalid value for --confidence-level" err &&
	test_expect_code 2 prof --confidence-level 0.9 2>err &&
	grep -q "^aiperf profile: --confidence-level only applies when running multiple trials (--num-profile-runs > 1)." err &&
	test_expect_code 2 prof --num-profile-runs 2 --ui dashboard 2>err &&
	grep -q "Dashboard UI is not supported with multi-run mode" err &&
	test_expect_code 2 prof --num-profile-runs 2 --convergence-stat p99 2>err &&
	grep -q "^aiperf profile: --convergence-stat requires --convergence-metric to be set." err &&
	test_expect_code 2 prof --num-profile-runs 2 --convergence-metric ttft \
		--convergence-mode distribution --convergence-stat p99 2>err &&
	grep -q "not applicable with --convergence-mode distribution" err &&
	test_expect_code 2 prof --num-profile-runs 2 --convergence-metric ttft \
		--convergence-mode Median 2>err &&
	grep -q "invalid value for --convergence-mode" err &&
	test_expect_code 2 prof --num-profile-runs 2 --input-file - </dev/null 2>err &&
	grep -q "standard input) can be read by one run only" err &&
	test ! -e artifacts
'

test_expect_success '--num-profile-runs 1: a single run, where --artifact-dir says' '
	prof --num-profile-runs 1 --artifact-dir one >out 2>err &&
	test -s one/profile_export_aiperf.json && test ! -e one/profile_runs &&
	test ! -e one/aggregate && test ! -e artifacts
'

test_expect_success 'no --artifact-dir: artifacts/NAME/, as a single run names it; one --artifact-dir a run' '
	prof --num-profile-runs 2 >out 2>err &&
	d=artifacts/m-openai-chat-concurrency2 &&
	test -s $d/profile_runs/run_0002/profile_export_aiperf.json &&
	test -s $d/aggregate/profile_export_aiperf_aggregate.json &&
	jq -r "[.. | .cli_command? // empty][0]" $d/profile_runs/run_0002/profile_export_aiperf.json >cmd &&
	test "$(grep -o -- "--artifact-dir" cmd | wc -l)" = 1 &&
	grep -q -- "--artifact-dir $PWD/$d/profile_runs/run_0002\$" cmd
'

test_expect_success 'adaptive stopping: cv converged after the 3 runs it needs' '
	prof --num-profile-runs 6 --convergence-metric request_latency --convergence-mode cv \
		--convergence-threshold 0.9 --artifact-dir c >out 2>err &&
	test -d c/profile_runs/run_0003 && test ! -e c/profile_runs/run_0004 &&
	grep -q "convergence: converged cv runs=3" err &&
	test "$(jq .metadata.num_profile_runs c/aggregate/profile_export_aiperf_aggregate.json)" = 3
'

test_expect_success 'adaptive stopping: not converged, all runs' '
	prof --num-profile-runs 4 --convergence-metric request_latency \
		--convergence-threshold 0.000001 --artifact-dir nc >out 2>err &&
	test -d nc/profile_runs/run_0004 &&
	grep -q "convergence: not-converged ci_width runs=3" err &&
	test "$(jq .metadata.num_profile_runs nc/aggregate/profile_export_aiperf_aggregate.json)" = 4
'

test_expect_success 'distribution mode: the KS p-value equals scipy.stats.ks_2samp' '
	have_scipy &&
	aiperf-aggregate --check-convergence distribution --metric request_latency \
		--threshold 0.1 m/profile_runs/run_000? >got &&
	"$PY" -c "
import json, sys
from scipy import stats
def vals(d):
    out = []
    for l in open(d + \"/profile_export.jsonl\"):
        r = json.loads(l)
        if r[\"metadata\"][\"benchmark_phase\"] == \"profiling\" and r.get(\"error\") is None:
            out.append(r[\"metrics\"][\"request_latency\"][\"value\"])
    return out
a = vals(\"m/profile_runs/run_0001\") + vals(\"m/profile_runs/run_0002\")
b = vals(\"m/profile_runs/run_0003\")
r = stats.ks_2samp(a, b)
got = dict(w.split(\"=\") for w in open(\"got\").read().split()[2:])
ok = abs(float(got[\"p\"]) - r.pvalue) <= 1e-5 * max(1, r.pvalue) and abs(float(got[\"D\"]) - r.statistic) < 1e-5
print(got, r)
sys.exit(0 if ok else 1)
"
'

for to in wrapper group; do
	test_expect_success "SIGINT to the $to during run 2: run_0001 whole, run 2 cancelled, status 130" '
		dir=$PWD/i'$to'
		grp sh -c "echo \$\$ >pid; exec \"\$0\" \"\$@\"" aiperf profile -m m --url "$MOCK_URL" \
			--tokenizer builtin --streaming --isl 16 --osl 40 --concurrency 2 \
			--request-count 300 --export-level raw --no-server-metrics \
			--no-gpu-telemetry --num-profile-runs 3 --artifact-dir "$dir" >out 2>err &
		wait_file "$dir/profile_runs/run_0002/profile_export_raw.jsonl" &&
		if [ '$to' = group ]; then kill -INT -$(cat pid); else kill -INT $(cat pid); fi &&
		st=0 && wait $! || st=$?
		test "$st" = 130 &&
		test "$(cat "$dir/profile_runs/run_0001/exit_status")" = 0 &&
		test "$(jq .was_cancelled "$dir/profile_runs/run_0001/profile_export_aiperf.json")" = false &&
		test "$(cat "$dir/profile_runs/run_0002/exit_status")" = 130 &&
		test "$(jq .was_cancelled "$dir/profile_runs/run_0002/profile_export_aiperf.json")" = true &&
		test ! -e "$dir/profile_runs/run_0003" && test ! -e "$dir/aggregate" &&
		grep -q "interrupted after 2 run(s)" err &&
		grep -q "Insufficient successful runs for confidence intervals. Got 1" err &&
		# one signal reached the run: it stopped issuing, not cancelling in flight
		test "$(grep -c "^aiperf-send: interrupted: " err)" = 1 &&
		! pgrep -f -- "$dir" >/dev/null
	'
done

test_done
