#!/bin/sh
# aiperf CMD runs aiperf-CMD, git's way: from aiperf's own folder first, then
# PATH; unknown commands are a usage error that names the known ones.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# ext/aiperf-hello: a user's command on PATH; says its pid, its arguments and
# which aiperf-gen it would run.
mkdir -p "$TMP/ext"
cat >"$TMP/ext/aiperf-hello" <<'HELLO'
#!/bin/sh
echo "pid $$"
echo "args $*"
echo "gen $(command -v aiperf-gen)"
HELLO
chmod +x "$TMP/ext/aiperf-hello"

test_expect_success '--help lists the commands found, ours and the stages' '
	aiperf --help >out &&
	for c in profile analyze-trace synthesize gen send metrics export trace; do
		grep -qw -- "$c" out || { echo "no $c in --help"; exit 1; }
	done &&
	test "$(aiperf help)" = "$(cat out)" &&
	aiperf --list-commands >list && grep -qx profile list && ! grep -qx hello list
'

test_expect_success 'a command of the user on PATH runs, in place of aiperf (exec)' '
	PATH=$TMP/ext:$PATH sh -c "echo \$\$ >pid; exec aiperf hello a \"b c\"" >out &&
	grep -qx "pid $(cat pid)" out &&
	grep -qx "args a b c" out &&
	grep -qx "gen $TOP/bin/aiperf-gen" out &&
	PATH=$TMP/ext:$PATH aiperf --help | grep -qw hello
'

test_expect_success 'aiperf'"'"'s own folder wins over PATH' '
	mkdir -p fake && printf "#!/bin/sh\necho fake\n" >fake/aiperf-profile &&
	chmod +x fake/aiperf-profile &&
	PATH=$PWD/fake:$PATH aiperf profile --help >out &&
	grep -q "^usage: aiperf profile" out
'

test_expect_success 'an unknown command: exit 2, the known ones listed' '
	test_expect_code 2 aiperf nosuch >out 2>err &&
	test ! -s out &&
	grep -q "^aiperf: unknown command .nosuch. (known: .*profile" err &&
	grep -q "^Try .aiperf --help." err &&
	test_expect_code 2 aiperf ../bin/aiperf-gen 2>err &&
	grep -q "unknown command" err &&
	test_expect_code 2 aiperf --nosuch 2>err &&
	grep -q "unknown option .--nosuch." err &&
	test_expect_code 2 aiperf 2>err && grep -q "^usage: aiperf CMD" err
'

test_expect_success 'help CMD is CMD --help; --version' '
	aiperf help profile >a && aiperf profile --help >b && test_cmp a b &&
	aiperf-profile --help >c && test_cmp a c &&
	aiperf --version | grep -q "^aiperf [0-9]"
'

printf '%s\n' \
	'{"timestamp": 0, "input_length": 1024, "output_length": 8, "hash_ids": [1, 2]}' \
	'{"timestamp": 5, "input_length": 1500, "output_length": 9, "hash_ids": [1, 3, 4]}' \
	>"$TMP/trace.jsonl"

test_expect_success 'analyze-trace and synthesize are aiperf-trace analyze|synthesize' '
	aiperf analyze-trace --block-size 512 trace.jsonl >a 2>&1 &&
	aiperf-trace analyze --block-size 512 trace.jsonl >b 2>&1 && test_cmp a b &&
	aiperf synthesize --speedup-ratio 2 trace.jsonl >a &&
	aiperf-trace synthesize --speedup-ratio 2 trace.jsonl >b && test_cmp a b &&
	test -s a &&
	test_expect_code 2 aiperf synthesize --no-such-option trace.jsonl 2>/dev/null
'

test_expect_success 'the profile messages still say aiperf profile' '
	test_expect_code 2 aiperf profile --url x 2>err &&
	grep -q "^aiperf profile: profile: --model is required" err &&
	grep -q "^Try .aiperf profile --help." err
'

test_done
