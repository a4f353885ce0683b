#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every `genai-perf ...` example command of GenAI-Perf's README, made
runnable here, one per line as KIND<TAB>COMMAND (t1140).

Usage: genai-perf-examples.py README MOCK_URL

A command is taken from the README's code blocks, continuation lines
joined, and changed only where it must be: the URL is the mock's (added
where the example has none: GenAI-Perf's default server), a hub tokenizer
is `builtin` (and one is added: GenAI-Perf's default is the model's),
counts are small, `<config_file>` is config.yaml and a payload file's name
is payload.jsonl (the test writes both). KIND is `refused:OPTION` when the
example uses an option with no counterpart (genai-perf(1) refuses it by
name), `help`, `template` or `run`.
"""
import re
import shlex
import sys

SMALL = {"--concurrency": 2, "--warmup-request-count": 2, "--request-count": 4}
NONE = ("--backend", "--service-kind triton")


def commands(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        block = re.sub(r"\\\n\s*", " ", block)
        for line in block.split("\n"):
            line = line.strip()
            if line.startswith("genai-perf "):
                yield line


def adapt(words, url):
    out, i, tok, has_url = [], 0, False, False
    while i < len(words):
        w = words[i]
        if w in ("--url", "-u") and i + 1 < len(words):
            out += [w, url]
            has_url = True
            i += 2
            continue
        if w == "--tokenizer" and i + 1 < len(words):
            out += [w, "builtin"]
            tok = True
            i += 2
            continue
        if w in SMALL and i + 1 < len(words):
            out += [w, str(min(int(words[i + 1]), SMALL[w]))]
            i += 2
            continue
        if w == "<config_file>":
            w = "config.yaml"
        if w.startswith("payload:"):
            w = "payload:payload.jsonl"
        out.append(w)
        i += 1
    if words[1] == "profile":
        if not tok:
            out += ["--tokenizer", "builtin"]
        if not has_url:
            out += ["--url", url]
    return out


def kind(words):
    line = " ".join(words)
    for n in NONE:
        if n in line:
            return "refused:" + n.split()[0]
    if words[1:] == ["--help"]:
        return "help"
    if words[1] == "create-template":
        return "template"
    return "run"


def main():
    readme, url = sys.argv[1:3]
    for line in commands(readme):
        words = shlex.split(line)
        print(kind(words) + "\t" + " ".join(shlex.quote(w) for w in adapt(words, url)))


main()
