#!/usr/bin/python3
"""Independent check of the aiperf-metrics golden cases (tests/golden/aiperf-metrics).

Recomputes each case's expected metric records from its raw records
(in.ndjson) and args, written from aiperf-spec.md sections 1.1-1.4, 1.9,
2.4 and 6.3 and man/aiperf-metrics.1 and man/aiperf-records.5 (response
parsing, validity, token counting, the metric formulas, display-unit
conversion, computation order, client-health inputs), and compares them
with out.ndjson: keys and their order, values to the bit, integers vs
floats, and the metrics object byte for byte as orjson writes it. Malformed
inputs are checked against the documented exit status and message form
('aiperf-metrics: <stdin>:LINE: why'). It never runs aiperf-metrics.

Token counts: 'test:words' counts whitespace-separated words (Python
str.split()); 'builtin' is tiktoken o200k_base, counted with the shared
tokenizer oracle (../shared/tools/tok-oracle.mjs, js-tiktoken; node and
TOK_ORACLE_MODULES, default /tmp/tok-oracle); without it the case is
reported as skipped.

usage: check.py [case...]; exits 1 on any mismatch.
"""
import graphlib
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import checkrun  # noqa: E402  tests/golden/checkrun.py
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ORACLE = os.path.join(os.path.dirname(TOP), "shared", "tools", "tok-oracle.mjs")
NS_MS = 1e3 / 1e9
NS_S = 1 / 1e9
I64 = 2 ** 63 - 1

# Registration order (man/aiperf-metrics.1, "Computation order") with each
# metric's required metrics (aiperf-spec.md 1.4 formulas; 1.9 for http).
HTTP = ["http_req_" + t for t in (
    "blocked", "dns_lookup", "connecting", "sending", "waiting", "receiving",
    "duration", "connection_overhead", "total", "data_sent", "data_received",
    "connection_reused", "chunks_sent", "chunks_received")]
DEPS = {
    "input_sequence_length": [], "time_to_first_token": [], "time_to_second_token": [],
    "time_to_first_output_token": [], "request_latency": [], "output_token_count": [],
    "reasoning_token_count": [], "inter_chunk_latency": [], "usage_prompt_tokens": [],
    "usage_completion_tokens": [], "usage_total_tokens": [], "usage_reasoning_tokens": [],
    "num_images": [],
}
for h in HTTP:
    DEPS[h] = []
DEPS["http_req_connection_overhead"] = HTTP[0:3]
DEPS["http_req_total"] = HTTP[0:6]
DEPS.update({
    "prefill_throughput_per_user": ["input_sequence_length", "time_to_first_token"],
    "output_sequence_length": ["output_token_count", "reasoning_token_count"],
    "usage_prompt_tokens_diff_pct": ["input_sequence_length", "usage_prompt_tokens"],
    "usage_reasoning_tokens_diff_pct": ["reasoning_token_count", "usage_reasoning_tokens"],
    "inter_token_latency": ["request_latency", "time_to_first_token",
                            "output_sequence_length"],
    "e2e_output_token_throughput": ["output_sequence_length", "request_latency"],
    "usage_completion_tokens_diff_pct": ["output_sequence_length",
                                         "usage_completion_tokens"],
    "osl_mismatch_diff_pct": ["output_sequence_length"],
    "output_token_throughput_per_user": ["inter_token_latency"],
    "image_throughput": ["num_images", "request_latency"],
    "image_latency": ["num_images", "request_latency"],
})
UNIT = {"time_to_first_token": "ms", "time_to_second_token": "ms",
        "time_to_first_output_token": "ms", "request_latency": "ms",
        "inter_chunk_latency": "ms", "inter_token_latency": "ms",
        "prefill_throughput_per_user": "tokens/sec/user",
        "e2e_output_token_throughput": "tokens/sec/user",
        "output_token_throughput_per_user": "tokens/sec/user",
        "usage_prompt_tokens_diff_pct": "%", "usage_completion_tokens_diff_pct": "%",
        "usage_reasoning_tokens_diff_pct": "%", "osl_mismatch_diff_pct": "%",
        "http_req_data_sent": "KB", "http_req_data_received": "KB",
        "http_req_connection_reused": "ratio", "http_req_chunks_sent": "count",
        "http_req_chunks_received": "count", "num_images": "images",
        "image_throughput": "images/sec", "image_latency": "ms/image"}
