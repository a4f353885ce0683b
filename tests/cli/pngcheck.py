#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Facts about a screenshot PNG, decoded here with zlib and numpy (no PIL).

Usage: pngcheck.py plots FILE N WIDTH HEIGHT GAP   N plots one under the
           other from the top left, each WIDTH x HEIGHT, GAP pixels apart:
           each is not one flat color (8 colors or more) and has ink
           (pixels far from its background) on 1%..60% of it, and the
           gaps between them are blank
       pngcheck.py bg FILE light|dark        the page background is white
           or near-black (the top-left pixel), the page not blank
Prints what it measured; exits 1 when the check fails.
"""
import struct
import sys
import zlib

import numpy as np


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("pngcheck: %s: not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit("pngcheck: %s: unsupported PNG (depth %d, type %d)" % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    img = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        cur = bytearray(line)
        if f == 1:
            for x in range(bpp, stride):
                cur[x] = (cur[x] + cur[x - bpp]) & 255
        elif f == 2:
            cur = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for x in range(stride):
                a = cur[x - bpp] if x >= bpp else 0
                cur[x] = (cur[x] + ((a + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                if x >= bpp:
                    a, c = cur[x - bpp], prev[x - bpp]
                else:
                    a = c = 0
                b = prev[x]
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                cur[x] = (cur[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        img[y * stride:(y + 1) * stride] = cur
        prev = cur
    img = np.frombuffer(bytes(img), dtype=np.uint8).reshape(h, stride)
    return img.reshape(h, w, bpp)[:, :, :3]


def main():
    what, path = sys.argv[1], sys.argv[2]
    img = decode(path)
    bg = img[2, 2].astype(int)
    if what == "plots":
        n, w, h, gap = (int(a) for a in sys.argv[3:7])
        ok = img.shape[0] >= n * (h + gap) - gap and img.shape[1] >= w
        for i in range(n if ok else 0):
            region = img[i * (h + gap):i * (h + gap) + h, :w].astype(int)
            rbg = region[2, 2]
            colors = len(np.unique(region.reshape(-1, 3), axis=0))
            ink = (np.abs(region - rbg).sum(axis=2) > 60).mean()
            blank = i == n - 1 or bool((img[i * (h + gap) + h:(i + 1) * (h + gap), :w] ==
                                        img[i * (h + gap) + h, 0]).all())
            print("plot %d: background %s, %d colors, ink %.3f%s" %
                  (i + 1, rbg.tolist(), colors, ink, "" if blank else ", gap not blank"))
            ok = ok and colors >= 8 and 0.01 <= ink <= 0.6 and blank
        if not ok and img.shape[0] < n * (h + gap) - gap:
            print("%s: %d pixels high, want %d plots" % (path, img.shape[0], n))
    else:
        want = sys.argv[3]
        lum = bg.mean()
        colors = len(np.unique(img.reshape(-1, 3), axis=0))
        print("%s: background %s, %d colors" % (path, bg.tolist(), colors))
        ok = (lum > 240 if want == "light" else lum < 40) and colors >= 8
    sys.exit(0 if ok else 1)


main()
