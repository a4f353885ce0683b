#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check a dag_jsonl run against the rules of docs/benchmark-modes/dag.md.

usage: dag-check.py DAG_FILE RAW

DAG_FILE is the dag_jsonl file (each conversation sent once: one tree a
root, no SPAWN target shared), RAW aiperf-send's raw records (or
profile_export_raw.jsonl). For every turn
sent it rebuilds the messages the original sends (pure append,
DELTAS_WITHOUT_RESPONSES): a FORK child starts from its parent's history
up to the forking turn, the parent's captured reply included; a SPAWN
child from nothing; each turn adds its own messages, then its reply
(content; skipped when empty). It checks the order: a child's first turn
after its parent's turn returned, a gated turn after its joined children
finished, a pre-session spawn with no wait. Prints one line per turn sent,
"conv turn", in start order, and exits 1 at the first mismatch.
"""
import json
import sys


def reply_of(raw):
    text = ""
    for r in raw.get("responses", []):
        for p in r.get("packets", []):
            v = p.get("value", "")
            if not v.startswith("{"):
                continue
            ch = json.loads(v).get("choices") or [{}]
            d = ch[0].get("delta") or ch[0].get("message") or {}
            text += d.get("content") or ""
    if not text and raw.get("responses"):
        body = raw["responses"][0].get("text", "")
        if body.startswith("{"):
            ch = json.loads(body).get("choices") or [{}]
            text = (ch[0].get("message") or {}).get("content") or ""
    return text


def main():
    dag = {}
    for line in open(sys.argv[1]):
        if line.strip():
            c = json.loads(line)
            dag[c["session_id"]] = c
    # the branches, as the loader desugars them: child -> how it starts
    start = {}
    for sid, c in dag.items():
        n = len(c["turns"])
        for ch in c.get("pre_session_spawns", []):
            start[ch] = {"dag_parent": sid}
        for k, t in enumerate(c["turns"]):
            for f in t.get("forks", []):
                ch = f if isinstance(f, str) else f["child"]
                start[ch] = {"dag_parent": sid, "dag_after": k, "dag_fork": True}
            for e in t.get("spawns", []):
                kids = [e] if isinstance(e, str) else e["children"]
                j = k + 1 if isinstance(e, str) or e.get("join_at") is None else e["join_at"]
                for ch in kids:
                    start[ch] = {"dag_parent": sid, "dag_after": k}
                    if j < n:
                        start[ch]["dag_join"] = j
    turns = {}  # conversation -> {k: (record info, raw)}
    info = {}
    for l in open(sys.argv[2]):
        r = json.loads(l)
        m = r["metadata"]
        sid, k = m["conversation_id"], m["turn_index"]
        if k in turns.get(sid, {}):
            sys.exit("%s turn %d sent twice" % (sid, k))
        q = dict(start.get(sid, {}), conversation_id=sid, turn_index=k)
        turns.setdefault(sid, {})[k] = (q, r)
        info[sid] = q
    for sid, c in dag.items():
        if sorted(turns.get(sid, {})) != list(range(len(c["turns"]))):
            sys.exit("%s: turns sent %s" % (sid, sorted(turns.get(sid, {}))))

    def history(corr, upto):
        """messages before turn upto's own, and after (upto < 0: seed only)"""
        q0 = info[corr]
        conv = dag[q0["conversation_id"]]
        msgs = []
        if q0.get("dag_fork"):
            p = q0["dag_parent"]
            msgs = full(p, q0["dag_after"])
        for k in range(upto):
            msgs += conv["turns"][k]["messages"]
            rep = reply_of(turns[corr][k][1])
            if rep:
                msgs.append({"role": "assistant", "content": rep})
        return msgs

    def full(corr, k):
        """the history after turn k returned"""
        conv = dag[info[corr]["conversation_id"]]
        m = history(corr, k) + conv["turns"][k]["messages"]
        rep = reply_of(turns[corr][k][1])
        return m + ([{"role": "assistant", "content": rep}] if rep else [])

    for corr, ts in turns.items():
        conv = dag[info[corr]["conversation_id"]]
        for k, (q, raw) in ts.items():
            want = history(corr, k) + conv["turns"][k]["messages"]
            got = raw["payload"]["messages"]
            if got != want:
                sys.exit("%s turn %d: messages\n got  %s\n want %s" %
                         (q["conversation_id"], k, json.dumps(got), json.dumps(want)))
            t = conv["turns"][k]
            for key, v in (t.get("extra") or {}).items():
                if raw["payload"].get(key) != v:
                    sys.exit("%s turn %d: extra %s" % (q["conversation_id"], k, key))
            if k > 0 and raw["start_perf_ns"] < ts[k - 1][1]["aiperf"]["end_perf_ns"]:
                sys.exit("%s turn %d before its previous turn returned" % (q["conversation_id"], k))
        q0 = info[corr]
        if "dag_parent" in q0 and "dag_after" in q0:
            p = turns[q0["dag_parent"]][q0["dag_after"]][1]
            if ts[0][1]["start_perf_ns"] < p["aiperf"]["end_perf_ns"]:
                sys.exit("%s started before its parent's turn returned" % q0["conversation_id"])
        if "dag_join" in q0:
            last = ts[max(ts)][1]
            gated = turns[q0["dag_parent"]][q0["dag_join"]][1]
            if gated["start_perf_ns"] < last["aiperf"]["end_perf_ns"]:
                sys.exit("%s: the parent's turn %d went before it finished" %
                         (q0["conversation_id"], q0["dag_join"]))
    sent = sorted((raw["start_perf_ns"], q["conversation_id"], k)
                  for ts in turns.values() for k, (q, raw) in ts.items())
    for _, c, k in sent:
        print(c, k)


main()
