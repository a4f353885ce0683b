#!/bin/sh
# aiperf-send: credentials reach the server once and never the raw records
# (issue #9): URL userinfo and key parameters, secret headers, the API key
# from --api-key, --api-key-file or $AIPERF_API_KEY.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
CANNED_PID=
trap 'stop_canned; cleanup' EXIT
unset AIPERF_API_KEY

start_mock

for engine in h1 curl; do
test_expect_success "$engine: URL userinfo and key parameters stay out of records" '
	reqs 2 >in &&
	host=${MOCK_URL#http://} &&
	aiperf-send --http-engine '"$engine"' -u "http://user:SECRET1@$host/?api_key=SECRET2&x=1" \
		<in >out &&
	! grep -q "SECRET" out &&
	test "$(count "\"url\":\"http://<redacted>@$host/v1/chat/completions?api_key=<redacted>&x=1\"" out)" -eq 2
'
done

test_expect_success 'every secret-looking header is redacted, others kept' '
	reqs 1 >in &&
	aiperf-send -u "$MOCK_URL" -H "X-Auth: S1" -H "Password: S2" -H "apikey: S3" \
		-H "api_key: S4" -H "Cookie: S5" -H "Proxy-Authorization: S6" \
		-H "X-Session-Token: S7" -H "X-Custom: visible" <in >out &&
	! grep -q "S[1-7]" out &&
	for h in X-Auth Password apikey api_key Cookie Proxy-Authorization X-Session-Token; do
		grep -q "\"$h\":\"<redacted>\"" out || { echo "$h"; exit 1; }
	done &&
	grep -q "\"X-Custom\":\"visible\"" out
'

start_canned_ok

# auths: the Authorization lines the canned server saw.
auths() {
	grep -i "^authorization:" "$TMP/wire" | tr -d "\r"
}

for engine in h1 curl; do
test_expect_success "$engine: --api-key with -H Authorization sends one, the key's" '
	: >"$TMP/wire" && reqs 1 >in &&
	aiperf-send --http-engine '"$engine"' -u "$CANNED_URL" --api-key KEY1 \
		-H "authorization: Bearer USER" <in >out 2>err &&
	test "$(auths)" = "Authorization: Bearer KEY1" &&
	grep -q "replaces the Authorization header" err &&
	! grep -q "KEY1\|USER" out
'
done

test_expect_success 'a -H Authorization alone is sent as given, redacted in the record' '
	: >"$TMP/wire" && reqs 1 >in &&
	aiperf-send -u "$CANNED_URL" -H "Authorization: Bearer USER" <in >out &&
	test "$(auths)" = "Authorization: Bearer USER" &&
	grep -q "\"Authorization\":\"<redacted>\"" out && ! grep -q USER out
'

test_expect_success '--api-key-file: the first line is the key' '
	: >"$TMP/wire" && reqs 1 >in &&
	printf "FILEKEY  \r\nsecond line\n" >key && chmod 600 key &&
	aiperf-send -u "$CANNED_URL" --api-key-file key <in >out &&
	test "$(auths)" = "Authorization: Bearer FILEKEY" &&
	! grep -q FILEKEY out
'

test_expect_success '$AIPERF_API_KEY when no option gives one; --api-key wins' '
	: >"$TMP/wire" && reqs 1 >in &&
	AIPERF_API_KEY=ENVKEY aiperf-send -u "$CANNED_URL" <in >out &&
	test "$(auths)" = "Authorization: Bearer ENVKEY" && ! grep -q ENVKEY out &&
	: >"$TMP/wire" &&
	AIPERF_API_KEY=ENVKEY aiperf-send -u "$CANNED_URL" --api-key ARGKEY <in >out &&
	test "$(auths)" = "Authorization: Bearer ARGKEY"
'

test_expect_success 'bad key sources: both options, no file, empty file' '
	test_expect_code 2 aiperf-send --api-key a --api-key-file key </dev/null 2>err &&
	grep -q "cannot be used together" err &&
	test_expect_code 1 aiperf-send --api-key-file nonexistent </dev/null 2>err &&
	grep -q "cannot read .nonexistent." err &&
	: >empty && test_expect_code 1 aiperf-send --api-key-file empty </dev/null 2>err &&
	grep -q "holds no API key" err
'

test_expect_success 'an https URL refused by h1 is named without its password' '
	test_expect_code 2 aiperf-send --http-engine h1 -u "https://u:SECRET@h" </dev/null 2>err &&
	grep -q "<redacted>@h" err && ! grep -q SECRET err
'

test_done
