#!/bin/sh
# aiperf-send: the native HTTP/1.1 engine agrees with libcurl, and survives hostile servers.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
HOSTILE_PID=
trap '[ -n "$HOSTILE_PID" ] && kill "$HOSTILE_PID" 2>/dev/null; cleanup' EXIT

# norm FILE: records without times, ids the mock counts, the http object; sorted.
norm() {
	sed -E 's/"http":\{[^}]*\}//; s/[0-9]{6,}/N/g; s/chatcmpl-[0-9]+/chatcmpl-N/g' "$1" | sort
}

# both NAME ARGS...: run aiperf-send with each engine on ./in, into NAME.h1 and NAME.curl.
both() {
	name=$1
	shift
	aiperf-send --http-engine h1 "$@" <in >"$name.h1" &&
	aiperf-send --http-engine curl "$@" <in >"$name.curl" &&
	norm "$name.h1" >"$name.h1.n" && norm "$name.curl" >"$name.curl.n" &&
	test_cmp "$name.curl.n" "$name.h1.n"
}

start_mock --ttft-ms 1 --itl-ms 1
test_expect_success 'non-streaming: both engines give the same records' '
	reqs 6 false >in &&
	both ns -u "$MOCK_URL" --concurrency 2 &&
	test "$(count "\"status\":200" ns.h1)" -eq 6
'
test_expect_success 'streaming SSE: the same records' '
	reqs 6 true >in &&
	both st -u "$MOCK_URL" --concurrency 3 &&
	test "$(count "\"packets\"" st.h1)" -eq 6
'
test_expect_success 'multi-turn sessions with history: the same records' '
	sessions 3 3 >in &&
	both mt -u "$MOCK_URL" --concurrency 2 &&
	test "$(wc -l <mt.h1)" -eq 9
'
test_expect_success 'reuse never: a fresh connection per request' '
	reqs 4 false >in &&
	both nv -u "$MOCK_URL" --concurrency 1 --connection-reuse-strategy never &&
	test "$(count "\"reused\":false" nv.h1)" -eq 4
'
test_expect_success 'reuse pooled: one connection for sequential requests' '
	aiperf-send --http-engine h1 -u "$MOCK_URL" --concurrency 1 <in >po &&
	test "$(count "\"reused\":false" po)" -eq 1 &&
	test "$(count "\"reused\":true" po)" -eq 3
'
test_expect_success 'reuse sticky: each session its own connection' '
	sessions 4 3 >in &&
	both sk -u "$MOCK_URL" --concurrency 2 --connection-reuse-strategy sticky-user-sessions &&
	test "$(count "\"reused\":false" sk.h1)" -eq 4 &&
	test "$(count "\"reused\":true" sk.h1)" -eq 8
'
# sized N...: one request record per N with a user message of N bytes.
sized() {
	for n in "$@"; do
		printf '{"id":"b%d","path":"/v1/chat/completions","payload":{"model":"m","messages":[{"role":"user","content":"%s"}],"max_completion_tokens":1}}\n' \
			"$n" "$(head -c "$n" /dev/zero | tr "\\0" x)"
	done
}
test_expect_success 'bytes_sent and http_version agree between the engines' '
	sized 10 65400 65500 70000 >in &&
	aiperf-send --http-engine h1 -u "$MOCK_URL" <in >bs.h1 &&
	aiperf-send --http-engine curl -u "$MOCK_URL" <in >bs.curl &&
	grep -o "\"bytes_sent\":[0-9]*" bs.h1 >h1.n &&
	grep -o "\"bytes_sent\":[0-9]*" bs.curl >curl.n &&
	test "$(wc -l <h1.n)" -eq 4 && test_cmp h1.n curl.n &&
	test "$(count "\"http_version\":\"1.1\"" bs.h1)" -eq 4 &&
	test "$(count "\"http_version\":\"1.1\"" bs.curl)" -eq 4
'
test_expect_success 'a proxy in the environment: auto leaves it to libcurl' '
	reqs 1 false >in &&
	http_proxy=http://127.0.0.1:1 aiperf-send -u "$MOCK_URL" <in >px &&
	grep -q "\"type\":\"ConnectionError\"" px &&
	http_proxy=http://127.0.0.1:1 aiperf-send --http-engine h1 -u "$MOCK_URL" <in >px &&
	grep -q "\"status\":200" px
'
test_expect_success 'an https URL with --http-engine h1 is a usage error' '
	test_expect_code 2 aiperf-send --http-engine h1 -u https://127.0.0.1:1 \
		</dev/null 2>err &&
	grep -q "https needs curl" err &&
	test_expect_code 2 aiperf-send --http-engine h2 </dev/null 2>err &&
	grep -q "invalid value for --http-engine" err
'
stop_mock

start_mock --stall-ms 3000
test_expect_success 'cancellation and timeout: the same error records' '
	reqs 2 true ",\"cancel_after_ns\":100000000" >in &&
	both ca -u "$MOCK_URL" --concurrency 2 &&
	test "$(count "RequestCancellationError" ca.h1)" -eq 2 &&
	reqs 2 false >in &&
	both to -u "$MOCK_URL" --concurrency 2 --request-timeout-seconds 0.2 &&
	test "$(count "Request timed out after 0.200s" to.h1)" -eq 2
'
stop_mock

