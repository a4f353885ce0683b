#!/bin/sh
# The record readers' fast paths (util_fastpath(): exact fast doubles, the
# metric lookup hash, the radix sort, ...) against the plain code
# (AIPERF_NO_FASTPATH=1): stdout, stderr, exit status and artifact files
# byte for byte on every golden case of aiperf-metrics and aiperf-export,
# on the bench's record shapes and on hostile records.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/golden/lib.sh
. "$TOP/tests/golden/lib.sh"
PY=/usr/bin/python3

# golden_both DIR: a golden case run both ways (export also writes its
# artifacts; the directories must hold the same bytes).
golden_both() {
	gb_tool=$(basename "$(dirname "$1")")
	(cd "$TOP" && golden_run "$1" "$TMP/g.fast" "$TMP/g.fast.err") && rc1=0 || rc1=$?
	(cd "$TOP" && AIPERF_NO_FASTPATH=1 golden_run "$1" "$TMP/g.slow" "$TMP/g.slow.err") && rc2=0 || rc2=$?
	[ "$rc1" -eq "$rc2" ] || { echo "status $rc1 with, $rc2 without"; return 1; }
	cmp "$TMP/g.slow" "$TMP/g.fast" && cmp "$TMP/g.slow.err" "$TMP/g.fast.err" || return 1
	[ "$gb_tool" = aiperf-export ] || return 0
	rm -rf "$TMP/a.fast" "$TMP/a.slow"
	gb_args=$(cat "$1/args" 2>/dev/null || true)
	for gb_way in fast slow; do
		gb_env=
		[ $gb_way = slow ] && gb_env=AIPERF_NO_FASTPATH=1
		(cd "$1" && eval "env $gb_env aiperf-export $gb_args --no-console \
			--artifact-dir \"\$TMP/a.$gb_way\"" <"$1/in.ndjson" >/dev/null 2>&1) || true
	done
	[ -d "$TMP/a.slow" ] || return 0
	diff -r "$TMP/a.slow" "$TMP/a.fast"
}

