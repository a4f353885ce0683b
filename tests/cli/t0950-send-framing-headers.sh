#!/bin/sh
# aiperf-send -H with the headers that frame a request or manage its
# connection (Content-Length, Transfer-Encoding, Connection, Keep-Alive, TE,
# Upgrade): a usage error (exit 2) naming the header, on both engines, in
# any case and either -H form, and through aiperf profile -H; nothing is
# sent. Host replaces the engines' own: one Host line on the wire, the last
# -H Host given (any case), and one Content-Length, the body's.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
CANNED_PID=
trap 'stop_canned; cleanup' EXIT
unset AIPERF_API_KEY

start_canned_ok

# sendh ENGINE -H...: one request through ENGINE, the wire log fresh.
sendh() {
	engine=$1
	shift
	: >"$TMP/wire" && reqs 1 >in &&
	aiperf-send --http-engine "$engine" -u "$CANNED_URL" "$@" <in >out
}

# wire NAME: the wire's NAME header lines (any case), without line ends.
wire() {
	grep -i "^$1:" "$TMP/wire" | tr -d "\r" || true
}

for engine in h1 curl; do
test_expect_success "$engine: framing and connection headers are usage errors, nothing sent" '
	for h in "Content-Length: 5" "content-length:0" "Transfer-Encoding: chunked" \
		"{\"Connection\":\"close\"}" "Keep-Alive: timeout=5" "TE: gzip" \
		"UPGRADE: h2c" "X-A:1,Transfer-Encoding:chunked"; do
		name=$(printf "%s" "$h" | sed -e "s/^X-A:1,//" -e "s/^{\"//" -e "s/[\":].*//")
		test_expect_code 2 sendh '"$engine"' -H "$h" 2>err &&
		grep -q "^aiperf-send: header '\''$name'\'' cannot be set with -H or a record'\''s headers: the sender frames each request" err &&
		test ! -s out && test ! -s "$TMP/wire" || exit 1
	done
'

test_expect_success "$engine: -H Host replaces the engine's own: one Host, one Content-Length" '
	sendh '"$engine"' -H "Host: example.test" &&
	jq -e ".status == 200 and (.error | not)" out &&
	test "$(wire host)" = "Host: example.test" &&
	len=$(jq -c .payload out | tr -d "\n" | wc -c) &&
	test "$(wire content-length)" = "Content-Length: $len"
'

test_expect_success "$engine: Host given twice in two cases: the last one, once" '
	sendh '"$engine"' -H "Host: a.test" -H "{\"host\":\"b.test\"}" &&
	test "$(wire host | wc -l)" -eq 1 &&
	test "$(wire host | sed "s/^[^:]*: //")" = b.test &&
	jq -e ".request_headers.host == \"b.test\" and (.request_headers.Host | not)" out
'
done

test_expect_success 'aiperf profile -H Content-Length: the same usage error, exit 2' '
	: >"$TMP/wire" &&
	test_expect_code 2 aiperf profile --model m --url "$CANNED_URL" --tokenizer builtin \
		--request-count 1 --artifact-dir "$TMP/art" -H "Content-Length: 5" 2>err &&
	grep -q "header '\''Content-Length'\'' cannot be set with -H" err &&
	test ! -s "$TMP/wire"
'

test_done
