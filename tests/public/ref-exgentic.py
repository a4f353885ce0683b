#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The requests aiperf-gen should build from Exgentic trace rows, in Python.

A second implementation of the original's ExgenticDatasetLoader and
ExgenticV2DatasetLoader (src/aiperf/dataset/loader/exgentic.py,
exgentic_v2.py, exgentic_filters.py) step by step as they go: the filters
and their checks, the replayable spans, the OpenTelemetry GenAI messages
as chat messages, tools and request controls, the order and the timing
(closed-loop delays, or one conversation a call with its start offset
under --fixed-schedule); then the body the original's ChatEndpoint
writes for each turn (messages, model, stream, tools,
max_completion_tokens, the recorded controls) and the record fields
aiperf-gen writes for it. The standard library only. tests/cli/t1195
compares its output with aiperf-gen's records.

usage: ref-exgentic.py --rows FILE --version 1|2 --bound N [--fixed]
                       [--filter KEY=VALUE ...] [--model NAME]
Output: one JSON line a request, in the order they are sent:
  {"conversation_id","turn_index","max_tokens"[,"delay_ns"][,"at_ns"],"headers","payload"}
or "error: MESSAGE" and exit status 1 where the original raises.
"""

import argparse
import json
import math
import sys
from datetime import datetime, timezone

HARNESSES = ["claude_code", "openai_solo", "smolagents_code", "tool_calling",
             "tool_calling_with_shortlisting"]
MODELS = ["DeepSeek-V3.2", "Kimi-K2.5", "claude-opus-4-5", "gemini-3-pro-preview",
          "gpt-4.1", "gpt-5.2-2025-12-11"]
BENCHES = ["appworld", "browsecompplus", "swebench", "tau2_airline", "tau2_retail",
           "tau2_telecom"]
V1_BAD = {("openai_solo", "gpt-5.2-2025-12-11"), ("smolagents_code", "claude-opus-4-5"),
          ("smolagents_code", "gemini-3-pro-preview"),
          ("smolagents_code", "gpt-5.2-2025-12-11"), ("tool_calling", "gpt-5.2-2025-12-11"),
          ("tool_calling_with_shortlisting", "claude-opus-4-5"),
          ("tool_calling_with_shortlisting", "gpt-4.1"),
          ("tool_calling_with_shortlisting", "gpt-5.2-2025-12-11")}
V2_BAD = {("claude_code", "gpt-4.1"), ("openai_solo", "gpt-4.1"),
          ("smolagents_code", "gpt-4.1"), ("tool_calling", "gpt-4.1"),
          ("tool_calling_with_shortlisting", "claude-opus-4-5"),
          ("tool_calling_with_shortlisting", "gpt-4.1"),
          ("tool_calling_with_shortlisting", "gpt-5.2-2025-12-11")}


class LoaderError(Exception):
    pass


def dumps(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def canonical(value):
    low = value.casefold()
    for p in ("openai/azure/", "azure/", "aws/", "gcp/"):
        if low.startswith(p):
            return value[len(p):]
    return value


def enum_value(values, s):
    for v in values:
        if v.casefold() == s.casefold():
            return v
    return None


def available(bad, v2):
    models = [m for m in MODELS if any((h, m) not in bad for h in HARNESSES)]
    out = "harness=[%s], source_model=[%s]" % (", ".join(HARNESSES), ", ".join(models))
    if v2:
        out += ", benchmark=[%s]" % ", ".join(BENCHES)
    return out


def read_filters(pairs, v2):
    bad = V2_BAD if v2 else V1_BAD
    f = {"harness": None, "source_model": None, "benchmark": None}
    table = {"harness": HARNESSES, "source_model": MODELS, "benchmark": BENCHES}
    for k, v in pairs:
        if k == "source_model":
            v = canonical(v)
        if k not in table or enum_value(table[k], v) is None:
            # pydantic's ValidationError, in short: extra="forbid", the enum
            why = ("extra inputs are not permitted" if k not in table else
                   "input should be " + ", ".join("%r" % x for x in table[k][:-1])
                   + " or %r" % table[k][-1])
            raise LoaderError("Invalid Exgentic dataset filters: %s: %s; available filters: %s"
                              % (k, why, available(bad, v2)))
        f[k] = enum_value(table[k], v)
    if f["benchmark"] is not None and not v2:
        raise LoaderError("Exgentic benchmark filter is only supported for Exgentic v2 traces")
    h, m = f["harness"], f["source_model"]
    if h is not None and m is not None and (h, m) in bad:
        ok = ", ".join(x for x in MODELS if (h, x) not in bad)
        raise LoaderError("Unsupported Exgentic filter combination harness=%r, "
                          "source_model=%r; available source models for this harness: %s"
                          % (h, m, ok))
    if m is not None and all((x, m) in bad for x in HARNESSES):
        raise LoaderError("Unsupported Exgentic source_model=%r; no harness supports it" % m)
    return f


def timestamp_ms(value):
    t = datetime.fromisoformat(value)
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return t.timestamp() * 1000.0


def json_string(v):
    return v if isinstance(v, str) else dumps(v)


def parse_list(value, field):
    try:
        parsed = json.loads(value) if isinstance(value, (str, bytes)) else value
    except json.JSONDecodeError as e:
        raise ValueError("%s is not valid JSON: %s" % (field, e)) from e
    if not isinstance(parsed, list) or not all(isinstance(i, dict) for i in parsed):
        raise ValueError("%s must be a JSON array of objects" % field)
    return parsed


def normalize_message(message):
    role, parts = message.get("role"), message.get("parts")
    if not isinstance(role, str) or not isinstance(parts, list):
        raise ValueError("each input message requires a string role and parts array")
    content, reasoning, calls, out = [], [], [], []

    def flush():
        m = {"role": "system" if role == "developer" else role, "content": "".join(content)}
        if reasoning:
            m["reasoning_content"] = "".join(reasoning)
        if calls:
            m["tool_calls"] = list(calls)
        out.append(m)
        content.clear()
        reasoning.clear()
        calls.clear()

    for part in parts:
        if not isinstance(part, dict):
            raise ValueError("message parts must be objects")
        t = part.get("type")
        if t == "tool_call_response":
            if content or reasoning or calls:
                flush()
            out.append({"role": "tool", "tool_call_id": part.get("id"),
                        "content": json_string(part.get("result"))})
        elif t == "text":
            content.append(str(part.get("content") or ""))
        elif t == "thinking":
            reasoning.append(str(part.get("thinking") or ""))
        elif t == "tool_call":
            calls.append({"id": part.get("id"), "type": "function",
                          "function": {"name": part.get("name"),
                                       "arguments": json_string(part.get("arguments"))}})
        else:
            raise ValueError("unsupported %r message part %r" % (role, t))
    if content or reasoning or calls or not out:
        flush()
    return out


def system_messages(value):
    if value is None:
        return []
    if not isinstance(value, str):
        raise ValueError("gen_ai.system_instructions must be a string")
    if not value:
        return []
    try:
        parts = parse_list(value, "gen_ai.system_instructions")
    except ValueError:
        return [{"role": "system", "content": value}]
    return normalize_message({"role": "system", "parts": parts})


def messages(value):
    out = []
    for m in parse_list(value, "gen_ai.input.messages"):
        out.extend(normalize_message(m))
    if not out:
        raise ValueError("gen_ai.input.messages must contain at least one message")
    return out


def tools(value):
    if value is None:
        return None
    out = []
    for t in parse_list(value, "gen_ai.tool.definitions"):
        if t.get("type") != "function":
            raise ValueError("unsupported tool type %r" % t.get("type"))
        out.append({"type": "function", "function": {"name": t.get("name"),
                    "description": t.get("description"), "parameters": t.get("parameters")}})
    return out or None


def extra_body(a):
    out = {}
    t = a.get("gen_ai.request.temperature")
    if t is not None:
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
            raise ValueError("gen_ai.request.temperature must be finite")
        out["temperature"] = t
    s = a.get("gen_ai.request.stop_sequences")
    if s is not None:
        if not isinstance(s, list) or not all(isinstance(x, str) for x in s):
            raise ValueError("gen_ai.request.stop_sequences must be a list of strings")
        if s:
            out["stop"] = s
    return out or None


def parse_span(sid, i, span, stats):
    a = span.get("attributes") or {}
    if not (span.get("type") == "llm_call" or
            (span.get("type") is None and a.get("gen_ai.operation.name") == "chat")):
        stats["non_llm"] += 1
        return None
    if (span.get("status") or {}).get("code") == 2:
        stats["failed"] += 1
        return None
    it, ot = a.get("gen_ai.usage.input_tokens"), a.get("gen_ai.usage.output_tokens")
    if not isinstance(it, int) or not isinstance(ot, int):
        raise LoaderError("Exgentic session %r span %d has non-integer token counts" % (sid, i))
    if it <= 0 or ot <= 0:
        stats["zero_token"] += 1
        return None
    try:
        start, end = timestamp_ms(span["start_time"]), timestamp_ms(span["end_time"])
        if end < start:
            raise ValueError("span ends before it starts")
        mt = a.get("gen_ai.request.max_tokens")
        if mt is not None and (not isinstance(mt, int) or isinstance(mt, bool) or mt < 1):
            raise ValueError("gen_ai.request.max_tokens must be a positive integer")
        turn = {"max_tokens": mt or ot,
                "raw_messages": system_messages(a.get("gen_ai.system_instructions"))
                + messages(a.get("gen_ai.input.messages")),
                "raw_tools": tools(a.get("gen_ai.tool.definitions")),
                "extra_body": extra_body(a),
                "extra_headers": {"x-dynamo-session-id": sid},
                "delay": None, "timestamp": None}
    except (KeyError, TypeError, ValueError) as e:
        raise LoaderError("Exgentic session %r span %d: %s" % (sid, i, e)) from e
    return start, i, end, turn


def convert(rows, f, bound, fixed):
    convs, combos, seen = [], set(), set()
    stats = {"failed": 0, "non_llm": 0, "zero_token": 0, "sessions": 0, "requests": 0}
    for n, row in enumerate(rows, 1):
        h, sid = row.get("harness"), row.get("session_id")
        if not isinstance(h, str) or not h:
            raise LoaderError("Exgentic row %d has no harness" % n)
        if not isinstance(sid, str) or not sid:
            raise LoaderError("Exgentic row %d has no session_id" % n)
        models, spans = row.get("models"), row.get("spans")
        if not isinstance(models, list) or not all(isinstance(m, str) and m for m in models):
            raise LoaderError("Exgentic row %d models must be a list of non-empty strings" % n)
        if not isinstance(spans, list) or not all(isinstance(s, dict) for s in spans):
            raise LoaderError("Exgentic row %d spans must be a list of objects" % n)
        srcs = {canonical(m) for m in models}
        combos.update((h, m) for m in srcs)
        bench = row.get("benchmark")
        bench = bench if isinstance(bench, str) else None
        if f["harness"] is not None and h != f["harness"]:
            continue
        if f["source_model"] is not None and not any(
                m.casefold() == f["source_model"].casefold() for m in srcs):
            continue
        if f["benchmark"] is not None and bench != f["benchmark"]:
            continue
        calls = [c for c in (parse_span(sid, i, s, stats) for i, s in enumerate(spans)) if c]
        calls.sort(key=lambda c: (c[0], c[1]))
        if not calls:
            continue
        if sid in seen:
            raise LoaderError("Duplicate Exgentic session_id %r" % sid)
        seen.add(sid)
        stats["sessions"] += 1
        if fixed:
            for start, i, _, turn in calls:
                turn["timestamp"] = start - calls[0][0]
                convs.append(("%s:%d" % (sid, i), [turn]))
        else:
            prev, turns = None, []
            for start, _, end, turn in calls:
                if prev is not None:
                    turn["delay"] = max(0.0, start - prev)
                turns.append(turn)
                prev = end
            convs.append((sid, turns))
        if stats["sessions"] >= bound:
            break
    if not convs:
        av = ", ".join("%s/%s" % c for c in sorted(combos))
        raise LoaderError("No replayable Exgentic spans matched harness=%s, source_model=%s, "
                          "benchmark=%s; available combinations: %s"
                          % (f["harness"], f["source_model"], f["benchmark"], av or "none"))
    return convs


def payload(turn, model):
    """ChatEndpoint.format_payload: streaming off, no extra inputs."""
    p = {"messages": turn["raw_messages"], "model": model, "stream": False}
    if turn["raw_tools"] is not None:
        p["tools"] = turn["raw_tools"]
    p["max_completion_tokens"] = turn["max_tokens"]
    p.update(turn["extra_body"] or {})
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", required=True)
    ap.add_argument("--version", type=int, choices=[1, 2], required=True)
    ap.add_argument("--bound", type=int, required=True)
    ap.add_argument("--fixed", action="store_true")
    ap.add_argument("--filter", action="append", default=[])
    ap.add_argument("--model", default="m")
    a = ap.parse_args()
    try:
        f = read_filters([x.split("=", 1) for x in a.filter], a.version == 2)
        with open(a.rows, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        convs = convert(rows, f, a.bound, a.fixed)
    except LoaderError as e:
        print("error: %s" % e)
        return 1
    if a.fixed:  # the fixed schedule sends by timestamp, ties in dataset order
        convs = sorted(convs, key=lambda c: c[1][0]["timestamp"])
    for cid, turns in convs:
        for k, t in enumerate(turns):
            r = {"conversation_id": cid, "turn_index": k, "max_tokens": t["max_tokens"]}
            if t["delay"] is not None:
                r["delay_ns"] = round(t["delay"] * 1e6)
            if t["timestamp"] is not None:
                r["at_ns"] = round(t["timestamp"] * 1e6)
            r["headers"] = t["extra_headers"]
            r["payload"] = payload(t, a.model)
            print(dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
