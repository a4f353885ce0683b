#!/bin/sh
# aiperf profile's options as aiperf-plan reads them from
# profile-options.tsv: --help generated from the table (a row added, a
# section appears); hostile command lines (empty values, '=' forms, values
# that look like options, huge values, odd bytes, repeated options) are
# refused with the wrapper's messages or kept whole through the shell code.
# shellcheck disable=SC1003,SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=
TSV=$TOP/data/profile-options.tsv
P="-m m --tokenizer builtin --request-count 2 --url http://127.0.0.1:1 --ui-type none"

# shell NAME ARGS...: aiperf-plan's shell code for ARGS (its run folder NAME.run)
shell() {
	n=$1
	shift
	mkdir -p "$n.run" && aiperf-plan --run-dir "$PWD/$n.run" -- "$@" --artifact-dir "$n.a" >"$n.sh"
}
# value NAME OPTION: SET[OPTION] after NAME.sh, as bash sees it
value() { bash -c "eval \"\$(cat $1.sh)\" && printf %s \"\${SET[$2]}\""; }

test_expect_success '--help is the table'"'"'s: every section, every accepted name' '
	aiperf profile --help >help &&
	aiperf-plan --profile-help >want && test_cmp want help &&
	head -1 help | grep -qx "usage: aiperf profile -m MODEL \[options\]" &&
	grep -v "^#" "$TSV" | awk -F"\t" "\$8 != \"no\" { print \$10 }" | awk "!s[\$0]++" >groups &&
	grep -o "^  [A-Z][A-Za-z -]*:" help | sed "s/^  //; s/:\$//" >got && test_cmp groups got &&
	grep -qx "  Endpoint:  -m/--model/--model-names," help &&
	grep -qx "             --model-selection-strategy round_robin|random|weighted," help &&
	! grep -q -- "--search-space" help &&
	awk "length > 78" help >long && test_cmp /dev/null long
'

test_expect_success 'a row added to the table: --help shows it, in its own section' '
	mkdir -p data && cp "$TSV" data/ &&
	printf "%s\t-\tflag\tw\t-\t-\t-\tours\tours: a test\tTesting\t-\n" --only-in-this-table >>data/profile-options.tsv &&
	AIPERF_DATA_DIR=$PWD/data aiperf profile --help >help2 &&
	tail -6 help2 | head -1 | grep -qx "  Testing:   --only-in-this-table" &&
	! grep -q only-in-this help
'

test_expect_success 'aiperf(7)'"'"'s list of the options is the table'"'"'s (make man-options)' '
	sed -n "/^\.\\\\\" BEGIN: aiperf-plan --profile-man/,/^\.\\\\\" END: aiperf-plan/p" \
		"$TOP/man/aiperf.7" | sed "1d;\$d" >man.list &&
	test -s man.list &&
	aiperf-plan --profile-man >want.list && test_cmp want.list man.list &&
	AIPERF_DATA_DIR=$PWD/data aiperf-plan --profile-man >changed.list &&
	! cmp -s changed.list man.list
'

test_expect_success 'unknown, refused, valueless, flag with a value: exit 2, the message' '
	test_expect_code 2 aiperf profile -m m --bogus 2>err &&
	grep -qx "aiperf profile: profile: unknown option .--bogus." err &&
	grep -qx "Try .aiperf profile --help. for more information." err &&
	test_expect_code 2 aiperf profile -m m --streaming=yes 2>err &&
	grep -qx "aiperf profile: profile: option .--streaming. takes no value" err &&
	test_expect_code 2 aiperf profile -m m --concurrency 2>err &&
	grep -qx "aiperf profile: profile: option .--concurrency. needs a value" err &&
	test_expect_code 2 aiperf profile -m=m 2>err &&
	grep -qx "aiperf profile: profile: unknown option .-m=m." err &&
	test_expect_code 2 aiperf profile "" 2>err &&
	grep -qx "aiperf profile: profile: unknown option .." err &&
	test_expect_code 2 aiperf profile --model "" 2>err &&
	grep -qx "aiperf profile: profile: --model is required" err &&
	test_expect_code 2 aiperf profile --search-space=s -m m 2>err &&
	grep -q "option .--search-space. is not supported yet: Bayesian" err
'

test_expect_success 'values that look like options, = forms, repeated options' '
	shell a $P --artifact-dir=x --endpoint --help --extra-inputs=a:1 --extra-inputs b:2 \
		--isl 5 --isl=7 --model=--n, &&
	test "$(value a --endpoint)" = --help &&
	test "$(value a --isl)" = 7 &&
	test "$(value a --extra-inputs)" = "$(printf "a:1\nb:2")" &&
	test "$(value a --model | od -c)" = "$(printf "m\n--n\n" | od -c)" &&
	grep -qF "\"extra\": [\"a:1\", \"b:2\"]" a.run/input_config.json &&
	grep -qF "\"model_names\": [\"m\", \"--n\"]" a.run/input_config.json
'

test_expect_success 'odd bytes and quotes survive the shell code whole' '
	v=$(printf "a'"'"'b\"c\\\\d \$(touch pwned) \`x\` \001\033\tend") &&
	shell b $P --endpoint "$v" &&
	test "$(value b --endpoint | od -c)" = "$(printf %s "$v" | od -c)" && ! test -e pwned &&
	bash -c "eval \"\$(cat b.sh)\" && printf %s \"\$CLI\"" >cli &&
	q=$(printf %s "$v" | sed "s/'"'"'/'"'"'\\\\'"'"''"'"'/g") &&
	grep -qF -- "--endpoint '"'"'$q'"'"'" cli
'

test_expect_success 'a huge value is kept whole (100,000 bytes)' '
	big=$(head -c 100000 /dev/zero | tr "\0" x) &&
	shell c $P --endpoint "$big" &&
	test "$(value c --endpoint | wc -c)" = 100000 &&
	test "$(jq -r ".endpoint.custom_endpoint | length" c.run/input_config.json)" = 100000
'

test_expect_success 'choices in any case; the wrapper'"'"'s own checks in order' '
	shell d $P --export-level RAW --log-level debug &&
	test "$(value d --export-level)" = raw &&
	bash -c "eval \"\$(cat d.sh)\" && echo \$LOGLEVEL" >got && echo DEBUG >want && test_cmp want got &&
	test_expect_code 2 aiperf profile $P --export-level all --log-level loud 2>err &&
	grep -q "invalid value for --export-level: .all." err &&
	test_expect_code 2 aiperf profile $P --busy-poll --no-busy-poll --log-level loud 2>err &&
	grep -q "busy-poll and --no-busy-poll cannot be used together" err
'

test_done
