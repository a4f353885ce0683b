#!/bin/sh
# aiperf-send over TLS to nginx in front of aiperf-mock: HTTP/2 by ALPN,
# streams multiplexed on one connection, verification, -k, 1.1 fallback.
# shellcheck disable=SC1091,SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

# A real server is the point of this test: without nginx it fails, never
# skips (scripts/install-deps.sh installs nginx-light).
NGINX=$(PATH="$PATH:/usr/sbin:/sbin" command -v nginx || true)
if [ -z "$NGINX" ]; then
	echo "not ok 1 - nginx found (install nginx-light: scripts/install-deps.sh)"
	echo "1..1"
	exit 1
fi
NGINX_PID=
stop_nginx() {
	if [ -n "$NGINX_PID" ]; then
		kill "$NGINX_PID" 2>/dev/null
		wait "$NGINX_PID" 2>/dev/null
	fi
	NGINX_PID=
}
trap 'stop_nginx; cleanup' EXIT

# A throwaway CA and two server certificates it signs: srv for 127.0.0.1
# and localhost, other for another name.
mkcerts() {
	d=$TMP/pki
	mkdir -p "$d" &&
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
		-nodes -days 2 -subj /CN=aiperf-test-ca \
		-addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign,cRLSign \
		-keyout "$d/ca.key" -out "$d/ca.pem" &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-subj /CN=127.0.0.1 -keyout "$d/srv.key" -out "$d/srv.csr" &&
	printf '%s\n' 'subjectAltName=IP:127.0.0.1,DNS:localhost' \
		'basicConstraints=CA:FALSE' 'extendedKeyUsage=serverAuth' >"$d/ext" &&
	openssl x509 -req -in "$d/srv.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" \
		-set_serial 2 -days 2 -extfile "$d/ext" -out "$d/srv.pem" &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-subj /CN=other.test -keyout "$d/other.key" -out "$d/other.csr" &&
	echo 'subjectAltName=DNS:other.test' >"$d/ext2" &&
	openssl x509 -req -in "$d/other.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" \
		-set_serial 3 -days 2 -extfile "$d/ext2" -out "$d/other.pem"
}

# nginx_conf DIR H2PORT H1PORT BADPORT: an h2 (ALPN) and an HTTP/1.1-only
# TLS server, and one whose certificate names another host, all proxying
# to the mock without buffering so SSE streams through. The access log
# names the connection each request came in on.
nginx_conf() {
	cat <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 256; }
http {
	log_format conn '\$server_port \$connection \$server_protocol \$status';
	access_log $1/access.log conn;
	client_body_temp_path $1/tmp/body;
	proxy_temp_path $1/tmp/proxy;
	fastcgi_temp_path $1/tmp/fastcgi;
	uwsgi_temp_path $1/tmp/uwsgi;
	scgi_temp_path $1/tmp/scgi;
	ssl_certificate $TMP/pki/srv.pem;
	ssl_certificate_key $TMP/pki/srv.key;
	upstream mock { server ${MOCK_URL#http://}; keepalive 16; }
	server {
		listen 127.0.0.1:$2 ssl http2;
		location / {
			proxy_pass http://mock;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_buffering off;
		}
	}
	server {
		listen 127.0.0.1:$3 ssl;
		location / {
			proxy_pass http://mock;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_buffering off;
		}
	}
	server {
		listen 127.0.0.1:$4 ssl http2;
		ssl_certificate $TMP/pki/other.pem;
		ssl_certificate_key $TMP/pki/other.key;
		location / { proxy_pass http://mock; }
	}
}
EOF
}

free_ports() {
	python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])'
}

# start_nginx: sets H2_URL, H1_URL, BAD_URL and NGINX_PID; retries when a port was taken.
start_nginx() {
	n=$TMP/nginx
	try=0
	while [ $try -lt 5 ]; do
		try=$((try + 1))
		rm -rf "$n" && mkdir -p "$n/tmp" || return 1
		# shellcheck disable=SC2046
		set -- $(free_ports)
		nginx_conf "$n" "$1" "$2" "$3" >"$n/nginx.conf"
		"$NGINX" -p "$n" -e "$n/error.log" -c "$n/nginx.conf" \
			>"$n/out" 2>&1 &
		NGINX_PID=$!
		H2_URL=https://127.0.0.1:$1 H1_URL=https://127.0.0.1:$2
		BAD_URL=https://127.0.0.1:$3
		i=0
		while [ $i -lt 100 ] && kill -0 "$NGINX_PID" 2>/dev/null; do
			curl -s -o /dev/null --max-time 2 --cacert "$TMP/pki/ca.pem" \
				"$H2_URL/" && curl -s -o /dev/null --max-time 2 \
				--cacert "$TMP/pki/ca.pem" "$H1_URL/" && return 0
			sleep 0.05
			i=$((i + 1))
		done
		stop_nginx
		grep -q 'Address already in use' "$n/error.log" "$n/out" ||
			break
	done
	cat "$n/error.log" "$n/out" >&2
	return 1
}

