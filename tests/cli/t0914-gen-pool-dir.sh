#!/bin/sh
# Issue #27 R23: a random_pool directory without a regular file is a
# clear error (once it handed qsort() a NULL array: UBSan), whether the
# type is given or inferred; entries that are no regular file (a FIFO, a
# directory) are not pools.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	timeout 60 aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

test_expect_success 'an empty directory: given random_pool or inferred, the same error' '
	mkdir empty &&
	test_expect_code 1 gen --input-file empty --custom-dataset-type random_pool >out 2>err &&
	echo "aiperf-gen: random_pool directory '\''empty'\'' has no regular files" >want &&
	test_cmp want err && test_cmp /dev/null out &&
	test_expect_code 1 gen --input-file empty >out 2>err &&
	test_cmp want err &&
	test_expect_code 1 gen --input-file empty --custom-dataset-type random_pool \
		--print-timing-mode >out 2>err &&
	test_cmp want err
'

test_expect_success 'a directory of a FIFO and a directory only: no pools either' '
	mkdir odd && mkfifo odd/f.jsonl && mkdir odd/sub.jsonl &&
	test_expect_code 1 gen --input-file odd --custom-dataset-type random_pool >out 2>err &&
	echo "aiperf-gen: random_pool directory '\''odd'\'' has no regular files" >want &&
	test_cmp want err
'

test_expect_success 'beside a regular file they are skipped, and the pool is read' '
	echo "{\"text\": \"hello\"}" >odd/a.jsonl &&
	gen --input-file odd --request-count 1 >out &&
	grep -q "\"content\":\"hello\"" out
'

test_done
