#!/bin/sh
# aiperf-metrics' fast path for responses goes on from where the last
# packet of the record had the same bytes (fastresp.c: checkpoints at the
# members of the top level and of choices[0]): the same stdout, stderr and
# exit status as the general path (AIPERF_NO_FASTPATH=1) when the next
# packet is cut, changed or grows at every byte of that shared start.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

test_expect_success 'write the records' '
	$PY - <<-\EOF
	import json
	md = "{\"x_request_id\":\"r\",\"request_start_ns\":1,\"request_end_ns\":2,\"benchmark_phase\":\"profiling\"}"
	def q(s):
	    return json.dumps(s, ensure_ascii=False)
	def resp(i, v):
	    return "{\"perf_ns\":%d,\"packets\":[{\"name\":\"data\",\"value\":%s}]}" % (1000000000 + 5000000 * (i + 1), v)
	def rec(bodies, et="chat", raw=False):
	    rs = ",".join(resp(i, b if raw else q(b)) for i, b in enumerate(bodies))
	    return ("{\"metadata\":%s,\"start_perf_ns\":1000000000,\"payload\":{\"stream\":true},\"status\":200,"
	            "\"responses\":[%s],\"aiperf\":{\"endpoint_type\":\"%s\",\"stream\":true}}" % (md, rs, et))
	def ch(content, obj="chat.completion.chunk", c0="\"index\":0,", tail=",\"finish_reason\":null}]", sp=""):
	    return ("{\"id\":\"c\",%s\"object\":%s\"%s\",%s\"created\":1,%s\"model\":\"m\",%s\"choices\":[{%s\"delta\":{\"content\":%s}%s}"
	            % (sp, sp, obj, sp, sp, sp, c0, q(content), tail))
	U = "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}"
	A = ch(" a")
	cases = {
	 "same": rec([A, ch(" b"), ch(" c"), U, "[DONE]"]),
	 "spaces": rec([ch(" a", sp=" "), ch(" b", sp=" "), ch(" c"), U]),
	 "object-changes": rec([A, ch(" b", obj="chat.completion"), ch(" c", obj="nope"), U]),
	 "object-escaped": rec([A, ch(" b", obj="chat.completion\\u002echunk"), U]),
	 "more-choices": rec([A, A.replace("}]}", "},{\"index\":1,\"delta\":{\"content\":\"z\"}}],\"usage\":{\"prompt_tokens\":4}}"), ch(" c"), U]),
	 "dup-keys": rec([A, A.replace("}]}", ",\"delta\":{\"content\":\"yy\"}}],\"object\":\"chat.completion\"}"),
	                  A.replace("}]}", "}],\"choices\":[]}"), A.replace("}]}", "}],\"choices\":[{\"delta\":{\"content\":\"q\"}}]}"), U]),
	 "tools": rec([A, A.replace("{\"content\":\" a\"}", "{\"content\":\"x\",\"tool_calls\":[{\"function\":{\"name\":\"f\"}}]}"), ch(" c"), U]),
	 "reasoning": rec([A, A.replace("{\"content\":\" a\"}", "{\"reasoning_content\":\"hm\",\"content\":\"\"}"), ch(" c"), U]),
	 "usage-first": rec(["{\"usage\":{\"prompt_tokens\":9},\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"}}]}" % c for c in "xyz"]
	                    + ["{\"usage\":{\"prompt_tokens\":8},\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w\"}}]}"]),
	 "c0-first-member": rec(["{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"%s\"},\"index\":0}]}" % c for c in "xyz"] + [U]),
	 "completions": rec(["{\"id\":\"c\",\"object\":\"text_completion\",\"created\":1,\"choices\":[{\"index\":0,\"text\":\"%s\"}]}" % c for c in ["a", "b", "", "\\u00e9"]]
	                    + ["{\"id\":\"c\",\"object\":\"text_completion\",\"created\":1,\"choices\":[{\"index\":0,\"text\":5}]}", U], et="completions"),
	 "deep": rec([A] + [A.replace("\"index\":0,", "\"x\":" + "[" * d + "]" * d + ",\"index\":0,") for d in range(58, 68)] + [U]),
	 "deep-top": rec([A] + [A.replace("\"model\":\"m\",", "\"model\":\"m\",\"x\":" + "[" * d + "]" * d + ",") for d in range(60, 66)] + [U]),
	 "outer-escapes": rec([q(A), q(A).replace("\\\"model\\\"", "\\u0022model\\\""), q(A).replace("\\\"index\\\"", "\\\"ind\\/ex\\\""),
	                       q(A).replace("\\\"choices\\\"", "\\\"choices\\\"\\n"), q(ch(" z"))], raw=True),
	}
	# Every cut and a few changes of the second packet at every byte.
	with open("cuts.in", "w") as f:
	    for n in range(len(A) + 1):
	        f.write(rec([A, A[:n], ch(" c"), U]) + "\n")
	        f.write(rec([A, A[:n] + "}", ch(" c"), U]) + "\n")
	with open("changes.in", "w") as f:
	    for n in range(len(A)):
	        for c in ["x", "\"", "\\\\", " ", "}", "]", ",", "0", "\\u0041", "\n"]:
	            f.write(rec([A, A[:n] + c + A[n + 1:], ch(" c"), U]) + "\n")
	            f.write(rec([A, A[:n] + c + A[n:], U]) + "\n")
	with open("outer.in", "w") as f:
	    Q = q(A)
	    for n in range(1, len(Q) - 1):
	        for c in ["\\u0022", "\\/", "\t", "\\\\", "\""]:
	            f.write(rec([Q, Q[:n] + c + Q[n:], q(ch(" c"))], raw=True) + "\n")
	# Chains of random edits: each packet an edit of the last one.
	import random
	rnd = random.Random(643)
	bits = ["x", "\"", "\\\\", " ", "{", "}", "[", "]", ",", ":", "0", "12", "\"a\":1,", "\"object\":\"chat.completion\",", "{\"content\":\"q\"}", ""]
	def edit(s):
	    n = rnd.randrange(len(s) + 1)
	    return s[:n] + rnd.choice(bits) + s[n + rnd.randrange(3):]
	with open("chains.in", "w") as f:
	    for i in range(1500):
	        ps = [A]
	        for j in range(4):
	            ps.append(edit(ps[-1] if rnd.randrange(4) else A))
	        f.write(rec(ps + [U]) + "\n")
	for k, v in cases.items():
	    open("c-%s.in" % k, "w").write(v + "\n")
	with open("all.in", "w") as f:
	    for k in sorted(cases):
	        f.write(cases[k] + "\n")
	EOF
