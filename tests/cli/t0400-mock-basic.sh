#!/bin/sh
# aiperf-mock: startup, the small GET routes, error answers and usage errors.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# a broken mock must fail the test, not hang it
curl() {
	command curl --max-time 30 "$@"
}

start_mock --fast

test_expect_success 'port 0 prints one loopback URL line' '
	echo "$MOCK_URL" | grep -Eq "^http://127\.0\.0\.1:[0-9]+$" &&
	test "$(wc -l <"$TMP/.mock.url")" -eq 1
'

test_expect_success 'health' '
	curl -sf "$MOCK_URL/health" >out &&
	test "$(jq -r .status out)" = healthy
'

test_expect_success 'models lists the served model' '
	curl -sf "$MOCK_URL/v1/models" >out &&
	test "$(jq -r ".object, .data[0].id, .data[0].object" out | tr "\n" " ")" = "list aiperf-mock model "
'

test_expect_success 'unknown path is a 404 JSON error' '
	code=$(curl -s -o out -w "%{http_code}" "$MOCK_URL/v2/nothing") &&
	test "$code" = 404 && test "$(jq .error.code out)" = 404
'

test_expect_success 'wrong method is a 405' '
	code=$(curl -s -o out -w "%{http_code}" "$MOCK_URL/v1/chat/completions") &&
	test "$code" = 405 &&
	code=$(curl -s -o out -w "%{http_code}" -d "{}" "$MOCK_URL/health") &&
	test "$code" = 405
'

test_expect_success 'bad JSON is a 400 that names the problem' '
	code=$(curl -s -o out -w "%{http_code}" -d "{\"messages\":" "$MOCK_URL/v1/chat/completions") &&
	test "$code" = 400 && jq -r .error.message out | grep -q "invalid JSON body" &&
	code=$(curl -s -o out -w "%{http_code}" -d "{\"model\":\"m\"}" "$MOCK_URL/v1/chat/completions") &&
	test "$code" = 400 && jq -r .error.message out | grep -q messages &&
	code=$(curl -s -o out -w "%{http_code}" -d "{\"prompt\":\"x\",\"max_tokens\":0}" "$MOCK_URL/v1/completions") &&
	test "$code" = 400
'

test_expect_success 'metrics count requests and tokens' '
	curl -sf -d "{\"prompt\":\"a b c d\",\"max_tokens\":3}" "$MOCK_URL/v1/completions" >/dev/null &&
	curl -sf "$MOCK_URL/metrics" >out &&
	grep -q "^aiperf_mock_requests_total{route=\"completions\"} [1-9]" out &&
	grep -q "^aiperf_mock_completion_tokens_total 3$" out &&
	grep -q "^aiperf_mock_requests_in_flight 0$" out &&
	grep -q "^# TYPE aiperf_mock_requests_in_flight gauge$" out
'

kill -TERM "$MOCK_PID"
wait "$MOCK_PID"
rc=$?
MOCK_PID=
test_expect_success 'SIGTERM stops the server with status 0' '
	test "$rc" -eq 0
'

test_expect_success 'bad flags exit 2 with a prefixed message' '
	test_expect_code 2 aiperf-mock --no-such-flag 2>err &&
	grep -q "^aiperf-mock: " err &&
	test_expect_code 2 aiperf-mock --itl-ms abc 2>err &&
	grep -q "^aiperf-mock: invalid value for --itl-ms" err &&
	test_expect_code 2 aiperf-mock --port 70000 2>err &&
	test_expect_code 2 aiperf-mock --status 99 2>err &&
	test_expect_code 2 aiperf-mock extra 2>err
'

test_expect_success '--version prints the name and a version' '
	aiperf-mock --version >out &&
	grep -q "^aiperf-mock [0-9]" out
'

test_done
