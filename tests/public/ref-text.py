#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The conversations the original's text public datasets give, built in Python.

A second implementation of the original's loaders for the text datasets
(src/aiperf/dataset/loader/hf_instruction_response.py, mt_bench.py,
spec_bench.py) with their plugins.yaml metadata, over the hub layout
DIR/<id>/<config>/<split>.jsonl (and SpecBench's question file). The
standard library only. tests/cli/t1180 compares the request payloads of
aiperf-gen --public-dataset NAME with its output.

usage: ref-text.py --hub DIR [--spec-bench FILE] --dataset NAME
                   [--hf-subset NAME] [--max N]
Writes one JSON array a conversation: its turns' texts, in order.
"""

import argparse
import json
import os
import sys

BLAZEDIT = ("Given a code file, please apply the change requests and generate "
            "the new file.\n\nOriginal file:\n```python\n{code}\n```\n\nChange "
            "request:\n{change_request}\n\nPlease generate the new code file in "
            "the \"New file\" section below.")

# plugins.yaml: name -> (loader, hf_dataset_name, hf_subset, hf_split,
# prompt_column, prompt_template, streaming)
META = {
    "aimo": ("ir", "AI-MO/NuminaMath-TIR", None, "train", "problem", None),
    "aimo_aime": ("ir", "AI-MO/aimo-validation-aime", None, "train", "problem", None),
    "aimo_numina_cot": ("ir", "AI-MO/NuminaMath-CoT", None, "train", "problem", None),
    "aimo_numina_1_5": ("ir", "AI-MO/NuminaMath-1.5", None, "train", "problem", None),
    "spec_al_gsm8k": ("ir", "openai/gsm8k", "main", "test", "question", None),
    "spec_al_math500": ("ir", "HuggingFaceH4/MATH-500", None, "test", "problem", None),
    "spec_al_humaneval": ("ir", "openai/openai_humaneval", None, "test", "prompt", None),
    "spec_al_mbpp": ("ir", "google-research-datasets/mbpp", "full", "test", "text", None),
    "instruct_coder": ("ir", "likaixin/InstructCoder", None, "train", "instruction", None),
    "blazedit_5k": ("ir", "vdaita/edit_5k_char", None, "train", "change_request", BLAZEDIT),
    "blazedit_10k": ("ir", "vdaita/edit_10k_char", None, "train", "change_request", BLAZEDIT),
    "spec_al_mtbench": ("mt", "HuggingFaceH4/mt_bench_prompts", None, "train", None, None),
    "spec_bench": ("sb", None, None, None, None, None),
}


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def instruction_response(data, column, template):
    """HFInstructionResponseDatasetLoader.convert_to_conversations (text)."""
    out = []
    for i, row in enumerate(data):
        if i == 0 and template is None and column not in row:
            sys.exit("Column %r not found" % column)
        if template is not None:
            prompt = template.format(**row)
        else:
            prompt = row.get(column)
        if not prompt or not str(prompt).strip():
            continue
        out.append([str(prompt)])
    return out


def turns_of(items):
    """The non-empty str(t).strip() of each truthy item."""
    out = []
    for t in items:
        text = str(t).strip() if t else ""
        if text:
            out.append(text)
    return out


def mt_bench(data):
    """MTBenchDatasetLoader.convert_to_conversations."""
    out = []
    for i, row in enumerate(data):
        if i == 0 and "prompt" not in row:
            sys.exit("Column 'prompt' not found")
        raw = row.get("prompt")
        if not isinstance(raw, list):
            continue
        turns = turns_of(raw)
        if turns:
            out.append(turns)
    return out


def spec_bench(data):
    """SpecBenchLoader.convert_to_conversations, multi_turn off."""
    out = []
    for row in data:
        raw = row.get("turns")
        if not isinstance(raw, list) or not raw:
            continue
        prompt = str(raw[0]).strip() if raw[0] else ""
        if prompt:
            out.append([prompt])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hub", required=True)
    ap.add_argument("--spec-bench")
    ap.add_argument("--dataset", required=True, choices=sorted(META))
    ap.add_argument("--hf-subset")
    ap.add_argument("--max", type=int)
    a = ap.parse_args()
    kind, ds, subset, split, column, template = META[a.dataset]
    if kind == "sb":
        convs = spec_bench(rows(a.spec_bench))
    else:
        config = a.hf_subset or subset or "default"
        data = rows(os.path.join(a.hub, *ds.split("/"), config, split + ".jsonl"))
        if kind == "ir":
            convs = instruction_response(data, column, template)
        else:
            convs = mt_bench(data)
    if a.max is not None:
        convs = convs[:a.max]
    for c in convs:
        print(json.dumps(c, ensure_ascii=False, separators=(",", ":")))


main()
