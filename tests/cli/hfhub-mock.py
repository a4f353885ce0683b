#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A loopback HuggingFace hub for download tests: serves the files under ROOT
# (ROOT/datasets/ORG/NAME/PATH for datasets, ROOT/ORG/NAME/PATH for models) at
# the URLs huggingface_hub asks for, answering as the hub does for a file
# stored in LFS:
#   GET|HEAD [/datasets]/ORG/NAME/resolve/REV/PATH  (REV: main or the commit)
#     302 Found, Location: <this server>/cdn/<sha256>?sig=..., with
#     X-Repo-Commit: <commit>, X-Linked-Etag: "<sha256>", X-Linked-Size,
#     and the hub's own ETag (the git blob id, not the file's hash);
#   GET|HEAD /cdn/<sha256>?...: 200 with the bytes, the CDN's ETag (neither
#     of the above) and Content-Length;
#   anything else: 404 with X-Error-Code RepositoryNotFound or EntryNotFound
#     (a wrong revision: RevisionNotFound).
# Usage: hfhub-mock.py ROOT [--slow MS] [--cut]; prints its URL first.
# --slow sends the CDN bytes in 64 KiB pieces MS milliseconds apart; --cut
# closes the connection after half of them. With HUB_LOG=FILE each request
# ("GET /path") is appended to FILE.
import hashlib
import http.server
import os
import sys
import time

ROOT = sys.argv[1]
SLOW = int(sys.argv[sys.argv.index("--slow") + 1]) if "--slow" in sys.argv else 0
CUT = "--cut" in sys.argv
COMMIT = hashlib.sha1(b"aiperf test hub").hexdigest()


def find(path):
    """(file path, is_dataset) for a resolve URL path, or an error code."""
    parts = path.split("/")
    dataset = parts[:1] == ["datasets"]
    if dataset:
        parts = parts[1:]
    if len(parts) < 5 or parts[2] != "resolve":
        return None, "RepositoryNotFound"
    org, name, rev, rest = parts[0], parts[1], parts[3], parts[4:]
    base = os.path.join(ROOT, "datasets" if dataset else "", org, name)
    if not os.path.isdir(base):
        return None, "RepositoryNotFound"
    if rev not in ("main", COMMIT):
        return None, "RevisionNotFound"
    f = os.path.join(base, *rest)
    if ".." in rest or not os.path.isfile(f):
        return None, "EntryNotFound"
    return f, None


class Hub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log(self):
        if os.environ.get("HUB_LOG"):
            with open(os.environ["HUB_LOG"], "a") as f:
                f.write("%s %s\n" % (self.command, self.path))

    def head_only(self, code, headers):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self.log()
        path = self.path.split("?")[0].lstrip("/")
        if path.startswith("cdn/"):
            return self.cdn(path[4:])
        f, why = find(path)
        if not f:
            return self.head_only(404, [("X-Error-Code", why)])
        data = open(f, "rb").read()
        sha = hashlib.sha256(data).hexdigest()
        blob = hashlib.sha1(b"blob %d\0" % len(data)).hexdigest()
        host = "http://%s:%d" % self.server.server_address[:2]
        self.head_only(302, [
            ("Location", "%s/cdn/%s?sig=abc&name=%s" % (host, sha, os.path.basename(f))),
            ("X-Repo-Commit", COMMIT),
            ("X-Linked-Etag", '"%s"' % sha),
            ("X-Linked-Size", str(len(data))),
            ("ETag", '"%s"' % blob),
        ])

    def cdn(self, sha):
        for top, _, names in os.walk(ROOT):
            for n in names:
                data = open(os.path.join(top, n), "rb").read()
                if hashlib.sha256(data).hexdigest() == sha:
                    return self.send_bytes(data)
        self.head_only(404, [])

    def send_bytes(self, data):
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", '"cdn-%s"' % hashlib.md5(data).hexdigest())
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        if self.command == "HEAD":
            return
        step = 65536 if SLOW else len(data) or 1
        end = len(data) // 2 if CUT else len(data)
        if CUT:
            self.close_connection = True
        for i in range(0, end, step):
            self.wfile.write(data[i:min(i + step, end)])
            self.wfile.flush()
            if SLOW:
                time.sleep(SLOW / 1000)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
print("http://127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
