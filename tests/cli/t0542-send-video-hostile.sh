#!/bin/sh
# aiperf-send's video jobs against a hostile server (a Python script): a
# submit answer that is not JSON or has no id, ids that need escaping in
# the poll URL, polls that fail with HTTP errors, are not objects, are too
# large, fail with odd error fields or never finish, and a content download
# that fails. Every request is one record with a clear error, nothing hangs.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 2
cat >srv.py <<'PY'
import http.server, json, re, sys, urllib.parse

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def send(self, code, body, ctype="application/json"):
        b = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(n).decode("utf-8", "replace")
        m = re.search(r'name="prompt"\r\n\r\n(.*?)\r\n--', body, re.S)
        p = m.group(1) if m else ""
        if p == "notjson":
            return self.send(200, "oops, not json")
        if p == "noid":
            return self.send(200, "{}")
        if p == "list":
            return self.send(200, "[1,2]")
        if p == "submit500":
            return self.send(500, '{"error":"busy"}')
        self.send(200, json.dumps({"id": p, "status": "queued"}))
    def do_GET(self):
        path = urllib.parse.unquote(self.path)
        if path == "/files/v.mp4":
            return self.send(200, b"\1" * 777, "video/mp4")
        if not path.startswith("/v1/videos/"):
            return self.send(404, "{}")
        rest = path[len("/v1/videos/"):]
        if rest.endswith("/content"):
            if rest.startswith("dl404"):
                return self.send(404, '{"error":"gone"}')
            return self.send(200, b"\0" * 1000, "video/mp4")
        job = rest
        if job == "we ird/id?&x":
            return self.send(200, json.dumps({"id": job, "status": "completed", "inference_time_s": 1}))
        if job == "poll500":
            return self.send(500, '{"error":"poll broke"}')
        if job == "polllist":
            return self.send(200, "[1]")
        if job == "pollhuge":
            return self.send(200, json.dumps({"status": "in_progress", "pad": "x" * 200000}))
        if job == "failstr":
            return self.send(200, json.dumps({"status": "failed", "error": "plain string"}))
        if job == "failnone":
            return self.send(200, json.dumps({"status": "failed"}))
        if job == "never":
            return self.send(200, json.dumps({"status": 5, "progress": "x"}))
        if job == "withurl":
            u = "http://127.0.0.1:%d/files/v.mp4" % self.server.server_address[1]
            return self.send(200, json.dumps({"status": "completed", "url": u}))
        if job in ("badurl", "ftpurl"):
            u = "http://x y/v.mp4" if job == "badurl" else "ftp://127.0.0.1/v.mp4"
            return self.send(200, json.dumps({"status": "completed", "url": u}))
        if job.startswith("dl404"):
            return self.send(200, json.dumps({"status": "completed"}))
        self.send(404, '{"error":"unknown job"}')

s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY

/usr/bin/python3 srv.py >port &
SRV_PID=$!
i=0
while [ ! -s port ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
URL=http://127.0.0.1:$(cat port)

rec() {	# id prompt
	printf '{"id":"%s","endpoint_type":"video_generation","payload":{"prompt":"%s","model":"m"}}\n' "$1" "$2"
}

# run ID PROMPT [aiperf-send options]: the one record for it, in out.ID
run() {
	id=$1 p=$2
	shift 2
	rec "$id" "$p" | aiperf-send -u "$URL" --video-poll-interval 0.01 "$@" >"out.$id" &&
	test "$(wc -l <"out.$id")" -eq 1
}

test_expect_success 'submit answers: not JSON, no id, not an object, HTTP 500' '
	run a notjson && jq -e ".error == {code: 500, type: \"VideoGenerationError\",
		message: \"Invalid JSON in video submit response (status 200): oops, not json\"}" out.a &&
	run b noid && jq -e ".error.message == \"No job ID returned: {}\" and
		.error.type == \"VideoGenerationError\"" out.b &&
	run c list && jq -e ".error.message | startswith(\"Invalid JSON in video submit response\")" out.c &&
	run d submit500 && jq -e ".error == {code: 500, type: \"Internal Server Error\",
		message: \"{\\\"error\\\":\\\"busy\\\"}\"}" out.d
'

test_expect_success 'an id with blanks, slashes, ? and &: escaped in the poll URL, both engines' '
	for e in h1 curl; do
		run w$e "we ird/id?&x" --http-engine $e &&
		jq -e "(.error | not) and .aiperf.video.job_id == \"we ird/id?&x\" and .aiperf.video.polls == 1" \
			out.w$e || exit 1
	done
'

test_expect_success 'polls: HTTP 500, not an object, past --max-response-bytes' '
	run e poll500 && jq -e ".error.code == 500 and .error.message == \"{\\\"error\\\":\\\"poll broke\\\"}\"" out.e &&
	run f polllist && jq -e ".error.message == \"Invalid JSON in video poll response (status 200): [1]\"" out.f &&
	run g pollhuge --max-response-bytes 100000 &&
	jq -e ".error.type == \"ResponseTooLargeError\"" out.g
'

test_expect_success 'failed jobs without an error object: its text, or Unknown error' '
	run h failstr && jq -e ".error.message == \"Video generation failed: plain string\"" out.h &&
	run i failnone && jq -e ".error.message == \"Video generation failed: Unknown error\"" out.i
'

test_expect_success 'a status that never ends: the timeout, identical polls kept once' '
	run j never --request-timeout-seconds 1 &&
	jq -e ".error.type == \"TimeoutError\" and .error.code == 504 and
		.error.message == \"Video generation timed out after 1.0s\" and
		(.responses | length) == 2 and .aiperf.video.polls >= 2" out.j
'

test_expect_success 'a content download that fails: VideoDownloadError with the status' '
	run k dl404-1 --download-video-content &&
	jq -e ".error.type == \"VideoDownloadError\" and .error.code == 404 and
		(.error.message | startswith(\"Failed to download video dl404-1: HTTP 404\")) and
		(.responses[-1].text | fromjson | .status) == \"completed\"" out.k
'

test_expect_success 'the job'"'"'s url is followed for the content when it is an http URL' '
	for e in h1 curl; do
		run u$e withurl --download-video-content --http-engine $e &&
		jq -e "(.error | not) and .aiperf.video.content_bytes == 777" out.u$e || exit 1
	done &&
	run v badurl --download-video-content && jq -e ".aiperf.video.content_bytes == 1000" out.v &&
	run x ftpurl --download-video-content && jq -e ".aiperf.video.content_bytes == 1000" out.x
'

test_expect_success 'metrics read the hostile records: every one an error record, none dropped' '
	cat out.* >all &&
	aiperf-metrics --tokenizer builtin <all >m &&
	test "$(wc -l <m)" -eq "$(wc -l <all)" &&
	test "$(jq -s "map(select(.error)) | length" m)" -eq "$(jq -s "map(select(.error)) | length" all)"
'

kill "$SRV_PID"
test_done
