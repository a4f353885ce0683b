#!/bin/sh
# aiperf-gen schedules: the request rate ramp and the user-centric rate as
# at_ns, checked against an independent model of spec 5.3/5.5 (python3),
# the original's docstring table, and the original's validation messages.
# shellcheck disable=SC2016,SC2034,SC2086 # eval'd test bodies; set -- $a splits
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4 --random-seed 42"

cat >"$TMP/model.py" <<'PY'
# Independent model of spec 5.5 (user-centric rate) and 5.3 (rate ramp).
import heapq, math, sys

def ucr(q, users, turns, count):
    gap, stagger = users / q, 1 / q
    life = max(1, turns - 1)
    alt = math.gcd(users, life) > 1
    step = next((s for s in range(2, users) if math.gcd(users, s) == 1), 1)
    heap, seq, nid, out = [], 0, 1, []
    def push(t, item):
        nonlocal seq
        heapq.heappush(heap, (t, seq, item)); seq += 1
    for i in range(users):
        age = (users - i) * life
        left = life - age // users
        if left <= 0:
            nid += 1; continue
        slot = (i * step) % users if alt else age % users
        t = (users - slot) * stagger
        push(t, (nid, 0, min(left, turns))); nid += 1
        push(t + min(left, turns) * gap, None)
    push(0.0, (nid, 0, turns)); push(0.0 + turns * gap, None); nid += 1
    while heap and len(out) < count:
        t, _, it = heapq.heappop(heap)
        if it is None:
            it = (nid, 0, turns); nid += 1
            push(t + turns * gap, None)
        uid, k, mx = it
        out.append("%d %d %d %d" % (uid, k, mx, round(t * 1e9)))
        if k + 1 < mx:
            push(t + gap, (uid, k + 1, mx))
    return out

def ramp(r, d, count):
    start = r * (0.1 / d)
    def rate(t):
        n = math.floor(t / 0.1)
        while (n + 1) * 0.1 <= t: n += 1
        while n > 0 and n * 0.1 > t: n -= 1
        if n < 1: return start
        e = n * 0.1
        if e >= d or r == start: return r
        return start + abs(r - start) * (1.0 if r > start else -1.0) * (e / d)
    t, out = 0.0, []
    for _ in range(count):
        t += 1.0 / rate(t)
        out.append(str(round(t * 1e9)))
    return out

if sys.argv[1] == "ucr":
    print("\n".join(ucr(float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))))
else:
    print("\n".join(ramp(float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))))
PY

# "user turn num_turns at_ns" of every record.
cat >"$TMP/fields.py" <<'PY'
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r["x_correlation_id"], r["turn_index"], r["num_turns"], r["at_ns"])
PY

for a in "10 1 25" "7 2.5 40" "50 0.35 60" "3 0.05 10"; do
	set -- $a
	test_expect_success "rate ramp: rate $1 over $2 s, constant pattern" "
		$G --request-rate $1 --arrival-pattern constant \
			--request-rate-ramp-duration $2 --request-count $3 >out &&
		grep -o '\"at_ns\":[0-9]*' out | cut -d: -f2 >got &&
		python3 model.py ramp $1 $2 $3 >expect && test_cmp expect got
	"
done

test_expect_success 'rate ramp: poisson starts slow, ends at the rate' '
	$G --request-rate 100 --request-rate-ramp-duration 1 --request-count 400 >out &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 >t && sort -n t | cmp - t &&
	test "$(awk "\$1 < 1000000000" t | wc -l)" -lt 100 &&
	test "$(wc -l <t)" -eq 400
'

test_expect_success 'rate ramp: ignored without a request rate' '
	$G --request-rate-ramp-duration 2 --request-count 3 >out &&
	! grep -q at_ns out && test "$(wc -l <out)" -eq 3
'

for a in "2 3 3 12" "3 4 3 40" "0.7 6 5 50" "5 1 2 9" "2 2 2 9" "1 15 20 120"; do
	set -- $a
	test_expect_success "user-centric: rate $1, $2 users, $3 turns" "
		$G --user-centric-rate $1 --num-users $2 --session-turns-mean $3 \
			--request-count $4 >out &&
		python3 fields.py <out >got &&
		python3 model.py ucr $1 $2 $3 $4 >expect && test_cmp expect got
	"
done

# The table in the docstring of strategies/user_centric_rate.py.
test_expect_success 'user-centric: the original docstring example (15 users, 20 turns, 1 QPS)' '
	$G --user-centric-rate 1 --num-users 15 --session-turns-mean 20 \
		--request-count 100 >out &&
	python3 fields.py <out | awk "\$2 == 0 && \$4 < 15000000000 { print \$1, \$3, \$4 / 1000000000 }" >got &&
	cat >expect <<-\TABLE &&
	16 20 0
	5 6 1
	9 11 2
	13 16 3
	2 2 4
	6 7 5
	10 12 6
	14 17 7
	3 3 8
	7 8 9
	11 13 10
	15 18 11
	4 4 12
	8 9 13
	12 14 14
	TABLE
	test_cmp expect got
'

test_expect_success 'user-centric: default request count max(10, users)' '
	$G --user-centric-rate 2 --num-users 12 --session-turns-mean 2 >out &&
	test "$(wc -l <out)" -eq 12
'

test_expect_success 'user-centric: --print-timing-mode' '
	$G --user-centric-rate 2 --num-users 2 --session-turns-mean 2 --print-timing-mode >out &&
	echo user_centric_rate >expect && test_cmp expect out
'

usage_err() {
	test_expect_success "usage error: $1" "
		test_expect_code 2 $G $1 >out 2>err && test ! -s out &&
		grep -qF -- '$2' err
	"
}
usage_err "--user-centric-rate 2 --session-turns-mean 2" \
	"--user-centric-rate requires --num-users to be set"
usage_err "--user-centric-rate 2 --num-users 2 --session-turns-mean 2 --request-rate 3" \
	"--user-centric-rate cannot be used together with --request-rate or --arrival-pattern"
usage_err "--user-centric-rate 2 --num-users 2 --session-turns-mean 2 --arrival-pattern constant" \
	"--user-centric-rate cannot be used together with --request-rate or --arrival-pattern"
usage_err "--user-centric-rate 2 --num-users 2" \
	"--user-centric-rate requires multi-turn conversations (--session-turns-mean >= 2). For single-turn workloads, use --request-rate instead."
usage_err "--num-users 2" \
	"--num-users can only be used with --user-centric-rate. Either add --user-centric-rate or remove --num-users."
usage_err "--user-centric-rate 2 --num-users 5 --session-turns-mean 2 --request-count 4" \
	"--request-count (4) cannot be less than --num-users (5). There must be at least one request per user."
usage_err "--user-centric-rate 2 --num-users 2 --session-turns-mean 2 --request-rate-ramp-duration 3" \
	"--request-rate-ramp-duration can only be used with --request-rate scheduling."
usage_err "--user-centric-rate 0 --num-users 2 --session-turns-mean 2" "--user-centric-rate"
usage_err "--request-rate 2 --request-rate-ramp-duration 0" "--request-rate-ramp-duration"

test_done
