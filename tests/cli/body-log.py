#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A loopback chat server for replay tests: appends each request body, the
# bytes as they came, to the file BODY_LOG names (one body a line, bodies
# hold no raw newline), and answers with a fixed reply (SSE when the body
# says "stream": true). Usage: body-log.py; prints its URL first.
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = os.environ["BODY_LOG"]
LOCK = threading.Lock()
REPLY = "Hello from the log server"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        with LOCK, open(LOG, "ab") as f:
            f.write(body + b"\n")
        try:
            stream = json.loads(body).get("stream") is True
        except (ValueError, AttributeError):
            stream = False
        if stream:
            chunk = {"id": "c", "object": "chat.completion.chunk",
                     "choices": [{"index": 0, "delta": {"content": REPLY}}]}
            out = ("data: %s\n\ndata: [DONE]\n\n" % json.dumps(chunk)).encode()
            ctype = "text/event-stream"
        else:
            msg = {"id": "c", "object": "chat.completion",
                   "choices": [{"index": 0, "finish_reason": "stop",
                                "message": {"role": "assistant", "content": REPLY}}],
                   "usage": {"prompt_tokens": 5, "completion_tokens": 5,
                             "total_tokens": 10}}
            out = json.dumps(msg).encode()
            ctype = "application/json"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("http://127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
