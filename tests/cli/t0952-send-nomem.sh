#!/bin/sh
# aiperf-send under a memory limit (ulimit -v) smaller than a response
# (aiperf-mock --fault big-body --big-body-bytes) that --max-response-bytes
# allows: the allocation that fails is that request's error record
# (MemoryError, the size that failed, no responses), the others go on, on
# both engines, for a plain body, a stream's huge event and a stream of
# many small ones (its responses array); a cap below the memory left comes
# first (ResponseTooLargeError). Before, the sender aborted (SIGABRT) and
# the request had no record.
# ASan reserves terabytes of address space, so ulimit -v cannot limit a
# sanitized build: there ASan's own limit on one allocation stands in for
# it (max_allocation_size_mb, with allocator_may_return_null), and the
# leak check at exit sees that what the failed responses held was freed.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

LIMIT=65536	# KiB: the sender needs about 30 MiB before any response
start_mock --ttft-ms 1 --itl-ms 1 --output-tokens 4 --fault big-body --big-body-bytes 96MiB

# big ID STREAM: a chat record (its answer gets the 96 MiB text); small ID:
# an embeddings record (a route --fault leaves alone)
big() {
	printf '{"id":"%s","endpoint_type":"chat","stream":%s,"payload":{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":%s}}\n' "$1" "$2" "$2"
}
small() {
	printf '{"id":"%s","endpoint_type":"embeddings","path":"/v1/embeddings","payload":{"model":"m","input":["hi"]}}\n' "$1"
}
{ big big1 false; small small1; big big2 true; small small2; } >"$TMP/in"
small probe >"$TMP/probe"

# probe: one small request under the limit (dash, bash and busybox sh all
# have ulimit -v); a sanitized build cannot start there and says
# AddressSanitizer (the shell's word on its abort goes with it)
# shellcheck disable=SC3045
probe() {
	(ulimit -v $LIMIT && exec aiperf-send -u "$MOCK_URL" <"$TMP/probe" >"$TMP/probe.out")
}
SAN=
if ! probe 2>"$TMP/probe.err" && grep -q AddressSanitizer "$TMP/probe.err"; then
	SAN="${ASAN_OPTIONS:-}:allocator_may_return_null=1:max_allocation_size_mb=16"
	aiperf-send -u "$MOCK_URL" <"$TMP/probe" >"$TMP/probe.out"
fi

# limited ENGINE [options]: the records in through ENGINE under the limit;
# err: what it said on standard error, but ASan's word on each allocation
# it refused
# shellcheck disable=SC3045
limited() {
	engine=$1
	shift
	if [ -n "$SAN" ]; then
		ASAN_OPTIONS=$SAN aiperf-send -u "$MOCK_URL" --http-engine "$engine" "$@" \
			<"$TMP/${IN:-in}" >out 2>err.all
	else
		(ulimit -v $LIMIT && exec aiperf-send -u "$MOCK_URL" --http-engine "$engine" "$@" \
			<"$TMP/${IN:-in}" >out 2>err.all)
	fi &&
	{ grep -v "AddressSanitizer failed to allocate" err.all >err || true; }
}

for engine in h1 curl; do
test_expect_success "$engine: a response past the memory left is its own MemoryError record" '
	test -s "$TMP/probe.out" &&
	limited '$engine' --max-response-bytes 2GiB &&
	test ! -s err && test "$(wc -l <out)" -eq 4 &&
	jq "select(.metadata.x_request_id | startswith(\"big\")) |
		.status == 200 and .error.type == \"MemoryError\" and (.error.code | not) and
		(.error.message | test(\"^Response dropped: allocating [0-9]+ bytes for it failed \\\\(out of memory\\\\)$\"))
		and .responses == [] and .aiperf.http.bytes_received > 1000000" out >got &&
	test "$(grep -c true got)" -eq 2 &&
	jq "select(.metadata.x_request_id | startswith(\"small\")) |
		.status == 200 and (.error | not) and (.responses | length) == 1" out >got &&
	test "$(grep -c true got)" -eq 2
'

test_expect_success "$engine: a cap below the memory left comes first: ResponseTooLargeError" '
	limited '$engine' --max-response-bytes 4MiB &&
	test ! -s err && test "$(wc -l <out)" -eq 4 &&
	test "$(count "\"type\":\"ResponseTooLargeError\"" out)" -eq 2 &&
	test "$(count "\"type\":\"MemoryError\"" out)" -eq 0
'
done

stop_mock
start_mock -f
# many ID: a stream of 400,000 chunks, some 80 MB of SSE
many() {
	printf '{"id":"%s","endpoint_type":"chat","stream":true,"payload":{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"max_tokens":400000}}\n' "$1"
}
{ many many1; small small3; } >"$TMP/in.many"
for engine in h1 curl; do
test_expect_success "$engine: a stream whose messages pass the memory left: MemoryError" '
	IN=in.many limited '$engine' --max-response-bytes 2GiB &&
	test ! -s err && test "$(wc -l <out)" -eq 2 &&
	head -1 out | jq -e ".error.type == \"MemoryError\" and .responses == [] and
		(.error.message | startswith(\"Response dropped: allocating \"))" &&
	tail -1 out | jq -e "(.error | not) and (.responses | length) == 1"
'
done

test_done
