#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes tests/data/public/media: a few rows of each media dataset in HF's
# undecoded form ({"bytes": <base64>, "path": NAME}), shaped after each
# dataset card, with small real PNG, JPEG (ffmpeg), WAV and FLAC (ffmpeg)
# files made here, and sources/NAME.wav: the PCM each FLAC was made from.
# Usage: make-media-fixtures.py OUTDIR   (needs ffmpeg; python3 stdlib)
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

OUT = sys.argv[1]


def png(w, h, color_type, pixel, depth=8, palette=None, trns=None):
    """A PNG of w x h, pixel(x, y) giving the channel bytes."""
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 0))
    if palette:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns:
        out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ffmpeg(args, data):
    return subprocess.run(["ffmpeg", "-v", "error", "-y"] + args, input=data,
                          stdout=subprocess.PIPE, check=True).stdout


def jpeg(w, h, pixel, pix_fmt="yuvj444p"):
    raw = b"".join(bytes(pixel(x, y)) for y in range(h) for x in range(w))
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "o.jpg")
        ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "%dx%d" % (w, h), "-i", "-",
                "-frames:v", "1", "-pix_fmt", pix_fmt, "-q:v", "4", f], raw)
        return open(f, "rb").read()


def wav(rate, channels, bits, samples, tag=1):
    """samples: a list of frames, each a list of ints (or floats, tag 3)."""
    if tag == 3:
        data = b"".join(struct.pack("<f", s) for fr in samples for s in fr)
    elif bits == 8:
        data = bytes(s + 128 for fr in samples for s in fr)
    elif bits == 24:
        data = b"".join(struct.pack("<i", s)[:3] for fr in samples for s in fr)
    else:
        data = b"".join(struct.pack("<h", s) for fr in samples for s in fr)
    align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"LIST" + struct.pack("<I", 4) + b"INFO"  # a chunk to skip
    body += b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def tone(n, channels, amp, period=37):
    return [[int(amp * (((i * (c + 1)) % period) / period * 2 - 1)) for c in range(channels)]
            for i in range(n)]


def flac(w):
    return ffmpeg(["-f", "wav", "-i", "-", "-c:a", "flac", "-f", "flac", "-"], w)


def cell(data, name):
    return {"bytes": base64.b64encode(data).decode(), "path": name}


def write(ds, config, split, rows):
    d = os.path.join(OUT, *ds.split("/"), config)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, split + ".jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")


rgb = png(16, 12, 2, lambda x, y: (x * 16, y * 20, 128))
rgba = png(8, 8, 6, lambda x, y: (200, x * 30, y * 30, x * 32))
pal = png(10, 6, 3, lambda x, y: ((x + y) % 4,), palette=[(255, 0, 0), (0, 255, 0),
                                                          (0, 0, 255), (250, 250, 0)],
          trns=b"\x80")
