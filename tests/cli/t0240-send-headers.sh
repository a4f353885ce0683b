#!/bin/sh
# aiperf-send -H (issue #11): 'Name:Value' strings, repeatable and split at
# commas as the original splits them, and JSON objects, each member a header;
# what reaches the wire and the raw record's request_headers, on both engines,
# and clear usage errors (exit 2) for what cannot be a header.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
CANNED_PID=
trap 'stop_canned; cleanup' EXIT
unset AIPERF_API_KEY

start_canned_ok

# xh: the wire's X-* header lines, in order, without line ends.
xh() {
	grep -i "^x-[a-z]*:" "$TMP/wire" | grep -v -i "^x-request-id:\|^x-correlation-id:" |
		tr -d "\r"
}

# sendh ENGINE -H...: one request through ENGINE, the wire log fresh.
sendh() {
	engine=$1
	shift
	: >"$TMP/wire" && reqs 1 >in &&
	aiperf-send --http-engine "$engine" -u "$CANNED_URL" "$@" <in >out
}

for engine in h1 curl; do
test_expect_success "$engine: a JSON object gives one header per member" '
	sendh '"$engine"' -H "{\"X-A\":\"1\",\"X-B\":\"two words\"}" &&
	printf "X-A: 1\nX-B: two words\n" >want && xh >got && test_cmp want got &&
	grep -q "\"X-A\":\"1\",\"X-B\":\"two words\"" out
'

test_expect_success "$engine: Name:Value strings, repeated, spaces trimmed" '
	sendh '"$engine"' -H "X-A:1" -H "  X-B :  2  " &&
	printf "X-A: 1\nX-B: 2\n" >want && xh >got && test_cmp want got
'

test_expect_success "$engine: both forms together, in order; the last of a name wins" '
	sendh '"$engine"' -H "X-A:1" -H "{\"X-B\":\"2\",\"X-A\":\"3\"}" -H "X-C:4" &&
	printf "X-A: 3\nX-B: 2\nX-C: 4\n" >want && xh >got && test_cmp want got
'

test_expect_success "$engine: a comma-separated list of pairs, as the original splits it" '
	sendh '"$engine"' -H "X-A:1,X-B:2" &&
	printf "X-A: 1\nX-B: 2\n" >want && xh >got && test_cmp want got
'

test_expect_success "$engine: a value with commas but no pairs after them stays whole" '
	sendh '"$engine"' -H "X-List: a, b;q=0.5" -H "X-Time: 10:00" &&
	printf "X-List: a, b;q=0.5\nX-Time: 10:00\n" >want && xh >got && test_cmp want got
'

test_expect_success "$engine: an empty value is sent as an empty header" '
	sendh '"$engine"' -H "X-Empty:" -H "{\"X-Also\":\"\"}" &&
	printf "X-Empty:\nX-Also:\n" >want && xh >got && test_cmp want got &&
	grep -q "\"X-Empty\":\"\",\"X-Also\":\"\"" out
'
done

test_expect_success 'JSON values with escapes and colons arrive as written' '
	sendh h1 -H "{\"X-U\":\"caf\\u00e9:1,2\"}" &&
	printf "X-U: caf\303\251:1,2\n" >want && xh >got && test_cmp want got
'

test_expect_success 'a JSON Authorization is redacted in the record; --api-key replaces it' '
	sendh h1 -H "{\"Authorization\":\"Bearer USER\",\"X-A\":\"1\"}" &&
	grep -q "^Authorization: Bearer USER" "$TMP/wire" &&
	grep -q "\"Authorization\":\"<redacted>\"" out && ! grep -q USER out &&
	sendh h1 --api-key KEY -H "{\"authorization\":\"Bearer USER\"}" 2>err &&
	test "$(grep -i -c "^authorization:" "$TMP/wire")" -eq 1 &&
	grep -q "^Authorization: Bearer KEY" "$TMP/wire" &&
	grep -q "replaces the Authorization header" err
'

test_expect_success 'an empty JSON object adds nothing' '
	sendh h1 -H "{}" && test -z "$(xh)"
'

# hrec JSON: one request record whose "headers" member is JSON.
hrec() {
	reqs 1 true ",\"headers\":$1"
}

for engine in h1 curl; do
test_expect_success "$engine: a record's own headers follow -H's, on the wire and in the raw record" '
	: >"$TMP/wire" && hrec "{\"X-S\":\"s-1\",\"X-B\":\"2\"}" >in &&
	aiperf-send --http-engine '"$engine"' -u "$CANNED_URL" -H "X-A:1" <in >out &&
	printf "X-A: 1\nX-S: s-1\nX-B: 2\n" >want && xh >got && test_cmp want got &&
	grep -q "\"X-S\":\"s-1\"" out
'
done

test_expect_success "a record's bad headers: the record refused, line and reason named (exit 1)" '
	for h in "[1]" "{\"X-A\":1}" "{\"X A\":\"1\"}" "{\"Content-Length\":\"5\"}" \
		"{\"X-A\":\"a\\r\\nX-Evil: 1\"}" "{\"\":\"v\"}"; do
		hrec "$h" >in &&
		test_expect_code 1 aiperf-send -u "$CANNED_URL" <in >out 2>err || { echo "$h"; return 1; }
		grep -q "^aiperf-send: <stdin>:1: .*headers" err || { cat err; return 1; }
		! grep -q "Evil" err || return 1
	done &&
	awk "BEGIN { printf \"{\"; for (i = 0; i < 65; i++) printf \"%s\\\"X-%d\\\":\\\"v\\\"\", i ? \",\" : \"\", i; printf \"}\" }" >many &&
	hrec "$(cat many)" >in &&
	test_expect_code 1 aiperf-send -u "$CANNED_URL" <in 2>err &&
	grep -q "more than 64" err
'

# bad ARG MESSAGE: -H ARG is a usage error whose message holds MESSAGE.
bad() {
	test_expect_code 2 aiperf-send -H "$1" </dev/null >out 2>err &&
	grep -qF -- "$2" err && grep -q "^Try .aiperf-send --help." err
}

test_expect_success 'malformed headers are usage errors (exit 2) that say why' '
	bad "nocolon" "expected '"'"'Name:Value'"'"' or a JSON object" &&
	bad ":v" "empty header name" &&
	bad "X A:1" "invalid header name '"'"'X A'"'"'" &&
	bad "{\"X-A\":1}" "header '"'"'X-A'"'"': the value must be a string, not a number" &&
	bad "{\"X-A\":true}" "not a boolean" &&
	bad "{\"X-A\":null}" "not null" &&
	bad "{\"X-A\":{\"b\":\"c\"}}" "not an object" &&
	bad "{\"X-A\":[\"1\"]}" "not an array" &&
	bad "{\"X-A\":\"1\"" "invalid header JSON: at byte" &&
	bad "{\"X-A\":\"1\"} x" "invalid header JSON" &&
	bad "{\"\":\"1\"}" "empty header name" &&
	bad "{\"X:A\":\"1\"}" "invalid header name '"'"'X:A'"'"'" &&
	bad "{\"X-A\":\"a\\r\\nX-Evil: 1\"}" "header '"'"'X-A'"'"': the value holds a control character" &&
	bad "{\"X-A\":\"a\\u0000b\"}" "control character"
'

test_expect_success 'a JSON value is never echoed in an error (it may be a secret)' '
	bad "{\"Authorization\":\"SECRET\\n\"}" "control character" && ! grep -q SECRET err &&
	bad "{\"Authorization\":\"SECRET\"" "invalid header JSON" && ! grep -q SECRET err
'

test_done
