#!/bin/sh
# aiperf-gen streams a single_turn file without session ids (sequential,
# not a fixed schedule): memory bounded by the longest line, not the
# file, the same records and inputs.json as when the dataset is held
# whole, and a bad line anywhere still stops the run before output.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m -m n --tokenizer builtin "$@"
}

cat >"$TMP/s.jsonl" <<'T'
{"text": "a"}

{"texts": [{"contents": ["b", "c"]}], "output_length": 4}
{"text": "d", "role": "system", "delay": 5}
T

# held.jsonl is s.jsonl and one more line with a session id: it is held
# whole, and its first three conversations are s.jsonl's.
cp "$TMP/s.jsonl" "$TMP/held.jsonl"
echo '{"text": "z", "session_id": "zz"}' >>"$TMP/held.jsonl"

for opts in "--random-seed 3" \
	"--random-seed 3 --model-selection-strategy random --osl 20 --osl-stddev 5" \
	"--random-seed 4 --warmup-request-count 1 --request-rate 10" \
	"--random-seed 5 --num-sessions 3 --endpoint-type completions"; do
	test_expect_success "streamed and held give the same records: $opts" '
		n=$(case "$opts" in *num-sessions*) ;; *warmup*) echo --request-count 2 ;;
			*) echo --request-count 3 ;; esac) &&
		gen --input-file s.jsonl '"$opts"' $n --inputs-json a.json >a &&
		gen --input-file held.jsonl '"$opts"' $n --inputs-json b.json >b &&
		test "$(wc -l <a)" -eq 3 && test_cmp a b &&
		jq -S . a.json >a.j && jq -S ".data |= .[:3]" b.json >b.j && test_cmp a.j b.j
	'
done

test_expect_success 'the wrap-around repeats the file from its start, draws and all' '
	gen --input-file s.jsonl --random-seed 1 --model-selection-strategy random \
		--osl 20 --osl-stddev 5 --request-count 9 >out &&
	jq -r .conversation_id out >got &&
	printf "%s\n" session_000000 session_000001 session_000002 session_000000 \
		session_000001 session_000002 session_000000 session_000001 session_000002 >want &&
	test_cmp want got &&
	jq -c ".payload" out >p &&
	sed -n 1,3p p >p1 && sed -n 4,6p p >p2 && sed -n 7,9p p >p3 &&
	test_cmp p1 p2 && test_cmp p1 p3 &&
	gen --input-file s.jsonl --random-seed 1 --request-count 9 --inputs-json in.json >/dev/null &&
	test "$(jq ".data | length" in.json)" -eq 3
'

test_expect_success 'a large file: memory does not grow with it' '
	python3 - <<-\EOF
	import json, os, resource, subprocess
	# a sanitizer build: no quarantine of freed blocks, which would grow
	env = dict(os.environ)
	env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
	                       ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0").lstrip(":")
	def rss(path):
	    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
	    subprocess.run(["aiperf-gen", "-m", "m", "--tokenizer", "builtin", "--random-seed", "1",
	                    "--input-file", path, "--request-count", "10",
	                    "--inputs-json", "/dev/null"],
	                   stdout=subprocess.DEVNULL, check=True, env=env)
	    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before
	with open("big.jsonl", "w") as f:
	    for i in range(300000):
	        f.write(json.dumps({"text": "prompt %d " % i + "x" * 200, "output_length": 1 + i % 50}) + "\n")
	with open("small.jsonl", "w") as f:
	    f.write(json.dumps({"text": "x"}) + "\n")
	small, _ = rss("small.jsonl")
	big, _ = rss("big.jsonl")
	# ru_maxrss of children is the largest child: big only counts if it grew
	assert big < small + 16 * 1024, (small, big)
	EOF
'

test_expect_success 'a bad last line of a large file: nothing written' '
	cp big.jsonl bad.jsonl && printf "{\"text\": 1}\n" >>bad.jsonl &&
	test_expect_code 1 aiperf-gen -m m --tokenizer builtin --input-file bad.jsonl \
		--request-count 1 >out 2>err &&
	test ! -s out &&
	echo "aiperf-gen: bad.jsonl:300001: text: expected a string" >want &&
	test_cmp want err
'

test_done
