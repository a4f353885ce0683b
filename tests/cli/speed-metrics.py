#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A loopback Prometheus endpoint with speculative-decoding metrics, for
tests/cli/t1211: GET /coding (vLLM's counters), /math (SGLang's gauges) and
/writing (TensorRT-LLM's gauges). Every fetch moves the counters by the same
steps, so that each scrape is an update and the ratios over any window are
exact. Prints "port N" once listening.

usage: speed-metrics.py
"""

import http.server
import sys

FETCHES = {"n": 0}


def body(path, n):
    if path == "/coding":
        return ("# TYPE vllm:spec_decode_num_accepted_tokens counter\n"
                "vllm:spec_decode_num_accepted_tokens_total{model_name=\"m\"} %d\n"
                "# TYPE vllm:spec_decode_num_drafts counter\n"
                "vllm:spec_decode_num_drafts_total{model_name=\"m\"} %d\n"
                "# TYPE vllm:spec_decode_num_draft_tokens counter\n"
                "vllm:spec_decode_num_draft_tokens_total{model_name=\"m\"} %d\n"
                % (6 * n, 4 * n, 20 * n))
    gauges = {"/math": ("sglang:spec_accept_length", 2.75,
                        "sglang:spec_accept_rate", 0.35),
              "/writing": ("trtllm:spec_accept_length", 1.9,
                           "trtllm:spec_accept_rate", 0.18)}.get(path)
    if not gauges:
        return None
    return ("# TYPE %s gauge\n%s{model_name=\"m\"} %s\n"
            "# TYPE %s gauge\n%s{model_name=\"m\"} %s\n"
            "# TYPE fetches counter\nfetches_total %d\n"
            % (gauges[0], gauges[0], gauges[1], gauges[2], gauges[2],
               gauges[3], n))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        FETCHES["n"] += 1
        text = body(self.path, FETCHES["n"])
        if text is None:
            self.send_error(404)
            return
        data = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def main():
    srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    print("port %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
