#!/usr/bin/python3
"""Independent check of the aiperf-gen golden cases (tests/golden/aiperf-gen).

Rebuilds each case's expected request records from its args, in Python,
from aiperf-spec.md sections 2.7, 4.1, 4.2, 5.1-5.4, 5.8 and 6.1-6.3 and the
aiperf-gen(1) and aiperf-records(5) man pages, with the primitives the
original uses: Python's random.Random (Mersenne Twister, gauss, expovariate,
randrange, choice) seeded with the first 8 bytes of SHA-256("seed:purpose"),
NumPy's default_rng().shuffle() for the shuffle sampler, and tiktoken
o200k_base (the 'builtin' tokenizer) through the shared tokenizer oracle
(../shared/tools/tok-oracle.mjs, js-tiktoken) to encode the corpus and decode
the sampled token slices. The records are then compared with out.ndjson
value by value (key order included), inputs.json with err, and the error
cases with the documented message and exit status. It never runs aiperf-gen.

The request and correlation ids are aiperf-gen's own (man page: uuid4s from
four 32-bit draws of 'aiperf.gen.request_id', one per session then one per
request); the original draws them from uuid4() unseeded.

Needs /usr/bin/python3 with numpy, node and the oracle's modules
(TOK_ORACLE_MODULES, default /tmp/tok-oracle); without node the cases are
reported as skipped.
usage: check.py [case...]; exits 1 on any mismatch.
"""
import hashlib
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import uuid

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import checkrun  # noqa: E402  tests/golden/checkrun.py
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ORACLE = os.path.join(os.path.dirname(TOP), "shared", "tools", "tok-oracle.mjs")
CORPUS = os.path.join(TOP, "data", "corpus", "tinyshakespeare.txt")
EOT = 199999  # o200k_base <|endoftext|>: tiktoken's EOS, the block separator
PATHS = {"chat": "/v1/chat/completions", "completions": "/v1/completions",
         "embeddings": "/v1/embeddings", "video_generation": "/v1/videos"}


class Skip(Exception):
    pass


