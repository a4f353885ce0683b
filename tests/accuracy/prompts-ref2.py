#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reference problem records for aiperf-evalset's hellaswag, bigbench and
lcb_codegeneration benchmarks, built from the test fixtures the way the
original (aiperf's accuracy/benchmarks/*.py, DeepEval's HellaSwagTemplate
and BigBenchHardTemplate, lighteval's LCB prepare_prompt) builds them.
Standard library only.

usage: prompts-ref2.py HUB_DIR BBH_DIR OUT_DIR
writes OUT_DIR/<case>.jsonl for each case in CASES (the unit test
tests/unit/test-evalbench2.c loads the same cases and compares).
"""
import json
import os
import re
import sys

# DeepEval's HellaSwagTask values in enum order, read from the C table so
# that the two cannot drift (the task list is data, not logic).
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "cmd", "aiperf-evalset")


def c_table(name, field):
    text = open(os.path.join(SRC, name), encoding="utf-8").read()
    return [m[field] for m in re.findall(r'\{ "([^"]*)",\s*"((?:[^"\\]|\\.)*)" \}', text)]


HS_TASKS = c_table("hellaswag.c", 1)
BBH_TASKS = c_table("bigbench.c", 0)
BBH_CONFINE = {t: "\n\n" + c.replace('\\"', '"').replace("\\\\", "\\")
               for t, c in zip(BBH_TASKS, c_table("bigbench.c", 1))}


def rows(hub, ds, config, split):
    path = os.path.join(hub, ds, config, split + ".jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# --- HellaSwag: header, n one-per-label train examples, the question,
# then DeepEval's confinement line.
def hs_question(row, answer):
    text = row["ctx"]
    for letter, ending in zip("ABCD", row["endings"][:4]):
        text += "\n%s. %s" % (letter, ending)
    text += "\nAnswer:"
    if answer:
        text += " %s\n\n" % "ABCD"[int(row["label"])]
    return text


def hellaswag(hub, bbh, tasks, n_shots, cot):
    train = rows(hub, "Rowan/hellaswag", "default", "train")
    val = rows(hub, "Rowan/hellaswag", "default", "validation")
    firsts, seen = [], set()
    for r in train:
        if r["activity_label"] not in seen:
            seen.add(r["activity_label"])
            firsts.append(r)
    if tasks is None:
        chosen = list(HS_TASKS)
    else:
        chosen = []
        for t in tasks:
            hit = [v for v in HS_TASKS if v.lower() == t.lower()]
            hit = hit or [v for v in HS_TASKS
                          if re.sub(r"[^A-Z0-9]+", "_", v.upper()) == t.upper()]
            chosen.append(hit[0])
    shots = "".join(hs_question(firsts[i], True) for i in range(n_shots))
    out = []
    for task in chosen:
        for r in val:
            if r.get("activity_label") != task:
                continue
            if r.get("label") in ("", None):
                continue
            prompt = ("The following are multiple choice questions (with answers) "
                      "are sentence completion problems about %s.\n\n" % task)
            prompt += shots + hs_question(r, False)
            prompt += "\n\nOutput 'A', 'B', 'C', or 'D'. Full answer not needed."
            out.append((task, "ABCD"[int(r["label"])], prompt, 5))
    return out


# --- BBH: "Task description: " + the prompt file's first n+1 blank-line
# separated sections, the question, the task's confinement line.
def bigbench(hub, bbh, tasks, n_shots, cot):
    chosen = BBH_TASKS if tasks is None else [t.lower() for t in tasks]
    out = []
    for task in chosen:
        path = os.path.join(bbh, "cot" if cot else "shot", task + ".txt")
        with open(path, encoding="utf-8") as f:
            sections = f.read().split("\n\n")
        head = "Task description: " + "\n\n".join(sections[: n_shots + 1])
        for r in rows(hub, "lukaemon/bbh", task, "test"):
            prompt = head + "\n\nQ: " + r["input"] + "\nA: " + BBH_CONFINE[task]
            out.append((task, str(r["target"]), prompt, 1024))
    return out


# --- LCB: lighteval's prepare_prompt; the gold is the four upstream
# fields serialized compactly in this order.
def lcb(hub, bbh, tasks, n_shots, cot):
    tag = os.environ.get("AIPERF_ACCURACY_LCB_RELEASE_TAG") or "v4_v5"
    out = []
    for r in rows(hub, "livecodebench/code_generation_lite", tag, "test"):
        prompt = ("You will be given a question (problem specification) and will "
                  "generate a correct Python program that matches the specification "
                  "and passes all tests.\n\n")
        prompt += "Question: %s\n\n" % r.get("question_content", "")
        starter = r.get("starter_code")
        if starter:
            prompt += ("You will use the following starter code to write the "
                       "solution to the problem and enclose your code within "
                       "delimiters.\n```python\n%s\n```\n\n" % starter)
        else:
            prompt += ("Read the inputs from stdin solve the problem and write the "
                       "answer to stdout (do not directly test on the sample inputs). "
                       "Enclose your code within delimiters as follows. Ensure that "
                       "when the python program runs, it reads the inputs, runs the "
                       "algorithm and writes output to STDOUT.\n"
                       "```python\n# YOUR CODE HERE\n```\n\n")
        gold = {k: r.get(k, "") for k in ("starter_code", "public_test_cases",
                                          "private_test_cases", "metadata")}
        out.append(("lcb_codegeneration", compact(gold), prompt, 32768))
    return out


def compact(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


# name, builder, tasks, n_shots, cot, system prompt
CASES = [
    ("hellaswag-default", hellaswag, None, 10, False, None),
    ("hellaswag-tasks", hellaswag, ["canoeing", "ROOF_SHINGLE_REMOVAL"], 0, False,
     "Answer with one letter."),
    ("bigbench-cot3", bigbench, ["boolean_expressions", "navigate", "object_counting"],
     3, True, None),
    ("bigbench-shot1", bigbench, ["NAVIGATE", "boolean_expressions"], 1, False, None),
    ("bigbench-cot0", bigbench, ["object_counting"], 0, True, None),
    ("bigbench-all", bigbench, None, 3, True, None),
    ("bigbench-all-shot2", bigbench, None, 2, False, None),
    ("lcb-default", lcb, None, 0, False, None),
]


def record(i, task, gold, prompt, max_tokens, system):
    messages = [{"role": "user", "content": prompt}]
    if system:
        messages.insert(0, {"role": "system", "content": system})
        prompt = "%s\n\n%s" % (system, prompt)
    return compact({"schema": "aiperf.problem/1", "index": i, "task": task,
                    "gold": gold, "prompt": prompt, "messages": messages,
                    "max_tokens": max_tokens})


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    hub, bbh, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    for name, build, tasks, n_shots, cot, system in CASES:
        probs = build(hub, bbh, tasks, n_shots, cot)
        with open(os.path.join(outdir, name + ".jsonl"), "w", encoding="utf-8") as f:
            for i, p in enumerate(probs):
                f.write(record(i, *p, system) + "\n")


if __name__ == "__main__":
    main()
