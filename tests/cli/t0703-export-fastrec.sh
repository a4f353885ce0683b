#!/bin/sh
# aiperf-export's reader of aiperf-metrics' compact records (fastrec.c)
# against the JSON parser (AIPERF_NO_FASTPATH=1): stdout, stderr, exit
# status and every artifact byte for byte, on the records it takes and on
# hostile ones it must leave to the parser (reordered keys, whitespace,
# escapes, unknown metrics, huge, negative and NaN-like numbers, truncated
# lines, duplicate keys, errors), each alone and all mixed in one input
# with timeslices and goodput.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
ID=70370370-3703-4703-8703-703703703703

# ways NAME option...: aiperf-export on NAME.in, with and without the fast
# path, into the same artifact directory (its path is in the output).
ways() {
	w_name=$1
	shift
	rm -rf art art.fast art.slow
	rc1=0 rc2=0
	aiperf-export --benchmark-id $ID --artifact-dir art "$@" <"$w_name.in" \
		>"$w_name.fast" 2>"$w_name.fast.err" || rc1=$?
	[ ! -d art ] || mv art art.fast
	AIPERF_NO_FASTPATH=1 aiperf-export --benchmark-id $ID --artifact-dir art "$@" \
		<"$w_name.in" >"$w_name.slow" 2>"$w_name.slow.err" || rc2=$?
	[ ! -d art ] || mv art art.slow
	[ "$rc1" -eq "$rc2" ] || { echo "$w_name: status $rc1 with, $rc2 without"; return 1; }
	cmp "$w_name.slow" "$w_name.fast" && cmp "$w_name.slow.err" "$w_name.fast.err" || return 1
	[ -d art.slow ] || [ -d art.fast ] || return 0
	diff -r art.slow art.fast
}

