#!/bin/sh
# aiperf-gen: request counts, warmup, sharding, determinism, ids, usage
# errors and a reader that stops early.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 16 --num-dataset-entries 5"

test_expect_success 'default request count is 10' '
	$G --random-seed 1 >out && test "$(wc -l <out)" -eq 10
'

test_expect_success 'default request count is max(10, 2 * concurrency)' '
	$G --random-seed 1 --concurrency 8 >out && test "$(wc -l <out)" -eq 16 &&
	$G --random-seed 1 --concurrency 3 >out && test "$(wc -l <out)" -eq 10
'

test_expect_success '--request-count wins over --concurrency' '
	$G --random-seed 1 --concurrency 8 --request-count 3 >out &&
	test "$(wc -l <out)" -eq 3
'

test_expect_success 'warmup records come first, numbered per phase' '
	$G --random-seed 1 --request-count 3 --warmup-request-count 2 >out &&
	grep -o "\"session_num\":[0-9]*,[^,]*,[^,]*,[^,]*,[^,]*,\"phase\":\"[a-z]*\"" out |
		sed "s/,.*phase\"://" >got &&
	printf "%s\n" "\"session_num\":0\"warmup\"" "\"session_num\":1\"warmup\"" \
		"\"session_num\":0\"profiling\"" "\"session_num\":1\"profiling\"" \
		"\"session_num\":2\"profiling\"" >expect &&
	test_cmp expect got
'

test_expect_success '--random-seed is byte-identical across runs' '
	$G --random-seed 7 --request-count 20 --osl 9 --osl-stddev 3 --isl-stddev 4 >a &&
	$G --random-seed 7 --request-count 20 --osl 9 --osl-stddev 3 --isl-stddev 4 >b &&
	cmp a b
'

test_expect_success 'without a seed ids are uuid4 and runs differ' '
	$G --request-count 3 >a && $G --request-count 3 >b && ! cmp -s a b &&
	grep -c "\"conversation_id\":\"[0-9a-f]\{8\}-[0-9a-f]\{4\}-4[0-9a-f]\{3\}-[89ab][0-9a-f]\{3\}-[0-9a-f]\{12\}\"" a >n &&
	test "$(cat n)" -eq 3
'

test_expect_success 'seeded ids are uuid4-shaped and session ids sequential' '
	$G --random-seed 3 --request-count 5 >out &&
	test "$(grep -c "\"id\":\"[0-9a-f]\{8\}-[0-9a-f]\{4\}-4[0-9a-f]\{3\}-[89ab]" out)" -eq 5 &&
	grep -q "\"conversation_id\":\"session_00000[0-4]\"" out
'

test_expect_success 'the shuffle sampler visits every entry once per pass' '
	$G --random-seed 5 --request-count 10 >out &&
	grep -o "session_00000[0-9]" out >ids &&
	head -5 ids | sort -u | wc -l >n1 && tail -5 ids | sort -u | wc -l >n2 &&
	test "$(cat n1)" -eq 5 && test "$(cat n2)" -eq 5
'

test_expect_success '--shard K/N splits the stream by record index' '
	$G --random-seed 9 --request-count 7 --warmup-request-count 2 >all &&
	for k in 1 2 3; do
		$G --random-seed 9 --request-count 7 --warmup-request-count 2 \
			--shard $k/3 >s$k || return 1
	done &&
	test "$(wc -l <s1)" -eq 3 && test "$(wc -l <s2)" -eq 3 &&
	test "$(wc -l <s3)" -eq 3 &&
	sed -n "1p;4p;7p" all >e1 && test_cmp e1 s1 &&
	sed -n "2p;5p;8p" all >e2 && test_cmp e2 s2 &&
	sed -n "3p;6p;9p" all >e3 && test_cmp e3 s3
'

test_expect_success 'a reader that stops early: exit 0, no message' '
	$G --random-seed 1 --request-count 10000000 2>err | head -1 >out &&
	test "$(wc -l <out)" -eq 1 && test ! -s err
'

test_expect_success 'write errors exit 1 with one message' '
	test -w /dev/full || skip_because "no writable /dev/full"
	test_expect_code 1 $G --random-seed 1 --request-count 100000 >/dev/full 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	test_expect_code 1 $G --random-seed 1 --inputs-json "$TMP/no/such/dir/in.json" >out 2>err &&
	grep -q "cannot open" err && test ! -s out
'

for bad in "--isl 0" "--isl x" "--request-count 0" "--endpoint-type rankings" \
	"--model-selection-strategy best" "--shard 3/2" "--shard 1" \
	"--extra-inputs novalue" "--extra-inputs {bad" "--bogus" "extra"; do
	test_expect_success "usage error: $bad" "
		test_expect_code 2 $G $bad >out 2>err && test -s err && test ! -s out
	"
done

test_expect_success 'usage error: no model' '
	test_expect_code 2 aiperf-gen --random-seed 1 >out 2>err && grep -q model err
'

test_expect_success '--help prints the synopsis on stdout, --version the version' '
	aiperf-gen --help >out && grep -q "^usage: aiperf-gen" out &&
	aiperf-gen --version >out && grep -q "^aiperf-gen [0-9]" out
'

test_done
