#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A second implementation of the original's media loaders (python3 stdlib
# only), for the tests: base_hf_dataset.py (_extract_images,
# _extract_videos), hf_instruction_response.py (mmstar),
# hf_conversation.py (vision_arena, llava_onevision: single turn),
# mmvu.py and hf_asr.py, from fixture rows in HF's undecoded form.
#   ref-media.py --root ROOT --dataset NAME
#     one line per conversation: its one user message's content as the
#     chat endpoint sends it (a string, or a list of parts), an image as
#     "JPEG WxH" (PIL re-encodes it: the bytes are libjpeg's, not ours)
#   ref-media.py --digest < records (or a raw export)
#     each record's content with every base64 media string (an image URL,
#     a video data URL, audio data) as "sha256 HEX" of its bytes, as the
#     raw export elides them ("<elided: N base64 chars, sha256 HEX>")
#   ref-media.py --normalize < records
#     the records' messages[0].content the same way, each image data URL
#     checked to be a baseline JPEG with 4:4:4 sampling (quality 85,
#     subsampling 0: encode_image) and replaced by "JPEG WxH"
import argparse
import base64
import hashlib
import json
import os
import re
import struct
import sys

DATASETS = {
    "mmstar": ("ir", "Lin-Chen/MMStar", "default", "val"),
    "vision_arena": ("conv", "lmarena-ai/VisionArena-Chat", "default", "train"),
    "llava_onevision": ("conv", "lmms-lab/LLaVA-OneVision-Data", "sharegpt4o", "train"),
    "mmvu": ("mmvu", "yale-nlp/MMVU", "default", "validation"),
    "librispeech": ("asr", "openslr/librispeech_asr", "clean", "test"),
    "voxpopuli": ("asr", "facebook/voxpopuli", "en", "test"),
    "gigaspeech": ("asr", "speechcolab/gigaspeech", "xs", "test"),
    "ami": ("asr", "edinburghcstr/ami", "ihm", "test"),
    "spgispeech": ("asr", "kensho/spgispeech", "test", "test"),
}
COLUMNS = {"mmstar": ("question", "image"), "vision_arena": ("conversation", "content", "images"),
           "llava_onevision": ("conversations", "value", "image")}


