#!/bin/sh
# aiperf-mock: fault injection, keep-alive, pipelining and request framing.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# a broken mock must fail the test, not hang it
curl() {
	command curl --max-time 30 "$@"
}

restart_mock() {
	kill "$MOCK_PID"
	wait "$MOCK_PID" 2>/dev/null
	rm -f "$TMP/.mock.url"
	start_mock "$@"
}

stream='{"messages":[{"role":"user","content":"hi"}],"max_tokens":6,"stream":true}'

start_mock --fast --status 503

test_expect_success '--status answers every request with that status and a JSON error' '
	code=$(curl -s -o out -w "%{http_code}" -d "$stream" "$MOCK_URL/v1/chat/completions") &&
	test "$code" = 503 && test "$(jq .error.code out)" = 503 &&
	code=$(curl -s -o out -w "%{http_code}" "$MOCK_URL/health") &&
	test "$code" = 503
'

restart_mock --fast --error-rate 100
test_expect_success '--error-rate 100 fails every LLM request with a simulated 500' '
	code=$(curl -s -o out -w "%{http_code}" -d "$stream" "$MOCK_URL/v1/chat/completions") &&
	test "$code" = 500 && test "$(jq -r .error.message out)" = "Simulated error" &&
	curl -sf "$MOCK_URL/health" >/dev/null &&
	curl -sf "$MOCK_URL/metrics" | grep -q "^aiperf_mock_injected_errors_total 1$"
'

# ten completions through the mock: their status codes, one a line
statuses() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		curl -s -o /dev/null -w "%{http_code}\n" \
			-d "{\"prompt\":\"x\",\"max_tokens\":1}" "$MOCK_URL/v1/completions"
	done
}

restart_mock --fast --error-rate 50 --random-seed 7
statuses >"$TMP/a"
restart_mock --fast --error-rate 50 --random-seed 7
statuses >"$TMP/b"
test_expect_success '--error-rate with a seed is reproducible' '
	grep -q 500 a && grep -q 200 a && test_cmp a b
'

