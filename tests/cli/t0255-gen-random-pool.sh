#!/bin/sh
# aiperf-gen --input-file with random_pool records: a file is one pool, a
# directory one pool per file; --num-sessions (else 100) conversations
# sampled with replacement as the original's random.choices draws them
# (checked against Python's random with the derived seed), shuffled.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 7 "$@"
}

mkdir "$TMP/pools"
cat >"$TMP/pools/queries.jsonl" <<'T'
{"texts": [{"name": "query", "contents": ["q0"]}]}

{"text": "q1", "type": "random_pool"}
T
cat >"$TMP/pools/passages.jsonl" <<'T'
{"text": "p0"}
{"texts": ["p1", "p1b"]}
{"text": "p2", "timestamp": 5, "session_id": "ignored"}
T
mkdir "$TMP/pools/sub"
echo junk >"$TMP/pools/sub/not-read.txt"

# expect ROOT N BATCH FILE...: the texts of each conversation, one line each
expect() {
	python3 - "$@" <<-\EOF
	import hashlib, json, math, random, sys
	root, n, batch, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
	seed = int.from_bytes(hashlib.sha256(("%s:dataset.loader.random_pool" % root).encode()).digest()[:8], "big")
	r = random.Random(seed)
	def texts(d):
	    if d.get("text"):
	        return [d["text"]]
	    out = []
	    for t in d.get("texts") or []:
	        out += [t] if isinstance(t, str) else t["contents"]
	    return out
	pools = [[texts(json.loads(l)) for l in open(f) if l.strip()] for f in files]
	if batch == 1:
	    convs = [[] for _ in range(n)]
	    for p in pools:
	        for i, s in enumerate(r.choices(p, k=n)):
	            convs[i] += s
	else:
	    flat = [t for p in pools for e in p for t in e]
	    convs = [r.choices(flat, k=batch) for _ in range(n)]
	for c in convs:
	    print(json.dumps(c, separators=(",", ":")))
	EOF
}

# texts IN: each conversation's texts in inputs.json order
texts() {
	jq -c ".data[].payloads[0].messages[0].content | if type == \"string\" then [.] else [.[].text] end" "$1"
}

test_expect_success 'a directory: one pool per file (sorted by name), merged per conversation' '
	gen --input-file pools --num-sessions 6 --inputs-json in.json >out &&
	test "$(wc -l <out)" -eq 6 &&
	texts in.json >got &&
	expect 7 6 1 pools/passages.jsonl pools/queries.jsonl >want &&
	test_cmp want got
'

test_expect_success 'shuffle sampling: each conversation once per pass, in a shuffled order' '
	jq -r .conversation_id out | sort >ids &&
	jq -r ".data[].session_id" in.json | sort >all &&
	test_cmp all ids
'

test_expect_success 'a file with "type": "random_pool" is one pool; 100 conversations by default' '
	gen --input-file pools/queries.jsonl --custom-dataset-type random_pool \
		--request-count 1 --inputs-json in.json >/dev/null &&
	texts in.json >got &&
	expect 7 100 1 pools/queries.jsonl >want &&
	test_cmp want got &&
	test "$(wc -l <got)" -eq 100
'

test_expect_success 'batch size > 1: texts sampled from all pools independently' '
	gen --input-file pools --num-sessions 4 -b 3 --inputs-json in.json >/dev/null &&
	texts in.json >got &&
	expect 7 4 3 pools/passages.jsonl pools/queries.jsonl >want &&
	test_cmp want got
'

test_expect_success 'a first line typed random_pool makes the file a pool' '
	printf "{\"type\": \"random_pool\", \"text\": \"only\"}\n" >one.jsonl &&
	gen --input-file one.jsonl --num-sessions 2 | jq -c .payload.messages >got &&
	printf "%s\n" "[{\"role\":\"user\",\"content\":\"only\"}]" "[{\"role\":\"user\",\"content\":\"only\"}]" >want &&
	test_cmp want got
'

test_expect_success 'without a type, a pool-shaped file is single_turn' '
	gen --input-file pools/passages.jsonl --request-count 3 | jq -r .conversation_id >got &&
	printf "%s\n" session_000000 session_000001 ignored >want &&
	test_cmp want got
'

test_expect_success 'a directory with a file that is not a pool: no loader, the file named' '
	mkdir bad && cp pools/queries.jsonl bad/a.jsonl &&
	printf "{\"text\": \"x\", \"texts\": [\"y\"]}\n" >bad/b.jsonl &&
	test_expect_code 1 gen --input-file bad >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: bad/b.jsonl:1: text and texts cannot be set together" >want &&
	test_cmp want err
'

test_expect_success 'a directory of junk: no loader can handle it' '
	mkdir junk && printf "\000\001\002" >junk/bin && : >junk/empty &&
	test_expect_code 1 gen --input-file junk >out 2>err &&
	test ! -s out &&
	grep -q "No loader can handle the data format" err
'

test_expect_success 'named random_pool, a bad line in a later file: file:line, nothing written' '
	cp -R pools p2 && printf "{\"text\": \"ok\"}\n{\"text\": 3}\n" >p2/zz.jsonl &&
	test_expect_code 1 gen --input-file p2 --custom-dataset-type random_pool >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: p2/zz.jsonl:2: text: expected a string" >want &&
	test_cmp want err
'

test_expect_success 'an empty pool file is an error (nothing to sample)' '
	mkdir p3 && cp pools/queries.jsonl p3/ && : >p3/empty.jsonl &&
	test_expect_code 1 gen --input-file p3 --custom-dataset-type random_pool >out 2>err &&
	echo "aiperf-gen: '"'"'p3/empty.jsonl'"'"' has no records" >want &&
	test_cmp want err
'

test_done
