#!/bin/sh
# Issue #27 R18: BurstGPT (and Azure) CSV is read as RFC 4180 by one
# reader (lib/dataset/csv) in aiperf-gen and aiperf-trace convert alike:
# any number of columns up to 1048576, a UTF-8 BOM, quoted fields with
# commas, quotes and line breaks; a record is at most 16 MiB, and what
# breaks those bounds is an error naming file:line.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 --custom-dataset-type burst_gpt_trace "$@"
}

# schedule FILE: aiperf-gen's fixed schedule of FILE as "at_ns max_tokens"
schedule() {
	gen --input-file "$1" | jq -r "[.at_ns, .max_tokens] | @tsv"
}

test_expect_success 'the required columns after 100000 others' '
	awk "BEGIN { for (i = 0; i < 100000; i++) printf \"c%d,\", i
		print \"Timestamp,Request tokens,Response tokens\"
		for (r = 1; r <= 2; r++) {
			for (i = 0; i < 100000; i++) printf \"x,\"
			printf \"%d.5,%d,%d\n\", r, 10 * r, r
		} }" >wide.csv &&
	schedule wide.csv >got &&
	printf "1500000000\t1\n2500000000\t2\n" >want && test_cmp want got &&
	aiperf-trace convert --from burstgpt wide.csv >conv &&
	printf "%s\n" "{\"timestamp\":0,\"input_length\":10,\"output_length\":1}" \
		"{\"timestamp\":1000,\"input_length\":20,\"output_length\":2}" >want &&
	test_cmp want conv
'

test_expect_success 'a UTF-8 BOM: both tools take it' '
	printf "\357\273\277Timestamp,Model,Request tokens,Response tokens\n1.5,m,3,4\n" >bom.csv &&
	schedule bom.csv >got && printf "1500000000\t4\n" >want && test_cmp want got &&
	aiperf-trace convert --from burstgpt bom.csv >conv &&
	echo "{\"timestamp\":0,\"input_length\":3,\"output_length\":4}" >want &&
	test_cmp want conv &&
	aiperf-gen -m m --tokenizer builtin --input-file bom.csv --print-timing-mode >got &&
	echo concurrency >want && test_cmp want got
'

test_expect_success 'quoted fields: commas, quotes and line breaks (CRLF too)' '
	printf "%s\r\n" "Timestamp,Model,\"Request tokens\",Response tokens,Log Type" \
		"1,\"gpt, 4\",3,4,\"a \"\"quoted\"\" log\"" "2,\"m" "" "x\",5,6,y" \
		"3,m,7,8,z" >q.csv &&
	schedule q.csv >got &&
	printf "1000000000\t4\n2000000000\t6\n3000000000\t8\n" >want && test_cmp want got &&
	aiperf-trace convert --from burstgpt q.csv | jq -c "[.timestamp, .input_length]" >conv &&
	printf "%s\n" "[0,3]" "[1000,5]" "[2000,7]" >want && test_cmp want conv
'

test_expect_success 'a quoted field left open: an error naming the line it starts on' '
	printf "%s\n" "Timestamp,Model,Request tokens,Response tokens" "1,m,3,4" \
		"2,\"m,5,6" "3,m,7,8" >open.csv &&
	test_expect_code 1 gen --input-file open.csv >out 2>err &&
	echo "aiperf-gen: open.csv:3: quoted CSV field not closed at the end of the input" >want &&
	test_cmp want err && test_cmp /dev/null out &&
	test_expect_code 1 aiperf-trace convert --from burstgpt open.csv >out 2>err &&
	echo "aiperf-trace: open.csv:3: quoted CSV field not closed at the end of the input" >want &&
	test_cmp want err
'

test_expect_success 'a record over 16 MiB: an error naming its line, not unbounded memory' '
	awk "BEGIN { print \"Timestamp,Model,Request tokens,Response tokens\"
		print \"1,m,3,4\"; printf \"2,\\\"\"
		for (i = 0; i < 300; i++) { for (j = 0; j < 1024; j++) printf \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"; print \"\" }
		print \"\\\",5,6\" }" >long.csv &&
	test_expect_code 1 gen --input-file long.csv >out 2>err &&
	echo "aiperf-gen: long.csv:3: CSV record longer than 16777216 bytes" >want &&
	test_cmp want err &&
	test_expect_code 1 aiperf-trace convert --from burstgpt long.csv >out 2>err &&
	echo "aiperf-trace: long.csv:3: CSV record longer than 16777216 bytes" >want &&
	test_cmp want err
'

test_expect_success 'more than 1048576 fields: an error naming the line' '
	awk "BEGIN { print \"Timestamp,Model,Request tokens,Response tokens\"
		for (i = 0; i < 1048576; i++) printf \",\"; print \"\" }" >many.csv &&
	test_expect_code 1 gen --input-file many.csv >out 2>err &&
	echo "aiperf-gen: many.csv:2: CSV record of more than 1048576 fields" >want &&
	test_cmp want err
'

test_expect_success 'a NUL byte in a record is an error, not a field cut short' '
	printf "Timestamp,Model,Request tokens,Response tokens\n1,m,3\0009,4\n" >nul.csv &&
	test_expect_code 1 gen --input-file nul.csv >out 2>err &&
	echo "aiperf-gen: nul.csv:2: NUL byte in a CSV record" >want && test_cmp want err
'

test_expect_success 'a header without the columns names the first missing one' '
	printf "%s\n" "Timestamp,Model,\"Request tokens\"" "1,m,3" >h.csv &&
	test_expect_code 1 gen --input-file h.csv >out 2>err &&
	echo "aiperf-gen: h.csv:1: Missing required column '\''Response tokens'\''" >want &&
	test_cmp want err &&
	test_expect_code 1 aiperf-trace convert --from burstgpt h.csv >out 2>err &&
	echo "aiperf-trace: h.csv:1: Missing required column '\''Response tokens'\''" >want &&
	test_cmp want err
'

test_done
