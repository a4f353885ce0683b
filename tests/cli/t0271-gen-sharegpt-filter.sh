#!/bin/sh
# aiperf-gen --public-dataset sharegpt: the original's length filter (prompt
# 4..1024 tokens, prompt + completion <= 2048, completion >= 4 unless --osl)
# and what each kept entry becomes, checked against an independent count:
# python3 reads the same file, aiperf-tok counts each prompt and completion
# with the same tokenizer, python3 applies the filter.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
export HF_HUB_OFFLINE=1 HF_HOME="$TMP/hfhome"

# Entries on each side of every bound (one token per " hello" in
# o200k_base, which the independent count confirms or refutes), random
# lengths, text that is not plain ASCII, and the entries the original
# skips or sends as they are.
python3 - "$TMP/sg.json" <<'P'
import json, random, sys
random.seed(7)
def words(n, w=" hello"):
    return ("hello" + w * (n - 1)) if n else ""
pairs = [(3, 10), (4, 10), (5, 3), (5, 4), (1024, 10), (1025, 10),
         (1024, 1024), (1024, 1025), (1000, 1048), (1000, 1049), (4, 0),
         (4, 2044), (4, 2045), (0, 0)]
rows = []
for p, c in pairs:
    rows.append({"id": "b%d-%d" % (p, c), "conversations": [
        {"from": "human", "value": words(p)}, {"from": "gpt", "value": words(c)}]})
vocab = ["the", "cat", "sat", "on", "a", "mat", "é", "日本語", "🙂", "\"quoted\"",
         "back\\slash", "tab\there", "new\nline", "<|endoftext|>", "]", "}", "{", "["]
for i in range(300):
    n, m = random.randint(0, 1400), random.randint(0, 1400)
    conv = [{"from": "human", "value": " ".join(random.choice(vocab) for _ in range(n))},
            {"from": "gpt", "value": " ".join(random.choice(vocab) for _ in range(m))}]
    if i % 17 == 0:
        conv.append({"from": "human", "value": "a later turn, never read"})
    if i % 19 == 0:
        conv.reverse()
    rows.append({"id": "r%d" % i, "conversations": conv})
rows.insert(5, {"id": "none"})
rows.insert(9, {"id": "null", "conversations": None})
rows.insert(11, {"id": "empty", "conversations": []})
rows.insert(13, {"id": "one", "conversations": [{"from": "human", "value": "hello " * 20}]})
json.dump(rows, open(sys.argv[1], "w"), ensure_ascii=bool(random.random() < 0.5), indent=1)
P

# expect [--osl]: the kept entries, [prompt, completion tokens] a line, as
# the independent count has them.
expect() {
	python3 - "$TMP/sg.json" "$TMP/texts" <<'P' &&
import json, sys
rows = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
    for r in rows:
        c = r.get("conversations") or []
        if len(c) >= 2:
            for t in c[:2]:
                f.write(json.dumps(t["value"]) + "\n")
P
	aiperf-tok --tokenizer builtin --json --count <"$TMP/texts" >"$TMP/counts" &&
	python3 - "$TMP/sg.json" "$TMP/counts" "${1:-}" <<'P'
import json, sys
rows = json.load(open(sys.argv[1]))
counts = [int(x) for x in open(sys.argv[2])]
osl = sys.argv[3] == "--osl"
k = 0
for r in rows:
    c = r.get("conversations") or []
    if len(c) < 2:
        continue
    p, n = counts[k], counts[k + 1]
    k += 2
    ok = 4 <= p <= 1024 and p + n <= 2048 and (osl or n >= 4)
    if ok:
        print(json.dumps([c[0]["value"], n]))
P
}

# got: the same from aiperf-gen's inputs.json
got() {
	python3 -c '
import json, sys
for d in json.load(open(sys.argv[1]))["data"]:
    p = d["payloads"][0]
    print(json.dumps([p["messages"][0]["content"], p["max_completion_tokens"]]))
' "$1"
}

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 5 --public-dataset sharegpt \
		--input-file sg.json "$@"
}