'

test_expect_success 'each case, server token counts and the builtin tokenizer' '
	for f in c-*.in; do
		n=${f%.in}
		both_ways $n aiperf-metrics --use-server-token-count &&
		both_ways $n aiperf-metrics --tokenizer builtin || return 1
	done &&
	test -s c-same.fast && grep -q "\"output_token_count\":{\"value\":3," c-same.fast
'

test_expect_success 'the second packet cut at every byte' '
	both_ways cuts aiperf-metrics --keep-going --use-server-token-count &&
	both_ways cuts aiperf-metrics --keep-going --tokenizer builtin &&
	test -s cuts.fast
'

test_expect_success 'the second packet changed at every byte' '
	both_ways changes aiperf-metrics --keep-going --use-server-token-count &&
	both_ways changes aiperf-metrics --keep-going --tokenizer builtin &&
	test -s changes.fast
'

test_expect_success 'chains of random edits' '
	both_ways chains aiperf-metrics --keep-going --use-server-token-count &&
	test -s chains.fast
'

test_expect_success 'outer escapes and bad bytes at every byte of the second packet' '
	both_ways outer aiperf-metrics --keep-going --use-server-token-count &&
	test -s outer.fast
'

test_expect_success 'all cases in one file, with threads, and through aiperf-export' '
	both_ways all aiperf-metrics --keep-going --use-server-token-count &&
	both_ways all aiperf-metrics --keep-going --tokenizer builtin --threads 3 &&
	cp all.fast allm.in &&
	both_ways allm aiperf-export
'

test_done
