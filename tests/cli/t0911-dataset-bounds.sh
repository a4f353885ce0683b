#!/bin/sh
# Issue #27 R16: an impossible value (a negative token count, a timestamp
# of 1e308) is refused by every dataset reader, aiperf-gen's and
# aiperf-trace convert's alike, with the same words: one check per field
# (lib/dataset/field). Bounds: token counts 0..100000000, timestamps and
# delays finite, not negative and at most 9e12 ms (9e9 s).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

# refused FILE TYPE "why" [gen options]: aiperf-gen exits 1, saying
# "FILE:2: why", and writes nothing
refused() {
	_f=$1 _t=$2 _w=$3
	shift 3
	test_expect_code 1 gen --input-file "$_f" --custom-dataset-type "$_t" "$@" \
		>out 2>err &&
	echo "aiperf-gen: $_f:2: $_w" >want && test_cmp want err && test_cmp /dev/null out
}

# converted FROM FILE "why" [LINE]: aiperf-trace convert refuses line
# LINE (2) the same way
converted() {
	test_expect_code 1 aiperf-trace convert --from "$1" "$2" >out 2>err &&
	echo "aiperf-trace: $2:${4:-2}: $3" >want && test_cmp want err
}

H="Timestamp,Model,Request tokens,Response tokens"
SEC="must be at most 9000000000 (seconds, about 285 years)"
MS="must be at most 9000000000000 (ms, about 285 years)"

test_expect_success 'burst_gpt_trace: a negative token count is refused by both tools' '
	printf "%s\n" "$H" "1.5,m,-3,5" >neg.csv &&
	refused neg.csv burst_gpt_trace "'\''Request tokens'\'': must not be negative" &&
	converted burstgpt neg.csv "'\''Request tokens'\'': must not be negative" &&
	printf "%s\n" "$H" "1.5,m,3,-5" >neg2.csv &&
	refused neg2.csv burst_gpt_trace "'\''Response tokens'\'': must not be negative"
'

test_expect_success 'burst_gpt_trace: a timestamp of 1e308, inf or -1 is refused, not taken or skipped' '
	for ts in 1e308 inf nan 1e999 -1; do
		printf "%s\n" "$H" "$ts,m,3,5" >ts.csv &&
		case $ts in
		-1) why="must not be negative" ;;
		1e308) why=$SEC ;;
		*) why="must be finite" ;;
		esac &&
		refused ts.csv burst_gpt_trace "'\''Timestamp'\'': $why" &&
		converted burstgpt ts.csv "'\''Timestamp'\'': $why" || exit 1
	done
'

test_expect_success 'burst_gpt_trace: a count past the bound, even past int64, is refused' '
	printf "%s\n" "$H" "1,m,100000001,5" >big.csv &&
	refused big.csv burst_gpt_trace "'\''Request tokens'\'': must be at most 100000000" &&
	printf "%s\n" "$H" "1,m,3,99999999999999999999999" >big2.csv &&
	converted burstgpt big2.csv "'\''Response tokens'\'': must be at most 100000000" &&
	printf "%s\n" "$H" "1,m,100000000,0" >max.csv &&
	gen --input-file max.csv --custom-dataset-type burst_gpt_trace --print-timing-mode
'

test_expect_success 'burst_gpt_trace: rows that do not parse are still skipped, as the original does' '
	printf "%s\n" "$H" "x,m,3,5" "1,m,3.5,5" "2,m,+-3,5" "3,m,4,6" >skip.csv &&
	gen --input-file skip.csv --custom-dataset-type burst_gpt_trace >out &&
	test "$(wc -l <out)" -eq 1 &&
	aiperf-trace convert --from burstgpt skip.csv >conv &&
	echo "{\"timestamp\":0,\"input_length\":4,\"output_length\":6}" >want &&
	test_cmp want conv
'

test_expect_success 'single_turn: a timestamp of 1e300 with --fixed-schedule is refused' '
	printf "%s\n" "{\"text\":\"a\",\"timestamp\":5}" "{\"text\":\"b\",\"timestamp\":1e300}" >st.jsonl &&
	refused st.jsonl single_turn "timestamp: $MS" --fixed-schedule &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"delay\":-1}" >d.jsonl &&
	refused d.jsonl single_turn "delay: must not be negative" &&
	printf "%s\n" "{\"text\":\"a\"}" "{\"text\":\"b\",\"output_length\":100000001}" >o.jsonl &&
	refused o.jsonl single_turn "output_length: must be at most 100000000"
