#!/bin/sh
# Media fields of random_pool files (issue #17): image(s), audio(s) and
# video(s), strings or {name, contents}, local files read and encoded once
# (as single_turn files do), URLs and data: URLs passed through; sampled
# as the original's RandomPoolDatasetLoader draws them (all batch sizes 1:
# a record per pool; any other: flat pools, images then texts then audios
# then videos), checked against Python's random with the derived seed.
# mooncake_trace has no media fields in the original (extra fields are
# ignored): images travel in its "messages", sent as they are.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
$PY -c 'import PIL' 2>/dev/null || test_skip_all "no python3-pil"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 7 "$@"
}

# expect ROOT N IMGBATCH TEXTBATCH FILE...: each conversation's content
# parts ("text" strings and image URLs), one JSON list a line
expect() {
	$PY - "$@" <<-\EOF
	import base64, hashlib, json, sys
	import random
	root, n, ib, tb, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
	seed = int.from_bytes(hashlib.sha256(("%s:dataset.loader.random_pool" % root).encode()).digest()[:8], "big")
	r = random.Random(seed)
	def items(d, x):
	    if d.get(x) is not None:
	        return [d[x]]
	    out = []
	    for t in d.get(x + "s") or []:
	        out += [t] if isinstance(t, str) else t["contents"]
	    return out
	def url(s):
	    if s.startswith(("http://", "https://", "data:")):
	        return s
	    b = open(s, "rb").read()
	    mime = "image/png" if b[:4] == b"\x89PNG" else "image/jpeg"
	    return "data:%s;base64,%s" % (mime, base64.b64encode(b).decode())
	recs = [[json.loads(l) for l in open(f) if l.strip()] for f in files]
	if ib == 1 and tb == 1:
	    convs = [([], []) for _ in range(n)]
	    for p in recs:
	        for i, d in enumerate(r.choices(p, k=n)):
	            convs[i][0].extend(items(d, "text"))
	            convs[i][1].extend(url(u) for u in items(d, "image"))
	else:
	    imgs = [u for p in recs for d in p for u in items(d, "image")]
	    txts = [t for p in recs for d in p for t in items(d, "text")]
	    convs = []
	    for _ in range(n):
	        im = [url(u) for u in r.choices(imgs, k=ib)] if imgs and ib > 0 else []
	        tx = r.choices(txts, k=tb) if txts and tb > 0 else []
	        convs.append((tx, im))
	for t, i in convs:
	    print(json.dumps(t + i, separators=(",", ":")))
	EOF
}

# parts IN: each conversation's content parts in inputs.json order
parts() {
	jq -c ".data[].payloads[0].messages[0].content | if type == \"string\" then [.] else [.[] | .text // .image_url.url] end" "$1"
}

test_expect_success 'setup: two small images and a pool of three records' '
	$PY -c "from PIL import Image
Image.new(\"RGB\", (4, 3), (255, 0, 0)).save(\"a.png\")
Image.new(\"RGB\", (5, 5), (0, 255, 0)).save(\"b.jpg\")" &&
	cat >pool.jsonl <<-\EOF
	{"type": "random_pool", "text": "t0", "image": "a.png"}
	{"texts": ["t1"], "images": ["b.jpg", "https://h/x.png"]}
	{"text": "t2", "images": [{"name": "n", "contents": ["data:image/png;base64,AAAA", "a.png"]}]}
	EOF
'

test_expect_success 'batch sizes 1: a record per conversation, files encoded, URLs as they are' '
	gen --input-file pool.jsonl --num-sessions 12 --inputs-json in.json \
		--inputs-json-full-media >rec &&
	test "$(wc -l <rec)" = 12 &&
	parts in.json >got &&
	expect 7 12 1 1 pool.jsonl >want &&
	test_cmp want got &&
	grep -q "data:image/jpeg;base64,$(base64 -w0 b.jpg)" rec
'

test_expect_success 'image batch 3, text batch 2: flat pools, images drawn first' '
	gen --input-file pool.jsonl --num-sessions 9 --image-batch-size 3 -b 2 \
		--inputs-json in.json --inputs-json-full-media >rec &&
	parts in.json >got &&
	expect 7 9 3 2 pool.jsonl >want &&
	test_cmp want got
'

test_expect_success 'image batch 0: no images, texts still sampled' '
	gen --input-file pool.jsonl --num-sessions 5 --image-batch-size 0 \
		--inputs-json in.json >rec &&
	parts in.json >got &&
	expect 7 5 0 1 pool.jsonl >want &&
	test_cmp want got &&
	! grep -q image_url rec
'

test_expect_success 'a directory: one pool per file, images merged in file order' '
	mkdir d &&
	echo "{\"image\": \"a.png\"}" >d/1-img.jsonl &&
	echo "{\"texts\": [{\"name\": \"q\", \"contents\": [\"hello\"]}]}" >d/2-txt.jsonl &&
	gen --input-file d --num-sessions 2 --inputs-json in.json >rec &&
	parts in.json >got &&
	expect 7 2 1 1 d/1-img.jsonl d/2-txt.jsonl >want &&
	test_cmp want got
'

# traced STRACE-ARGS...: strace, with LeakSanitizer off (it cannot run
# under ptrace) for sanitizer builds
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace "$@"
}

if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
test_expect_success 'a file named by many records is opened once' '
	for i in 1 2 3 4 5 6 7 8; do echo "{\"text\": \"t$i\", \"image\": \"a.png\"}"; done >many.jsonl &&
	traced -f -e trace=open,openat -o tr aiperf-gen -m m --tokenizer builtin \
		--random-seed 7 --input-file many.jsonl \
		--custom-dataset-type random_pool --num-sessions 4 >rec &&
	test "$(wc -l <rec)" = 4 &&
	test "$(grep -c "\"a.png\"" tr)" = 1
'
else
	test_skip 'a file named by many records is opened once' 'no strace'
fi

test_expect_success 'missing and non-image files stop the run with file:line' '
	printf "%s\n" "{\"type\": \"random_pool\", \"text\": \"a\"}" "{\"image\": \"nosuch.png\"}" >bad.jsonl &&
	test_expect_code 1 gen --input-file bad.jsonl >out 2>err &&
	test ! -s out &&
	grep -q "bad.jsonl:2: image .nosuch.png.: No such file or directory" err &&
	echo "not an image" >x.png &&
	printf "%s\n" "{\"type\": \"random_pool\", \"image\": \"x.png\"}" >bad.jsonl &&
	test_expect_code 1 gen --input-file bad.jsonl >out 2>err &&
	grep -q "bad.jsonl:1: image .x.png.: not an image" err
'

test_expect_success 'mooncake_trace: messages with image parts go as they are; media fields are ignored' '
	cat >mc.jsonl <<-\EOF &&
	{"messages": [{"role": "user", "content": [{"type": "text", "text": "what"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}], "output_length": 3}
	{"input_length": 8, "output_length": 2, "image": "nosuch.png", "images": ["x"]}
	EOF
	gen --input-file mc.jsonl --custom-dataset-type mooncake_trace --request-count 2 >rec &&
	sed -n 1p rec | jq -e ".payload.messages[0].content[1].image_url.url == \"data:image/png;base64,AAAA\"" &&
	sed -n 2p rec | jq -e ".payload.messages[0].content | type == \"string\"" &&
	! grep -q nosuch rec
'

test_done
