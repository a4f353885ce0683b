#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Clients that stall an HTTP server on 127.0.0.1, for the aiperf-plot
dashboard's limits (t0922).

Usage: plot-stall.py heads PORT N BOUND
       plot-stall.py noread PORT PATH BOUND N

"heads": N connections, each sending a request head cut short (a request
line and one field, no blank line) and then nothing; prints "held N" once
all are connected, then waits (BOUND seconds at most) for the server to
close them and prints "closed K of N".

"noread": N connections, each with a small receive buffer, send a whole
GET of PATH and read nothing; prints "asked N", then waits (BOUND seconds
at most) for the server to end them (a reset or an end of stream seen
without taking the data) and prints "ended K of N".

Every wait is bounded; the verdict is the caller's.
"""
import select
import socket
import sys
import time

PARTIAL = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def ended(s):
    """Whether the server closed or reset s (without taking its data:
    POLLHUP/POLLERR, or an end of stream when nothing was sent to it)."""
    try:
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def heads(port, n, bound):
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(PARTIAL)
        socks.append(s)
    print("held", n, flush=True)
    end = time.monotonic() + bound
    open_ = list(socks)
    while open_ and time.monotonic() < end:
        select.select(open_, [], [], 0.5)
        open_ = [s for s in open_ if not ended(s)]
    print("closed", n - len(open_), "of", n, flush=True)


def noread(port, path, bound, n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /" + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        socks.append(s)
    print("asked", n, flush=True)
    p = select.poll()
    for s in socks:
        p.register(s, 0)  # POLLHUP and POLLERR only: the data is not taken
    end = time.monotonic() + bound
    left = n
    while left and time.monotonic() < end:
        for fd, _ in p.poll(500):
            p.unregister(fd)
            left -= 1
    print("ended", n - left, "of", n, flush=True)


def main():
    what, port = sys.argv[1], int(sys.argv[2])
    if what == "heads":
        heads(port, int(sys.argv[3]), float(sys.argv[4]))
    else:
        noread(port, sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))


main()
