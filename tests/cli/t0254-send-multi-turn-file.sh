#!/bin/sh
# A multi_turn file replayed against aiperf-mock: aiperf-gen | aiperf-send
# sends every turn with the previous turns and the live replies before it,
# the system message first, and waits each turn's delay after the previous
# turn returned (checked as an order of times, never as a duration).
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

cat >"$TMP/mt.jsonl" <<'T'
{"session_id": "a", "turns": [{"role": "system", "text": "Be brief."}, {"text": "a0"}, {"text": "a1", "delay": 40}, {"text": "a2", "delay": 20, "output_length": 4}]}
{"session_id": "b", "turns": [{"text": "b0"}, {"texts": ["b1", "b1 again"], "delay": 60}]}
{"session_id": "c", "turns": [{"text": "c0"}]}
T

for s in "" --streaming; do
	test_expect_success "every turn holds the earlier turns and live replies ${s:-(not streaming)}" '
		aiperf-gen -m m --tokenizer builtin --random-seed 1 --input-file mt.jsonl \
			--request-count 6 --concurrency 2 '"$s"' >in &&
		aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
		test "$(wc -l <out)" -eq 6 &&
		python3 - <<-\EOF
		import json
		recs = [json.loads(l) for l in open("out")]
		assert all(r["status"] == 200 for r in recs), recs
		def reply(r):
		    txt = ""
		    for m in r["responses"]:
		        vals = [m["text"]] if "text" in m else [p.get("value", "") for p in m["packets"]]
		        for v in vals:
		            if not v.startswith("{"):
		                continue
		            c = json.loads(v)["choices"][0]
		            txt += (c.get("delta") or c.get("message") or {}).get("content") or ""
		    return txt
		own = {
		    "a": [[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "a0"}],
		          [{"role": "user", "content": "a1"}], [{"role": "user", "content": "a2"}]],
		    "b": [[{"role": "user", "content": "b0"}],
		          [{"role": "user", "content": [{"type": "text", "text": "b1"},
		                                        {"type": "text", "text": "b1 again"}]}]],
		    "c": [[{"role": "user", "content": "c0"}]],
		}
		by = {}
		for r in recs:
		    m = r["metadata"]
		    by.setdefault(m["conversation_id"], []).append(r)
		assert sorted(by) == ["a", "b", "c"], by.keys()
		for cid, rs in by.items():
		    rs.sort(key=lambda r: r["metadata"]["turn_index"])
		    want = []
		    for k, r in enumerate(rs):
		        want = want + own[cid][k]
		        assert r["payload"]["messages"] == want, (cid, k, r["payload"], want)
		        rep = reply(r)
		        assert rep, (cid, k)
		        want = want + [{"role": "assistant", "content": rep}]
		EOF
	'
done

test_expect_success 'a later turn is sent no sooner than its delay after the previous one returned' '
	python3 - <<-\EOF
	import json
	recs = [json.loads(l) for l in open("out")]
	by = {}
	for r in recs:
	    m = r["metadata"]
	    by[(m["conversation_id"], m["turn_index"])] = r
	for (cid, k), delay in {("a", 1): 40, ("a", 2): 20, ("b", 1): 60}.items():
	    prev, cur = by[(cid, k - 1)], by[(cid, k)]
	    gap = cur["start_perf_ns"] - prev["aiperf"]["end_perf_ns"]
	    assert gap >= delay * 1000000, (cid, k, gap)
	    intended = cur["aiperf"].get("intended_perf_ns")
	    assert intended is None or intended >= prev["aiperf"]["end_perf_ns"] + delay * 1000000 - 1
	EOF
'

test_expect_success 'output_length reaches the wire as the turn max tokens' '
	jq -c "select(.metadata.conversation_id == \"a\" and .metadata.turn_index == 2) | .payload.max_completion_tokens" out >got &&
	echo 4 >want && test_cmp want got
'

test_done