for h in HTTP[:9]:
    UNIT[h] = "ms"


def unit(tag):
    return UNIT.get(tag, "tokens")


def static_order():
    ts = graphlib.TopologicalSorter()
    for tag, deps in DEPS.items():
        ts.add(tag, *deps)
    return list(ts.static_order())


ORDER = static_order()


class Bad(Exception):
    """A malformed input line: (line, reason category)."""


# --- tokenizers -------------------------------------------------------------

class Tokenizer:
    def __init__(self, name):
        self.name = name
        self.cache = {}

    def count(self, text):
        if self.name == "test:words":
            return len(text.split())
        if text not in self.cache:
            raise KeyError(text)
        return self.cache[text]

    def prefetch(self, texts):
        """builtin: counts every text with the oracle in one run."""
        if self.name != "builtin":
            return
        todo = sorted(set(t for t in texts if t not in self.cache))
        if not todo:
            return
        env = dict(os.environ)
        env.setdefault("TOK_ORACLE_MODULES", "/tmp/tok-oracle")
        out = subprocess.run(["node", ORACLE, "o200k_base", "--json"],
                             input="".join(json.dumps(t) + "\n" for t in todo),
                             capture_output=True, text=True, env=env, check=True).stdout
        for t, ids in zip(todo, out.splitlines()):
            self.cache[t] = len(json.loads(ids))


# --- response parsing (spec 6.3, man "Response parsing") ----------------------

class ParseError(Exception):
    def __init__(self, typ, message):
        super().__init__(message)
        self.typ, self.message = typ, message


