#!/bin/sh
# aiperf-send's video jobs: a submit answer whose id cannot be used (one
# holding a NUL character, one that is not a string) is an error record
# saying the id was refused and why, not "No job ID returned", which stays
# for an answer with no id (absent, null, empty); an id with CR, LF or other
# control characters is percent-encoded in the poll URL and kept as it is.
# Both engines. The server is a Python script.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 2
cat >srv.py <<'PY'
import http.server, json, re

IDS = {"nul": "a\u0000b", "num": 42, "obj": {"v": 1}, "null": None, "empty": "",
       "crlf": "a\r\nb\u0001c"}

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def send(self, body):
        b = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        p = re.search(r'name="prompt"\r\n\r\n(.*?)\r\n--', body, re.S).group(1)
        if p == "absent":
            return self.send({"status": "queued"})
        self.send({"id": IDS[p], "status": "queued"})
    def do_GET(self):
        with open("polls", "a") as f:
            f.write(self.path + "\n")
        self.send({"status": "completed"})

s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY

/usr/bin/python3 srv.py >port &
SRV_PID=$!
trap 'kill $SRV_PID 2>/dev/null; cleanup' EXIT
i=0
while [ ! -s port ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
URL=http://127.0.0.1:$(cat port)

# run ENGINE PROMPT: the one record of a job whose submit answers as PROMPT says, in out.PROMPT
run() {
	printf '{"id":"r","endpoint_type":"video_generation","payload":{"prompt":"%s","model":"m"}}\n' "$2" |
	aiperf-send -u "$URL" --http-engine "$1" --video-poll-interval 0.01 >"out.$2" &&
	test "$(wc -l <"out.$2")" -eq 1
}

for e in h1 curl; do
test_expect_success "$e: an id holding a NUL is refused, and the message says why" '
	run '$e' nul &&
	jq -e ".error.type == \"VideoGenerationError\" and .error.code == 500 and
		(.error.message | startswith(\"Job ID refused: it holds a NUL character: {\\\"id\\\": \\\"a\\\\u0000b\\\"\"))
		and .aiperf.video.polls == 0 and (.aiperf.video.job_id | not)" out.nul
'

test_expect_success "$e: an id that is not a string is refused, and the message says why" '
	run '$e' num &&
	jq -e ".error.message | startswith(\"Job ID refused: it is a number, not a string: \")" out.num &&
	run '$e' obj &&
	jq -e ".error.message | startswith(\"Job ID refused: it is an object, not a string: \")" out.obj
'

test_expect_success "$e: no id (absent, null, empty): No job ID returned" '
	for p in absent null empty; do
		run '$e' $p &&
		jq -e ".error.message | startswith(\"No job ID returned: \")" out.$p || exit 1
	done
'

test_expect_success "$e: CR, LF and control characters: percent-encoded in the poll URL, kept" '
	rm -f polls &&
	run '$e' crlf &&
	jq -e "(.error | not) and .aiperf.video.job_id == \"a\\r\\nb\\u0001c\"" out.crlf &&
	test "$(cat polls)" = "/v1/videos/a%0D%0Ab%01c"
'
done

test_done