# chat N STREAM [warm]: N chat requests asking for usage; with "warm",
# request 0 is a warmup request, so the others start only once it is back
# (the profiling phase starts with nothing in flight) and together.
chat() {
	i=0
	while [ "$i" -lt "$1" ]; do
		ph=
		[ "${3:-}" = warm ] && [ "$i" -eq 0 ] && ph=',"phase":"warmup"'
		printf '{"id":"r%d","session_num":%d,"x_correlation_id":"c%d","path":"/v1/chat/completions","stream":%s%s,"payload":{"model":"m","messages":[{"role":"user","content":"hello %d"}],"stream":%s,"stream_options":{"include_usage":true},"max_completion_tokens":6}}\n' \
			"$i" "$i" "$i" "$2" "$ph" "$i" "$2"
		i=$((i + 1))
	done
}

# check.py FILE VERSION STREAM: every record a 200 in that HTTP version
# with its own intact reply: streaming, several chunks of one completion
# id then usage and [DONE]; non-streaming, one body with usage.
cat >"$TMP/check.py" <<'EOF'
import json, sys
ids = set()
n = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    n += 1
    h = r["aiperf"]["http"]
    assert r["status"] == 200 and "error" not in r, l
    assert h["http_version"] == sys.argv[2], h
    assert h["tls_ns"] > 0 or h["reused"], h
    rs = r["responses"]
    if sys.argv[3] == "true":
        data = [p["value"] for x in rs for p in x["packets"] if p["name"] == "data"]
        assert data[-1] == "[DONE]", data
        chunks = [json.loads(d) for d in data[:-1]]
        assert len(chunks) >= 6, len(chunks)
        assert len({c["id"] for c in chunks}) == 1, chunks
        ids.add(chunks[0]["id"])
        assert chunks[-1]["usage"]["completion_tokens"] == 6, chunks[-1]
        text = "".join(c["choices"][0]["delta"].get("content", "")
                       for c in chunks if c["choices"])
        assert len(text.split()) == 6, text
    else:
        assert len(rs) == 1, rs
        body = json.loads(rs[0]["text"])
        ids.add(body["id"])
        assert body["usage"]["completion_tokens"] == 6, body
assert len(ids) == n, ids
print(n)
EOF

# overlap.py FILE: records 1.. (started in one batch, before the sender
# reads any reply) were all in flight at once.
cat >"$TMP/overlap.py" <<'EOF'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
rs = [r for r in rs if r["metadata"]["x_request_id"] != "r0"]
assert max(r["start_perf_ns"] for r in rs) < min(r["aiperf"]["end_perf_ns"] for r in rs)
EOF

# conns PORT N: the distinct nginx connections that served PORT, once the
# access log has N lines (nginx logs a request after its last byte left;
# waited for up to 30 s).
conns() {
	i=0
	while [ "$(wc -l <"$ACCESS")" -lt "$2" ] && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	awk -v p="$1" '$1 == p { print $2 }' "$ACCESS" | sort -u | wc -l
}

# Setup runs here, not in a test body's subshell: its variables must stay.
# (First tokens 60 ms late: a batch's streams are all still in flight when
# its last one starts, for overlap.py, even with TLS handshakes under a
# sanitizer on a loaded machine; at 5 ms one had ended.)
if ! mkcerts >"$TMP/pki.log" 2>&1 || ! start_mock --ttft-ms 60 --itl-ms 2 ||
	! start_nginx; then
	cat "$TMP/pki.log"
	echo "not ok 1 - setup: CA, certificate, mock and nginx"
	echo "1..1"
	exit 1
fi
CA=$TMP/pki/ca.pem
ACCESS=$TMP/nginx/access.log
H2PORT=${H2_URL##*:}
H1PORT=${H1_URL##*:}

test_expect_success '--ssl-ca-file: streaming over HTTP/2, replies intact' '
	: >"$ACCESS" &&
	chat 12 true >in &&
	aiperf-send -u "$H2_URL" --ssl-ca-file "$CA" --concurrency 4 <in >out &&
	test "$(wc -l <out)" -eq 12 &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 12 &&
	test "$(count "\"http_version\":\"2\"" out)" -eq 12
'
test_expect_success 'the server saw HTTP/2.0 for each of them' '
	conns "$H2PORT" 12 >/dev/null &&
	test "$(grep -c "^$H2PORT [0-9]* HTTP/2.0 200$" "$ACCESS")" -eq 12 &&
	test "$(wc -l <"$ACCESS")" -eq 12
'
test_expect_success '--ssl-ca-file: non-streaming over HTTP/2' '
	chat 6 false >in &&
	aiperf-send -u "$H2_URL" --ssl-ca-file "$CA" --concurrency 3 <in >out &&
	test "$(python3 "$TMP/check.py" out 2 false)" -eq 6
'
test_expect_success 'the certificate name localhost verifies too' '
	chat 2 true >in &&
	aiperf-send -u "https://localhost:$H2PORT" --ssl-ca-file "$CA" <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 2
'
# A warmup request opens a connection; once it is back four start together.
test_expect_success 'HTTP/2: concurrent streams share one connection' '
	: >"$ACCESS" &&
	chat 5 true warm >in &&
	aiperf-send -u "$H2_URL" --ssl-ca-file "$CA" --concurrency 4 <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 5 &&
	python3 "$TMP/overlap.py" out &&
	test "$(count "\"reused\":false" out)" -eq 1 &&
	test "$(count "\"reused\":true" out)" -eq 4 &&
	test "$(conns "$H2PORT" 5)" -eq 1
