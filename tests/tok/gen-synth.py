#!/usr/bin/env python3
"""Writes small synthetic tokenizer.json files into tests/tok/synth/ that
exercise what the shipped tokenizers do not: added-token lstrip/rstrip/
single_word/normalized, Split behaviors and invert, Digits, ByteLevel with
use_regex and add_prefix_space, Metaspace, NFKC/Strip/Replace normalizers,
unk with fuse_unk next to byte_fallback, and the Metaspace/Strip decoders.
Vocabularies are cut from ../shared/tokenizers (qwen3's first merges,
llama2's frequent characters, first merges and byte tokens).
Usage: gen-synth.py SHARED_TOKENIZERS_DIR OUT_DIR
"""
import json
import os
import subprocess
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def load(name):
    d = os.path.join(src, name)
    p = os.path.join(d, "tokenizer.json")
    if os.path.exists(p):
        return json.load(open(p, encoding="utf-8"))
    return json.loads(subprocess.run(["zstd", "-dc", p + ".zst"], check=True,
                                     capture_output=True).stdout)


def byte_chars():
    bs = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [chr(c) for c in cs]


def bytelevel_model(nmerges):
    q = load("qwen3")["model"]
    vocab = {c: i for i, c in enumerate(byte_chars())}
    merges = []
    for m in q["merges"]:
        a, b = m if isinstance(m, list) else m.split(" ")
        if a in vocab and b in vocab:
            merges.append([a, b])
            if a + b not in vocab:
                vocab[a + b] = len(vocab)
        if len(merges) == nmerges:
            break
    return {"type": "BPE", "dropout": None, "unk_token": None,
            "continuing_subword_prefix": None, "end_of_word_suffix": None,
            "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": vocab, "merges": merges}


def added(id, content, special=False, lstrip=False, rstrip=False,
          single_word=False, normalized=False):
    return {"id": id, "content": content, "single_word": single_word,
            "lstrip": lstrip, "rstrip": rstrip, "normalized": normalized,
            "special": special}


def write(name, tok):
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)


def flags():
    m = bytelevel_model(3000)
    n = len(m["vocab"])
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [
            added(n, "<sp>", special=True, lstrip=True),
            added(n + 1, "[R]", special=True, rstrip=True),
            added(n + 2, "word", single_word=True, normalized=True),
            added(n + 3, "<n>", special=True, normalized=True),
            added(n + 4, "<both>", special=True, lstrip=True, rstrip=True),
            added(n + 5, "<s>", special=True),
            added(n + 6, "<s>x", special=False),
        ],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFKC"},
            {"type": "Replace", "pattern": {"Regex": "\\t+"}, "content": "\t"},
            {"type": "Strip", "strip_left": False, "strip_right": True}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Digits", "individual_digits": True},
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
             "use_regex": True}]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True,
                    "trim_offsets": True, "use_regex": True},
        "model": m,
    }


def behaviors():
    m = bytelevel_model(2000)
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [],
        "normalizer": {"type": "NFD"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"String": "-"},
             "behavior": "MergedWithPrevious", "invert": False},
            {"type": "Split", "pattern": {"Regex": "\\d"},
             "behavior": "MergedWithNext", "invert": False},
            {"type": "Split", "pattern": {"Regex": "[aeiou]"},
             "behavior": "Removed", "invert": False},
            {"type": "Split", "pattern": {"Regex": "\\s+"},
             "behavior": "Contiguous", "invert": True},
            {"type": "Digits", "individual_digits": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
             "use_regex": False}]},
        "post_processor": None,
        "decoder": None,
        "model": m,
    }


def metaspace():
    """llama2 cut down: its 400 most frequent characters, the first 5000
    merges whose parts are kept (each merge's parts and result are in the
    vocabulary) and the byte tokens but <0xE3>-<0xFF>. Other characters up
    to U+2FFF fall back to bytes; the rest (CJK, emoji) are unk, fused,
    which HF emits after the byte tokens of the characters that follow."""
    l2 = load("llama2")["model"]
    v = l2["vocab"]
    chars = sorted((t for t in v if len(t) == 1), key=v.get)[:400]
    keep = set(chars) | {t for t in v if v[t] < 3}
    keep |= {"<0x%02X>" % c for c in range(0xE3)}
    merges = []
    for m in l2["merges"]:
        a, b = m if isinstance(m, list) else m.split(" ")
        if a in keep and b in keep:
            merges.append(a + " " + b)
            keep.add(a + b)
        if len(merges) == 5000:
            break
    ids = {t: k for k, t in enumerate(sorted(keep, key=v.get))}
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added(0, "<unk>", special=True), added(1, "<s>", special=True),
                         added(2, "</s>", special=True)],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                          "prepend_scheme": "first", "split": True},
        "post_processor": None,
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "ByteFallback"},
            {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first",
             "split": True},
            {"type": "Strip", "content": "!", "start": 2, "stop": 0}]},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>",
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": True, "byte_fallback": True, "vocab": ids,
                  "merges": merges},
    }


write("flags", flags())
write("behaviors", behaviors())
write("metaspace", metaspace())
