#!/bin/sh
# aiperf-send: TLS is verified by default; --ssl-ca-file and --insecure.
# shellcheck disable=SC1091,SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

if ! command -v openssl >/dev/null 2>&1; then
	test_skip_all "openssl not found"
fi

# A self-signed certificate for 127.0.0.1 and a one-line JSON server on it.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/key.pem" \
	-out "$TMP/cert.pem" >/dev/null 2>&1 || {
	test_skip_all "cannot make a certificate"
}
python3 -c '
import http.server, ssl, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        b = b"{\"choices\":[{\"message\":{\"content\":\"ok\"}}]}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def log_message(self, *a):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(sys.argv[1], sys.argv[2])
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
print("https://127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
' "$TMP/cert.pem" "$TMP/key.pem" >"$TMP/.tls.url" 2>/dev/null &
MOCK_PID=$!
i=0
while [ ! -s "$TMP/.tls.url" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
TLS_URL=$(head -1 "$TMP/.tls.url")

test_expect_success 'an untrusted certificate gives a ConnectionError record' '
	reqs 2 false >in &&
	aiperf-send -u "$TLS_URL" <in >out &&
	test "$(wc -l <out)" -eq 2 &&
	test "$(count "\"type\":\"ConnectionError\"" out)" -eq 2 &&
	grep -q -i "certificate" out
'
test_expect_success '--ssl-ca-file trusts the server' '
	aiperf-send -u "$TLS_URL" --ssl-ca-file "$TMP/cert.pem" <in >out &&
	test "$(count "\"status\":200" out)" -eq 2
'
test_expect_success '--insecure skips verification' '
	aiperf-send -u "$TLS_URL" --insecure <in >out &&
	test "$(count "\"status\":200" out)" -eq 2 &&
	aiperf-send -u "$TLS_URL" -k <in >out &&
	test "$(count "\"status\":200" out)" -eq 2
'
test_expect_success 'an unreadable CA file is an error' '
	st=0 &&
	aiperf-send --ssl-ca-file "$TMP/nope.pem" </dev/null 2>err || st=$? &&
	test "$st" -eq 1 &&
	grep -q "cannot read" err
'
test_done