'
test_expect_success 'HTTP/2 cold start: 16 at once still share one connection' '
	: >"$ACCESS" &&
	chat 32 true >in &&
	aiperf-send -u "$H2_URL" --ssl-ca-file "$CA" --concurrency 16 <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 32 &&
	test "$(conns "$H2PORT" 32)" -eq 1
'
test_expect_success 'no CA: each request is a ConnectionError naming the certificate' '
	chat 5 true >in &&
	aiperf-send -u "$H2_URL" --concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 5 &&
	test "$(count "\"type\":\"ConnectionError\"" out)" -eq 5 &&
	test "$(grep -c -i "certificate" out)" -eq 5 &&
	test "$(count "\"status\":" out)" -eq 0 &&
	test "$(count "http_version" out)" -eq 0 &&
	jq -r .metadata.x_request_id out | sort >ids &&
	printf "r%d\n" 0 1 2 3 4 >expect &&
	test_cmp expect ids
'
test_expect_success 'a certificate for another name fails even with the CA' '
	chat 3 true >in &&
	aiperf-send -u "$BAD_URL" --ssl-ca-file "$CA" <in >out &&
	test "$(wc -l <out)" -eq 3 &&
	test "$(count "\"type\":\"ConnectionError\"" out)" -eq 3 &&
	test "$(grep -c "certificate subject name.*127\.0\.0\.1" out)" -eq 3
'
test_expect_success '-k and --insecure: HTTP/2 without the CA or the right name' '
	chat 4 true >in &&
	aiperf-send -u "$H2_URL" -k --concurrency 2 <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 4 &&
	aiperf-send -u "$H2_URL" --insecure <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 4 &&
	aiperf-send -u "$BAD_URL" -k <in >out &&
	test "$(python3 "$TMP/check.py" out 2 true)" -eq 4
'
test_expect_success 'a server without http2: HTTP/1.1, one connection per stream' '
	: >"$ACCESS" &&
	chat 5 true warm >in &&
	aiperf-send -u "$H1_URL" --ssl-ca-file "$CA" --concurrency 4 <in >out &&
	test "$(python3 "$TMP/check.py" out 1.1 true)" -eq 5 &&
	python3 "$TMP/overlap.py" out &&
	test "$(count "\"reused\":false" out)" -eq 4 &&
	test "$(count "\"reused\":true" out)" -eq 1 &&
	test "$(conns "$H1PORT" 5)" -eq 4 &&
	chat 3 false >in &&
	aiperf-send -u "$H1_URL" --ssl-ca-file "$CA" <in >out &&
	test "$(python3 "$TMP/check.py" out 1.1 false)" -eq 3
'
test_expect_success 'one pooled handle across servers: each record its own version' '
	chat 6 true >in &&
	aiperf-send -u "$H2_URL" -u "$BAD_URL" -u "$H1_URL" --ssl-ca-file "$CA" \
		--concurrency 1 <in >out &&
	jq -r "[.metadata.x_request_id, .error.type // \"ok\",
		.aiperf.http.http_version // \"none\"] | join(\" \")" out >got &&
	printf "r%d %s\n" 0 "ok 2" 1 "ConnectionError none" 2 "ok 1.1" \
		3 "ok 2" 4 "ConnectionError none" 5 "ok 1.1" >expect &&
	test_cmp expect got
'

prof() {
	aiperf profile --model m --url "$H2_URL" --tokenizer builtin \
		--random-seed 3 --isl 16 --osl 6 --request-count 6 \
		--concurrency 2 --export-level raw "$@"
}
test_expect_success 'aiperf profile --ssl-ca-file: artifacts from an HTTP/2 run' '
	prof --streaming --ssl-ca-file "$CA" --artifact-dir a >out 2>err &&
	test -s a/profile_export_aiperf.json &&
	test -s a/profile_export_aiperf.csv &&
	test "$(wc -l <a/profile_export.jsonl)" -eq 6 &&
	test "$(count "\"http_version\":\"2\"" a/profile_export_raw.jsonl)" -eq 6 &&
	test "$(jq .request_count.avg a/profile_export_aiperf.json)" = 6 &&
	test "$(jq ".error_request_count.avg // 0" a/profile_export_aiperf.json)" = 0
'
test_expect_success 'aiperf profile -k; without either every request fails (exit 3)' '
	prof -k --artifact-dir k >out 2>err &&
	test "$(jq .request_count.avg k/profile_export_aiperf.json)" = 6 &&
	test_expect_code 3 prof --artifact-dir v >out 2>err &&
	grep -q "every request failed" err &&
	test "$(count "certificate problem" v/profile_export_raw.jsonl)" -eq 6 &&
	test "$(wc -l <v/profile_export.jsonl)" -eq 6
'
test_done
