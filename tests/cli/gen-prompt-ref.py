#!/usr/bin/python3
"""Independent reference for aiperf-gen's prompt shaping (tests/cli/t0281).

Rebuilds the chat payloads of inputs.json from aiperf-gen's arguments alone,
following the original's source (src/aiperf/dataset/generator/prompt.py,
composer/base.py and synthetic.py, common/models/sequence_distribution.py,
loader/mooncake_trace.py, endpoints/openai_chat.py), with Python's own
random.Random child generators (first 8 bytes of SHA-256 of "seed:purpose")
and the tokenizer oracle (js-tiktoken o200k_base, the 'builtin' tokenizer,
through tests/golden/aiperf-gen/check.py's oracle wrapper) to encode the
corpus and decode the sampled token lists. It never runs aiperf-gen.

  PromptGenerator.__init__: corpus; a pool of --prompt-prefix-pool-size
    prompts of --prompt-prefix-length tokens; the shared system prompt.
  per turn: the (isl, osl) pair of --seq-dist ("models.sequence.distribution":
    random(), searchsorted side=right, lengths drawn only with a stddev);
    per batch text: length ("dataset.prompt.length", stddev 0 under
    --seq-dist), a corpus slice ("dataset.prompt.corpus": randrange start,
    wrapping), decoded; a first turn's text is "prefix text" with the prefix
    chosen from the pool ("dataset.prompt.prefix": choice).
  then max_tokens: the pair's osl, else drawn ("composer.turn.max_tokens").
  then per conversation, in order: a user context prompt of
    --user-context-prompt-length tokens; the chat payload of a first turn is
    [system, user context, user text].
  mooncake hash ids: per new id a block of the separator (<|endoftext|>)
    and block-1 corpus tokens, cached; the last block input_length -
    (n-1)*block; the concatenation decoded once.

usage: gen-prompt-ref.py INPUTS_JSON ARGS...   (exit 0: equal; 1: differs;
77: the oracle is missing)
"""
import bisect
import hashlib
import json
import math
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden", "aiperf-gen"))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import check  # noqa: E402  the oracle and the corpus encoding

EOT = 199999