def py_repr(v):
    """Python's repr() of a parsed JSON value."""
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if isinstance(v, (int, float, str)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(py_repr(x) for x in v) + "]"
    return "{" + ", ".join("%s: %s" % (py_repr(k), py_repr(x)) for k, x in v.items()) + "}"


def exc_message(typ, text):
    """repr() of an exception with one string argument."""
    return "%s(%s)" % (typ, repr(text))


def get_json(text):
    if text is None:
        return None
    t = text.strip()
    if not t or t == "[DONE]":
        return None
    try:
        return json.loads(t)
    except ValueError:
        return None


def usage_of(u):
    return u if isinstance(u, dict) and u else None


def parse_chat(j):
    obj = j.get("object")
    if obj not in ("chat.completion", "chat.completion.chunk"):
        raise ParseError("ValueError", exc_message(
            "ValueError", "Unsupported OpenAI object type: %s" % py_repr(obj)))
    usage = usage_of(j.get("usage"))
    choices = j.get("choices") or []
    data = None
    if choices:
        key = "message" if obj == "chat.completion" else "delta"
        d = choices[0].get(key) or {}
        reasoning = d.get("reasoning_content") or d.get("reasoning")
        content = d.get("content")
        calls = d.get("tool_calls")
        if reasoning:
            data = ("reasoning", content or "", reasoning)
        elif calls:
            text = "".join((c.get("function") or {}).get("name", "") +
                           (c.get("function") or {}).get("arguments", "") for c in calls)
            data = ("text", text, "") if text else None
        elif content:
            data = ("text", content, "")
    return data, usage


def parse_completions(j):
    obj = j.get("object")
    if obj not in ("completion", "text_completion"):
        raise ParseError("ValueError", exc_message(
            "ValueError", "Unsupported OpenAI object type: %s" % py_repr(obj)))
    choices = j.get("choices") or []
    text = choices[0].get("text") if choices else None
    return (("text", text, "") if text else None), usage_of(j.get("usage"))


def parse_embeddings(j):
    items = j.get("data") or []
    for it in items:
        if not isinstance(it, dict) or it.get("object") != "embedding":
            raise ParseError("ValueError", exc_message(
                "ValueError", "Received invalid list in response: %s" % py_repr(j)))
    if any(it.get("embedding") is not None for it in items):
        return ("embedding", "", ""), None
    return None, None


def parse_responses(j):
    typ = j.get("type")
    if typ in ("response.output_text.delta", "response.function_call_arguments.delta"):
        d = j.get("delta")
        return (("text", d, "") if d else None), None
    if typ == "response.reasoning_text.delta":
        d = j.get("delta")
        return (("reasoning", "", d) if d else None), None
    if typ == "response.output_text.done":
        d = j.get("text")
        return (("text", d, "") if d else None), None
    if typ == "response.completed":
        return None, usage_of((j.get("response") or {}).get("usage"))
    if j.get("object") == "response":
        out = j.get("output") or []
        reasoning = "".join(s.get("text", "") for it in out if it.get("type") == "reasoning"
                            for s in it.get("summary") or [] if s.get("type") == "summary_text")
        content = "".join(c.get("text", "") for it in out if it.get("type") == "message"
                          for c in it.get("content") or [] if c.get("type") == "output_text")
        if not content:
            content = "".join(it.get("name", "") + it.get("arguments", "") for it in out
                              if it.get("type") == "function_call")
        if not content:
            content = j.get("output_text") or ""
        usage = usage_of(j.get("usage"))
        if reasoning:
            return ("reasoning", content, reasoning), usage
        return (("text", content, "") if content else None), usage
    return None, None


PARSERS = {"chat": parse_chat, "completions": parse_completions,
           "embeddings": parse_embeddings, "nim_embeddings": parse_embeddings,
           "responses": parse_responses}


def endpoint_of(raw, opt):
    a = raw.get("aiperf") or {}
    if a.get("endpoint_type"):
        return a["endpoint_type"]
    if opt["endpoint"]:
        return opt["endpoint"]
    p = raw.get("payload") or {}
    if "messages" in p:
        return "chat"
    if "prompt" in p:
        return "completions"
    if "instructions" in p or "max_output_tokens" in p or any(
            isinstance(i, dict) and "content" in i for i in (
                p.get("input") if isinstance(p.get("input"), list) else [])):
        return "responses"
    if "input" in p:
        return "embeddings"
    return None


def streaming_of(raw, opt):
    a = raw.get("aiperf") or {}
    if "stream" in a:
        return bool(a["stream"])
    p = raw.get("payload") or {}
    if "stream" in p:
        return bool(p["stream"])
    return opt["streaming"]


def response_text(resp):
    if "packets" in resp:
        return "\n".join(p.get("value", "") for p in resp["packets"]
                         if p.get("name") == "data")
    return resp.get("text")


# --- input text (man aiperf-records(5) INPUT TOKENS) -------------------------

def input_text(raw, ep):
    a = raw.get("aiperf") or {}
    if "input_text" in a:
        return a["input_text"]
    p = raw.get("payload") or {}
    parts = []

    def content_text(c):
        if isinstance(c, str):
            return c
        if isinstance(c, list):
            return "".join(x.get("text", "") for x in c
                           if isinstance(x, dict) and x.get("type") in ("text", "input_text"))
        return None

    if ep == "chat":
        for m in p.get("messages") or []:
            t = content_text(m.get("content"))
            if t is not None:
                parts.append(t)
    elif ep == "completions":
        pr = p.get("prompt")
        parts += [pr] if isinstance(pr, str) else [x for x in pr or [] if isinstance(x, str)]
    elif ep in ("embeddings", "nim_embeddings"):
        i = p.get("input")
        parts += [i] if isinstance(i, str) else [x for x in i or [] if isinstance(x, str)]
    elif ep == "responses":
        if p.get("instructions"):
            parts.append(p["instructions"])
        i = p.get("input")
        if isinstance(i, str):
            parts.append(i)
        for it in i if isinstance(i, list) else []:
            t = content_text(it.get("content")) if isinstance(it, dict) else None
            if t is not None:
                parts.append(t)
    return " ".join(parts) if parts else None


# --- one record ---------------------------------------------------------------

def check_types(raw, line):
    if not isinstance(raw, dict):
        raise Bad(line, "not a JSON object")
    if not isinstance(raw.get("metadata"), dict):
        raise Bad(line, "missing 'metadata' object")
    if "start_perf_ns" in raw and not (isinstance(raw["start_perf_ns"], int) and
                                       not isinstance(raw["start_perf_ns"], bool)):
        raise Bad(line, "'start_perf_ns' is not an integer")
    if "responses" in raw and not isinstance(raw["responses"], list):
        raise Bad(line, "'responses' is not an array")
    for i, r in enumerate(raw.get("responses") or []):
        if not isinstance(r, dict) or not isinstance(r.get("perf_ns"), int):
            raise Bad(line, "responses[%d]: 'perf_ns' is not an integer" % i)


def invalid_error():
    return {"message": "InvalidInferenceResultError('Invalid inference result')",
            "type": "InvalidInferenceResultError",
            "cause_chain": ["InvalidInferenceResultError"]}


def compute(raw, opt, tok):
    """The expected metric record (a dict), or None when none is written."""
    md = raw["metadata"]
    err = raw.get("error")
    # never sent, or cancelled in flight at the stop: the original records
    # neither (aiperf-records(5), aiperf-metrics(1))
    if isinstance(err, dict) and err.get("type") in ("NotSentError", "NotFinishedError"):
        return None
    if opt["drop_warmup"] and md.get("benchmark_phase") == "warmup":
        return None
    ep = endpoint_of(raw, opt)
    stream = streaming_of(raw, opt)
    produces = ep in ("chat", "completions", "responses")
    tokenizes = produces or ep in ("embeddings", "nim_embeddings")
    start = raw.get("start_perf_ns")
    a = raw.get("aiperf") or {}
    parsed = []
    if not err:
        try:
            for resp in raw.get("responses") or []:
                j = get_json(response_text(resp))
                if not j:
                    continue
                if not isinstance(j, dict):
                    raise ParseError("AttributeError", exc_message(
                        "AttributeError", "'%s' object has no attribute 'get'" %
                        type(j).__name__))
                data, usage = PARSERS[ep](j) if ep in PARSERS else (None, None)
                if data or usage:
                    parsed.append((resp["perf_ns"], data, usage))
        except ParseError as e:
            err = {"message": e.message, "type": e.typ, "cause_chain": [e.typ]}
    content = [(t, d) for t, d, _ in parsed if d]
    end = a.get("end_perf_ns", parsed[-1][0] if parsed else None)
    valid = (not err and content and isinstance(start, int) and end is not None and
             0 <= start < end < I64 and all(0 < t < I64 for t, _, _ in parsed))
    if not err and not valid:
        err = invalid_error()
    server = opt["server_tokens"]
    itext = input_text(raw, ep) if tokenizes and not server else None
    out = {"metadata": md, "metrics": {}}
    m = out["metrics"]
    if err:
        if itext is not None:
            m["error_isl"] = display("error_isl", tok.count(itext))
        out["error"] = err
        return finish(out, raw, opt, None)
    # token counts
    usages = [u for _, _, u in parsed if u]
    last = usages[-1] if usages else {}
    u_prompt = last.get("prompt_tokens", last.get("input_tokens"))
    u_compl = last.get("completion_tokens", last.get("output_tokens"))
    u_total = last.get("total_tokens")
    det = last.get("completion_tokens_details") or last.get("output_tokens_details") or {}
    u_reason = det.get("reasoning_tokens")
    isl = out_tok = reason_tok = None
    if server:
        isl = u_prompt
        reason_tok = u_reason
        if u_compl is not None:
            out_tok = max(0, u_compl - (u_reason or 0))
    else:
        if itext is not None:
            isl = tok.count(itext)
        if produces:
            outs = [d[1] for _, d in content if d[0] in ("text", "reasoning")]
            reas = [d[2] for _, d in content if d[0] == "reasoning"]
            out_tok = tok.count("".join(outs)) if outs else None
            reason_tok = tok.count("".join(reas)) if reas else None
    if not produces:
        out_tok = reason_tok = None
    v = {}
    if isl is not None:
        v["input_sequence_length"] = isl
    first, lastc = content[0][0], content[-1][0]
    if stream:
        if first - start >= 0:
            v["time_to_first_token"] = first - start
        if len(content) >= 2:
            v["time_to_second_token"] = content[1][0] - first
        for t, d in content:
            if (d[0] == "text" and d[1]) or (d[0] == "reasoning" and d[1]):
                v["time_to_first_output_token"] = t - start
                break
    v["request_latency"] = lastc - start
    if out_tok:
        v["output_token_count"] = out_tok
    if reason_tok:
        v["reasoning_token_count"] = reason_tok
    if stream and len(content) >= 2:
        gaps = [content[i + 1][0] - content[i][0] for i in range(len(content) - 1)]
        if min(gaps) >= 0:
            v["inter_chunk_latency"] = gaps
    if u_prompt is not None:
        v["usage_prompt_tokens"] = u_prompt
    if u_compl is not None:
        v["usage_completion_tokens"] = u_compl
    if u_total is not None:
        v["usage_total_tokens"] = u_total
    if u_reason is not None:
        v["usage_reasoning_tokens"] = u_reason
    http = a.get("http")
    if isinstance(http, dict):
        dns = http.get("dns_ns", 0)
        conn = max(http.get("connect_ns", 0), http.get("tls_ns", 0))
        ttfb, total = http.get("ttfb_ns", 0), http.get("total_ns", 0)
        v.update({"http_req_blocked": 0, "http_req_dns_lookup": dns,
                  "http_req_connecting": conn - dns, "http_req_sending": 0,
                  "http_req_waiting": ttfb - conn, "http_req_receiving": total - ttfb,
                  "http_req_duration": total - conn,
                  "http_req_data_sent": http.get("bytes_sent", 0),
                  "http_req_data_received": http.get("bytes_received", 0),
                  "http_req_connection_reused": 1 if http.get("reused") else 0,
                  "http_req_connection_overhead": conn, "http_req_total": total})
    if produces and (out_tok is not None or reason_tok is not None):
        v["output_sequence_length"] = (out_tok or 0) + (reason_tok or 0)
    osl = v.get("output_sequence_length")
    ttft = v.get("time_to_first_token")
    lat = v["request_latency"]
    if stream and isl is not None and ttft:
        v["prefill_throughput_per_user"] = isl / (ttft * NS_S)
    if not server:
        if u_prompt is not None and isl:
            v["usage_prompt_tokens_diff_pct"] = abs(u_prompt - isl) / isl * 100.0
        if u_compl is not None and osl:
            v["usage_completion_tokens_diff_pct"] = abs(u_compl - osl) / osl * 100.0
        if u_reason is not None and reason_tok:
            v["usage_reasoning_tokens_diff_pct"] = abs(u_reason - reason_tok) / reason_tok * 100.0
    if stream and osl is not None and osl >= 2 and ttft is not None:
        v["inter_token_latency"] = (lat - ttft) / (osl - 1)
    if osl is not None and lat:
        v["e2e_output_token_throughput"] = osl / (lat * NS_S)
    p = raw.get("payload") or {}
    req = a.get("max_tokens")
    if req is None:
        for k in ("max_completion_tokens", "max_tokens", "max_output_tokens"):
            if p.get(k) is not None:
                req = p[k]
                break
    if req and osl is not None:
        v["osl_mismatch_diff_pct"] = (osl - req) / req * 100.0
    itl = v.get("inter_token_latency")
    if itl:
        v["output_token_throughput_per_user"] = 1 / (itl * NS_S)
    # image metrics (supports_images endpoints): image parts in the body
    if ep in ("chat", "responses", "chat_embeddings", "embeddings", "nim_embeddings",
              "image_retrieval"):
        nimg = 0
        for key in ("messages", "input"):
            items = p.get(key) if isinstance(p.get(key), list) else []
            for it in items:
                if not isinstance(it, dict):
                    continue
                parts = [it] + (it["content"] if isinstance(it.get("content"), list) else [])
                nimg += sum(1 for q in parts if isinstance(q, dict) and
                            q.get("type") in ("image_url", "input_image"))
        if nimg:
            v["num_images"] = nimg
            if lat:
                v["image_throughput"] = nimg / (lat * NS_S)
            v["image_latency"] = lat * (1e3 / 1e9) / nimg
    for tag in ORDER:
        if tag in v:
            m[tag] = display(tag, v[tag])
    if not m:
        return None
    return finish(out, raw, opt, (content, lastc))


def display(tag, x):
    u = unit(tag)
    if u == "ms":
        x = [y * NS_MS for y in x] if isinstance(x, list) else x * NS_MS
    elif u == "KB":
        x = x * (1 / 1024)
    return {"value": x, "unit": u}


def finish(out, raw, opt, valid):
    a = raw.get("aiperf") or {}
    if opt["http_trace"]:
        if isinstance(raw.get("trace_data"), dict):
            out["trace_data"] = raw["trace_data"]
        elif isinstance(a.get("http"), dict):
            out["trace_data"] = dict([("trace_type", "curl")] + list(a["http"].items()))
    c = {}
    start = raw.get("start_perf_ns")
    if isinstance(a.get("intended_perf_ns"), int):
        c["schedule_lateness_ns"] = start - a["intended_perf_ns"]
        if valid:
            c["intended_latency_ns"] = valid[1] - a["intended_perf_ns"]
    stamps = a.get("server_stamps")
    if isinstance(stamps, list):
        od, k = [], 0
        for resp in raw.get("responses") or []:
            parts = ([p.get("value", "") for p in resp.get("packets", [])
                      if p.get("name") == "data"] if "packets" in resp else [resp.get("text")])
            for part in parts:
                if part and re.search(r'"aiperf_send_ns"[ :]*[0-9]', part):
                    if k < len(stamps) and isinstance(stamps[k], int):
                        od.append(resp["perf_ns"] - stamps[k])
                    k += 1
        if od:
            c["observation_delay_ns"] = od
    if "cpu_ns" in a:
        c["cpu_ns"] = a["cpu_ns"]
    if c:
        out["aiperf"] = c
    return out


# --- serialisation as orjson writes it --------------------------------------

def fnum(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    s = repr(x)
    if "e" in s:
        mant, exp = s.split("e")
        s = mant + "e" + str(int(exp))
    return s


def dumps(v):
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dumps(x)
                              for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dumps(x) for x in v) + "]"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return fnum(v)
    return json.dumps(v, ensure_ascii=False)


def same(a, b):
    """Equal JSON values, int and float told apart, key order included."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


# --- cases ------------------------------------------------------------------

def parse_args(words):
    o = {"tokenizer": None, "server_tokens": False, "http_trace": False,
         "drop_warmup": False, "keep_going": False, "endpoint": None, "streaming": False}
    it = iter(words)
    for w in it:
        if w == "--tokenizer":
            o["tokenizer"] = next(it)
        elif w == "--use-server-token-count":
            o["server_tokens"] = True
        elif w == "--export-http-trace":
            o["http_trace"] = True
        elif w == "--drop-warmup":
            o["drop_warmup"] = True
        elif w == "--keep-going":
            o["keep_going"] = True
        elif w == "--endpoint-type":
            o["endpoint"] = next(it)
        elif w == "--streaming":
            o["streaming"] = True
        else:
            raise ValueError("checker does not know option %r" % w)
    return o


def read_raw(line, n):
    try:
        raw = json.loads(line)
    except ValueError:
        raise Bad(n, "invalid JSON")
    check_types(raw, n)
    return raw


def check_case(name):
    d = os.path.join(HERE, name)
    opt = parse_args(shlex.split(open(os.path.join(d, "args")).read()))
    tok = Tokenizer(opt["tokenizer"] or "test:words")
    lines = open(os.path.join(d, "in.ndjson"), encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    gold = open(os.path.join(d, "out.ndjson"), encoding="utf-8").read()
    err = open(os.path.join(d, "err"), encoding="utf-8").read()
    status = int(open(os.path.join(d, "status")).read()) if os.path.exists(
        os.path.join(d, "status")) else 0
    bad, exp, exp_err, exp_status = [], [], [], 0
    raws = []
    for n, line in enumerate(lines, 1):
        try:
            raws.append(read_raw(line, n))
        except Bad as e:
            n, why = e.args
            if not opt["keep_going"]:
                exp_err.append(("<stdin>:%d: " % n, why, ""))
                exp_status = 1
                break
            exp_err.append(("<stdin>:%d: " % n, why, " (skipped)"))
            raws.append(None)
    if opt["keep_going"] and any(r is None for r in raws):
        exp_err.append(("", "%d malformed lines skipped" % raws.count(None), ""))
    if opt["tokenizer"] == "builtin":
        texts = []
        for r in raws:
            if r is None:
                continue
            ep = endpoint_of(r, opt)
            t = input_text(r, ep)
            if t is not None:
                texts.append(t)
            # the texts counted: the concatenated outputs and reasonings
            cont = []
            for resp in r.get("responses") or []:
                j = get_json(response_text(resp))
                if isinstance(j, dict) and ep in PARSERS:
                    try:
                        data = PARSERS[ep](j)[0]
                    except ParseError:
                        data = None
                    if data:
                        cont.append(data)
            texts.append("".join(x[1] for x in cont if x[0] in ("text", "reasoning")))
            texts.append("".join(x[2] for x in cont if x[0] == "reasoning"))
        try:
            tok.prefetch(texts)
        except (OSError, subprocess.CalledProcessError) as e:
            return None, "SKIP: the tokenizer oracle did not run (%s)" % e
    for r in raws:
        if r is None:
            continue
        rec = compute(r, opt, tok)
        if rec is not None:
            exp.append(rec)
    got = [json.loads(x) for x in gold.split("\n") if x]
    if len(got) != len(exp):
        bad.append("out.ndjson: %d records, reference %d" % (len(got), len(exp)))
    nvals = 0
    for i, (g, e) in enumerate(zip(got, exp), 1):
        if list(g) != list(e):
            bad.append("record %d: keys %s, reference %s" % (i, list(g), list(e)))
        for k in e:
            if k not in g:
                continue
            if k == "metrics":
                gm, em = g[k], e[k]
                if list(gm) != list(em):
                    bad.append("record %d: metrics %s, reference %s" % (i, list(gm), list(em)))
                for t in em:
                    if t in gm and not same(gm[t], em[t]):
                        bad.append("record %d: %s: golden %s, reference %s" % (
                            i, t, dumps(gm[t]), dumps(em[t])))
                    nvals += 1
                text = gold.split("\n")[i - 1]
                if '"metrics":' + dumps(em) not in text:
                    bad.append("record %d: the metrics object is not written as orjson "
                               "writes %s" % (i, dumps(em)[:200]))
            elif not same(g[k], e[k]):
                bad.append("record %d: %s: golden %s, reference %s" % (
                    i, k, dumps(g[k]), dumps(e[k])))
    gl = err.split("\n")
    if gl and gl[-1] == "":
        gl.pop()
    if len(gl) != len(exp_err) or any(
            not (x == "aiperf-metrics: " + p + w + s or
                 (x.startswith("aiperf-metrics: " + p) and x.endswith(s) and w != "" and
                  w in ("invalid JSON", "not a JSON object")))
            for x, (p, w, s) in zip(gl, exp_err)):
        bad.append("stderr: golden %s, reference %s" % (
            gl, ["aiperf-metrics: %s%s%s" % x for x in exp_err]))
    if status != exp_status:
        bad.append("status: golden %d, reference %d" % (status, exp_status))
    how = "%d records, %d metric values" % (len(exp), nvals)
    if exp_err:
        how += ", stderr %s" % "; ".join(w for _, w, _ in exp_err)
    return bad, how + ", status %d" % exp_status


def main():
    return checkrun.run(HERE, check_case)


if __name__ == "__main__":
    sys.exit(main())
