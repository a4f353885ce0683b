#!/usr/bin/python3
"""Decode every image of the request records (or inputs.json) on stdin
with PIL and print one line per image: "<mime> <PIL format> <w>x<h>".
--resample DIR: also check each image is a real (not nearest-neighbour)
resampling of one of DIR/source-*.png: PIL's bicubic resize of the closest
source (through JPEG at quality 85, 4:4:4, for a JPEG) is within half a level (two
for JPEG) on average, where nearest-neighbour is several levels off."""
import base64
import glob
import io
import json
import sys

from PIL import Image


def urls(v):
    if isinstance(v, dict):
        if v.get("type") == "image_url":
            yield v["image_url"]["url"]
        for x in v.values():
            yield from urls(x)
    elif isinstance(v, list):
        for x in v:
            yield from urls(x)


def like(im, fmt):
    """im through the encoder of fmt (JPEG: the original's quality 85, 4:4:4), decoded."""
    if fmt == "PNG":
        return im
    b = io.BytesIO()
    im.save(b, "JPEG", quality=85, subsampling=0)
    return Image.open(io.BytesIO(b.getvalue())).convert("RGB")


def diff(a, b):
    """Mean absolute difference per channel, in levels."""
    return sum(abs(x - y) for p, q in zip(a.getdata(), b.getdata())
               for x, y in zip(p, q)) / (3 * a.size[0] * a.size[1])


def main():
    src = None
    if len(sys.argv) > 2 and sys.argv[1] == "--resample":
        src = [Image.open(p).convert("RGB") for p in sorted(glob.glob(sys.argv[2] + "/source-*.png"))]
    text = sys.stdin.read()
    docs = [json.loads(text)] if text.lstrip().startswith("{\n") else \
        [json.loads(l) for l in text.splitlines() if l.strip()]
    for d in docs:
        for u in urls(d):
            head, b64 = u.split(",", 1)
            im = Image.open(io.BytesIO(base64.b64decode(b64, validate=True)))
            im.load()
            print(head[5:].split(";")[0], im.format, "%dx%d" % im.size)
            if src:
                got = im.convert("RGB")
                best = min(diff(got, like(s.resize(got.size, Image.BICUBIC), im.format)) for s in src)
                if best > (0.5 if im.format == "PNG" else 2.0):
                    sys.exit("image %dx%d differs from every bicubic source by %.2f levels" % (*got.size, best))


main()