gray = png(5, 7, 0, lambda x, y: (x * 50,))
jpg = jpeg(24, 16, lambda x, y: (x * 10, 255 - y * 15, 60))
jgray = jpeg(9, 9, lambda x, y: (x * 25, x * 25, x * 25), "gray")
write("Lin-Chen/MMStar", "default", "val", [
    {"index": 0, "question": "Which color dominates the picture?\nOptions: A: red, B: blue",
     "image": cell(jpg, "0.jpg"), "answer": "A", "category": "coarse perception",
     "l2_category": "image scene and topic", "meta_info": {"source": "MMBench"}},
    {"index": 1, "question": "How many shapes are there?", "image": cell(rgb, "1.png"),
     "answer": "B", "category": "instance reasoning", "l2_category": "single-instance reasoning",
     "meta_info": {"source": "SEEDBench"}},
    {"index": 2, "question": "   ", "image": cell(rgba, "2.png"), "answer": "C",
     "category": "math", "l2_category": "numeric commonsense", "meta_info": {}},
    {"index": 3, "question": "Is the image transparent?", "image": cell(rgba, "3.png"),
     "answer": "D", "category": "science & technology", "l2_category": "physics",
     "meta_info": {}},
    {"index": 4, "question": "What does the palette hold?", "image": cell(pal, "4.png"),
     "answer": "A", "category": "logical reasoning", "l2_category": "code", "meta_info": {}},
    {"index": 5, "question": "Gray?", "image": cell(jgray, "5.jpg"), "answer": "B",
     "category": "fine-grained perception", "l2_category": "recognition", "meta_info": {}},
])
bad_jpeg = jpg[:len(jpg) // 2]
write("lmarena-ai/VisionArena-Chat", "default", "train", [
    {"conversation_id": "c0", "model": "gpt-4o",
     "conversation": [[{"role": "user", "content": "What is in this image?"}],
                      [{"role": "assistant", "content": "A gradient."}]],
     "images": [cell(rgb, "c0.png")], "num_turns": 1, "language": "English"},
    {"conversation_id": "c1", "model": "claude",
     "conversation": [[{"role": "system", "content": "Be brief."}],
                      [{"role": "user", "content": "  Describe both <image> pictures.  "}],
                      [{"role": "assistant", "content": "Two pictures."}]],
     "images": [cell(bad_jpeg, "c1a.jpg"), cell(gray, "c1b.png")], "num_turns": 1,
     "language": "English"},
    {"conversation_id": "c2", "model": "gemini",
     "conversation": [[{"role": "assistant", "content": "Hi"}], []],
     "images": [], "num_turns": 1, "language": "English"},
    {"conversation_id": "c3", "model": "llava",
     "conversation": [[{"role": "user", "content": 42}]],
     "images": [cell(rgb, "c3.png")], "num_turns": 1, "language": "English"},
    {"conversation_id": "c4", "model": "gpt-4o",
     "conversation": [[{"role": "USER", "content": "Read the text in the image."}]],
     "images": [{"bytes": None, "path": "missing.png"}, cell(jpg, "c4.jpg")],
     "num_turns": 1, "language": "English"},
])
write("lmms-lab/LLaVA-OneVision-Data", "sharegpt4o", "train", [
    {"id": "s0", "image": cell(pal, "s0.png"),
     "conversations": [{"from": "human", "value": "<image>\nWhat is shown here?"},
                       {"from": "gpt", "value": "Stripes."}], "data_source": "sharegpt4o"},
    {"id": "s1", "image": cell(b"this is not an image at all", "s1.png"),
     "conversations": [{"from": "human", "value": "<image>Describe the scene."},
                       {"from": "gpt", "value": "A scene."}], "data_source": "sharegpt4o"},
    {"id": "s2", "image": None,
     "conversations": [{"from": "gpt", "value": "<image>"}], "data_source": "sharegpt4o"},
    {"id": "s3", "image": cell(jgray, "s3.jpg"),
     "conversations": [{"from": "gpt", "value": "First, the answer."},
                       {"from": "human", "value": "Then <image> the question?"}],
     "data_source": "sharegpt4o"},
])
webm = b"\x1aE\xdf\xa3" + bytes(range(64))
write("yale-nlp/MMVU", "default", "validation", [
    {"id": "v0", "question": "  What instrument is played in the video?  ",
     "choices": {"A": "Piano", "B": "Violin", "C": "Drums", "D": "Flute", "E": ""},
     "video": "https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos/Art/0.mp4",
     "question_type": "multiple-choice", "answer": "B", "field": "Art"},
    {"id": "v1", "question": "Describe the reaction.", "choices": {},
     "video": "videos/Chemistry/1.mp4", "question_type": "open-ended",
     "answer": "It bubbles.", "field": "Chemistry"},
    {"id": "v2", "question": "Which law applies?", "choices": {"A": "Ohm", "B": "Hooke"},
     "video": "", "question_type": "multiple-choice", "answer": "A", "field": "Physics"},
    {"id": "v3", "question": "", "choices": {"A": "", "B": None},
     "video": "https://example.invalid/3.mp4", "question_type": "multiple-choice",
     "answer": "A", "field": "Art"},
    {"id": "v4", "question": None, "choices": {"A": "Yes", "B": 2},
     "video": cell(webm, "clips/4.webm"), "question_type": "multiple-choice",
     "answer": "A", "field": "Biology"},
])
src = os.path.join(OUT, "sources")
os.makedirs(src, exist_ok=True)
asr = {
    "openslr/librispeech_asr/clean": [
        {"file": "1089-0000.flac", "audio": ("1089-0000.wav", wav(16000, 1, 16, tone(4000, 1, 9000))),
         "text": "HE HOPED THERE WOULD BE STEW FOR DINNER", "speaker_id": 1089,
         "chapter_id": 134686, "id": "1089-134686-0000"},
        {"file": "1089-0001.flac", "audio": ("1089-0001.flac", wav(16000, 1, 16, tone(3000, 1, 20000, 29))),
         "text": "STUFF IT INTO YOU", "speaker_id": 1089, "chapter_id": 134686,
         "id": "1089-134686-0001"},
    ],
    "facebook/voxpopuli/en": [
        {"audio_id": "v0", "language": 0, "audio": ("v0.wav", wav(8000, 2, 24, tone(800, 2, 3000000))),
         "raw_text": "Thank you.", "normalized_text": "thank you", "gender": "female",
         "speaker_id": "1", "is_gold_transcript": True, "accent": "None"},
        {"audio_id": "v1", "language": 0, "audio": ("v1.wav", wav(1000, 1, 8, tone(31000, 1, 100))),
         "raw_text": "A long speech.", "normalized_text": "a long speech", "gender": "male",
         "speaker_id": "2", "is_gold_transcript": True, "accent": "None"},
    ],
    "speechcolab/gigaspeech/xs": [
        {"segment_id": "g0", "speaker": "N/A", "text": "AS THEY SAY <COMMA>",
         "audio": ("g0.wav", wav(16000, 1, 32, [[0.5], [-0.25], [1.5], [-2.0], [0.0]] * 200, tag=3)),
         "begin_time": 0.0, "end_time": 0.06, "audio_id": "a0", "title": "t", "url": "u",
         "source": 0, "category": 0, "original_full_path": "p"},
        {"segment_id": "g1", "speaker": "N/A", "text": "TRUNCATED",
         "audio": ("g1.wav", wav(16000, 1, 16, tone(100, 1, 100))[:30]),
         "begin_time": 0.0, "end_time": 0.1, "audio_id": "a1", "title": "t", "url": "u",
         "source": 0, "category": 0, "original_full_path": "p"},
    ],
    "edinburghcstr/ami/ihm": [
        {"meeting_id": "EN2001a", "audio_id": "m0", "text": "YEAH", "audio":
         ("m0.wav", wav(16000, 1, 16, tone(1600, 1, 12000, 41))), "begin_time": 1.0,
         "end_time": 1.1, "microphone_id": "H00", "speaker_id": "MEE068"},
        {"meeting_id": "EN2001a", "audio_id": "m1", "text": "OKAY", "audio": None,
         "begin_time": 2.0, "end_time": 2.5, "microphone_id": "H00", "speaker_id": "MEE068"},
    ],
    "kensho/spgispeech/test": [
        {"wav_filename": "s0.wav", "wav_filesize": 0, "transcript": "Good morning.",
         "audio": ("s0.wav", wav(16000, 1, 16, tone(2000, 1, 15000, 53)))},
        {"wav_filename": "s1.wav", "wav_filesize": 0, "transcript": "Not audio.",
         "audio": ("s1.wav", b"RIFF\x10\x00\x00\x00WAVEjunkjunk")},
    ],
}
for key, rows in asr.items():
    org, name, config = key.split("/")
    out = []
    for r in rows:
        r = dict(r)
        if r["audio"] is not None:
            fname, data = r["audio"]
            if fname.endswith(".flac"):
                open(os.path.join(src, fname[:-5] + ".wav"), "wb").write(data)
                data = flac(data)
            r["audio"] = cell(data, fname)
        out.append(r)
    write(org + "/" + name, config, "test", out)