def image_size(b):
    """(w, h) of an image PIL opens and loads, or None (bad, truncated)."""
    if b[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", b[16:24]) if b.endswith(b"IEND\xaeB`\x82") else None
    if b[:2] != b"\xff\xd8" or not b.endswith(b"\xff\xd9"):
        return None
    i = 2
    while i + 9 < len(b):
        marker, size = b[i + 1], struct.unpack(">H", b[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xC2:
            h, w = struct.unpack(">HH", b[i + 5:i + 9])
            return (w, h)
        i += 2 + size
    return None


def extract_images(row, col):
    v = row.get(col)
    for item in v if isinstance(v, list) else [v]:
        if isinstance(item, dict) and item.get("bytes"):
            size = image_size(base64.b64decode(item["bytes"]))
            if size:
                return ["JPEG %dx%d" % size]
    return []


def extract_videos(row, col):
    v = row.get(col)
    if isinstance(v, str) and v:
        return [v if "://" in v or v.startswith("data:") else "file://" + v]
    if isinstance(v, dict) and v.get("bytes"):
        ext = v.get("path", "").rsplit(".", 1)[-1].lower()
        mime = {"webm": "video/webm", "mov": "video/quicktime"}.get(ext, "video/mp4")
        return ["data:%s;base64,%s" % (mime, base64.b64encode(base64.b64decode(v["bytes"])).decode())]
    return []


def clip16(x):
    x = round(x * 32768.0)  # ties to even, as nearbyint
    return max(-32768, min(32767, x))


def wav_pcm16(b):
    """(rate, channels, samples) as libsndfile reads and writes PCM_16, or None."""
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE":
        return None
    off, fmt = 12, None
    while off + 8 <= len(b):
        cid, n = b[off:off + 4], struct.unpack("<I", b[off + 4:off + 8])[0]
        body = b[off + 8:off + 8 + n]
        if cid == b"fmt ":
            if len(body) < n:
                return None
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif cid == b"data" and fmt:
            tag, ch, rate, _, align, bits = fmt
            body = body[:len(body) // align * align]
            if tag == 1 and bits == 16:
                s = list(struct.unpack("<%dh" % (len(body) // 2), body))
            elif tag == 1 and bits == 8:
                s = [(x - 128) * 256 for x in body]
            elif tag == 1 and bits == 24:
                s = [clip16(struct.unpack("<i", b"\0" + body[i:i + 3])[0] / 2147483648.0)
                     for i in range(0, len(body), 3)]
            elif tag == 3 and bits == 32:
                s = [clip16(x) for x in struct.unpack("<%df" % (len(body) // 4), body)]
            else:
                return None
            return rate, ch, s
        off += 8 + n + (n & 1)
    return None


def wav_write(rate, ch, s):
    data = struct.pack("<%dh" % len(s), *s)
    fmt = struct.pack("<HHIIHH", 1, ch, rate, rate * ch * 2, ch * 2, 16)
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<I", 16) +
            fmt + b"data" + struct.pack("<I", len(data)) + data)


def content(text, images=(), audios=(), videos=()):
    if not images and not audios and not videos:
        return text
    parts = [{"type": "text", "text": text}]
    parts += [{"type": "image_url", "image_url": {"url": u}} for u in images]
    parts += [{"type": "input_audio", "input_audio": {"data": a, "format": "wav"}} for a in audios]
    parts += [{"type": "video_url", "video_url": {"url": u}} for u in videos]
    return parts


def text_of(msg, key):
    v = msg.get(key)
    if not isinstance(v, str):
        return None
    return v.replace("<image>", "").strip() or None


def first_message(messages, key):
    norm = []
    for item in messages if isinstance(messages, list) else []:
        m = item[0] if isinstance(item, list) and item else item
        if isinstance(m, dict) and m:
            norm.append(m)
    if not norm:
        return None
    for m in norm:
        role = m.get("role") or m.get("from") or ""
        if isinstance(role, str) and role.lower() in ("user", "human"):
            return text_of(m, key)
    return text_of(norm[0], key)


def mmvu_prompt(row):
    q = row.get("question") or ""
    q = q.strip() if isinstance(q, str) else ""
    ch = row.get("choices", {})
    if isinstance(ch, dict):
        cs = " ".join("%s.%s" % (k, v) for k, v in ch.items() if v)
        return "%s %s" % (q, cs) if q and cs else q or cs
    return q


def convert(kind, name, rows, root):
    for row in rows:
        if kind == "ir":
            pcol, icol = COLUMNS[name]
            p = row.get(pcol)
            if not p or not str(p).strip():
                continue
            yield content(str(p), extract_images(row, icol))
        elif kind == "conv":
            ccol, key, icol = COLUMNS[name]
            images = extract_images(row, icol)
            p = first_message(row.get(ccol) or [], key)
            if p:
                yield content(p, images)
        elif kind == "mmvu":
            p = mmvu_prompt(row)
            videos = extract_videos(row, "video") if p else []
            if p and videos:
                yield content(p, videos=videos)
        else:
            a = row.get("audio")
            if not isinstance(a, dict) or not a.get("bytes"):
                continue
            b = base64.b64decode(a["bytes"])
            if a.get("path", "").endswith(".flac"):  # the PCM it was made from
                b = open(os.path.join(root, "sources", a["path"][:-5] + ".wav"), "rb").read()
            pcm = wav_pcm16(b)
            if not pcm or len(pcm[2]) / pcm[1] / pcm[0] > 30:
                continue
            w = base64.b64encode(wav_write(*pcm)).decode()
            yield content("Transcribe this audio.", audios=[w])


def jpeg_checked(url):
    b = base64.b64decode(url[len("data:image/jpeg;base64,"):])
    assert b[:2] == b"\xff\xd8" and b.endswith(b"\xff\xd9"), "not a whole JPEG"
    i = 2
    while i + 4 < len(b):
        marker, size = b[i + 1], struct.unpack(">H", b[i + 2:i + 4])[0]
        if marker == 0xC0:
            h, w, n = struct.unpack(">HHB", b[i + 5:i + 10])
            sampling = [b[i + 11 + 3 * k] for k in range(n)]
            assert all(s == 0x11 for s in sampling), "chroma subsampled: %r" % sampling
            return "JPEG %dx%d" % (w, h)
        assert marker not in (0xC1, 0xC2), "not baseline"
        i += 2 + size
    raise AssertionError("no SOF0")


def normalize():
    for line in sys.stdin:
        c = json.loads(line)["payload"]["messages"][0]["content"]
        if isinstance(c, list):
            for p in c:
                if p.get("type") == "image_url":
                    p["image_url"]["url"] = jpeg_checked(p["image_url"]["url"])
        print(json.dumps(c, ensure_ascii=False, separators=(",", ":")))


def digest_of(s):
    m = re.search(r"<elided: \d+ base64 chars, sha256 ([0-9a-f]{64})>", s)
    if m:
        return "sha256 " + m.group(1)
    b64 = s.split(";base64,", 1)[1] if s.startswith("data:") else s
    return "sha256 " + hashlib.sha256(base64.b64decode(b64)).hexdigest()


def digest():
    for line in sys.stdin:
        c = json.loads(line)["payload"]["messages"][0]["content"]
        for p in c if isinstance(c, list) else []:
            if p.get("type") == "image_url":
                p["image_url"]["url"] = digest_of(p["image_url"]["url"])
            elif p.get("type") == "input_audio":
                p["input_audio"]["data"] = digest_of(p["input_audio"]["data"])
            elif p.get("type") == "video_url" and p["video_url"]["url"].startswith("data:"):
                p["video_url"]["url"] = digest_of(p["video_url"]["url"])
        print(json.dumps(c, ensure_ascii=False, separators=(",", ":")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root")
    ap.add_argument("--dataset")
    ap.add_argument("--normalize", action="store_true")
    ap.add_argument("--digest", action="store_true")
    a = ap.parse_args()
    if a.digest:
        return digest()
    if a.normalize:
        return normalize()
    kind, ds, config, split = DATASETS[a.dataset]
    with open(os.path.join(a.root, *ds.split("/"), config, split + ".jsonl")) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for c in convert(kind, a.dataset, rows, a.root):
        print(json.dumps(c, ensure_ascii=False, separators=(",", ":")))


main()