for dir in "$TOP"/tests/golden/aiperf-metrics/*/ "$TOP"/tests/golden/aiperf-export/*/; do
	dir=${dir%/}
	[ -f "$dir/err" ] || continue
	name=$(basename "$(dirname "$dir")")/${dir##*/}
	test_expect_success "golden $name: same with and without fast paths" "golden_both '$dir'"
done

# The bench's three record shapes (tests can be no slower: 300 records).
test_expect_success 'bench record shapes: metrics and export the same both ways' '
	sed -n "/^gen_record()/,/^}/p" "$TOP/bench/metrics.sh" >gen.sh &&
	for kind in small long s200; do
		(. ./gen.sh && gen_record $kind) >one &&
		awk "{ for (i = 0; i < 300; i++) print }" one >$kind.in &&
		both_ways $kind aiperf-metrics --use-server-token-count &&
		both_ways $kind aiperf-metrics --tokenizer builtin &&
		cp $kind.fast ${kind}m.in &&
		both_ways ${kind}m aiperf-export || return 1
		test "$(wc -l <$kind.fast)" -eq 300 || return 1
	done
'

# Metric records with values that stress the number reader and the sort:
# both zeros, subnormals, 15- and 17-digit values, exponents at and past
# 1e22, ties, negative values (more than 64 values per metric: radix sort).
test_expect_success 'export: hostile metric values, same both ways' '
	$PY - >vals.in <<-\EOF &&
	import random
	random.seed(640)
	pick = ["0.0", "-0.0", "0", "-0", "5e-324", "-5e-324", "2.2250738585072014e-308",
	        "123456789012345", "1234567890123456789", "9007199254740993",
	        "0.1", "0.30000000000000004", "1e22", "1e23", "1.5e-22", "4.35e-23",
	        "100.0", "1E+2", "-7.25", "59.25925925925925", "1e300"]
	meta = ("{\"session_num\":0,\"x_request_id\":\"r%d\",\"conversation_id\":\"c\","
	        "\"turn_index\":0,\"request_start_ns\":%d,\"request_end_ns\":%d,"
	        "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false}")
	for i in range(400):
	    v = random.choice(pick) if i % 3 else "%.*g" % (random.randint(1, 17), random.uniform(-1e6, 1e6))
	    w = ",".join(random.choice(pick) for _ in range(random.randint(0, 5)))
	    t = 1759813207532900363 + i * 1000003
	    print("{\"metadata\":%s,\"metrics\":{\"request_latency\":{\"value\":%s,\"unit\":\"ms\"},"
	          "\"inter_chunk_latency\":{\"value\":[%s],\"unit\":\"ms\"},"
	          "\"output_token_count\":{\"value\":%d,\"unit\":\"tokens\"},"
	          "\"usage_prompt_tokens_diff_pct\":{\"value\":%s,\"unit\":\"%%\"}}}"
	          % (meta % (i, t, t + 999), v, w, i % 7, v))
	EOF
	both_ways vals aiperf-export &&
	grep -q "Request Latency" vals.fast
'

# One raw record per line of trouble; each file is read on its own so that
# an error on one does not hide the others.
test_expect_success 'metrics: hostile raw records, same both ways' '
	$PY - <<-\EOF &&
	import json
	md = {"session_num": 0, "x_request_id": "r", "conversation_id": "c", "turn_index": 0,
	      "request_start_ns": 1759813207532900363, "request_end_ns": 1759813207838764604,
	      "benchmark_phase": "profiling", "was_cancelled": False}
	def chunk(c, **kw):
	    d = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": c}}]}
	    d.update(kw)
	    return d
	def rec(packets, **kw):
	    r = {"metadata": dict(md, **kw.pop("meta", {})), "start_perf_ns": kw.pop("start", 1000000000),
	         "payload": kw.pop("payload", {"messages": [{"role": "user", "content": "hi"}], "stream": True}),
	         "status": 200,
	         "responses": [{"perf_ns": 1000000000 + 5000000 * (i + 1),
	                        "packets": [{"name": "data", "value": p if isinstance(p, str) else json.dumps(p, ensure_ascii=False)}]}
	                       for i, p in enumerate(packets)],
	         "aiperf": {"schema": "aiperf.raw/1", "endpoint_type": "chat", "stream": True}}
	    r.update(kw)
	    return json.dumps(r, ensure_ascii=kw.get("ascii", False), separators=(",", ":"))
	usage = {"object": "chat.completion.chunk", "choices": [],
	         "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
	good = rec([chunk("a"), chunk(" b"), usage, "[DONE]"])
	cases = {
	    "unicode": rec([chunk("\u00e9\U0001F600\u2028"), chunk("\\ud800 x"), usage],
	                   meta={"x_request_id": "r\u00e9\"\\\u0001"}),
	    "escapes": good.replace("hi", "h\\u0069\\n\\t\\/\\b\\f\\ud83d\\ude00\\udc00"),
	    "truncated": good[:len(good) // 2],
	    "truncated-escape": good[:good.index("\\\"content") + 1],
	    "deep": rec([chunk("a"), usage], payload={"messages": [{"role": "user", "content": "x"}],
	                "x": json.loads("[" * 400 + "]" * 400)}),
	    "too-deep": good.replace("\"hi\"", "[" * 600 + "]" * 600),
	    "deep-packet": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":" + "[" * 520 + "]" * 520 + "}", usage]),
	    "huge-numbers": rec([chunk("a"), {"object": "chat.completion.chunk", "choices": [],
	                         "usage": {"prompt_tokens": 1e400, "completion_tokens": 123456789012345678901234567890,
	                                   "total_tokens": -0.0}}]),
	    "huge-perf": good.replace("\"perf_ns\":1005000000", "\"perf_ns\":123456789012345678901234567890"),
	    "float-perf": good.replace("\"perf_ns\":1005000000", "\"perf_ns\":1.005e9"),
	    "exp-start": good.replace("\"start_perf_ns\":1000000000", "\"start_perf_ns\":1e9"),
	    "bad-number": good.replace("\"start_perf_ns\":1000000000", "\"start_perf_ns\":01"),
	    "nul-key": good.replace("\"object\"", "\"obj\\u0000ect\"", 1),
	    "no-usage": rec([chunk("a"), chunk("b")]),
	    "many": "\n".join(good.replace("\"r\"", "\"r%d\"" % i) for i in range(100)),
	}
	cases["huge-numbers"] = cases["huge-numbers"].replace("Infinity", "1e400")
	for k, v in cases.items():
	    open("h-%s.in" % k, "w").write(v + "\n")
	EOF
	for f in h-*.in; do
		n=${f%.in}
		both_ways $n aiperf-metrics --use-server-token-count &&
		both_ways $n aiperf-metrics --keep-going --tokenizer builtin || return 1
		if [ -s $n.fast ]; then
			cp $n.fast ${n}e.in && both_ways ${n}e aiperf-export || return 1
		fi
	done &&
	grep -q "1e400" h-huge-numbers.in &&
	test -s h-truncated.fast.err && test -s h-unicode.fast
'

test_done