test_expect_success 'write the records' '
	$PY - <<-\EOF
	md = ("{\"session_num\":0,\"x_request_id\":\"r%d\",\"conversation_id\":\"c\",\"turn_index\":0,"
	      "\"credit_issued_ns\":1,\"request_start_ns\":%d,\"request_end_ns\":%d,"
	      "\"worker_id\":\"worker_0\",\"benchmark_phase\":\"profiling\",\"was_cancelled\":false}")
	ms = ("{\"input_sequence_length\":{\"value\":100,\"unit\":\"tokens\"},"
	      "\"time_to_first_token\":{\"value\":%s,\"unit\":\"ms\"},"
	      "\"request_latency\":{\"value\":%s,\"unit\":\"ms\"},"
	      "\"output_token_count\":{\"value\":8,\"unit\":\"tokens\"},"
	      "\"inter_chunk_latency\":{\"value\":[5.0,5.5,4.25,5.0],\"unit\":\"ms\"},"
	      "\"usage_prompt_tokens_diff_pct\":{\"value\":%s,\"unit\":\"%%\"},"
	      "\"inter_token_latency\":{\"value\":5.0,\"unit\":\"ms\"},"
	      "\"e2e_output_token_throughput\":{\"value\":59.25925925925925,\"unit\":\"tokens/sec/user\"},"
	      "\"output_token_throughput_per_user\":{\"value\":200.0,\"unit\":\"tokens/sec/user\"}}")
	ai = ",\"aiperf\":{\"schedule_lateness_ns\":%d,\"observation_delay_ns\":[20000,35000],\"cpu_ns\":%d}"
	def rec(i=0, ttft="100.0", lat="135.0", diff="0.0", aiperf=True, meta=None, metrics=None, tail=""):
	    t = 1759813207532900363 + i * 7000003
	    return ("{\"metadata\":%s,\"metrics\":%s%s%s}" % (
	        meta if meta is not None else md % (i, t, t + 135000000),
	        metrics if metrics is not None else ms % (ttft, lat, diff),
	        ai % (1000 + i, 5000000 + 1000 * i) if aiperf else "", tail))
	R = rec()
	M = md % (0, 1759813207532900363, 1759813207667900363)
	cases = {
	 "plain": R,
	 "no-aiperf": rec(aiperf=False),
	 "aiperf-all": rec(aiperf=False, tail=",\"aiperf\":{\"schedule_lateness_ns\":-5,\"intended_latency_ns\":140000000,\"observation_delay_ns\":7,\"cpu_ns\":0}"),
	 "aiperf-empty": rec(aiperf=False, tail=",\"aiperf\":{}"),
	 "aiperf-delays-empty": rec(aiperf=False, tail=",\"aiperf\":{\"observation_delay_ns\":[],\"schedule_lateness_ns\":3}"),
	 "aiperf-float": rec(aiperf=False, tail=",\"aiperf\":{\"schedule_lateness_ns\":1.0e3,\"cpu_ns\":2.5}"),
	 "aiperf-string": rec(aiperf=False, tail=",\"aiperf\":{\"schedule_lateness_ns\":\"5\"}"),
	 "aiperf-unknown": rec(aiperf=False, tail=",\"aiperf\":{\"cpu_ns\":5,\"other\":1}"),
	 "aiperf-null": rec(aiperf=False, tail=",\"aiperf\":null"),
	 "cpu-negative": rec(aiperf=False, tail=",\"aiperf\":{\"cpu_ns\":-1}"),
	 "cpu-dup-neg-first": rec(aiperf=False, tail=",\"aiperf\":{\"cpu_ns\":-1,\"cpu_ns\":5}"),
	 "cpu-dup-neg-last": rec(aiperf=False, tail=",\"aiperf\":{\"cpu_ns\":5,\"cpu_ns\":-1}"),
	 "delays-dup": rec(aiperf=False, tail=",\"aiperf\":{\"observation_delay_ns\":[1,2,3],\"observation_delay_ns\":[9]}"),
	 "delays-bad": rec(aiperf=False, tail=",\"aiperf\":{\"observation_delay_ns\":[1,\"x\"]}"),
	 "warmup": rec(meta=M.replace("profiling", "warmup")),
	 "warmup-bad-metric": rec(meta=M.replace("profiling", "warmup"), lat="1e400"),
	 "phase-number": rec(meta=M.replace("\"profiling\"", "7")),
	 "phase-escaped": rec(meta=M.replace("profiling", "warm\\u0075p")),
	 "phase-nul": rec(meta=M.replace("profiling", "warmup\\u0000x")),
	 "phase-dup-warm-last": rec(meta=M.replace("\"was_cancelled\"", "\"benchmark_phase\":\"warmup\",\"was_cancelled\"")),
	 "phase-dup-warm-first": rec(meta=M.replace("profiling", "warmup").replace("\"was_cancelled\"", "\"benchmark_phase\":\"profiling\",\"was_cancelled\"")),
	 "meta-empty": rec(meta="{}"),
	 "meta-nested": rec(meta=M.replace("\"worker_0\"", "{\"a\":[1]}")),
	 "meta-not-object": rec(meta="[1]"),
	 "meta-utf8": rec(meta=M.replace("worker_0", "w\u00e9\u4e2d")),
	 "meta-escapes": rec(meta=M.replace("worker_0", "w\\\"\\\\\\n\\u00e9")),
	 "meta-literals": rec(meta=M.replace("false", "true").replace("\"c\"", "null")),
	 "start-string": rec(meta=M.replace("\"request_start_ns\":1759813207532900363", "\"request_start_ns\":\"1759813207532900363\"")),
	 "start-float": rec(meta=M.replace("\"request_start_ns\":1759813207532900363", "\"request_start_ns\":1.7598132075329004e18")),
	 "start-huge": rec(meta=M.replace("\"request_start_ns\":1759813207532900363", "\"request_start_ns\":123456789012345678901234567890")),
	 "start-negative": rec(meta=M.replace("\"request_start_ns\":1759813207532900363", "\"request_start_ns\":-5")),
	 "start-dup": rec(meta=M.replace("\"was_cancelled\"", "\"request_start_ns\":1759813207000000000,\"was_cancelled\"")),
	 "start-dup-string": rec(meta=M.replace("\"was_cancelled\"", "\"request_start_ns\":\"x\",\"was_cancelled\"")),
	 "end-missing": rec(meta=M.replace("\"request_end_ns\":1759813207667900363,", "")),
	 "keys-reordered": "{\"metrics\":%s,\"metadata\":%s}" % (ms % ("1.0", "2.0", "0.0"), M),
	 "value-unit-swapped": rec(metrics="{\"request_latency\":{\"unit\":\"ms\",\"value\":7.5}}"),
	 "aiperf-first": R.replace("{\"metadata\"", "{\"aiperf\":{\"cpu_ns\":1},\"metadata\"", 1),
	 "space-after-colon": R.replace("\"metrics\":", "\"metrics\": "),
	 "space-in-metric": R.replace("{\"value\":135.0", "{ \"value\" : 135.0 "),
	 "space-trailing": R + " ",
	 "space-leading": " " + R,
	 "cr": R + "\r",
	 "tab-inside": R.replace(",\"unit\":\"tokens\"}", ",\t\"unit\":\"tokens\"}", 1),
	 "tag-escaped": R.replace("request_latency", "request\\u005flatency"),
	 "tag-escaped-dup": R.replace("\"time_to_first_token\"", "\"request\\u005flatency\""),
	 "unit-escaped": R.replace("\"unit\":\"ms\"", "\"unit\":\"m\\u0073\""),
	 "unit-other": R.replace("\"unit\":\"ms\"", "\"unit\":\"s\""),
	 "unit-missing": rec(metrics="{\"request_latency\":{\"value\":7.5}}"),
	 "unit-number": rec(metrics="{\"request_latency\":{\"value\":7.5,\"unit\":1}}"),
	 "value-dup": rec(metrics="{\"request_latency\":{\"value\":7.5,\"value\":9.5,\"unit\":\"ms\"}}"),
	 "metric-dup": rec(metrics="{\"request_latency\":{\"value\":7.5,\"unit\":\"ms\"},\"request_latency\":{\"value\":9.5,\"unit\":\"ms\"}}"),
	 "metric-dup-list": rec(metrics="{\"inter_chunk_latency\":{\"value\":[1,2],\"unit\":\"ms\"},\"inter_chunk_latency\":{\"value\":[3],\"unit\":\"ms\"}}"),
	 "unknown-metrics": rec(metrics="{\"zz_new\":{\"value\":1,\"unit\":\"x\"},\"zz_list\":{\"value\":[1e400,-1e400],\"unit\":\"x\"},\"request_latency\":{\"value\":3.0,\"unit\":\"ms\"},\"zz_obj\":{\"value\":{\"a\":1},\"unit\":\"x\"},\"zz_str\":{\"value\":\"NaN\",\"unit\":\"x\"}}"),
	 "unknown-huge": rec(metrics="{\"zz_new\":{\"value\":1e400,\"unit\":\"x\"},\"request_latency\":{\"value\":3.0,\"unit\":\"ms\"}}"),
	 "metrics-empty": rec(metrics="{}"),
	 "metrics-not-object": rec(metrics="[]"),
	 "metric-not-object": rec(metrics="{\"request_latency\":5}"),
	 "value-empty-list": rec(metrics="{\"inter_chunk_latency\":{\"value\":[],\"unit\":\"ms\"},\"request_latency\":{\"value\":3,\"unit\":\"ms\"}}"),
	 "value-list-for-scalar": rec(metrics="{\"request_latency\":{\"value\":[3,4],\"unit\":\"ms\"},\"usage_prompt_tokens_diff_pct\":{\"value\":[50],\"unit\":\"%\"}}"),
	 "value-null": rec(metrics="{\"request_latency\":{\"value\":null,\"unit\":\"ms\"}}"),
	 "value-string": rec(metrics="{\"request_latency\":{\"value\":\"5\",\"unit\":\"ms\"}}"),
	 "value-nan-word": rec(metrics="{\"request_latency\":{\"value\":NaN,\"unit\":\"ms\"}}"),
	 "value-infinity-word": rec(metrics="{\"request_latency\":{\"value\":-Infinity,\"unit\":\"ms\"}}"),
	 "value-list-string": rec(metrics="{\"inter_chunk_latency\":{\"value\":[1,\"x\"],\"unit\":\"ms\"}}"),
	 "value-huge": rec(lat="1e400"),
	 "value-out-of-range": rec(lat="1e308"),
	 "value-neg-out-of-range": rec(lat="-1e308"),
	 "value-negative": rec(lat="-135.5", ttft="-0.0"),
	 "value-tiny": rec(lat="5e-324", ttft="1e-400"),
	 "value-exponents": rec(lat="1.35E+2", ttft="1e2", diff="2E-1"),
	 "value-long-digits": rec(lat="135.00000000000000000000001", ttft="0.1000000000000000055511151231257827"),
	 "value-very-long": rec(lat="1" + "0" * 80 + ".5"),
	 "value-leading-zero": rec(lat="0135.0"),
	 "value-dot": rec(lat="135."),
	 "value-minus": rec(lat="-"),
	 "value-plus": rec(lat="+135"),
	 "value-ns-int": rec(lat="135000000000000000000000"),
	 "diff-over": rec(diff="10.5"),
	 "diff-at": rec(diff="10"),
	 "trace-data": R[:-1] + ",\"trace_data\":{\"trace_type\":\"curl\"}}",
	 "error-record": rec(metrics="{\"error_isl\":{\"value\":100,\"unit\":\"tokens\"}}", tail=",\"error\":{\"code\":500,\"type\":\"E\",\"message\":\"m\"}"),
	 "error-null": rec(tail=",\"error\":null"),
	 "extra-top": R[:-1] + ",\"x\":1}",
	 "dup-metrics-top": R[:-1] + ",\"metrics\":{}}",
	 "dup-aiperf-top": R[:-1] + ",\"aiperf\":{\"cpu_ns\":9}}",
	 "nul-byte": R.replace("worker_0", "worker\u0000"),
	 "bad-utf8": R.replace("worker_0", "worker\udcff"),
	 "empty-object": "{}",
	 "not-object": "[1]",
	}
	for cut in (1, 11, 13, 40, 200, 260, 300, 400, 600, len(R) - 40, len(R) - 1):
	    cases["cut-%d" % cut] = R[:cut]
	for k, v in cases.items():
	    with open("c-%s.in" % k, "w", encoding="utf-8", errors="surrogateescape") as f:
	        f.write(v + "\n")
	# Each case with a plain record before it, for the mixed input (the
	# scanner expects the metrics of the record before in their order).
	for i, k in enumerate(sorted(cases)):
	    with open("c-%s.mix" % k, "w", encoding="utf-8", errors="surrogateescape") as f:
	        f.write(rec(2 * i + 1, ttft="%d.5" % i, lat="%d.25" % (100 + i)) + "\n")
	        f.write(cases[k] + "\n")
	with open("many.in", "w") as f:
	    for i in range(500):
	        f.write(rec(i, ttft="%.17g" % (i * 0.37), lat="%.15g" % (100 + i * 1.1),
	                    diff="%d" % (i % 25), aiperf=i % 3 != 0) + "\n")
	EOF
