#!/bin/sh
# run.sh: long
# aiperf-metrics' fast path for responses (fastresp.c: SSE packets read
# from their escaped text) against the general path (AIPERF_NO_FASTPATH=1):
# the same stdout, stderr and exit status on records that take it and on
# every way out of it (escapes, surrogates, whitespace, key order, repeated
# keys, truncated packets, other endpoint types, bad lines).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

test_expect_success 'write the hostile records' '
	$PY - <<-\EOF
	import json
	md = ("{\"session_num\":0,\"x_request_id\":\"r\",\"conversation_id\":\"c\",\"turn_index\":0,"
	      "\"request_start_ns\":1759813207532900363,\"request_end_ns\":1759813207838764604,"
	      "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false}")
	def q(s):
	    return json.dumps(s, ensure_ascii=False)
	def resp(i, body):
	    return "{\"perf_ns\":%d,\"packets\":[{\"name\":\"data\",\"value\":%s}]}" % (1000000000 + 5000000 * (i + 1), q(body))
	def rec(bodies, et="chat", raw=None, tail=""):
	    rs = raw if raw is not None else ",".join(resp(i, b) for i, b in enumerate(bodies))
	    return ("{\"metadata\":%s,\"start_perf_ns\":1000000000,\"payload\":{\"messages\":[{\"role\":\"user\","
	            "\"content\":\"one two three\"}],\"stream\":true},\"status\":200,\"responses\":[%s],"
	            "\"aiperf\":{\"schema\":\"aiperf.raw/1\",\"endpoint_type\":\"%s\",\"stream\":true%s}}" % (md, rs, et, tail))
	def ch(content, pre="", post="", obj="chat.completion.chunk", key="delta"):
	    return ("{%s\"id\":\"c\",\"object\":\"%s\",\"choices\":[{\"index\":0,\"%s\":{\"content\":%s}"
	            ",\"finish_reason\":null}]%s}" % (pre, obj, key, q(content), post))
	U = "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}"
	ok = [ch(" a"), ch(" b"), U, "[DONE]"]
	cases = {
	 "plain": rec(ok),
	 "quotes": rec([ch("say \"hi\" \\ back\\slash /"), ch("\\\\\\\""), U]),
	 "unicode-raw": rec([ch("\u00e9\u4e2d\U0001F600"), U]),
	 "unicode-esc": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\u00e9\\u4E2D\\ud83d\\ude00\"}}]}", U]),
	 "surrogate-lone-hi": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"a\\ud800b\"}}]}", U]),
	 "surrogate-lone-lo": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\udc00\"}}]}", U]),
	 "surrogate-hi-hi": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\ud800\\ud800\\udc00\"}}]}", U]),
	 "surrogate-cut": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\ud800\"}}]}"]),
	 "esc-nul": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\u0000\"}}]}", U]),
	 "esc-all": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\b\\f\\n\\r\\t\\/\\\"\\\\\"}}]}", U]),
	 "bad-inner-esc": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\x\"}}]}", U]),
	 "bad-inner-hex": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\u12g4\"}}]}", U]),
	 "newline-ws": rec(["{\n\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n", U]),
	 "tab-in-content": rec([ch("a\tb"), U]),
	 "spaces": rec(["{ \"object\" : \"chat.completion.chunk\" , \"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] } ", U]),
	 "lead-space": rec([" " + ch("x"), " [DONE]", "[DONE] ", U]),
	 "order": rec(["{\"choices\":[{\"delta\":{\"content\":\"x\"},\"index\":0}],\"object\":\"chat.completion.chunk\"}", U]),
	 "usage-first": rec(["{\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1},\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}"]),
	 "dup-object": rec(["{\"object\":\"nope\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "dup-object-bad": rec(["{\"object\":\"chat.completion.chunk\",\"object\":\"nope\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "dup-choices": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}],\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}", U]),
	 "dup-choices-2": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}],\"choices\":3}", U]),
	 "dup-delta": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"},\"delta\":{\"content\":\"yy\"}}]}", U]),
	 "dup-content": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\",\"content\":\"\"}}]}", U]),
	 "dup-usage": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":1},\"usage\":{}}", U]),
	 "second-choice": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{}},{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "choice-not-object": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[[{\"delta\":{\"content\":\"x\"}}]]}", U]),
	 "delta-types": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":[1]}]}", "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":7}}]}", "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":null}}]}", U]),
	 "reasoning": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"reasoning_content\":\"think\",\"content\":\"\"}}]}", "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"reasoning\":\"hm\",\"reasoning_content\":\"\",\"content\":\"x\"}}]}", ch("y"), U]),
	 "tools": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}", ch("y"), U]),
	 "message": rec([ch("whole", obj="chat.completion", key="message"), U]),
	 "message-in-chunk": rec([ch("whole", key="message"), U]),
	 "unsupported": rec([ch("x", obj="text_completion"), U]),
	 "object-escaped": rec(["{\"object\":\"chat.completion\\u002echunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "object-nul": rec(["{\"object\":\"chat.completion.chunk\\u0000\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "object-number": rec(["{\"object\":5,\"choices\":[{\"delta\":{\"content\":\"x\"}}]}"]),
	 "key-escaped": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"cont\\u0065nt\":\"x\"}}]}", U]),
	 "numbers": rec(["{\"object\":\"chat.completion.chunk\",\"n\":[-0,1.5e3,2E-2,0.0,-12,1e+9],\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "bad-numbers": rec(["{\"object\":\"chat.completion.chunk\",\"n\":01,\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", "{\"object\":\"chat.completion.chunk\",\"n\":1.,\"choices\":[{\"delta\":{\"content\":\"y\"}}]}", "{\"object\":\"chat.completion.chunk\",\"n\":-,\"choices\":[]}", U]),
	 "literals": rec(["{\"object\":\"chat.completion.chunk\",\"a\":true,\"b\":false,\"c\":null,\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", "{\"object\":\"chat.completion.chunk\",\"a\":tru,\"choices\":[]}", U]),
	 "truncated": rec([ch("x")[:30], ch("y")[:-1], ch("z")[:-3], "{", "", U]),
	 "trailing": rec([ch("x") + "}", ch("y") + " x", U]),
	 "not-object": rec(["[1]", "\"s\"", "7", "true", "null", U]),
	 "deep": rec(["{\"object\":\"chat.completion.chunk\",\"x\":" + "[" * 100 + "]" * 100 + ",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", U]),
	 "empty-usage": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{}}", "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":[1]}"]),
	 "usage-escapes": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"note\":\"a\\\"b\\u00e9\",\"completion_tokens\":2}}"]),
	 "completions": rec(["{\"object\":\"text_completion\",\"choices\":[{\"text\":\" a\\u00e9\"}]}", "{\"object\":\"completion\",\"choices\":[{\"text\":\"\"}]}", "{\"object\":\"text_completion\",\"choices\":[{\"text\":5}],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":1}}"], et="completions"),
	 "completions-chat-object": rec([ch("x"), U], et="completions"),
	 "embeddings": rec(["{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"embedding\":[0.1]}]}"], et="embeddings"),
	 "responses-api": rec(["{\"type\":\"response.output_text.delta\",\"delta\":\"x\"}"], et="responses"),
	 "server-stamps": rec(ok, tail=",\"server_stamps\":[1100000000,1200000000]"),
	 "multi-data": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":%s},{\"name\":\"data\",\"value\":%s}]},%s" % (q("{\"object\":\"chat.completion.chunk\","), q("\"choices\":[{\"delta\":{\"content\":\"x\"}}]}"), resp(3, U))),
	 "non-data": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"event\",\"value\":\"x\"},{\"value\":%s,\"name\":\"data\"},{\"name\":\"data\",\"value\":\"\"}]},%s" % (q(ch("x")), resp(3, U))),
	 "dup-packet-keys": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":%s,\"value\":%s}]},%s" % (q(ch("x")), q(ch("yy")), resp(3, U))),
	 "dup-perf": rec(None, raw="{\"perf_ns\":1100000000,\"perf_ns\":1200000000,\"packets\":[{\"name\":\"data\",\"value\":%s}]},%s" % (q(ch("x")), resp(3, U))),
	 "name-escaped": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"d\\u0061ta\",\"value\":%s}]},%s" % (q(ch("x")), resp(3, U))),
	 "text-body": rec(None, raw="{\"perf_ns\":1100000000,\"text\":%s,\"content_type\":\"application/json\"},{\"perf_ns\":1200000000,\"packets\":null,\"text\":%s}" % (q(ch("whole", obj="chat.completion", key="message")), q(U))),
	 "packets-and-text": rec(None, raw="{\"text\":%s,\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":%s}]},%s" % (q(ch("t")), q(ch("p")), resp(3, U))),
	 "perf-odd": rec(None, raw="{\"perf_ns\":0,\"packets\":[{\"name\":\"data\",\"value\":%s}]},{\"perf_ns\":-5,\"packets\":[]},{\"perf_ns\":1e9,\"packets\":[]},{\"perf_ns\":1234567890123456789,\"packets\":[]},%s" % (q(ch("x")), resp(3, U))),
	 "perf-missing": rec(None, raw="{\"packets\":[{\"name\":\"data\",\"value\":%s}]}" % q(ch("x"))),
	 "perf-string": rec(None, raw="{\"perf_ns\":\"1\",\"packets\":[]}"),
	 "extra-key": rec(None, raw="{\"perf_ns\":1100000000,\"x\":1,\"packets\":[{\"name\":\"data\",\"value\":%s}]},%s" % (q(ch("x")), resp(3, U))),
	 "outer-space": rec(None, raw=" " + resp(0, ch("x")) + " , " + resp(1, U) + " "),
	 "outer-u-escape": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":\"{\\u0022object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}\"}]},%s" % resp(3, U)),
	 "outer-slash": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"a\\/b\\\"}}]}\"}]},%s" % resp(3, U)),
	 "outer-bad-escape": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":\"{\\q}\"}]}"),
	 "outer-control": rec(None, raw="{\"perf_ns\":1100000000,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"object\\\":\\\"a\tb\\\"}\"}]}"),
	 "outer-truncated": rec(ok)[:-120],
	 "outer-cut-in-value": rec(ok)[:rec(ok).index("tok") if "tok" in rec(ok) else 700],
	 "responses-null": rec(None, raw="").replace("\"responses\":[]", "\"responses\":null"),
	 "responses-dup": rec(ok).replace("\"status\":200", "\"responses\":[],\"status\":200"),
	 "responses-dup-2": rec(ok).replace("\"aiperf\":{", "\"responses\":{\"a\":1},\"aiperf\":{"),
	 "responses-dup-3": rec(ok).replace("\"aiperf\":{", "\"responses\":[" + resp(0, ch("z")) + "],\"aiperf\":{"),
	 "error-record": rec(ok).replace("\"status\":200", "\"error\":{\"code\":500,\"type\":\"E\",\"message\":\"m\"}"),
	 "empty-responses": rec(None, raw=""),
	}
	for k, v in cases.items():
	    open("c-%s.in" % k, "w").write(v + "\n")
	# Every case in one file, kinds mixed (the fast path follows the kind of the last record).
	with open("all.in", "w") as f:
	    for k in sorted(cases):
	        f.write(cases[k] + "\n")
	        f.write(cases["plain"] + "\n")
	EOF
'

test_expect_success 'each case, server token counts and the builtin tokenizer' '
	for f in c-*.in; do
		n=${f%.in}
		both_ways $n aiperf-metrics --use-server-token-count &&
		both_ways $n aiperf-metrics --tokenizer builtin &&
		both_ways $n aiperf-metrics --export-http-trace --use-server-token-count || return 1
	done
'

test_expect_success 'the fast path reads the cases it takes (outputs not empty)' '
	for n in plain quotes unicode-raw unicode-esc surrogate-hi-hi order dup-delta reasoning message completions text-body multi-data; do
		test -s c-$n.fast || { echo "c-$n: no record"; return 1; }
	done &&
	grep -q output_token_count c-plain.fast
'

test_expect_success 'all cases in one file, with --keep-going, and through aiperf-export' '
	both_ways all aiperf-metrics --keep-going --use-server-token-count &&
	both_ways all aiperf-metrics --keep-going --tokenizer builtin &&
	both_ways all aiperf-metrics --keep-going --tokenizer builtin --threads 3 &&
	cp all.fast allm.in &&
	both_ways allm aiperf-export &&
	test -s all.fast.err
'

test_done
