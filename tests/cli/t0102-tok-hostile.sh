#!/bin/sh
# aiperf-tok with hostile input: a 100 MB line, invalid UTF-8, corrupt and
# unsupported tokenizer files, bad input lines, usage errors.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

T=$SHARED/tokenizers
export T

test_expect_success 'usage: --tokenizer is required, --help, bad option' '
	{ aiperf-tok </dev/null; test $? -eq 2; } &&
	aiperf-tok --help >help && grep -q "^usage: aiperf-tok --tokenizer" help &&
	{ aiperf-tok --tokenizer builtin --nope </dev/null 2>err; test $? -eq 2; } &&
	aiperf-tok --version | grep -q "^aiperf-tok "
'

test_expect_success 'revision and trust-remote-code are accepted' '
	echo "hello world" | aiperf-tok --tokenizer builtin --tokenizer-revision main \
		--tokenizer-trust-remote-code >out &&
	echo "[24912,2375]" >expect &&
	test_cmp expect out
'

test_expect_success 'a 100 MB line works in bounded memory' '
	yes "The quick brown fox, 12345 jumps; über café 日本語 ok?  " |
		head -c 104857600 | tr "\n" " " >big && echo >>big &&
	{ (ulimit -v 2000000 && aiperf-tok --tokenizer builtin --count <big >out 2>err) ||
	  { grep -q AddressSanitizer err && # ASan reserves terabytes of address space
	    aiperf-tok --tokenizer builtin --count <big >out; }; } &&
	n=$(cat out) && test "$n" -gt 20000000 && test "$n" -lt 40000000
'

test_expect_success 'a 100 MB line with Llama 2 (no pre-tokenizer)' '
	test ! -d "$T/llama2" || {
		{ (ulimit -v 2000000 && aiperf-tok --tokenizer "$T/llama2" --count <big >out 2>err) ||
		  { grep -q AddressSanitizer err &&
		    aiperf-tok --tokenizer "$T/llama2" --count <big >out; }; } &&
		n=$(cat out) && test "$n" -gt 20000000 && test "$n" -lt 60000000
	}
'

test_expect_success 'invalid UTF-8 is read as U+FFFD, like the reference' '
	printf "\377\376abc\303 x\355\240\200y\n" >raw &&
	printf "%s\n" "\"\\ufffd\\ufffdabc\\ufffd x\\ufffd\\ufffd\\ufffdy\"" >json &&
	aiperf-tok --tokenizer builtin <raw >a &&
	aiperf-tok --tokenizer builtin --json <json >b &&
	test_cmp a b && test "$(cat a)" != "[]"
'

# o200k_base ranks (data/o200k_base.tiktoken.zst): "hello" 24912, "\r" 201.
test_expect_success 'plain lines lose a CR before the newline; --json keeps it' '
	printf "hello\r\nhello\n" | aiperf-tok --tokenizer builtin >out &&
	printf "%s\n" "[24912]" "[24912]" >expect &&
	test_cmp expect out &&
	printf "\"hello\\\\r\"\n" | aiperf-tok --tokenizer builtin --json >out &&
	echo "[24912,201]" >expect &&
	test_cmp expect out
'

test_expect_success '--count equals the number of ids' '
	printf "%s\n" "a b c" "" "Hello, world!  " "日本語のテキスト" >in &&
	aiperf-tok --tokenizer builtin --count <in >count &&
	aiperf-tok --tokenizer builtin <in |
		awk "{ gsub(/[][]/, \"\"); print (\$0 == \"\" ? 0 : split(\$0, a, \",\")) }" >n &&
	test_cmp n count
'

test_expect_success 'bad input lines: exit 1 naming the line' '
	{ printf "[1,2]\n[1,x]\n" | aiperf-tok --tokenizer builtin --decode >out 2>err
	  test $? -eq 1; } && grep -q "^aiperf-tok: -:2: " err &&
	{ printf "\"ok\"\n42\n" | aiperf-tok --tokenizer builtin --json >out 2>err
	  test $? -eq 1; } && grep -q "^aiperf-tok: -:2: expected a JSON string" err
'

# bad_tok NAME JSON-TEXT PATTERN: loading fails with exit 1 and PATTERN.
bad_tok() {
	printf "%s" "$2" >"$1.json" &&
	{ echo x | aiperf-tok --tokenizer "./$1.json" >out 2>err; test $? -eq 1; } &&
	grep -q "'./$1.json'" err && grep -q "$3" err
}

test_expect_success 'corrupt tokenizer files fail with a clear message' '
	bad_tok trunc "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0" "not valid JSON" &&
	bad_tok notobj "[1,2,3]" "no \"model\" object" &&
	bad_tok badvocab "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":\"x\"},\"merges\":[]}}" \
		"model.vocab: bad id" &&
	bad_tok badmerge "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[\"a b\"]}}" \
		"model.merges\[0\]: token not in the vocabulary" &&
	head -c 100000 "$T/llama2/tokenizer.json" >cut.json &&
	{ echo x | aiperf-tok --tokenizer ./cut.json 2>err; test $? -eq 1; } &&
	grep -q "not valid JSON" err &&
	printf "(\265/\375garbage" >z.json.zst &&
	{ echo x | aiperf-tok --tokenizer ./z.json.zst 2>err; test $? -eq 1; } &&
	grep -q "z.json.zst" err
'

test_expect_success 'unsupported kinds fail naming the field and what works' '
	V="\"vocab\":{\"a\":0},\"merges\":[]" &&
	bad_tok wp "{\"model\":{\"type\":\"WordPiece\",$V}}" \
		"model type .WordPiece. is not supported (supported: BPE)" &&
	bad_tok uni "{\"model\":{\"type\":\"Unigram\",\"vocab\":[]}}" \
		"model type .Unigram. is not supported" &&
	bad_tok pre "{\"pre_tokenizer\":{\"type\":\"Whitespace\"},\"model\":{\"type\":\"BPE\",$V}}" \
		"pre_tokenizer type .Whitespace. is not supported (supported: Split" &&
	bad_tok norm "{\"normalizer\":{\"type\":\"Lowercase\"},\"model\":{\"type\":\"BPE\",$V}}" \
		"normalizer type .Lowercase. is not supported (supported: NFC" &&
	bad_tok dec "{\"decoder\":{\"type\":\"WordPiece\"},\"model\":{\"type\":\"BPE\",$V}}" \
		"decoder type .WordPiece. is not supported (supported: ByteLevel" &&
	bad_tok tt "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[],\"continuing_subword_prefix\":\"##\"}}" \
		"continuing_subword_prefix"
'

test_expect_success 'a tiktoken file with another name or bad lines fails' '
	printf "YQ== 0\n" >p50k_base.tiktoken &&
	{ echo x | aiperf-tok --tokenizer ./p50k_base.tiktoken 2>err; test $? -eq 1; } &&
	grep -q "unknown tiktoken encoding .p50k_base. (supported: o200k_base, cl100k_base)" err &&
	printf "YQ== 0\nnot base64!! 1\n" >o200k_base.tiktoken &&
	{ echo x | aiperf-tok --tokenizer ./o200k_base.tiktoken 2>err; test $? -eq 1; } &&
	grep -q "line 2: expected" err
'

test_done
