#!/bin/sh
# aiperf analyze-trace takes the original's command line: --input-file F
# (its documented, required form), --block-size and --output-file, with
# = or a separate word; the positional FILE works as before.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

printf '%s\n' \
	'{"timestamp": 0, "input_length": 1024, "output_length": 8, "hash_ids": [1, 2]}' \
	'{"timestamp": 5, "input_length": 1500, "output_length": 9, "hash_ids": [1, 3, 4]}' \
	>"$TMP/a.jsonl"
printf '%s\n' \
	'{"timestamp": 9, "input_length": 600, "output_length": 3, "hash_ids": [1, 5]}' \
	>"$TMP/b.jsonl"

test_expect_success '--input-file F prints what FILE prints' '
	aiperf analyze-trace --input-file a.jsonl >opt.out 2>opt.err &&
	aiperf analyze-trace a.jsonl >pos.out 2>pos.err &&
	test_cmp pos.out opt.out && test_cmp pos.err opt.err &&
	grep -q "Trace Analysis Report" opt.out &&
	grep -q "Total requests: *2" opt.out
'

test_expect_success 'the original'"'"'s options, with = or a separate word' '
	aiperf analyze-trace --input-file=a.jsonl --block-size=64 --output-file=sub/r.json \
		>console 2>err &&
	grep -qx "Analysis report saved to sub/r.json" err &&
	aiperf-trace analyze --json --block-size 64 a.jsonl >want.json &&
	printf "\n" >>sub/r.json && test_cmp want.json sub/r.json &&
	aiperf analyze-trace --block-size 64 --input-file a.jsonl --output-file r2.json \
		>console2 2>/dev/null &&
	test_cmp console console2 && printf "\n" >>r2.json && test_cmp want.json r2.json &&
	aiperf analyze-trace --isl-block-size 64 a.jsonl --json >j.json &&
	test_cmp want.json j.json
'

test_expect_success '--input-file comes first, then the FILE operands' '
	aiperf-trace analyze --json a.jsonl b.jsonl >want.json &&
	aiperf-trace analyze --json --input-file a.jsonl b.jsonl >got1.json &&
	aiperf-trace analyze --json --input-file a.jsonl --input-file b.jsonl >got2.json &&
	test_cmp want.json got1.json && test_cmp want.json got2.json &&
	grep -q "\"total_requests\": 3," got1.json
'

test_expect_success 'a missing input file: exit 1, named, nothing on stdout' '
	test_expect_code 1 aiperf analyze-trace --input-file nosuch.jsonl >out 2>err &&
	grep -q "cannot open .nosuch.jsonl.: No such file" err && test ! -s out &&
	test_expect_code 1 aiperf analyze-trace nosuch.jsonl >out 2>err &&
	grep -q "cannot open .nosuch.jsonl." err && test ! -s out &&
	test_expect_code 1 aiperf analyze-trace --input-file a.jsonl --input-file gone.jsonl \
		>out 2>err &&
	grep -q "cannot open .gone.jsonl." err && test ! -s out
'

test_expect_success '--input-file without its file, an unknown option: exit 2' '
	test_expect_code 2 aiperf analyze-trace --input-file >out 2>err &&
	grep -q "option .--input-file. requires an argument" err && test ! -s out &&
	test_expect_code 2 aiperf analyze-trace --input-file a.jsonl --frobnicate >out 2>err &&
	grep -q "invalid option for analyze" err && test ! -s out &&
	test_expect_code 2 aiperf analyze-trace --input-file a.jsonl --block-size 0 2>err &&
	grep -q "invalid value for --block-size" err
'

test_expect_success '--help and completion know --input-file' '
	aiperf analyze-trace --help | grep -q "analyze \[--input-file F\]" &&
	aiperf-trace --completion bash >comp &&
	grep -q -- "--input-file.*compgen -f" comp
'

test_done
