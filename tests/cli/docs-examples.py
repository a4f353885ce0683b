#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every `aiperf ...` example command in the original's documentation,
made runnable here, one per line as KIND<TAB>COMMAND (t0808).

Usage: docs-examples.py DOCDIR OPTIONS_TSV MOCK_URL

A command is taken from the docs' code blocks, continuation lines joined,
and changed only where it must be: the URL is the mock's, counts and
durations are small, a hub tokenizer is `builtin` (and an absent one, except
for image_retrieval, which loads none), and "[other options...]"
is a minimal model, URL and count. KIND is `run` when everything it uses
is built, `plot` for `aiperf plot` (`dashboard` with --dashboard: a server
the test stops), `later:<the first option or command not supported yet>`,
`refused:<message>` where the original itself refuses the example, or
`unknown:<option>` for an option newer than the reference (in no table).
A word with a glob (artifacts/pareto-c*) stays unquoted: the shell expands
it, as where the docs run it.
"""
import glob
import re
import shlex
import sys

SMALL = {
    "--request-count": 4, "--num-requests": 4, "--concurrency": 2,
    "--num-sessions": 3, "--conversation-num": 3, "--num-conversations": 3,
    "--benchmark-duration": 2, "--benchmark-grace-period": 1,
    "--warmup-duration": 1, "--isl": 64, "--osl": 8,
    "--num-profile-runs": 2, "--profile-run-cooldown-seconds": 0.1,
    # media: small pictures, clips and sounds (t0527)
    "--image-width-mean": 64, "--image-height-mean": 64,
    "--video-width": 64, "--video-height": 48, "--video-fps": 2,
    "--video-duration": 1, "--audio-length-mean": 0.5,
}
# environment assignments before the command (NAME=value aiperf ...): kept
ENV = r"((?:[A-Z_][A-Z0-9_]*=[^\s'\"$]+ )*)"


def commands(docdir):
    for path in sorted(glob.glob(docdir + "/*.md")):
        text = open(path, encoding="utf-8", errors="replace").read()
        for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
            block = re.sub(r"\\\n\s*", " ", block)
            for line in block.split("\n"):
                line = line.strip()
                if line.startswith("$ "):
                    line = line[2:]
                if re.match(ENV + "aiperf ", line):
                    yield line


def options(tsv, support=None):
    """The option names of the table (of that support only, if given)."""
    names = {}
    for line in open(tsv, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#") or len(f) != 11 or support not in (None, f[7]):
            continue
        for n in [f[0]] + ([] if f[1] == "-" else f[1].split()):
            names[n] = f[8]
    return names


def refused(tsv):
    return options(tsv, "no")


def adapt(line, url):
    line = line.replace("[other options...]",
                        "--model m --url localhost:8000 --request-count 3")
    line = line.replace("$c", "2")
    # $(...) stays for the shell: kept whole through the split
    subs = re.findall(r"\$\([^)]*\)", line)
    for k, sub in enumerate(subs):
        line = line.replace(sub, "@@%d@@" % k, 1)
    words = shlex.split(line, posix=True)
    out, i, tok = [], 0, False
    while i < len(words):
        w = words[i]
        if w in ("--url", "-u") and i + 1 < len(words):
            out += [w, url]
            i += 2
            continue
        if w == "--tokenizer" and i + 1 < len(words):
            out += [w, "builtin"]
            tok = True
            i += 2
            continue
        if w in SMALL and i + 1 < len(words):
            try:
                v = min(float(words[i + 1]), SMALL[w])
                out += [w, str(int(v)) if v == int(v) else str(v)]
            except ValueError:
                out += [w, words[i + 1]]
            i += 2
            continue
        out.append(w)
        i += 1
    # image_retrieval loads no tokenizer (as the original): none is added
    if out[:2] == ["aiperf", "profile"] and not tok and \
            "--endpoint-type image_retrieval" not in " ".join(out):
        out += ["--tokenizer", "builtin"]
    def word(w):
        if "@@" not in w:
            if re.fullmatch(r"[\w@%+=:,./*?-]+", w):
                return w
            return shlex.quote(w)
        for k, sub in enumerate(subs):
            w = w.replace("@@%d@@" % k, sub)
        return '"' + w + '"'
    return " ".join(word(w) for w in out)


def expect(words, no, known):
    """run, later:WHAT, refused:MESSAGE (what the original itself says), or
    unknown:OPTION (one newer than the reference, that no table names)."""
    if words[1] == "plot":
        return "dashboard" if "--dashboard" in words else "plot"
    for w in words:
        if w.split("=")[0] in no:
            return "later:" + w.split("=")[0]
    for w in words[2:]:
        if w.startswith("--") and w.split("=")[0] not in known:
            return "unknown:" + w.split("=")[0]
    if "--goodput" in words and "--streaming" not in words:
        slo = words[words.index("--goodput") + 1]
        if re.search(r"inter_token_latency|time_to_first_token", slo):
            return "refused:Invalid --goodput"
    return "run"


def main():
    docdir, tsv, url = sys.argv[1:4]
    no, known = refused(tsv), options(tsv)
    for line in commands(docdir):
        env = re.match(ENV, line).group(1)
        line = line[len(env):]
        print(expect(shlex.split(re.sub(r"\$\([^)]*\)", "x", line)), no, known) +
              "\t" + env + adapt(line, url))


main()
