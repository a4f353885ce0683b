#!/bin/sh
# aiperf-send --io: the native engine's io_uring receive path gives the
# records of the epoll path (same responses, errors and byte counts; only
# the stamps' values differ), and its stamps keep their meaning: each
# chunk's perf_ns lies between the request's start and end, in order.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/send-lib.sh"

PY=/usr/bin/python3
command -v python3 >/dev/null || test_skip_all 'python3 not found'

# Whether this kernel gives multishot receives (else --io uring refuses).
start_mock --ttft-ms 0 --itl-ms 0
if reqs 1 | aiperf-send -u "$MOCK_URL" --io uring >/dev/null 2>"$TMP/probe.err"; then
	URING=1
else
	URING=
fi
stop_mock

# norm: a record with every number and the mock's ids elided, so records of
# two runs compare by what they hold.
norm() {
	sed -e 's/[0-9][0-9]*/N/g' "$@" | sort
}

# stamps_ok FILE: every record's chunk stamps are in order and within
# [start_perf_ns, end_perf_ns]; prints the number of chunks checked.
stamps_ok() {
	$PY - "$1" <<'PYEOF'
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    a = r["aiperf"]
    t = [x["perf_ns"] for x in r.get("responses", [])]
    assert t == sorted(t), ("out of order", r["metadata"]["x_request_id"])
    for v in t:
        assert r["start_perf_ns"] <= v <= a["end_perf_ns"], (v, r["start_perf_ns"], a["end_perf_ns"])
    n += len(t)
print(n)
PYEOF
}

test_expect_success 'an unknown --io or AIPERF_SEND_IO is a usage error' '
	test_expect_code 2 aiperf-send --io kqueue </dev/null 2>err &&
	grep -q "auto" err &&
	AIPERF_SEND_IO=select test_expect_code 2 aiperf-send </dev/null 2>err &&
	grep -q "AIPERF_SEND_IO" err
'

test_expect_success '--io uring says why when the kernel has no multishot receive' '
	[ -z "$URING" ] || skip_because "io_uring works here"
	grep -q "io_uring" "$TMP/probe.err"
'

test_expect_success 'canned SSE in 7-byte pieces: the same records on both paths' '
	[ -n "$URING" ] || skip_because "no io_uring multishot receive here"
	printf "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" >resp
	i=0
	while [ $i -lt 12 ]; do
		printf "data: {\"choices\":[{\"delta\":{\"content\":\"tok %d \\\\u00e9\"}}]}\n\n" $i >>resp
		i=$((i + 1))
	done
	printf "data: [DONE]\n\n" >>resp
	start_canned resp 7
	reqs 4 >in
	aiperf-send -u "$CANNED_URL" --io epoll <in >out.epoll
	aiperf-send -u "$CANNED_URL" --io uring <in >out.uring
	stop_canned || :
	[ "$(wc -l <out.uring)" -eq 4 ]
	[ "$(grep -c "\"status\":200" out.uring)" -eq 4 ]
	norm out.epoll >n.epoll
	norm out.uring >n.uring
	test_cmp n.epoll n.uring
	[ "$(stamps_ok out.uring)" -eq 52 ]
'

test_expect_success 'aiperf-mock streams at concurrency 8: same records, stamps in order' '
	[ -n "$URING" ] || skip_because "no io_uring multishot receive here"
	start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 16
	reqs 40 >in
	aiperf-send -u "$MOCK_URL" --concurrency 8 --io epoll <in >out.epoll
	aiperf-send -u "$MOCK_URL" --concurrency 8 --io uring <in >out.uring
	stop_mock
	[ "$(grep -c "\"status\":200" out.uring)" -eq 40 ]
	norm out.epoll >n.epoll
	norm out.uring >n.uring
	test_cmp n.epoll n.uring
	[ "$(stamps_ok out.uring)" -eq "$(stamps_ok out.epoll)" ]
'

test_expect_success 'faults give the same error records on both paths' '
	[ -n "$URING" ] || skip_because "no io_uring multishot receive here"
	for f in reset close stall-body bad-chunk big-body; do
		start_mock --fault "$f" --itl-ms 1
		reqs 3 >in
		aiperf-send -u "$MOCK_URL" --concurrency 3 --request-timeout-seconds 1 \
			--io epoll <in >"out.$f.epoll"
		aiperf-send -u "$MOCK_URL" --concurrency 3 --request-timeout-seconds 1 \
			--io uring <in >"out.$f.uring"
		stop_mock
		[ "$(wc -l <"out.$f.uring")" -eq 3 ]
		norm "out.$f.epoll" >n.epoll
		norm "out.$f.uring" >n.uring
		test_cmp n.epoll n.uring || { echo "fault $f differs"; exit 1; }
	done
'

test_expect_success 'requests after the first reuse its kept-alive connection' '
	[ -n "$URING" ] || skip_because "no io_uring multishot receive here"
	start_mock --ttft-ms 0 --itl-ms 0
	reqs 2 >in
	aiperf-send -u "$MOCK_URL" --io uring <in >out
	stop_mock
	[ "$(grep -c "\"status\":200" out)" -eq 2 ]
	grep -q "\"reused\":true" out
'

test_done
