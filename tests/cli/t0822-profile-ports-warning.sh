#!/bin/sh
# aiperf profile warns when the concurrency gives one server address and
# port more connections than half the ephemeral port range (connect()
# then scans the local ports for each new one, and the senders stall in
# the kernel); several --url share the load; a shard counts its share.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# (a sysctl file reads whole at once, not as read(1) reads, a byte a call)
R=$(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null) || R=
[ -n "$R" ] || test_skip_all "no /proc/sys/net/ipv4/ip_local_port_range"
LO=${R%%[!0-9]*} HI=${R##*[!0-9]}
HALF=$(((HI - LO + 1) / 2))
export HALF
start_mock --fast || test_skip_all "aiperf-mock did not start"
P="-m m --tokenizer builtin --isl 4 --osl 2 --request-count 1 --ui-type none"

test_expect_success 'past half the range to one address and port: a warning' '
	aiperf profile $P --url "$MOCK_URL" --concurrency $((HALF + 1)) --artifact-dir a >out 2>err &&
	grep -q "concurrency $((HALF + 1)) over 1 server address(es) and port(s): past $HALF connections to one (half of net.ipv4.ip_local_port_range $LO-$HI)" err
'

test_expect_success 'at half, or spread over two ports: none' '
	aiperf profile $P --url "$MOCK_URL" --concurrency $HALF --artifact-dir b >out 2>err &&
	! grep -q "ip_local_port_range" err &&
	aiperf profile $P --url "$MOCK_URL" --url "${MOCK_URL%:*}:1" --concurrency $((2 * HALF)) \
		--artifact-dir c >out 2>err &&
	! grep -q "ip_local_port_range" err
'

test_expect_success 'a shard counts its share of the concurrency' '
	aiperf profile $P --url "$MOCK_URL" --concurrency $((2 * HALF + 2)) --workers-max 2 --request-count 2 \
		--shard 1 --random-seed 1 --artifact-dir d >out 2>err &&
	grep -q "concurrency $((HALF + 1)) over 1 server" err &&
	aiperf profile $P --url "$MOCK_URL" --concurrency $((2 * HALF)) --workers-max 2 --request-count 2 \
		--shard 1 --random-seed 1 --artifact-dir e >out 2>err &&
	! grep -q "ip_local_port_range" err
'

test_done
