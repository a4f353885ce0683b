#!/bin/sh
# aiperf-send: --connection-reuse-strategy sticky-user-sessions.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

# conns.py FILE: per session, turn 0 opens a connection and every later
# turn reuses one; prints the connections opened.
cat >"$TMP/conns.py" <<'EOF'
import json, sys
opened = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    reused = r["aiperf"]["http"]["reused"]
    first = r["metadata"]["turn_index"] == 0
    assert r["status"] == 200, r["status"]
    assert reused != first, (r["metadata"], reused)
    opened += not reused
print(opened)
EOF

test_expect_success 'sticky: one connection per session, reused by its turns' '
	sessions 8 3 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 \
		--connection-reuse-strategy sticky-user-sessions <in >out &&
	test "$(wc -l <out)" -eq 24 &&
	test "$(python3 "$TMP/conns.py" out)" -eq 8
'
test_expect_success 'pooled: a new session reuses an idle connection' '
	aiperf-send -u "$MOCK_URL" --concurrency 1 <in >out &&
	test "$(wc -l <out)" -eq 24 &&
	test "$(count "\"reused\":false" out)" -eq 1
'
test_expect_success 'sticky: single-turn records get a connection each' '
	reqs 5 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 1 \
		--connection-reuse-strategy sticky-user-sessions <in >out &&
	test "$(count "\"reused\":false" out)" -eq 5
'
test_done