'

test_expect_success 'each case alone, same with and without the fast path' '
	: >taken &&
	for f in c-*.in; do
		n=${f%.in}
		ways $n --no-console || return 1
		[ -s $n.fast.err ] || cat $n.mix >>taken
	done
'

test_expect_success 'the cases can tell: some fail, others are read' '
	grep -q "cpu_ns.* must be a non-negative integer" c-cpu-negative.fast.err &&
	grep -q "request_latency.: value out of range" c-value-out-of-range.fast.err &&
	grep -q "at byte" c-cut-200.fast.err &&
	test ! -s c-plain.fast.err && test ! -s c-plain.slow.err &&
	test "$(wc -l <taken)" -gt 100
'

test_expect_success 'every case read, mixed, with timeslices, goodput and client health' '
	mv taken taken.in &&
	ways taken --slice-duration 0.01 --streaming --goodput "request_latency:300 time_to_first_token:50" &&
	test -s art.fast/profile_export_aiperf_timeslices.json &&
	ways taken --target-request-rate 10 --client-cpu-seconds 0.5 &&
	grep -q "Request Latency" taken.fast
'

test_expect_success 'many records, some without "aiperf", with timeslices and goodput' '
	ways many --slice-duration 0.05 --goodput "request_latency:200" --target-request-rate 10 &&
	grep -q "good_request_count" art.fast/profile_export_aiperf.json
'

test_done