def rng(root, purpose):
    digest = hashlib.sha256(("%d:%s" % (root, purpose)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def spni(r, mean, sd):
    if sd <= 0:
        return max(1, round(mean))
    for _ in range(10000):
        v = r.gauss(mean, sd)
        if v >= 0:
            return max(1, math.ceil(v))
    return max(1, math.ceil(max(0, mean)))


def parse_dist(s):
    """The semicolon syntax only (the others are checked for messages)."""
    pairs = []
    for part in s.split(";"):
        m = re.fullmatch(r"(\d+)(?:\|([\d.]+))?,(\d+)(?:\|([\d.]+))?:([\d.]+)", part.strip())
        pairs.append((int(m[1]), float(m[2] or 0), int(m[3]), float(m[4] or 0),
                      float(m[5])))
    cum, c = [], 0.0
    for p in pairs:
        c += p[4] / 100.0
        cum.append(c)
    return pairs, cum


class Gen:
    def __init__(self, o):
        self.o = o
        root = o["seed"]
        self.length = rng(root, "dataset.prompt.length")
        self.corpus = rng(root, "dataset.prompt.corpus")
        self.prefix = rng(root, "dataset.prompt.prefix")
        self.dist_rng = rng(root, "models.sequence.distribution")
        self.max_tokens = rng(root, "composer.turn.max_tokens")
        self.turns = rng(root, "composer.conversation.turn_count")
        self.lists = []  # token lists to decode, by index
        self.blocks = {}

    def tokens(self, k):
        c = check.corpus()
        start = self.corpus.randrange(len(c))
        out = c[start:start + k]
        if start + k > len(c):
            out += c[:start + k - len(c)]
        return out

    def prompt(self, k):
        self.lists.append(self.tokens(k))
        return len(self.lists) - 1

    def hashed(self, n, ids, bs):
        out = []
        for i, h in enumerate(ids):
            size = bs if i < len(ids) - 1 else n - (len(ids) - 1) * bs
            if h not in self.blocks:
                self.blocks[h] = [EOT] + self.tokens(size - 1)
            out += self.blocks[h]
        self.lists.append(out)
        return len(self.lists) - 1

    def sample(self, dist):
        pairs, cum = dist
        p = pairs[min(bisect.bisect_right(cum, self.dist_rng.random()), len(pairs) - 1)]
        isl = spni(self.dist_rng, p[0], p[1]) if p[1] > 0 else p[0]
        osl = spni(self.dist_rng, p[2], p[3]) if p[3] > 0 else p[2]
        return isl, osl


def options(words):
    o = {"seed": None, "isl": 550, "isl_sd": 0, "osl": None, "osl_sd": 0, "entries": 100,
         "batch": 1, "turns": 1, "turns_sd": 0, "pool": 0, "plen": 0, "sys": None,
         "ctx": None, "dist": None, "file": None, "block": 512}
    num = {"--random-seed": "seed", "--isl": "isl", "--isl-stddev": "isl_sd", "--osl": "osl",
           "--osl-stddev": "osl_sd", "--num-dataset-entries": "entries", "-b": "batch",
           "--session-turns-mean": "turns", "--session-turns-stddev": "turns_sd",
           "--prompt-prefix-pool-size": "pool", "--num-prefix-prompts": "pool",
           "--prompt-prefix-length": "plen", "--prefix-prompt-length": "plen",
           "--shared-system-prompt-length": "sys", "--user-context-prompt-length": "ctx",
           "--isl-block-size": "block"}
    it = iter(words)
    for w in it:
        if w in num:
            x = next(it)
            o[num[w]] = float(x) if "." in x else int(x)
        elif w == "--seq-dist":
            o["dist"] = parse_dist(next(it))
        elif w == "--input-file":
            o["file"] = next(it)
        elif w in ("-m", "--tokenizer", "--request-count", "--custom-dataset-type"):
            next(it)
        else:
            raise SystemExit("gen-prompt-ref.py: option %s is not modelled" % w)
    return o


def synthetic(o, g):
    convs = []
    for _ in range(o["entries"]):
        turns = []
        for t in range(spni(g.turns, o["turns"], o["turns_sd"])):
            isl, osl = o["isl"], None
            if o["dist"]:
                isl, osl = g.sample(o["dist"])
            texts = []
            for _ in range(o["batch"]):
                k = spni(g.length, isl, 0 if o["dist"] else o["isl_sd"])
                text = [g.prompt(k)]
                if t == 0 and o["plen"] > 0:
                    text = [g.prefix.choice(g.pool), " "] + text
                texts.append(text)
            if not o["dist"] and o["osl"] is not None:
                osl = spni(g.max_tokens, o["osl"], o["osl_sd"])
            turns.append({"texts": texts, "max_tokens": osl})
        convs.append(turns)
    return convs


def mooncake(o, g):
    convs, named = [], {}
    for line in open(o["file"], encoding="utf-8"):
        if not line.strip():
            continue
        j = json.loads(line)
        turn = {"line": j, "max_tokens": j.get("output_length")}
        sid = j.get("session_id")
        if sid is None:
            convs.append([turn])
        elif sid in named:
            named[sid].append(turn)
        else:
            named[sid] = [turn]
            convs.append(named[sid])
    for c in convs:
        for t in c:
            j = t["line"]
            if j.get("hash_ids"):
                t["texts"] = [[g.hashed(j["input_length"], j["hash_ids"], o["block"])]]
            else:
                t["texts"] = [[g.prompt(spni(g.length, j["input_length"], 0))]]
    for c in convs:  # the custom composer's _finalize_turn: max_tokens
        for t in c:
            if o["dist"]:
                t["max_tokens"] = g.sample(o["dist"])[1]
    return convs


def main():
    path, words = sys.argv[1], sys.argv[2:]
    o = options(words)
    g = Gen(o)
    g.pool = [g.prompt(o["plen"]) for _ in range(o["pool"])]
    system = g.prompt(o["sys"]) if o["sys"] else None
    convs = mooncake(o, g) if o["file"] else synthetic(o, g)
    ctx = [g.prompt(o["ctx"]) if o["ctx"] else None for _ in convs]
    text = check.oracle(["--decode"], [json.dumps(x) for x in g.lists])

    def s(parts):
        return "".join(x if isinstance(x, str) else text[x] for x in parts)

    want = []
    for i, c in enumerate(convs):
        payloads = []
        for k, t in enumerate(c):
            msgs = []
            if k == 0 and system is not None and text[system]:
                msgs.append({"role": "system", "content": text[system]})
            if k == 0 and ctx[i] is not None and text[ctx[i]]:
                msgs.append({"role": "user", "content": text[ctx[i]]})
            texts = [s(x) for x in t["texts"]]
            if len(texts) == 1:
                msgs.append({"role": "user", "content": texts[0]})
            else:
                msgs.append({"role": "user", "content": [
                    {"type": "text", "text": x} for x in texts if x]})
            payloads.append({"messages": msgs, "max_tokens": t["max_tokens"]})
        want.append(payloads)
    got = [[{"messages": p["messages"], "max_tokens": p.get("max_completion_tokens")}
            for p in c["payloads"]] for c in json.load(open(path))["data"]]
    if got == want:
        print("%d conversations, %d payloads equal" % (len(want), sum(map(len, want))))
        return 0
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            print("conversation %d differs:\n got  %s\n want %s" % (
                i, json.dumps(a)[:800], json.dumps(b)[:800]))
            break
    else:
        print("%d conversations, want %d" % (len(got), len(want)))
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except check.Skip as e:
        print("gen-prompt-ref.py: %s" % e, file=sys.stderr)
        sys.exit(77)