def oracle(args, lines):
    env = dict(os.environ)
    env.setdefault("TOK_ORACLE_MODULES", "/tmp/tok-oracle")
    try:
        out = subprocess.run(["node", ORACLE, "o200k_base"] + args,
                             input="".join(x + "\n" for x in lines), capture_output=True,
                             text=True, env=env, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise Skip("the tokenizer oracle did not run (%s)" % e)
    return [json.loads(x) for x in out.splitlines()]


_corpus = []


def corpus():
    """spec 4.2: stripped non-empty lines, chunks of >= 10,000 characters
    joined by spaces, each encoded, the ids concatenated."""
    if not _corpus:
        with open(CORPUS, encoding="utf-8") as f:
            lines = [x.strip() for x in f.read().split("\n")]
        chunks, cur, n = [], [], 0
        for x in lines:
            if not x:
                continue
            cur.append(x)
            n += len(x)
            if n >= 10000:
                chunks.append(" ".join(cur))
                cur, n = [], 0
        if cur:
            chunks.append(" ".join(cur))
        for ids in oracle(["--json"], [json.dumps(c) for c in chunks]):
            _corpus.extend(ids)
    return _corpus


def seed_of(root, purpose):
    return int.from_bytes(hashlib.sha256(("%d:%s" % (root, purpose)).encode()).digest()[:8],
                          "big")


def child(root, purpose):
    return random.Random(seed_of(root, purpose))


def spni(rng, mean, sd):
    """sample_positive_normal_integer (spec 4.2)."""
    if sd <= 0:
        return max(1, round(mean))
    for _ in range(10000):
        v = rng.gauss(mean, sd)
        if v >= 0:
            return max(1, math.ceil(v))
    return max(1, round(mean))


def uuid4(rng):
    b = b"".join(rng.getrandbits(32).to_bytes(4, "big") for _ in range(4))
    return str(uuid.UUID(bytes=b, version=4))


class Prompts:
    """Prompt synthesis: token slices of the corpus, decoded in one batch."""

    def __init__(self, root):
        self.length = child(root, "dataset.prompt.length")
        self.corpus = child(root, "dataset.prompt.corpus")
        self.slices = []
        self.blocks = {}

    def sample(self, k):
        c = corpus()
        start = self.corpus.randrange(len(c))
        return [c[(start + i) % len(c)] for i in range(k)]

    def synthetic(self, mean, sd):
        self.slices.append(self.sample(spni(self.length, mean, sd)))
        return len(self.slices) - 1

    def hashed(self, n, hash_ids, bs):
        ids = []
        for i, h in enumerate(hash_ids):
            ln = bs if i < len(hash_ids) - 1 else n - (len(hash_ids) - 1) * bs
            if h not in self.blocks:
                self.blocks[h] = [EOT] + self.sample(ln - 1)
            ids += self.blocks[h]
        self.slices.append(ids)
        return len(self.slices) - 1

    def decode(self):
        self.text = oracle(["--decode"], [json.dumps(s) for s in self.slices])


def coerce(v):
    """--extra-inputs value coercion (spec 6.1, aiperf-gen(1))."""
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    if v.lower() in ("none", "null"):
        return None
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", v):
        return int(v)
    if re.fullmatch(r"-?[0-9]*\.[0-9]*", v) and re.search(r"[0-9]", v):
        return float(v)
    return v


def parse_args(words):
    o = {"models": [], "ep": "chat", "stream": False, "isl": 550, "isl_sd": 0,
         "osl": None, "osl_sd": 0, "entries": 100, "count": None, "warmup": 0,
         "seed": None, "strategy": "round_robin", "server": False, "batch": 1,
         "extra": [], "turns": 1, "turns_sd": 0, "delay": 0, "delay_sd": 0, "ratio": 1.0,
         "rate": None, "cancel": 0, "cancel_delay": 0, "legacy": False, "inputs_json": None,
         "input_file": None, "block": 512, "fixed": False, "auto_offset": False}
    it = iter(words)
    num = {"--isl": "isl", "--isl-stddev": "isl_sd", "--osl": "osl", "--osl-stddev": "osl_sd",
           "--num-dataset-entries": "entries", "--request-count": "count",
           "--warmup-request-count": "warmup", "--random-seed": "seed", "-b": "batch",
           "--session-turns-mean": "turns", "--session-turns-stddev": "turns_sd",
           "--session-turn-delay-mean": "delay", "--session-turn-delay-stddev": "delay_sd",
           "--request-rate": "rate", "--request-cancellation-rate": "cancel",
           "--request-cancellation-delay": "cancel_delay", "--isl-block-size": "block"}
    for w in it:
        if w == "-m":
            o["models"] += next(it).split(",")
        elif w in num:
            x = next(it)
            o[num[w]] = float(x) if "." in x else int(x)
        elif w == "--tokenizer":
            if next(it) != "builtin":
                raise Skip("only --tokenizer builtin is modelled")
        elif w == "--endpoint-type":
            o["ep"] = next(it)
        elif w == "--model-selection-strategy":
            o["strategy"] = next(it)
        elif w == "--streaming":
            o["stream"] = True
        elif w == "--use-server-token-count":
            o["server"] = True
        elif w == "--use-legacy-max-tokens":
            o["legacy"] = True
        elif w == "--extra-inputs":
            x = next(it)
            if x.lstrip().startswith("{"):
                o["extra"] += list(json.loads(x).items())
            else:
                for kv in x.split(","):
                    k, v = kv.split(":", 1)
                    o["extra"].append((k.strip(), coerce(v.strip())))
        elif w == "--inputs-json":
            o["inputs_json"] = next(it)
        elif w == "--input-file":
            o["input_file"] = next(it)
        elif w == "--custom-dataset-type":
            if next(it) != "mooncake_trace":
                raise Skip("only mooncake_trace is modelled")
        elif w == "--fixed-schedule":
            o["fixed"] = True
        elif w == "--fixed-schedule-auto-offset":
            o["auto_offset"] = True
        else:
            raise Skip("option %s is not modelled" % w)
    return o


# --- datasets ---------------------------------------------------------------

def synthetic_dataset(o, P):
    """spec 4.2 'Synthetic composer': conversations of turns."""
    root = o["seed"]
    tc = child(root, "composer.conversation.turn_count")
    td = child(root, "composer.conversation.turn_delay")
    ms = child(root, "composer.turn.model_selection")
    mt = child(root, "composer.turn.max_tokens")
    convs, rr = [], 0
    for e in range(o["entries"]):
        turns = []
        for t in range(spni(tc, o["turns"], o["turns_sd"])):
            turn = {"prompts": [P.synthetic(o["isl"], o["isl_sd"]) for _ in range(o["batch"])]}
            if t > 0 and o["delay"] > 0:
                turn["delay_ms"] = spni(td, o["delay"], o["delay_sd"]) * o["ratio"]
            if o["strategy"] == "random":
                turn["model"] = ms.choice(o["models"])
            else:
                turn["model"] = o["models"][rr % len(o["models"])]
                rr += 1
            if o["osl"] is not None:
                turn["max_tokens"] = spni(mt, o["osl"], o["osl_sd"])
            turns.append(turn)
        convs.append({"id": "session_%06d" % e, "turns": turns, "history": True})
    return convs


class Usage(Exception):
    pass


def mooncake_dataset(o, P, path):
    """spec 4.1 mooncake_trace, 4.2 hash_ids -> blocks."""
    convs, named, anon = [], {}, 0
    lines = [x for x in open(path, encoding="utf-8").read().split("\n")]
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        j = json.loads(line)
        turn = {"model": o["models"][0], "line": n}
        if "output_length" in j:
            turn["max_tokens"] = j["output_length"]
        if "timestamp" in j:
            turn["ts"] = j["timestamp"]
        if "delay" in j:
            turn["delay_ms"] = j["delay"]
        if "text_input" in j:
            turn["text"] = j["text_input"]
        elif "messages" in j:
            turn["messages"] = j["messages"]
        elif "hash_ids" in j:
            n_in, h, bs = j["input_length"], j["hash_ids"], o["block"]
            f = n_in - (len(h) - 1) * bs
            if not 0 < f <= bs:
                raise Usage("%s:%d: Input length: %d, Hash IDs: [%s], Block size: %d are not "
                            "compatible. The final hash block size: %d must be greater than 0 "
                            "and less than or equal to %d." % (
                                path, n, n_in, ", ".join(map(str, h)), bs, f, bs))
            turn["prompts"] = None
            turn["hashed"] = (n_in, h, bs)
        else:
            turn["prompts"] = None
            turn["fresh"] = j["input_length"]
        sid = j.get("session_id")
        if sid is None:
            convs.append({"id": "session_%06d" % anon, "turns": [turn]})
            anon += 1
        elif sid in named:
            named[sid]["turns"].append(turn)
        else:
            named[sid] = {"id": sid, "turns": [turn]}
            convs.append(named[sid])
    for c in convs:  # prompts are made in conversation order
        c["history"] = not all("messages" in t for t in c["turns"])
        for t in c["turns"]:
            if "hashed" in t:
                t["prompts"] = [P.hashed(*t["hashed"])]
            elif "fresh" in t:
                t["prompts"] = [P.synthetic(t["fresh"], 0)]
    return convs


# --- payloads (spec 6.3) --------------------------------------------------

def payload(o, turn, P):
    p = {}
    texts = [P.text[i] for i in turn.get("prompts") or []]
    if "text" in turn:
        texts = [turn["text"]]
    if o["ep"] == "chat":
        if "messages" in turn:
            p["messages"] = turn["messages"]
        elif len(texts) == 1:
            p["messages"] = [{"role": "user", "content": texts[0]}]
        else:
            p["messages"] = [{"role": "user", "content": [
                {"type": "text", "text": t} for t in texts if t]}]
        p["model"] = turn["model"]
        p["stream"] = o["stream"]
        if turn.get("max_tokens") is not None:
            p["max_tokens" if o["legacy"] else "max_completion_tokens"] = turn["max_tokens"]
    elif o["ep"] == "completions":
        p["prompt"] = [t for t in texts if t]
        p["model"] = turn["model"]
        p["stream"] = o["stream"]
        if turn.get("max_tokens"):
            p["max_tokens"] = turn["max_tokens"]
    elif o["ep"] == "video_generation":
        # OpenAI/SGLang video: the first text is the prompt, extras after
        p["prompt"] = texts[0]
        p["model"] = turn["model"]
    for k, v in o["extra"]:
        p[k] = v
    if o["stream"] and o["server"] and o["ep"] in ("chat", "completions"):
        so = p.get("stream_options")
        if isinstance(so, dict):
            so["include_usage"] = True
        else:
            p["stream_options"] = {"include_usage": True}
    return p


def expected(o):
    root = o["seed"] if o["seed"] is not None else 0  # unseeded: error cases only
    P = Prompts(root)
    if o["input_file"]:
        convs = mooncake_dataset(o, P, o["input_file"])
    else:
        convs = synthetic_dataset(o, P)
    P.decode()
    ids = child(root, "aiperf.gen.request_id")
    records = []

    def emit(conv, phase, num, extra_first=None, times=None):
        corr = uuid4(ids)
        prev_ts = None
        for t, turn in enumerate(conv["turns"]):
            p = payload(o, turn, P)
            r = {"schema": "aiperf.request/1", "id": uuid4(ids), "session_num": num[0],
                 "conversation_id": conv["id"], "x_correlation_id": corr, "turn_index": t,
                 "num_turns": len(conv["turns"]), "phase": phase, "model": p["model"],
                 "endpoint_type": o["ep"], "path": PATHS[o["ep"]], "stream": p.get("stream", False)}
            if turn.get("max_tokens") is not None:
                r["max_tokens"] = turn["max_tokens"]
            if t == 0 and extra_first is not None:
                r["at_ns"] = extra_first
            if times is not None and t > 0 and "ts" in turn:
                r["at_ns"] = max(0, round((turn["ts"] - times) * 1e6))
            if t > 0:
                if "ts" in turn and times is not None and prev_ts is not None:
                    r["delay_ns"] = round((turn["ts"] - prev_ts) * 1e6)
                elif "delay_ms" in turn:
                    r["delay_ns"] = round(turn["delay_ms"] * 1e6)
            if "ts" in turn:
                prev_ts = turn["ts"]
            if phase == "profiling" and o["cancel"]:
                if cancel.random() < o["cancel"] / 100:
                    r["cancel_after_ns"] = int(o["cancel_delay"] * 1e9)
            if t > 0 and conv["history"] and o["ep"] == "chat":
                r["history"] = True
            r["payload"] = p
            records.append(r)
            num[0] += 1

    cancel = child(root, "timing.request.cancellation")
    if o["fixed"]:
        firsts = [c["turns"][0]["ts"] for c in convs]
        zero = min(firsts) if o["auto_offset"] else 0
        order = sorted(range(len(convs)), key=lambda i: (firsts[i], i))
        num = [0]
        for i in order:
            emit(convs[i], "profiling", num, max(0, round((firsts[i] - zero) * 1e6)), zero)
        count = o["count"] or sum(len(c["turns"]) for c in convs)
        return convs, P, records[:count]
    shuffle = np.random.default_rng(seed_of(root, "dataset.sampler.shuffle"))
    # the original's ShuffleSampler (dataset/dataset_samplers.py) shuffles
    # its id list once, walks it, and reshuffles that same list in place
    ix = list(range(len(convs)))
    shuffle.shuffle(ix)
    pos = [0]

    def next_conv():
        if pos[0] >= len(ix):
            shuffle.shuffle(ix)
            pos[0] = 0
        pos[0] += 1
        return convs[ix[pos[0] - 1]]

    for phase, count in (("warmup", o["warmup"]), ("profiling", o["count"] or 10)):
        num, start = [0], len(records)
        poisson = child(root, "timing.request.poisson_interval")
        t_s = 0.0
        while len(records) - start < count:
            at = None
            if o["rate"]:
                t_s += poisson.expovariate(o["rate"])
                at = round(t_s * 1e9)
            emit(next_conv(), phase, num, at)
        del records[start + count:]
    return convs, P, records


# --- comparison -----------------------------------------------------------

def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def inputs_json(o, convs, P):
    data = []
    for c in convs:
        data.append({"session_id": c["id"], "payloads": [payload(o, t, P) for t in c["turns"]]})
    return json.dumps({"data": data}, indent=2, ensure_ascii=False)


def check_case(name):
    d = os.path.join(HERE, name)
    words = shlex.split(open(os.path.join(d, "args")).read())
    outf = [f for f in ("out", "out.ndjson") if os.path.exists(os.path.join(d, f))][0]
    gold = open(os.path.join(d, outf), encoding="utf-8").read()
    err = open(os.path.join(d, "err"), encoding="utf-8").read()
    st = os.path.join(d, "status")
    status = int(open(st).read()) if os.path.exists(st) else 0
    bad = []
    if "--isl" in words and words[words.index("--isl") + 1] == "0":
        # usage error: aiperf-gen(1) EXIT STATUS 2; --isl is a token count >= 1
        lines = err.split("\n")
        if status != 2 or gold or len(lines) != 3 or lines[2] != "" or \
                not lines[0].startswith("aiperf-gen: invalid value for --isl: '0'") or \
                lines[1] != "Try 'aiperf-gen --help' for more information.":
            bad.append("usage error: status %d, err %r" % (status, err))
        return bad, "usage error: exit 2, message names --isl and '0'"
    o = parse_args(words)
    cwd = os.getcwd()
    os.chdir(d)
    try:
        convs, P, recs = expected(o)
    except Usage as e:
        exp = "aiperf-gen: %s\n" % e
        if status != 1 or err != exp or gold:
            bad.append("trace error: status %d, err %r, reference %r" % (status, err, exp))
        return bad, "spec 4.2 message verbatim, exit 1"
    finally:
        os.chdir(cwd)
    got = [json.loads(x) for x in gold.split("\n") if x]
    if len(got) != len(recs):
        bad.append("%d records, reference %d" % (len(got), len(recs)))
    for i, (g, e) in enumerate(zip(got, recs), 1):
        if not same(g, e):
            diff = [k for k in list(dict.fromkeys(list(g) + list(e)))
                    if k not in g or k not in e or not same(g[k], e[k])]
            bad.append("record %d: %s" % (i, "; ".join(
                "%s: golden %s, reference %s" % (k, json.dumps(g.get(k))[:160],
                                                 json.dumps(e.get(k))[:160]) for k in diff)))
    if status != 0:
        bad.append("status %d, reference 0" % status)
    if o["inputs_json"] == "/dev/stderr":
        exp = inputs_json(o, convs, P)
        if err != exp:
            bad.append("inputs.json (stderr) differs from the reference")
    elif err:
        bad.append("stderr not empty: %r" % err[:200])
    # token lengths: re-encode the synthesized prompts (informational; a
    # decoded slice may re-encode to another count, spec 4.2)
    short = sum(1 for s, t in zip(P.slices, oracle(["--json"], [json.dumps(x) for x in P.text]))
                if len(s) != len(t))
    return bad, "%d records, %d prompts rebuilt%s" % (
        len(recs), len(P.slices),
        ", %d re-encode to another length" % short if short else ", each re-encodes to its length")


def check_or_skip(name):
    try:
        return check_case(name)
    except Skip as e:
        return None, str(e)


def main():
    return checkrun.run(HERE, check_or_skip)


if __name__ == "__main__":
    sys.exit(main())
