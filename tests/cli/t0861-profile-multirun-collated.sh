#!/bin/sh
# Multi-run extras (issue #16, spec 8): adaptive stopping also writes
# aggregate/profile_export_aiperf_collated.json (every run's per-request
# values pooled: mean, sample std, p50/p90/p95/p99, count; per-run mean and
# count) equal to numpy over the runs' records; aiperf-aggregate --collated
# on run folders made by hand (a failed run in failed_runs, a run without
# records adding nothing but its name in runs_left_out); each run's
# input_config carries the multi-run options, as the original's does.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
"$PY" -c 'import numpy' 2>/dev/null || test_skip_all "no python3-numpy"

start_mock --ttft-ms 4 --itl-ms 1 --jitter-ms 3

prof() {	# [options]: a short run against the mock
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 8 --concurrency 2 --request-count 12 \
		--no-server-metrics --no-gpu-telemetry "$@"
}

# check_collated FILE RUNDIR...: FILE equals numpy over the RUNDIRs' records
check_collated() {
	"$PY" - "$@" <<'PYEOF'
import json, os, sys
import numpy as np
doc = json.load(open(sys.argv[1]))
dirs = sys.argv[2:]
assert list(doc) == ["schema_version", "aiperf_version", "description", "metadata", "metrics"], list(doc)
assert doc["schema_version"] == "1.0.0"
md = doc["metadata"]
# ours: runs_left_out at the end, only when a run is left out
assert [k for k in md if k != "runs_left_out"] == ["aggregation_type", "num_profile_runs",
        "num_successful_runs", "failed_runs", "run_labels", "cooldown_seconds"], list(md)
assert list(md)[-1] == "cooldown_seconds" or list(md)[-1] == "runs_left_out", list(md)
assert md["aggregation_type"] == "detailed"
per = {}
order = []
for d in dirs:
    label = os.path.basename(d.rstrip("/"))
    p = os.path.join(d, "profile_export.jsonl")
    if not os.path.exists(p):
        continue
    for line in open(p):
        r = json.loads(line)
        if r["metadata"].get("benchmark_phase") != "profiling" or r.get("error") is not None:
            continue
        for k, m in r["metrics"].items():
            v = m.get("value")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            if k not in per:
                per[k] = []
                order.append(k)
            if not per[k] or per[k][-1][0] != label:
                per[k].append((label, []))
            per[k][-1][1].append(float(v))
assert list(doc["metrics"]) == order, (list(doc["metrics"]), order)
def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
for k in order:
    allv = np.concatenate([np.array(v) for _, v in per[k]])
    c = doc["metrics"][k]["combined"]
    assert list(c) == ["mean", "std", "p50", "p90", "p95", "p99", "count"], list(c)
    want = {"mean": float(np.mean(allv)),
            "std": float(np.std(allv, ddof=1)) if len(allv) > 1 else 0.0,
            "p50": float(np.percentile(allv, 50)), "p90": float(np.percentile(allv, 90)),
            "p95": float(np.percentile(allv, 95)), "p99": float(np.percentile(allv, 99))}
    for s, w in want.items():
        assert close(c[s], w), (k, s, c[s], w)
    assert c["count"] == len(allv)
    pr = doc["metrics"][k]["per_run"]
    assert [p["label"] for p in pr] == [l for l, _ in per[k]], (k, pr)
    for p, (l, v) in zip(pr, per[k]):
        assert list(p) == ["label", "mean", "count"] and p["count"] == len(v)
        assert close(p["mean"], float(np.mean(np.array(v)))), (k, p)
print("ok", len(order), "metrics")
PYEOF
}

test_expect_success 'adaptive stopping: the collated records of all runs equal numpy' '
	prof --num-profile-runs 3 --convergence-metric request_latency \
		--convergence-threshold 0.000001 --profile-run-cooldown-seconds 0.1 \
		--artifact-dir a >out 2>err &&
	f=a/aggregate/profile_export_aiperf_collated.json &&
	test -s $f &&
	check_collated $f a/profile_runs/run_0001 a/profile_runs/run_0002 a/profile_runs/run_0003 &&
	test "$(jq -c .metadata.run_labels $f)" = "[\"run_0001\",\"run_0002\",\"run_0003\"]" &&
	test "$(jq .metadata.cooldown_seconds $f)" = 0.1 &&
	test "$(jq .metrics.request_latency.combined.count $f)" = 36 &&
	test "$(jq .metadata.runs_left_out $f)" = null
'

test_expect_success 'each run keeps the multi-run options in its input_config' '
	jq -c .input_config.loadgen a/profile_runs/run_0002/profile_export_aiperf.json >lg &&
	"$PY" -c "
import json
lg = json.load(open(\"lg\"))
assert lg[\"num_profile_runs\"] == 3, lg
assert lg[\"profile_run_cooldown_seconds\"] == 0.1, lg
assert lg[\"convergence_metric\"] == \"request_latency\", lg
assert lg[\"convergence_threshold\"] == 0.000001, lg
assert \"confidence_level\" not in lg, lg
" &&
	jq -r .input_config.cli_command a/profile_runs/run_0001/profile_export_aiperf.json >cmd &&
	grep -q -- "--num-profile-runs 3 " cmd &&
	prof --num-profile-runs 2 --confidence-level 0.9 --no-set-consistent-seed --artifact-dir b >out 2>err &&
	jq -c .input_config.loadgen b/profile_runs/run_0001/profile_export_aiperf.json >lg &&
	"$PY" -c "
import json
lg = json.load(open(\"lg\"))
assert lg[\"confidence_level\"] == 0.9 and lg[\"set_consistent_seed\"] is False, lg
" &&
	test ! -e b/aggregate/profile_export_aiperf_collated.json
'

test_expect_success 'aiperf-aggregate --collated on folders made by hand' '
	mkdir -p hand && cp -r a/profile_runs/run_0001 hand/r1 && cp -r a/profile_runs/run_0002 hand/r2 &&
	cp -r a/profile_runs/run_0003 hand/r3 && rm hand/r3/profile_export.jsonl &&
	mkdir hand/r4 && echo 1 >hand/r4/exit_status &&
	aiperf-aggregate --collated --cooldown-seconds 2 -o hand/agg hand/r1 hand/r2 hand/r3 hand/r4 2>err &&
	f=hand/agg/profile_export_aiperf_collated.json &&
	check_collated $f hand/r1 hand/r2 hand/r3 &&
	test "$(jq -c .metadata.failed_runs $f)" = "[{\"label\":\"r4\",\"error\":\"exit status 1\"}]" &&
	test "$(jq -c .metadata.run_labels $f)" = "[\"r1\",\"r2\",\"r3\"]" &&
	test "$(jq -c .metadata.runs_left_out $f)" = "[{\"label\":\"r3\",\"error\":\"missing profile_export.jsonl: No such file or directory\"}]" &&
	grep -q "hand/r3: left out of the collated records: missing profile_export.jsonl" err &&
	grep -q "\"cooldown_seconds\": 2.0,$" $f &&
	test "$(jq .metadata.num_profile_runs $f)" = 4 &&
	test_expect_code 2 aiperf-aggregate --collated hand/r1 hand/r2 2>err &&
	grep -q "collated needs --output-dir" err
'

test_done
