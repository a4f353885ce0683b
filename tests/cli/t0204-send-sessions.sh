#!/bin/sh
# aiperf-send: multi-turn sessions: order, slots, delays, live history, URLs.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

test_expect_success 'every turn gets a record; turns of a session in order' '
	sessions 6 3 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 18 &&
	test "$(count "\"status\":200" out)" -eq 18 &&
	python3 -c "
import json
recs = [json.loads(l) for l in open(\"out\")]
by = {}
for r in recs:
    m = r[\"metadata\"]
    by.setdefault(m[\"x_correlation_id\"], []).append(r)
assert len(by) == 6
for corr, rs in by.items():
    idx = [r[\"metadata\"][\"turn_index\"] for r in rs]
    assert idx == [0, 1, 2], idx
    for a, b in zip(rs, rs[1:]):
        assert b[\"start_perf_ns\"] >= a[\"aiperf\"][\"end_perf_ns\"], corr
"
'
test_expect_success 'a session holds its slot: never more than 2 sessions at once' '
	python3 -c "
import json
ev = []
spans = {}
for l in open(\"out\"):
    r = json.loads(l)
    c = r[\"metadata\"][\"x_correlation_id\"]
    s, e = spans.get(c, (None, None))
    st, en = r[\"start_perf_ns\"], r[\"aiperf\"][\"end_perf_ns\"]
    spans[c] = (st if s is None else min(s, st), en if e is None else max(e, en))
for s, e in spans.values():
    ev += [(s, 1), (e, -1)]
cur = peak = 0
for t, d in sorted(ev, key=lambda p: (p[0], p[1])):
    cur += d
    peak = max(peak, cur)
assert peak <= 2, peak
"
'
test_expect_success 'history: earlier turns and live replies come first' '
	python3 -c "
import json
recs = [json.loads(l) for l in open(\"out\")]
reply = {}
for r in recs:
    txt = \"\"
    for m in r[\"responses\"]:
        v = m[\"packets\"][0].get(\"value\", \"\")
        if v.startswith(\"{\"):
            d = json.loads(v)[\"choices\"][0][\"delta\"].get(\"content\")
            txt += d or \"\"
    reply[r[\"metadata\"][\"x_request_id\"]] = txt
for r in recs:
    m = r[\"metadata\"]
    i, t = m[\"x_correlation_id\"][5:], m[\"turn_index\"]
    want = []
    for k in range(t):
        want.append({\"role\": \"user\", \"content\": \"q%s.%d\" % (i, k)})
        want.append({\"role\": \"assistant\", \"content\": reply[\"s%s_t%d\" % (i, k)]})
    want.append({\"role\": \"user\", \"content\": \"q%s.%d\" % (i, t)})
    assert r[\"payload\"][\"messages\"] == want, (r[\"payload\"], want)
"
'
test_expect_success 'delay_ns: a later turn waits after the previous one returned' '
	sessions 2 2 50000000 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 <in >out &&
	python3 -c "
import json
recs = {json.loads(l)[\"metadata\"][\"x_request_id\"]: json.loads(l) for l in open(\"out\")}
for i in range(2):
    a, b = recs[\"s%d_t0\" % i], recs[\"s%d_t1\" % i]
    assert b[\"start_perf_ns\"] - a[\"aiperf\"][\"end_perf_ns\"] >= 50000000
"
'
test_expect_success 'several urls: all turns of a session on its first URL' '
	sessions 4 3 >in &&
	aiperf-send -u "$MOCK_URL" -u "$MOCK_URL/?s=2" --concurrency 3 <in >out &&
	python3 -c "
import json
u = {}
for l in open(\"out\"):
    r = json.loads(l)
    u.setdefault(r[\"metadata\"][\"x_correlation_id\"], set()).add(r[\"aiperf\"][\"url\"])
assert all(len(v) == 1 for v in u.values()), u
assert len(set().union(*u.values())) == 2
"
'
test_expect_success 'truncated input: a missing last turn does not hang the run' '
	sessions 3 3 | sed "\$d" >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 1 <in >out &&
	test "$(wc -l <out)" -eq 8
'
test_expect_success 'a later turn with at_ns waits for its intended time, not delay_ns' '
	printf "%s\n" \
	"{\"id\":\"a0\",\"session_num\":0,\"conversation_id\":\"s\",\"x_correlation_id\":\"c\",\"turn_index\":0,\"num_turns\":2,\"path\":\"/v1/chat/completions\",\"stream\":false,\"at_ns\":0,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\"}],\"max_tokens\":1}}" \
	"{\"id\":\"a1\",\"session_num\":1,\"conversation_id\":\"s\",\"x_correlation_id\":\"c\",\"turn_index\":1,\"num_turns\":2,\"path\":\"/v1/chat/completions\",\"stream\":false,\"at_ns\":300000000,\"delay_ns\":0,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"b\"}],\"max_tokens\":1}}" >at &&
	aiperf-send -u "$MOCK_URL" <at >atout &&
	python3 -c "
import json
r = [json.loads(l) for l in open(\"atout\")]
assert [x[\"status\"] for x in r] == [200, 200], r
a, b = r
assert b[\"aiperf\"][\"intended_perf_ns\"] - a[\"aiperf\"][\"intended_perf_ns\"] == 300000000
assert b[\"start_perf_ns\"] >= b[\"aiperf\"][\"intended_perf_ns\"]
"
'

test_done
