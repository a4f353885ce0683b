#!/bin/sh
# Prompt-shaping options: every --seq-dist answer of the original (the
# messages in seq-dist-messages.tsv come from running its own parser) and
# the original's other checks of these options, word for word, with exit 2;
# the prefix pool's runtime error with exit 1; aiperf profile passes the
# options through.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
CASES="$TOP/tests/cli/seq-dist-messages.tsv"

gen() {
	aiperf-gen -m m --tokenizer builtin --random-seed 1 "$@"
}

n=0
while IFS= read -r line; do
	case $line in "#"*) continue ;; esac
	n=$((n + 1))
	v=${line%%"	"*}
	want=${line#*"	"}
	printf '%s\n' "$v" >"$TMP/v$n"
	if [ "$want" = ok ]; then
		test_expect_success "--seq-dist '$v' is accepted" '
			gen --seq-dist "$(cat v'$n')" --print-timing-mode >out &&
			echo concurrency >want && test_cmp want out
		'
	else
		printf 'aiperf-gen: %s\n' "$want" >"$TMP/want$n"
		test_expect_success "--seq-dist '$v': the original's message" '
			test_expect_code 2 gen --seq-dist "$(cat v'$n')" --print-timing-mode 2>err >out &&
			test ! -s out && head -1 err >got && test_cmp want'$n' got
		'
	fi
done <"$CASES"

test_expect_success 'the file holds the cases (all three syntaxes, accepted and refused)' '
	test $n -ge 40 &&
	test $(grep -c "	ok\$" "$CASES") -ge 10
'

# check WANT ARGS...: exit 2 and the message
check() {
	want=$1
	shift
	test_expect_code 2 gen "$@" --print-timing-mode 2>err >out &&
	test ! -s out && head -1 err >got &&
	printf 'aiperf-gen: %s\n' "$want" >want && test_cmp want got
}

test_expect_success 'system prompt with a prefix pool: mutually exclusive' '
	msg="Cannot use both \`--shared-system-prompt-length\`/\`--user-context-prompt-length\` and \`--prefix-prompt-length\`/\`--prefix-prompt-pool-size\`. These are mutually exclusive prompt configuration modes." &&
	check "$msg" --shared-system-prompt-length 5 --prompt-prefix-pool-size 2 &&
	check "$msg" --user-context-prompt-length 5 --num-dataset-entries 3 --prefix-prompt-length 4 &&
	check "$msg" --shared-system-prompt-length 5 --num-prefix-prompts 1
'

test_expect_success 'user context without --num-dataset-entries (0.11; 0.7 wanted it)' '
	gen --user-context-prompt-length 5 --print-timing-mode >/dev/null &&
	gen --user-context-prompt-length 5 --num-sessions 7 --print-timing-mode >/dev/null &&
	gen --user-context-prompt-length 5 --num-dataset-entries 100 --print-timing-mode >/dev/null
'

for o in --rankings-passages-mean --rankings-passages-stddev \
	--rankings-passages-prompt-token-mean --rankings-passages-prompt-token-stddev \
	--rankings-query-prompt-token-mean --rankings-query-prompt-token-stddev; do
	test_expect_success "$o: only for rankings endpoints, as the original" "
		check 'Rankings-specific options (\`--rankings-passages-mean\`, \`--rankings-passages-stddev\`, \`--rankings-passages-prompt-token-mean\`, \`--rankings-passages-prompt-token-stddev\`, \`--rankings-query-prompt-token-mean\`, \`--rankings-query-prompt-token-stddev\`) can only be used with rankings endpoint types Rankings endpoints: (cohere_rankings, hf_tei_rankings, nim_rankings).' $o 3 &&
		test_expect_code 2 gen $o x 2>err && grep -q 'invalid value for $o' err
	"
done

test_expect_success 'lengths out of range' '
	test_expect_code 2 gen --shared-system-prompt-length 0 2>err &&
	grep -q "invalid value for --shared-system-prompt-length: .0." err &&
	test_expect_code 2 gen --user-context-prompt-length 0 --num-dataset-entries 2 2>err &&
	grep -q "invalid value for --user-context-prompt-length: .0." err &&
	test_expect_code 2 gen --prompt-prefix-pool-size -1 2>err &&
	grep -q "invalid value for --prompt-prefix-pool-size" err &&
	test_expect_code 2 gen --prompt-prefix-length -1 2>err &&
	grep -q "invalid value for --prompt-prefix-length" err &&
	test_expect_code 2 gen --rankings-passages-mean 0 2>err &&
	grep -q "invalid value for --rankings-passages-mean: .0." err
'

test_expect_success 'a prefix length without a pool: the original error at generation, exit 1' '
	test_expect_code 1 gen --prompt-prefix-length 4 --isl 3 --num-dataset-entries 2 \
		--request-count 1 2>err >out &&
	echo "aiperf-gen: Attempted to sample a prefix prompt but the prefix prompts pool is empty. Please ensure that the prefix prompts pool is initialized." >want &&
	test_cmp want err && test ! -s out
'

test_expect_success 'a pool without a prefix length adds no prefix' '
	gen --isl 6 --num-dataset-entries 3 --request-count 3 --prompt-prefix-pool-size 2 >a &&
	test $(wc -l <a) -eq 3
'

test_expect_success 'the three syntaxes of one distribution give one stream' '
	gen --num-dataset-entries 20 --request-count 20 --seq-dist "8|2,4:30;16,8|1.5:70" >a &&
	gen --num-dataset-entries 20 --request-count 20 \
		--seq-dist " [ (8|2 , 4) : 30 , (16,8|1.5):70.0 ] " >b &&
	gen --num-dataset-entries 20 --request-count 20 --sequence-distribution \
		"{\"pairs\":[{\"isl\":8,\"isl_stddev\":2,\"osl\":4,\"prob\":30},{\"isl\":\"16\",\"osl\":8.9,\"osl_stddev\":\"1.5\",\"prob\":70}]}" >c &&
	cmp a b && cmp a c
'

test_expect_success 'aiperf profile hands the options to aiperf-gen' '
	test_expect_code 2 aiperf profile -m m --tokenizer builtin --seq-dist "8,4:90" \
		--url 127.0.0.1:1 --request-count 1 2>err &&
	grep -q "Probabilities must sum to 100.0, got 90.000000" err &&
	test_expect_code 2 aiperf profile -m m --tokenizer builtin --url 127.0.0.1:1 \
		--shared-system-prompt-length 3 --num-prefix-prompts 2 --request-count 1 2>err &&
	grep -q "mutually exclusive prompt configuration modes" err &&
	test_expect_code 2 aiperf profile -m m --tokenizer builtin --url 127.0.0.1:1 \
		--sequence-distribution "" --request-count 1 2>err &&
	grep -q "Distribution string cannot be empty" err
'

test_done
