#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A loopback HTTP server for aiperf-send tests: answers every request with the
# bytes of a canned response file, written in small pieces, then closes.
# Usage: send-canned.py RESPONSE-FILE [PIECE-BYTES]; prints its URL first.
# With CANNED_LOG=FILE in the environment each request's head is appended
# to FILE (what was on the wire, for header tests).
import os
import socket
import sys
import time

resp = open(sys.argv[1], "rb").read()
piece = int(sys.argv[2]) if len(sys.argv) > 2 else 7
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(64)
print("http://127.0.0.1:%d" % srv.getsockname()[1], flush=True)
for _ in range(1000):
    c, _ = srv.accept()
    data = b""
    while b"\r\n\r\n" not in data:
        more = c.recv(65536)
        if not more:
            break
        data += more
    head, _, body = data.partition(b"\r\n\r\n")
    if os.environ.get("CANNED_LOG"):
        with open(os.environ["CANNED_LOG"], "ab") as log:
            log.write(head + b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        more = c.recv(65536)
        if not more:
            break
        body += more
    try:
        for i in range(0, len(resp), piece):
            c.sendall(resp[i:i + piece])
            time.sleep(0.001)
    except OSError:
        pass  # the client hung up first, as it may
    c.close()