# The mock logs each request as it arrives (-v): it dies once eight have
# come, with four of them in flight (each takes 110 ms) and 32 not sent.
start_mock -v --ttft-ms 50 --itl-ms 20
test_expect_success 'server killed mid-run: a record for every request' '
	reqs 40 true >in &&
	{ rc=0; aiperf-send -u "$MOCK_URL" --concurrency 4 <in >km || rc=$?
	  echo "$rc" >km.rc; } &
	wait_grep 8 "\"POST /v1/chat/completions " "$TMP/.mock.err" &&
	kill -9 "$MOCK_PID" && wait $! &&
	test "$(cat km.rc)" -eq 0 &&
	test "$(wc -l <km)" -eq 40 &&
	test "$(count "\"type\":\"ConnectionError\"" km)" -ge 4
'
stop_mock

# A scripted loopback server: MODE says how it answers each request.
cat >"$TMP/hostile.py" <<'EOF'
import socket, sys, threading, time
mode = sys.argv[1]
OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
REPLY = {
    "badstatus": b"HTTP/1.1 2x0 OK\r\n\r\n",
    "badchunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "truncated": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\"",
    "close": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    "continue": b"HTTP/1.1 100 Continue\r\n\r\n" + OK,
    "bighead": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 300000 + b"\r\nContent-Length: 2\r\n\r\n{}",
    "dropsecond": OK,
    "slowread": OK,
    "idleclose": OK,
}[mode]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(64)
print("http://127.0.0.1:%d" % srv.getsockname()[1], flush=True)

def request(c, buf):
    while b"\r\n\r\n" not in buf:
        more = c.recv(65536)
        if not more:
            return None
        buf += more
    head, _, body = buf.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    while len(body) < n:
        more = c.recv(65536)
        if not more:
            return None
        body += more
    return body[n:]

def serve(c):
    buf, k = b"", 0
    if mode == "slowread":
        time.sleep(0.3)   # the client's socket buffer fills first
    try:
        while k < 100:
            buf = request(c, buf)
            if buf is None:
                break
            k += 1
            if mode == "dropsecond" and k == 2:
                break   # an idle connection the server had closed
            c.sendall(REPLY)
            if mode == "idleclose":
                c.settimeout(0.2)   # an idle connection closes after 200 ms
            if mode in ("badstatus", "badchunk", "truncated", "close", "bighead"):
                break
    except OSError:
        pass
    c.close()

for _ in range(200):
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF

# hostile MODE: start the scripted server; sets HOSTILE_URL.
hostile() {
	[ -n "$HOSTILE_PID" ] && kill "$HOSTILE_PID" 2>/dev/null
	rm -f "$TMP/.hostile.url"
	python3 "$TMP/hostile.py" "$1" >"$TMP/.hostile.url" &
	HOSTILE_PID=$!
	i=0
	while [ ! -s "$TMP/.hostile.url" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	HOSTILE_URL=$(head -1 "$TMP/.hostile.url")
	[ -n "$HOSTILE_URL" ]
}

hostile badstatus
test_expect_success 'malformed status line: ConnectionError' '
	reqs 3 false >in &&
	aiperf-send -u "$HOSTILE_URL" <in >out &&
	test "$(count "\"type\":\"ConnectionError\",\"message\":\"Invalid HTTP response: malformed status line\"" out)" -eq 3
'
hostile badchunk
test_expect_success 'bad chunk size: ConnectionError with the status' '
	reqs 3 false >in &&
	aiperf-send -u "$HOSTILE_URL" <in >out &&
	test "$(count "\"status\":200,\"responses\":[],\"error\":{\"type\":\"ConnectionError\",\"message\":\"Invalid HTTP response: malformed chunk size\"" out)" -eq 3
'
hostile truncated
test_expect_success 'truncated body then close: the same error type as libcurl' '
	reqs 3 false >in &&
	both tr -u "$HOSTILE_URL" &&
	test "$(count "transfer closed with 96 bytes remaining to read" tr.h1)" -eq 3
'
hostile close
test_expect_success 'Connection: close after each response: a new connection each' '
	reqs 5 false >in &&
	both cl -u "$HOSTILE_URL" --concurrency 2 &&
	test "$(count "\"status\":200" cl.h1)" -eq 5 &&
	test "$(count "\"reused\":false" cl.h1)" -eq 5
'
hostile continue
test_expect_success '100 Continue before the response is skipped' '
	reqs 4 false >in &&
	both co -u "$HOSTILE_URL" --concurrency 1 &&
	test "$(count "\"status\":200" co.h1)" -eq 4
'
hostile bighead
test_expect_success 'a response head over the cap: ConnectionError' '
	reqs 2 false >in &&
	aiperf-send --http-engine h1 -u "$HOSTILE_URL" <in >out &&
	test "$(count "\"type\":\"ConnectionError\",\"message\":\"Invalid HTTP response: line too long\"" out)" -eq 2
'
hostile dropsecond
test_expect_success 'an idle connection the server closed: resent once on a fresh one' '
	reqs 6 false >in &&
	both dr -u "$HOSTILE_URL" --concurrency 1 &&
	test "$(count "\"status\":200" dr.h1)" -eq 6
'
hostile idleclose
test_expect_success 'an idle connection the server closes: dropped, a new one next' '
	sessions 2 2 500000000 >in &&
	both ic -u "$HOSTILE_URL" --concurrency 1 &&
	test "$(count "\"status\":200" ic.h1)" -eq 4 &&
	test "$(count "\"reused\":false" ic.h1)" -eq 3
'
hostile slowread
test_expect_success 'a body larger than the socket buffer: written in pieces' '
	python3 -c "import json; print(json.dumps({\"id\": \"big\", \"stream\": False, \"payload\": {\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\" * 8000000}]}}))" >in &&
	aiperf-send --http-engine h1 -u "$HOSTILE_URL" <in >big &&
	grep -q "\"status\":200" big &&
	grep -Eq "\"bytes_sent\":800[0-9]{4}," big
'
test_done