'

test_expect_success 'multi_turn: a turn delay of 1e300 is refused' '
	printf "%s\n" "{\"turns\":[{\"text\":\"a\"}]}" \
		"{\"turns\":[{\"text\":\"a\"},{\"text\":\"b\",\"delay\":1e300}]}" >mt.jsonl &&
	refused mt.jsonl multi_turn "turns[1]: delay: $MS"
'

test_expect_success 'mooncake_trace: timestamps, delays and lengths out of bounds are refused' '
	printf "%s\n" "{\"input_length\":5,\"timestamp\":0}" "{\"input_length\":5,\"timestamp\":1e300}" >m1.jsonl &&
	refused m1.jsonl mooncake_trace "timestamp: $MS" &&
	printf "%s\n" "{\"input_length\":5,\"timestamp\":0}" "{\"input_length\":5,\"timestamp\":-1}" >m2.jsonl &&
	refused m2.jsonl mooncake_trace "timestamp: must not be negative" &&
	printf "%s\n" "{\"input_length\":5}" "{\"input_length\":5,\"delay\":-2}" >m3.jsonl &&
	refused m3.jsonl mooncake_trace "delay: must not be negative" &&
	printf "%s\n" "{\"input_length\":5}" "{\"input_length\":100000001}" >m4.jsonl &&
	refused m4.jsonl mooncake_trace "input_length: must be at most 100000000" &&
	test_expect_code 1 aiperf-trace analyze m4.jsonl >out 2>err &&
	echo "aiperf-trace: m4.jsonl:2: input_length: must be at most 100000000" >want &&
	test_cmp want err
'

test_expect_success 'bailian_trace: the same bounds in both tools, the timestamp in seconds' '
	echo "{\"chat_id\":1,\"timestamp\":1,\"input_length\":1,\"output_length\":1}" >ok.jsonl &&
	for bad in "\"timestamp\":9000000001,\"input_length\":1,\"output_length\":1|timestamp: $SEC" \
		"\"timestamp\":1e300,\"input_length\":1,\"output_length\":1|timestamp: $SEC" \
		"\"timestamp\":-1,\"input_length\":1,\"output_length\":1|timestamp: must not be negative" \
		"\"timestamp\":2,\"input_length\":100000001,\"output_length\":1|input_length: must be at most 100000000" \
		"\"timestamp\":2,\"input_length\":1,\"output_length\":-1|output_length: must not be negative"; do
		{ cat ok.jsonl; echo "{\"chat_id\":2,${bad%|*}}"; } >b.jsonl &&
		refused b.jsonl bailian_trace "${bad#*|}" &&
		converted bailian b.jsonl "${bad#*|}" || exit 1
	done
'

test_expect_success 'convert --from azure: token counts within the same bounds' '
	printf "%s\n" "TIMESTAMP,ContextTokens,GeneratedTokens" \
		"2023-11-16 18:15:46.6805900,100000001,44" >az.csv &&
	converted azure az.csv "'\''ContextTokens'\'': must be at most 100000000" &&
	printf "%s\n" "TIMESTAMP,ContextTokens,GeneratedTokens" \
		"9999-11-16 18:15:46.6805900,1,44" >az2.csv &&
	converted azure az2.csv "'\''TIMESTAMP'\'': $SEC"
'

test_expect_success 'convert, rebased: a row earlier than the first is refused (it would be negative)' '
	printf "%s\n" "$H" "5,m,3,5" "4,m,3,5" >late.csv &&
	converted burstgpt late.csv "'\''Timestamp'\'': earlier than the first row'\''s: rebased, it would be negative (--no-rebase keeps the source'\''s times)" 3 &&
	aiperf-trace convert --from burstgpt --no-rebase late.csv >conv &&
	gen --input-file conv --custom-dataset-type mooncake_trace --print-timing-mode &&
	printf "%s\n" "{\"chat_id\":1,\"timestamp\":5,\"input_length\":1,\"output_length\":1}" \
		"{\"chat_id\":2,\"timestamp\":4,\"input_length\":1,\"output_length\":1}" >late.jsonl &&
	converted bailian late.jsonl "timestamp: earlier than the first record'\''s: rebased, it would be negative (--no-rebase keeps the source'\''s times)"
'

test_done
