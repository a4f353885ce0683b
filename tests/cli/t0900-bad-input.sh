#!/bin/sh
# Issue #9, bad input: every reader treats bad lines, odd values, long
# lines and a reader that goes away the same way (aiperf-records(5)).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/golden
export G

test_expect_success 'tok --decode: lines before a bad one keep their output, written first' '
	printf "%s\n" "[24912]" "[2375]" "[1,x]" "[24912]" >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >out 2>err &&
	printf "%s\n" "\"hello\"" "\" world\"" >expect &&
	test_cmp expect out &&
	echo "aiperf-tok: -:3: at byte 3: unexpected character" >expect &&
	test_cmp expect err &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --decode <in >both 2>&1 &&
	cat out err >expect && test_cmp expect both
'

test_expect_success 'tok --json: the same for a bad line after good ones' '
	printf "%s\n" "\"hello\"" "42" >in &&
	test_expect_code 1 aiperf-tok --tokenizer builtin --json <in >both 2>&1 &&
	printf "%s\n" "[24912]" "aiperf-tok: -:2: expected a JSON string" >expect &&
	test_cmp expect both
'

test_done