restart_mock --fast --fail-after 2
test_expect_success '--fail-after closes the connection after N chunks' '
	! curl -sfN -d "$stream" "$MOCK_URL/v1/chat/completions" >out 2>err &&
	test "$(grep -c "^data: {" out)" -eq 2 &&
	! grep -q DONE out &&
	curl -sf "$MOCK_URL/metrics" | grep -q "^aiperf_mock_aborted_total 1$"
'

test_expect_success '--fail-after drops non-streaming answers' '
	! curl -sf -d "{\"prompt\":\"x\",\"max_tokens\":3}" "$MOCK_URL/v1/completions" >out 2>err
'

restart_mock --fast --stall-ms 1
test_expect_success 'keep-alive: two requests on one connection' '
	curl -sv "$MOCK_URL/health" "$MOCK_URL/v1/models" >out 2>err &&
	grep -q "Re-using existing connection" err &&
	grep -q healthy out && grep -q aiperf-mock out &&
	curl -sfv -d "$stream" "$MOCK_URL/v1/chat/completions" --next "$MOCK_URL/health" >out 2>err &&
	grep -q "Re-using existing connection" err &&
	grep -q "DONE" out && grep -q healthy out
'

test_expect_success 'pipelined requests are answered in order' '
	port=${MOCK_URL##*:} &&
	python3 - "$port" >out <<-\PY &&
	import socket, sys
	socket.setdefaulttimeout(10)
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	body = b"{\"prompt\":\"x y\",\"max_tokens\":2,\"stream\":true}"
	req = (b"POST /v1/completions HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
	s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n" + req +
	          b"GET /v1/models HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
	data = b""
	while True:
	    d = s.recv(65536)
	    if not d:
	        break
	    data += d
	sys.stdout.write(data.decode())
	PY
	test "$(grep -o "HTTP/1.1 200 OK" out | wc -l)" -eq 3 &&
	grep -n -e healthy -e DONE -e owned_by out | cut -d: -f1 >lines &&
	sort -n lines | test_cmp lines - &&
	test "$(wc -l <lines)" -eq 3
'

test_expect_success 'HTTP/1.0 clients get an unframed stream ended by close' '
	curl -sf0 -N -d "$stream" "$MOCK_URL/v1/chat/completions" >out &&
	test "$(grep -c "^data: {" out)" -eq 6 && grep -q "^data: \[DONE\]" out
'

test_expect_success 'chunked request bodies are decoded' '
	printf "{\"prompt\":\"a b c\",\"max_tokens\":2}" |
	curl -sf -H "Transfer-Encoding: chunked" --data-binary @- "$MOCK_URL/v1/completions" >out &&
	test "$(jq .usage.completion_tokens out)" = 2
'

test_expect_success 'bodies over 1 MiB (Expect: 100-continue) are read' '
	python3 -c "import json; print(json.dumps({\"prompt\": \"word \" * 300000, \"max_tokens\": 1}))" >big &&
	curl -sf --data-binary @big "$MOCK_URL/v1/completions" >out &&
	test "$(jq .usage.prompt_tokens out)" -ge 250000
'

test_expect_success 'malformed requests get a 400 and the connection closes' '
	port=${MOCK_URL##*:} &&
	python3 - "$port" >out <<-\PY &&
	import socket, sys
	socket.setdefaulttimeout(10)
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"GET /health HTTP/1.1\r\nBad Header\r\n\r\n")
	data = b""
	while True:
	    d = s.recv(65536)
	    if not d:
	        break
	    data += d
	sys.stdout.write(data.decode())
	PY
	grep -q "^HTTP/1.1 400" out && grep -q "^Connection: close" out
'

restart_mock --ttft-ms 1 --itl-ms 1 --fail-after 3
test_expect_success 'clients vanishing mid-body, mid-stream or mid-head do no harm' '
	port=${MOCK_URL##*:} &&
	python3 - "$port" <<-\PY &&
	import socket, sys
	socket.setdefaulttimeout(10)
	port = int(sys.argv[1])
	stream = b"{\"prompt\":\"x\",\"max_tokens\":50,\"stream\":true}"
	cases = [
	    b"POST /v1/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"pro",
	    b"POST /v1/completions HTTP/1.1\r\nContent-Length: 100\r\n\r\n{",
	    b"POST /v1/completions HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(stream), stream),
	    b"POST /v1/completions HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(stream), stream) * 3,
	    b"GET /health HTTP/1.1\r\nHo",
	]
	for i, req in enumerate(cases * 10):
	    s = socket.create_connection(("127.0.0.1", port))
	    s.sendall(req)
	    if i % 2 and b"stream" in req:
	        s.recv(100)
	    s.close()
	PY
	curl -sf "$MOCK_URL/health" >/dev/null &&
	curl -sf "$MOCK_URL/metrics" | grep -q "^aiperf_mock_requests_total{route=\"completions\"} [1-9]"
'

restart_mock --fast -v
test_expect_success '-v logs one line per request on stderr' '
	curl -s "$MOCK_URL/nothing" >/dev/null &&
	curl -s "$MOCK_URL/health" >/dev/null &&
	i=0 &&
	# the mock may log after the client has its reply: wait, bounded
	while ! grep -q "\"GET /health HTTP/1.1\" 200" "$TMP/.mock.err" && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	grep -c "^aiperf-mock: 127.0.0.1:[0-9]* \"GET /nothing HTTP/1.1\" 404 [0-9]*$" "$TMP/.mock.err" &&
	grep -q "\"GET /health HTTP/1.1\" 200" "$TMP/.mock.err"
'

restart_mock --fast --max-connections 1
test_expect_success '--max-connections answers 503 past the limit' '
	port=${MOCK_URL##*:} &&
	python3 - "$port" >out <<-\PY &&
	import socket, sys
	socket.setdefaulttimeout(10)
	a = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	a.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
	a.recv(4096)
	b = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	sys.stdout.write(b.recv(4096).decode())
	PY
	grep -q "^HTTP/1.1 503" out
'

restart_mock --fast --ports 3
test_expect_success '--ports prints one URL per port, each serving' '
	test "$(wc -l <"$TMP/.mock.url")" -eq 3 &&
	for u in $(cat "$TMP/.mock.url"); do
		curl -sf "$u/health" || return 1
	done >out &&
	test "$(grep -o healthy out | wc -l)" -eq 3
'

restart_mock --fast --workers 2
# Worker w of n numbers its requests k * n + w + 1 (cmd/aiperf-mock/gen.c),
# so with two workers the odd ids come from worker 0 and the even ones from
# worker 1. The kernel spreads connections by a hash of the address pair:
# 64 fresh connections all land on one worker with probability 2^-63.
test_expect_success '--workers share one port and both serve' '
	set -- &&
	for i in $(seq 64); do set -- "$@" "$MOCK_URL/v1/completions"; done &&
	curl -sf -H "Connection: close" -d "{\"prompt\":\"x\",\"max_tokens\":1}" "$@" |
		jq -r .id >ids &&
	test "$(wc -l <ids)" -eq 64 &&
	test "$(sort -u ids | wc -l)" -eq 64 &&
	! grep -v -x "cmpl-[0-9]*" ids &&
	test "$(sed "s/^cmpl-//" ids | awk "\$1 % 2 == 1" | wc -l)" -gt 0 &&
	test "$(sed "s/^cmpl-//" ids | awk "\$1 % 2 == 0" | wc -l)" -gt 0
'

kill -INT "$MOCK_PID"
wait "$MOCK_PID"
rc=$?
MOCK_PID=
test_expect_success 'SIGINT stops every worker with status 0' '
	test "$rc" -eq 0
'

test_done
