#!/bin/sh
# aiperf-metrics with several file operands computes them concurrently (a
# thread a file, up to the CPUs online) and writes exactly what one thread
# writes: records in argument order, the same errors at the same line.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'three files of records' '
	sed -n "/^gen_record()/,/^}/p" "$TOP/bench/metrics.sh" >gen.sh &&
	(. ./gen.sh && gen_record small) >small &&
	(. ./gen.sh && gen_record long) >long &&
	awk "{ for (i = 0; i < 5000; i++) { sub(/req_[0-9]+/, \"req_\" i); print } }" small >a.ndjson &&
	awk "{ for (i = 0; i < 700; i++) { sub(/req_[0-9]+/, \"req_\" i); print } }" long >b.ndjson &&
	head -n 3 a.ndjson >c.ndjson
'

test_expect_success 'several files: the same bytes as one thread and as one stream' '
	aiperf-metrics --use-server-token-count a.ndjson b.ndjson c.ndjson >par &&
	aiperf-metrics --use-server-token-count --threads 1 a.ndjson b.ndjson c.ndjson >one &&
	cat a.ndjson b.ndjson c.ndjson | aiperf-metrics --use-server-token-count >cat &&
	cmp one par && cmp cat par &&
	test "$(wc -l <par)" -eq 5703
'

test_expect_success 'several files: a malformed line stops at the same record, same message' '
	{ head -n 10 b.ndjson && echo "{not json" && tail -n 5 b.ndjson; } >bad.ndjson &&
	test_expect_code 1 aiperf-metrics --use-server-token-count a.ndjson bad.ndjson c.ndjson >par 2>par.err &&
	test_expect_code 1 aiperf-metrics --use-server-token-count --threads 1 a.ndjson bad.ndjson c.ndjson >one 2>one.err &&
	cmp one par && cmp one.err par.err &&
	test "$(wc -l <par)" -eq 5010 &&
	grep -q "bad.ndjson:11:" par.err
'

test_expect_success 'several files with --keep-going and the tokenizer' '
	aiperf-metrics --keep-going --tokenizer builtin c.ndjson bad.ndjson c.ndjson >par 2>par.err &&
	aiperf-metrics --keep-going --tokenizer builtin --threads 1 c.ndjson bad.ndjson c.ndjson >one 2>one.err &&
	cmp one par && cmp one.err par.err &&
	grep -q "1 malformed line skipped" par.err
'

test_done
