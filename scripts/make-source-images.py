#!/usr/bin/python3
# Writes the synthetic-image source pictures data/images/source-*.png.
# Self-made, deterministic (no randomness): gradients, rings and a checker
# pattern drawn from formulas. Dedicated to the public domain (see
# data/images/LICENSE). Run: /usr/bin/python3 scripts/make-source-images.py
import math
import os
import sys

from PIL import Image

W = H = 256
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "images")


def draw(name, f):
    img = Image.new("RGB", (W, H))
    img.putdata([f(x, y) for y in range(H) for x in range(W)])
    img.save(os.path.join(OUT, name), optimize=True)


def clamp(v):
    return max(0, min(255, int(v)))


def gradient(x, y):
    return (x, y, 255 - (x + y) // 2)


def rings(x, y):
    r = math.hypot(x - W / 2, y - H / 2)
    return (clamp(128 + 127 * math.sin(r / 6)), clamp(128 + 127 * math.cos(r / 9)),
            clamp(255 - r))


def checker(x, y):
    c = ((x // 32) + (y // 32)) % 2
    return (clamp(200 * c + x // 8), clamp(60 + y // 2), clamp(220 - 180 * c))


def waves(x, y):
    return (clamp(128 + 127 * math.sin(x / 11 + y / 23)),
            clamp(128 + 127 * math.sin(y / 7)),
            clamp(128 + 127 * math.cos((x - y) / 17)))


os.makedirs(OUT, exist_ok=True)
for n, f in (("gradient", gradient), ("rings", rings), ("checker", checker), ("waves", waves)):
    draw("source-%s.png" % n, f)
sys.exit(0)