test_expect_success 'the kept entries and their max tokens, as counted independently' '
	expect >want &&
	test "$(wc -l <want)" -gt 50 &&
	gen --inputs-json in.json --request-count 1 >/dev/null &&
	got in.json >have &&
	test_cmp want have
'

test_expect_success 'the bounds fall where the original puts them' '
	python3 -c "
import json
have = [json.loads(l) for l in open(\"have\")]
h = lambda n: \"hello\" + \" hello\" * (n - 1)
# of the first 14 entries, these pass: 4+10, 5+4, 1024+10, 1024+1024,
# 1000+1048, 4+2044 (not 3+10, 5+3, 1025+10, 1024+1025, 1000+1049, 4+0,
# 4+2045, 0+0)
want = [[h(4), 10], [h(5), 4], [h(1024), 10], [h(1024), 1024], [h(1000), 1048], [h(4), 2044]]
assert have[:6] == want, [(len(p), n) for p, n in have[:8]]
"
'

test_expect_success 'with --osl a short completion passes (max_tokens still its length)' '
	expect --osl >want-osl &&
	test "$(wc -l <want-osl)" -gt "$(wc -l <want)" &&
	gen --osl 100 --inputs-json osl.json --request-count 1 >/dev/null &&
	got osl.json >have-osl &&
	test_cmp want-osl have-osl &&
	grep -q "^\[\"hello hello hello hello hello\", 3\]$" have-osl
'

test_expect_success 'one thread or many: the same' '
	taskset -c 0 true 2>/dev/null || skip_because "taskset is not available" &&
	taskset -c 0 aiperf-gen -m m --tokenizer builtin --random-seed 5 \
		--public-dataset sharegpt --input-file sg.json --inputs-json one.json \
		--request-count 1 >/dev/null &&
	cmp in.json one.json
'

test_expect_success 'sequential by default: each kept entry once, in order, then again' '
	n=$(wc -l <want) &&
	gen --request-count $((n + 2)) >rec &&
	jq -r .conversation_id rec >ids &&
	awk -v n="$n" "BEGIN { for (i = 0; i < n; i++) printf \"session_%06d\n\", i;
		print \"session_000000\"; print \"session_000001\" }" >expect &&
	test_cmp expect ids &&
	test "$(jq -r ".payload.messages[0].content" rec | head -1)" = \
		"$(head -1 want | jq -r ".[0]")"
'

test_expect_success 'models take turns over the kept entries; random is seeded' '
	gen -m b,c --request-count 6 >rr &&
	test "$(jq -r .model rr | tr "\n" " ")" = "m b c m b c " &&
	gen -m b,c --model-selection-strategy random --inputs-json r1.json --request-count 1 >/dev/null &&
	gen -m b,c --model-selection-strategy random --inputs-json r2.json --request-count 1 >/dev/null &&
	cmp r1.json r2.json &&
	test "$(jq -r "[.data[].payloads[0].model] | unique | length" r1.json)" = 3
'

test_expect_success 'the completions endpoint carries the same prompts' '
	gen --endpoint-type completions --inputs-json c.json --request-count 1 >/dev/null &&
	jq -r ".data[0].payloads[0].prompt[0]" c.json >p &&
	head -1 want | jq -r ".[0]" >expect && test_cmp expect p &&
	test "$(jq ".data[0].payloads[0].max_tokens" c.json)" = "$(head -1 want | jq ".[1]")"
'

test_expect_success 'every entry filtered out: an error, not an empty run' '
	printf "[{\"conversations\":[{\"value\":\"hi\"},{\"value\":\"yo\"}]}]" >short.json &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --public-dataset sharegpt \
		--input-file short.json >out 2>err &&
	test_cmp /dev/null out &&
	echo "aiperf-gen: short.json: none of its 1 conversations passes the length filter (prompt 4 to 1024 tokens, completion at least 4, both at most 2048)" >expect &&
	test_cmp expect err
'

test_done
