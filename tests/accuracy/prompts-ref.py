#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The problem records aiperf-evalset should write, built in Python.

A second implementation of the original's benchmark loaders
(src/aiperf/accuracy/benchmarks/*.py), its benchmark_loader.py defaults and
its AccuracyDatasetLoader (system prompt, flat prompt, max_tokens), step by
step as they go, over the hub layout DIR/<id>/<config>/<split>.jsonl. The
standard library only: rows are read with json, shuffled with random, hashed
with hashlib, exactly the modules the original uses. tests/cli/t1160 compares
its output with aiperf-evalset's byte for byte.

usage: prompts-ref.py --self-test
       prompts-ref.py --dataset-dir DIR --benchmark NAME [--tasks LIST ...]
                      [--n-shots N] [--enable-cot | --no-enable-cot]
                      [--system-prompt TEXT]
"""

import argparse
import hashlib
import itertools
import json
import os
import random
import string
import sys

LETTERS = string.ascii_uppercase
MMLU_GOLD = [" " + c for c in LETTERS[:4]]

MMLU_SUBJECTS = """abstract_algebra anatomy astronomy business_ethics
clinical_knowledge college_biology college_chemistry college_computer_science
college_mathematics college_medicine college_physics computer_security
conceptual_physics econometrics electrical_engineering elementary_mathematics
formal_logic global_facts high_school_biology high_school_chemistry
high_school_computer_science high_school_european_history
high_school_geography high_school_government_and_politics
high_school_macroeconomics high_school_mathematics high_school_microeconomics
high_school_physics high_school_psychology high_school_statistics
high_school_us_history high_school_world_history human_aging human_sexuality
international_law jurisprudence logical_fallacies machine_learning management
marketing medical_genetics miscellaneous moral_disputes moral_scenarios
nutrition philosophy prehistory professional_accounting professional_law
professional_medicine professional_psychology public_relations
security_studies sociology us_foreign_policy virology world_religions""".split()

AIME_HEADER = (
    "The following are problems from the American Invitational Mathematics "
    "Examination (AIME) 2024. AIME is a prestigious high school mathematics "
    "competition known for its challenging mathematical problems.\n\n"
)
AIME_SYSTEM = "Please reason step by step, and put your final answer within \\boxed{}."

GPQA_TEMPLATE = (
    "Answer the following multiple choice question. The last line of your "
    "response should be of the following format: 'Answer: $LETTER' (without "
    "quotes) where LETTER is one of ABCD. Think step by step before "
    "answering.\n\n{Question}\n\nA) {A}\nB) {B}\nC) {C}\nD) {D}"
)


class Problem:
    def __init__(self, prompt, gold, task, max_tokens, messages=None):
        self.prompt, self.gold, self.task = prompt, gold, task
        self.max_tokens, self.messages = max_tokens, messages


def folder(root):
    """The rows of a split, as load_dataset gives them: from ROOT/<id>/<config>/<split>.jsonl."""

    def rows(ds_id, config, split):
        path = os.path.join(root, ds_id, config, split + ".jsonl")
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]

    return rows


# --- MMLU (lighteval's mmlu_prompt, its balanced few-shot sampler) -------


def mmlu_gold_index(row):
    a = row["answer"]
    return LETTERS.index(a) if isinstance(a, str) else a


def mmlu_choice_lines(row):
    return "".join(f"\n{k}. {c}" for k, c in zip(LETTERS, row["choices"]))


def mmlu_balanced(source, n_shots):
    by_label = {}
    for i, row in enumerate(source):
        by_label.setdefault(row["choices"][mmlu_gold_index(row)], []).append(i)
    by_count = {}
    for label in sorted(by_label):
        by_count.setdefault(len(by_label[label]), []).append(label)
    rng = random.Random(0)
    order = []
    for count in sorted(by_count, reverse=True):
        group = by_count[count]
        rng.shuffle(group)
        order += group
    picked, left = [], min(len(source), n_shots + 1)
    labels = itertools.cycle(order)
    while left > 0:
        label = next(labels, None)
        if label is None:
            break
        pool = by_label[label]
        if pool:
            picked.append(pool.pop(rng.randrange(len(pool))))
            left -= 1
    return picked[:n_shots]


def mmlu_subject(rows, subject, n_shots, cot):
    shots = []
    if n_shots > 0:
        dev = rows("lighteval/mmlu", subject, "dev")
        for i in mmlu_balanced(dev, n_shots):
            r = dev[i]
            shots.append((r["question"], mmlu_choice_lines(r), MMLU_GOLD[mmlu_gold_index(r)]))
    intro = (
        "The following are multiple choice questions (with answers) about "
        + subject.replace("_", " ")
        + ".\n\n"
    )
    trigger = "\nLet's think step by step.\nAnswer:" if cot else "\nAnswer:"
    out = []
    for row in rows("lighteval/mmlu", subject, "test"):
        query = "Question: " + str(row["question"]) + mmlu_choice_lines(row) + trigger
        flat = "\n\n".join(f"Question: {q}{c}\nAnswer:{g}" for q, c, g in shots)
        prompt = intro + (flat + "\n\n" if flat else "") + query
        chat = []
        for n, (q, c, g) in enumerate(shots):
            chat.append({"role": "user", "content": (intro if n == 0 else "") + f"Question: {q}{c}\nAnswer:"})
            chat.append({"role": "assistant", "content": g})
        chat.append({"role": "user", "content": (intro if not shots else "") + query})
        out.append(Problem(prompt, MMLU_GOLD[mmlu_gold_index(row)], subject, 5, chat))
    return out


def mmlu(rows, tasks, n_shots, cot):
    if not tasks or "all" in tasks:
        subjects = MMLU_SUBJECTS
    else:
        for t in tasks:
            if t not in MMLU_SUBJECTS:
                sys.exit(f"unknown MMLU subject '{t}'")
        subjects = tasks
    return [p for s in subjects for p in mmlu_subject(rows, s, n_shots, cot)]


# --- AIME (the trt-llm recipe's AIMETemplate) ----------------------------


def aime(rows, tasks, n_shots, cot):
    if n_shots > 8:
        sys.exit(f"AIME supports at most 8 few-shot examples (got {n_shots})")
    data = rows("Maxwell-Jia/AIME_2024", "default", "train")
    head = ""
    if n_shots > 0 and data:
        head = AIME_HEADER
        for r in data[: min(n_shots, len(data))]:
            block = "**Problem**: " + r["Problem"] + "\n"
            if cot:
                block += "**Solution**: " + str(r.get("Solution", "")) + "\n"
            head += block + "**Answer**: " + str(r["Answer"]) + "\n\n"
    tail = "Let's think step-by-step." if cot else "No explanation needed. Just return a number."
    return [
        Problem(head + "**Problem**: " + r["Problem"] + "\n**Answer**: \n\n" + tail, str(r["Answer"]), "aime", 32768)
        for r in data
    ]


# --- the lighteval zero-shot ones ---------------------------------------


def plain(ds_id, task):
    def load(rows, tasks, n_shots, cot):
        return [Problem(r["problem"], str(r["answer"]), task, 32768) for r in rows(ds_id, "default", "train")]

    return load


def math_500(rows, tasks, n_shots, cot):
    return [
        Problem(r["problem"], r.get("solution") or "", r.get("subject") or "math_500", 32768)
        for r in rows("HuggingFaceH4/MATH-500", "default", "test")
    ]


def gsm8k(rows, tasks, n_shots, cot):
    return [
        Problem(f"Question: {r['question']}\nAnswer:", str(r["answer"]), "gsm8k", 256)
        for r in rows("openai/gsm8k", "main", "test")
    ]


def gpqa_order(key):
    seed = int(hashlib.sha256(key.encode("utf-8")).hexdigest(), 16) % 2**32
    order = [0, 1, 2, 3]
    random.Random(seed).shuffle(order)
    return order


def gpqa(rows, tasks, n_shots, cot):
    out = []
    for r in rows("Idavidrein/gpqa", "gpqa_diamond", "train"):
        answers = [r["Correct Answer"]] + [r[f"Incorrect Answer {i}"] for i in (1, 2, 3)]
        order = gpqa_order(r["Question"])
        a, b, c, d = (answers[i] for i in order)
        prompt = GPQA_TEMPLATE.format(Question=r["Question"], A=a, B=b, C=c, D=d)
        out.append(Problem(prompt, "ABCD"[order.index(0)], "gpqa_diamond", 32768))
    return out


# name: (load, default n-shots, default CoT, default system prompt)
BENCHMARKS = {
    "mmlu": (mmlu, 5, False, None),
    "aime": (aime, 8, True, AIME_SYSTEM),
    "aime24": (plain("HuggingFaceH4/aime_2024", "aime24"), 0, False, None),
    "aime25": (plain("yentinglin/aime_2025", "aime25"), 0, False, None),
    "math_500": (math_500, 0, False, None),
    "gsm8k": (gsm8k, 0, False, None),
    "gpqa_diamond": (gpqa, 0, False, None),
}


def record(i, p, system):
    chat = list(p.messages) if p.messages is not None else [{"role": "user", "content": p.prompt}]
    if system:
        chat.insert(0, {"role": "system", "content": system})
    rec = {
        "schema": "aiperf.problem/1",
        "index": i,
        "task": p.task,
        "gold": p.gold,
        "prompt": f"{system}\n\n{p.prompt}" if system else p.prompt,
        "messages": chat,
        "max_tokens": p.max_tokens,
    }
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


# --- the original's own expectations (tests/unit/accuracy/) -------------


def self_test():
    """The literal prompts the original's unit tests pin, checked here.

    From test_aime_benchmark.py, test_gsm8k_benchmark.py,
    test_math_500_benchmark.py, test_aime24_benchmark.py,
    test_aime25_benchmark.py, test_gpqa_diamond_benchmark.py and
    test_accuracy_dataset_loader.py; each check names its test.
    """
    failed = 0

    def check(name, ok):
        nonlocal failed
        print(("ok - " if ok else "not ok - ") + name)
        failed += not ok

    def given(ds_id, config, split, data):
        return lambda i, c, s: data if (i, c, s) == (ds_id, config, split) else []

    def aime_rows(*rows):
        return given("Maxwell-Jia/AIME_2024", "default", "train", list(rows))

    def aime_row(problem="What is 1+1?", answer=2, solution="Add the numbers."):
        return {"Problem": problem, "Answer": answer, "Solution": solution}

    row = aime_row("Compute 2+2.", 4)
    check("aime: test_zero_shot_no_cot_matches_recipe",
          aime(aime_rows(row), None, 0, False)[0].prompt
          == "**Problem**: Compute 2+2.\n**Answer**: \n\nNo explanation needed. Just return a number.")
    check("aime: test_zero_shot_with_cot_matches_recipe",
          aime(aime_rows(row), None, 0, True)[0].prompt
          == "**Problem**: Compute 2+2.\n**Answer**: \n\nLet's think step-by-step.")
    shot, row = aime_row("What is 1+1?", 2, "Trivial."), aime_row("What is 2+2?", 4)
    check("aime: test_one_shot_with_cot_includes_solution",
          aime(aime_rows(shot, row), None, 1, True)[1].prompt
          == AIME_HEADER + "**Problem**: What is 1+1?\n**Solution**: Trivial.\n**Answer**: 2\n\n"
          "**Problem**: What is 2+2?\n**Answer**: \n\nLet's think step-by-step.")
    p = aime(aime_rows(shot, row), None, 1, False)[1].prompt
    check("aime: test_one_shot_no_cot_omits_solution",
          "**Solution**:" not in p and p.endswith("No explanation needed. Just return a number."))
    check("aime: test_few_shot_header_present_when_shots_present", p.startswith(AIME_HEADER))
    p = aime(aime_rows({"Problem": "Q?", "Answer": 1}, row), None, 1, True)[1].prompt
    check("aime: test_missing_solution_field_handled", "**Solution**: \n**Answer**: 1" in p)
    check("aime: test_ground_truth_is_string_form_of_integer_answer",
          aime(aime_rows(aime_row("q", 42)), None, 0, False)[0].gold == "42")
    check("aime: test_shots_drawn_from_start_in_order",
          aime(aime_rows(*[aime_row(f"problem-{i}", i) for i in range(10)]), None, 3, False)[5].prompt.count("problem-") == 4)

    gsm = given("openai/gsm8k", "main", "test",
                [{"question": "What is 1+1?", "answer": "Steps... <<48/2=24>>24.\n#### 24"}])
    p = gsm8k(gsm, None, 0, False)[0]
    check("gsm8k: test_prompt_uses_question_answer_template", p.prompt == "Question: What is 1+1?\nAnswer:")
    check("gsm8k: test_ground_truth_keeps_full_answer_with_marker", p.gold == "Steps... <<48/2=24>>24.\n#### 24")

    m5 = given("HuggingFaceH4/MATH-500", "default", "test",
               [{"problem": "Find x.", "solution": "Step one: simplify. Step two: \\boxed{42}.", "subject": "Geometry"},
                {"problem": "Q", "solution": "S"}])
    ps = math_500(m5, None, 0, False)
    check("math_500: test_prompt_is_bare_problem", ps[0].prompt == "Find x.")
    check("math_500: test_ground_truth_is_full_solution", ps[0].gold == "Step one: simplify. Step two: \\boxed{42}.")
    check("math_500: test_subject_used_as_task_name", ps[0].task == "Geometry")
    check("math_500: test_missing_subject_falls_back_to_task_name", ps[1].task == "math_500")

    for name, ds_id in (("aime24", "HuggingFaceH4/aime_2024"), ("aime25", "yentinglin/aime_2025")):
        load = BENCHMARKS[name][0]
        ps = load(given(ds_id, "default", "train",
                        [{"problem": "Compute the answer.", "answer": 42}]), None, 5, True)
        check(f"{name}: test_prompt_is_bare_problem", ps[0].prompt == "Compute the answer.")
        check(f"{name}: test_ground_truth_is_string", ps[0].gold == "42" and ps[0].task == name)

    def gpqa_row(q, correct, wrong):
        return {"Question": q, "Correct Answer": correct, "Incorrect Answer 1": wrong[0],
                "Incorrect Answer 2": wrong[1], "Incorrect Answer 3": wrong[2]}

    gp = given("Idavidrein/gpqa", "gpqa_diamond", "train", [gpqa_row("Q?", "GOLD", ("X", "Y", "Z"))])
    p = gpqa(gp, None, 0, False)[0]
    check("gpqa: test_prompt_uses_simple_evals_template",
          p.prompt.startswith("Answer the following multiple choice question. The last line of your "
                              "response should be of the following format: 'Answer: $LETTER'")
          and "Think step by step before answering." in p.prompt
          and all(f"{c}) " in p.prompt for c in "ABCD"))
    check("gpqa: test_ground_truth_letter_indexes_into_correct_text", f"\n{p.gold}) GOLD" in p.prompt)
    check("gpqa: test_same_key_same_permutation", gpqa_order("hello") == gpqa_order("hello"))
    check("gpqa: test_different_keys_different_permutations", gpqa_order("alpha") != gpqa_order("beta"))
    slots = [0] * 4
    for i in range(1000):
        slots[gpqa_order(f"q-{i}").index(0)] += 1
    check("gpqa: test_distribution_across_many_keys", all(200 <= n <= 300 for n in slots))

    what = Problem("What is 2+2?", "A", "math", 100)
    rec = json.loads(record(0, what, "Answer concisely."))
    check("loader: test_system_prompt_prepended_to_texts_for_completions",
          rec["prompt"] == "Answer concisely.\n\nWhat is 2+2?")
    check("loader: test_system_prompt_also_in_raw_messages_for_chat",
          rec["messages"][0] == {"role": "system", "content": "Answer concisely."})
    rec = json.loads(record(0, what, None))
    check("loader: test_no_system_prompt_leaves_texts_unchanged",
          rec["prompt"] == "What is 2+2?" and [m["role"] for m in rec["messages"]] == ["user"])
    rec = json.loads(record(0, Problem("What is 2+2?", "A", "math", 100,
                                       [{"role": "user", "content": "What is 2+2?"}]), "Be concise."))
    check("loader: test_system_prompt_prepended_to_prebuilt_raw_messages",
          rec["messages"] == [{"role": "system", "content": "Be concise."},
                              {"role": "user", "content": "What is 2+2?"}])
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset-dir", required=True)
    ap.add_argument("--benchmark", required=True)
    ap.add_argument("--tasks", action="append")
    ap.add_argument("--n-shots", type=int)
    ap.add_argument("--enable-cot", dest="cot", action="store_true", default=None)
    ap.add_argument("--no-enable-cot", dest="cot", action="store_false")
    ap.add_argument("--system-prompt")
    a = ap.parse_args()
    load, shots, cot, system = BENCHMARKS[a.benchmark]
    tasks = None
    if a.tasks:
        tasks = [t.strip() for arg in a.tasks for t in arg.split(",")]
    problems = load(
        folder(a.dataset_dir),
        tasks,
        shots if a.n_shots is None else a.n_shots,
        cot if a.cot is None else a.cot,
    )
    if a.system_prompt is not None:
        system = a.system_prompt
    out = sys.stdout.buffer
    for i, p in enumerate(problems):
        out.write(record(i, p, system).encode("utf-8") + b"\n")


if __name__ == "__main__":
    main()
