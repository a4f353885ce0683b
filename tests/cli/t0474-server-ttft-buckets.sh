#!/bin/sh
# Server-side histogram percentiles against the client's truth (issue #15):
# through aiperf profile, the p50/p90/p99 estimates of the mock's own
# vllm:time_to_first_token_seconds histogram in server_metrics_export.json
# lie within one bucket of the client's TTFT percentiles, and the
# histogram counts exactly the profiling requests (the cued reference).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=

# within DIR: the server's TTFT percentile estimates within one bucket of
# the client's.
within() {
	python3 - "$1" <<-\EOF
	import json, sys
	d = sys.argv[1]
	srv = json.load(open(d + "/server_metrics_export.json"))
	cli = json.load(open(d + "/profile_export_aiperf.json"))
	s = srv["metrics"]["vllm:time_to_first_token_seconds"]["series"][0]
	n = cli["request_count"]["avg"]
	assert s["stats"]["count"] == n, (s["stats"]["count"], n)
	les = [float(k) for k in s["buckets"] if k != "+Inf"]
	def bucket(v):
	    return next((i for i, le in enumerate(les) if v <= le), len(les))
	spread = {bucket(v) for v in (cli["time_to_first_token"]["min"] / 1e3,
	                              cli["time_to_first_token"]["max"] / 1e3)}
	assert len(spread) > 1, "the TTFTs fill one bucket: nothing to estimate"
	for p in ("p50", "p90", "p99"):
	    truth = cli["time_to_first_token"][p] / 1e3
	    est = s["stats"][p + "_estimate"]
	    print(p, "client", truth, "server", est)
	    assert abs(bucket(est) - bucket(truth)) <= 1, (p, est, truth)
	EOF
}

P="-m m --tokenizer builtin --streaming --osl 4 --request-count 60 --warmup-request-count 6 --concurrency 6 --ui-type none"

start_mock --ttft-ms 50 --jitter-ms 40 --itl-ms 1

test_expect_success 'TTFT 10-90 ms: p50/p90/p99 estimates within one bucket' '
	aiperf profile $P --url "$MOCK_URL" --artifact-dir a >out 2>err &&
	within a
'

kill "$MOCK_PID" && wait "$MOCK_PID" 2>/dev/null
start_mock --ttft-ms 200 --jitter-ms 150 --itl-ms 1

test_expect_success 'TTFT 50-350 ms, across the wide buckets: within one bucket' '
	aiperf profile $P --url "$MOCK_URL" --artifact-dir b >out 2>err &&
	within b
'

test_done
