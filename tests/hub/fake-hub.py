#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A loopback Hugging Face hub for the rows tests (python3 stdlib only):
#   GET /rows?dataset=ID&config=C&split=S&offset=O&length=L
#     the dataset viewer's page of ROOT/ID/C/S.jsonl (L at most 100):
#     {"features":[...],"rows":[{"row_idx":..,"row":{..},
#      "truncated_cells":[]}],"num_rows_total":N,"partial":false};
#     404 {"error": ...} when there is no such file;
#   GET|HEAD /datasets/ID/resolve/REV/FILE
#     REPO/ID/FILE with X-Repo-Commit and an ETag (the file's sha256), as
#     hfhub.c reads them; 404 with X-Error-Code EntryNotFound otherwise.
#   GET /assets/ID/--/C/S/ROW/COL/I/NAME?Expires=..&Signature=..
#     (--media) the bytes of a media cell, as the viewer's cached assets
# Usage: fake-hub.py --root ROOT --port-file F [--log F] [--repo REPO]
#   [--token T] [--429-once] [--retry-after S] [--truncate COLUMN]
#   [--media] [--idle S] [--max S]
# --port-file gets the port (written whole, then renamed); --log gets each
# request line; --token answers 401 without "Authorization: Bearer T";
# --429-once answers the first /rows request 429 (Retry-After: S, default
# 0); --truncate cuts that column's cells (truncated_cells names it). It
# exits by itself after --idle seconds without a request (default 30) or
# --max seconds in all (default 300). --media serves each cell in HF's
# undecoded form {"bytes": B64, "path": NAME} (or a list of them) the way
# the viewer does, with signed asset URLs: an audio file (.wav .flac .mp3
# .ogg) as [{"src": URL, "type": "audio/..."}], anything else (an image)
# as {"src": URL, "height": 0, "width": 0}; an asset whose NAME starts
# with "gone" answers 404, with "huge" 65 MiB of zeros.
import argparse
import base64
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument("--root", required=True)
ap.add_argument("--port-file", required=True)
ap.add_argument("--log")
ap.add_argument("--repo")
ap.add_argument("--token")
ap.add_argument("--429-once", dest="once429", action="store_true")
ap.add_argument("--retry-after", default="0")
ap.add_argument("--truncate")
ap.add_argument("--media", action="store_true")
ap.add_argument("--idle", type=float, default=30)
ap.add_argument("--max", type=float, default=300)
A = ap.parse_args()
COMMIT = hashlib.sha1(b"aiperf fake hub").hexdigest()
state = {"last": time.time(), "429": A.once429}
lock = threading.Lock()
LOADED = {}  # (path, mtime): its rows, parsed once


def safe(parts):
    return all(p and not p.startswith(".") and "/" not in p for p in parts)


def load(ds, config, split):
    parts = ds.split("/") + [config, split]
    if not safe(parts) or len(parts) > 4:
        return None
    f = os.path.join(A.root, *parts[:-1], parts[-1] + ".jsonl")
    if not os.path.isfile(f):
        return None
    key = (f, os.stat(f).st_mtime_ns)
    if key not in LOADED:
        with open(f, encoding="utf-8") as fh:
            LOADED[key] = [json.loads(line, object_pairs_hook=dict) for line in fh if line.strip()]
    return LOADED[key]


def features(rows):
    names = list(rows[0]) if rows else []
    return [{"feature_idx": i, "name": n, "type": {"dtype": "string", "_type": "Value"}}
            for i, n in enumerate(names)]


