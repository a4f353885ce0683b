#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The conversations a speed_bench_* custom dataset type loads, in Python.

A second implementation of the original's SpeedBenchLoader
(src/aiperf/dataset/loader/speed_bench.py) and its plugins.yaml entries:
SpeedBenchRow's checks (question_id of 32 characters, a category, messages
of non-blank role and content strings, not the prepare script's
placeholder), the category of the entry's metadata as a filter, every
message a turn (multi_turn=True), rows of one question_id in one
conversation, conversations in order of first appearance. A directory is
read through the type's split file (ours; the original opens the path as
given). The standard library only. tests/cli/t1210 compares its output
with aiperf-gen's records.

usage: ref-speedbench.py TYPE PATH
Prints one line a turn: {"conversation_id", "turn_index", "num_turns",
"role", "content"}; exits 1 with the reason on a row that is not one.
"""

import json
import os
import sys

PLACEHOLDER = ("FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING "
               "SPECDEC_BENCH")
QUALITATIVE = ["coding", "humanities", "math", "multilingual", "qa", "rag",
               "reasoning", "roleplay", "stem", "summarization", "writing"]
ISLS = ["1k", "2k", "8k", "16k", "32k"]
TIERS = ["low_entropy", "mixed", "high_entropy"]


def types():
    """plugins.yaml's speed_bench_* entries: name -> (split file, category)."""
    t = {"speed_bench_qualitative": ("qualitative.jsonl", None)}
    for c in QUALITATIVE:
        t["speed_bench_" + c] = ("qualitative.jsonl", c)
    for k in ISLS:
        t["speed_bench_throughput_" + k] = ("throughput_%s.jsonl" % k, None)
    for k in ISLS:
        for tier in TIERS:
            t["speed_bench_throughput_%s_%s" % (k, tier)] = (
                "throughput_%s.jsonl" % k, tier)
    return t


def valid(row):
    """SpeedBenchRow.model_validate, as a reason or None."""
    if not isinstance(row, dict):
        return "not an object"
    qid, cat, msgs = row.get("question_id"), row.get("category"), row.get("messages")
    if not isinstance(qid, str) or len(qid) != 32:
        return "question_id"
    if not isinstance(cat, str) or not cat:
        return "category"
    if not isinstance(msgs, list) or not msgs:
        return "messages"
    for m in msgs:
        if not (isinstance(m, dict) and isinstance(m.get("role"), str)
                and m["role"].strip() and isinstance(m.get("content"), str)
                and m["content"].strip() and m["content"] != PLACEHOLDER):
            return "messages"
    return None


def load(name, path):
    split, category = types()[name]
    if os.path.isdir(path):
        path = os.path.join(path, split)
    data = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            row = json.loads(line)
            why = valid(row)
            if why:
                sys.exit("%s:%d: %s" % (path, lineno, why))
            if category and row["category"] != category:
                continue
            turns = data.setdefault(row["question_id"], [])
            turns.extend((m["role"], m["content"]) for m in row["messages"])
    return data


def main():
    name, path = sys.argv[1], sys.argv[2]
    for cid, turns in load(name, path).items():
        for i, (role, content) in enumerate(turns):
            print(json.dumps({"conversation_id": cid, "turn_index": i,
                              "num_turns": len(turns), "role": role,
                              "content": content}, ensure_ascii=False))


if __name__ == "__main__":
    main()