class Hub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes

    def log_message(self, *args):
        pass

    def send(self, code, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(
            body, ensure_ascii=False, separators=(",", ":")).encode()
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        with lock:
            state["last"] = time.time()
            if A.log:
                with open(A.log, "a") as f:
                    f.write("%s %s\n" % (self.command, self.path))
        url = urllib.parse.urlsplit(self.path)
        if A.token and self.headers.get("Authorization") != "Bearer " + A.token:
            return self.send(401, {"error": "The dataset does not exist, or is not "
                                   "accessible without authentication (private or gated)."},
                             [("X-Error-Code", "ExternalUnauthenticatedError")])
        if url.path == "/rows":
            return self.rows(urllib.parse.parse_qs(url.query))
        if A.media and url.path.startswith("/assets/"):
            return self.asset(url.path[len("/assets/"):])
        if url.path.startswith("/datasets/"):
            return self.resolve(url.path[len("/datasets/"):])
        self.send(404, {"error": "Not found."})

    def rows(self, q):
        if state["429"]:
            state["429"] = False
            return self.send(429, {"error": "Too many requests."},
                             [("Retry-After", A.retry_after)])
        get = lambda k: q.get(k, [""])[0]
        rows = load(get("dataset"), get("config"), get("split"))
        if rows is None:
            return self.send(404, {"error": "The config or the split does not exist in the dataset"})
        off, length = int(get("offset") or 0), min(int(get("length") or 100), 100)
        page = []
        for i, r in enumerate(rows[off:off + length]):
            cut = []
            if A.truncate and A.truncate in r:
                r = dict(r)
                r[A.truncate] = str(r[A.truncate])[:2]
                cut = [A.truncate]
            if A.media:
                r = self.media_row(get("dataset"), get("config"), get("split"), off + i, r)
            page.append({"row_idx": off + i, "row": r, "truncated_cells": cut})
        self.send(200, {"features": features(rows), "rows": page,
                        "num_rows_total": len(rows), "num_rows_per_page": 100,
                        "partial": False})

    def media_cell(self, base, v, i):
        if isinstance(v, list):
            return [self.media_cell(base, e, "%s.%d" % (i, k)) for k, e in enumerate(v)]
        if not (isinstance(v, dict) and isinstance(v.get("bytes"), str) and v.get("path")):
            return v
        name = v["path"].rsplit("/", 1)[-1]
        src = "%s/%s/%s?Expires=1700000000&Signature=secret%%2Fkey" % (base, i, name)
        ext = name.rsplit(".", 1)[-1].lower()
        types = {"wav": "audio/wav", "flac": "audio/flac", "mp3": "audio/mpeg", "ogg": "audio/ogg"}
        if ext in types:
            return [{"src": src, "type": types[ext]}]
        return {"src": src, "height": 0, "width": 0}

    def media_row(self, ds, config, split, idx, r):
        host = "http://" + self.headers.get("Host", "127.0.0.1")
        out = {}
        for k, v in r.items():
            base = "%s/assets/%s/--/%s/%s/%d/%s" % (host, ds, config, split, idx,
                                                     urllib.parse.quote(k, safe=""))
            out[k] = self.media_cell(base, v, "0")
        return out

    def asset(self, path):
        parts = [urllib.parse.unquote(p) for p in path.split("/")]
        try:
            k = parts.index("--")
            ds, (config, split, idx, col, i, name) = "/".join(parts[:k]), parts[k + 1:]
            v = load(ds, config, split)[int(idx)][col]
            for j in i.split(".")[1:]:
                v = v[int(j)]
        except (ValueError, TypeError, IndexError, KeyError):
            return self.send(404, {"error": "no such asset"})
        if name.startswith("gone"):
            return self.send(404, {"error": "expired"})
        if name.startswith("huge"):
            self.send_response(200)
            self.send_header("Content-Length", str(65 << 20))
            self.end_headers()
            try:
                for _ in range(65):
                    self.wfile.write(bytes(1 << 20))
            except OSError:
                pass
            return
        self.send(200, base64.b64decode(v["bytes"]))

    def resolve(self, path):
        parts = path.split("/")
        if len(parts) < 5 or "resolve" not in parts or not A.repo:
            return self.send(404, b"", [("X-Error-Code", "RepositoryNotFound")])
        k = parts.index("resolve")
        ds, rest = parts[:k], parts[k + 2:]
        f = os.path.join(A.repo, *ds, *rest)
        if not safe(ds + rest) or not os.path.isfile(f):
            return self.send(404, b"", [("X-Error-Code", "EntryNotFound")])
        data = open(f, "rb").read()
        self.send(200, data, [("X-Repo-Commit", COMMIT),
                              ("ETag", '"%s"' % hashlib.sha256(data).hexdigest())])


def watchdog(srv, t0):
    while True:
        time.sleep(0.2)
        now = time.time()
        if now - state["last"] > A.idle or now - t0 > A.max:
            os._exit(0)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
srv.daemon_threads = True
tmp = A.port_file + ".tmp"
with open(tmp, "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(tmp, A.port_file)
threading.Thread(target=watchdog, args=(srv, time.time()), daemon=True).start()
try:
    srv.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
