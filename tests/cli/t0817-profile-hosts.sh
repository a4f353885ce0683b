#!/bin/sh
# run.sh: long
# aiperf profile on several hosts (issue #18; aiperf(7), Several hosts):
# three hosts played by network namespaces this test creates (inside a
# private "lab" namespace of its own: loopback-only veth pairs, nothing
# else touched), GNU parallel (or a plain runner) starting one shard per
# host with one command line, --start-at, then the merge. Checks: the
# merged artifacts hold the single-host run's schedule; aiperf clocks
# measures them and reports a skewed one; a host killed mid-run loses only
# its own requests, reported per worker.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings (they use these)
if [ -z "${AIPERF_LAB:-}" ]; then
	why=
	[ "$(id -u)" = 0 ] || why="not root (network namespaces)"
	for c in unshare nsenter ip; do
		[ -n "$why" ] || command -v "$c" >/dev/null 2>&1 || why="no $c"
	done
	[ -n "$why" ] || unshare --net true 2>/dev/null || why="cannot unshare a network namespace"
	if [ -n "$why" ]; then
		echo "1..0 # SKIP $why"
		exit 0
	fi
	AIPERF_LAB=1 exec unshare --net --fork sh "$0" "$@"
fi

# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

HOSTS_DIR=$TMP/hosts
export HOSTS_DIR
HPIDS=
hosts_cleanup() {
	for p in $HPIDS; do kill "$p" 2>/dev/null; done
	[ -n "${MOCK2_PID:-}" ] && kill "$MOCK2_PID" 2>/dev/null
	cleanup
}
trap hosts_cleanup EXIT

ip link set lo up
sysctl -qw net.ipv4.conf.all.rp_filter=0 2>/dev/null
sysctl -qw net.ipv4.conf.all.route_localnet=1
mkdir -p "$HOSTS_DIR" "$TMP/bin"

# nsrun HOST CMD...: runs CMD (a shell command line, as ssh does) in the
# host's namespace; ssh's options from GNU parallel are skipped.
cat >"$TMP/bin/nsrun" <<'EOF'
#!/bin/sh
h=$1
shift
while [ "$1" = -l ] || [ "$1" = -o ] || [ "$1" = -p ]; do shift 2; done
[ "$1" = -- ] && shift
pid=$(cat "$HOSTS_DIR/$h" 2>/dev/null) || { echo "nsrun: no host $h" >&2; exit 255; }
LAB=127.1.${h#host}.1
# ssh sets SHELL from the login's passwd entry; GNU parallel's remote
# worker execs $SHELL (a CI job may have none)
SHELL=${SHELL:-/bin/sh}
export LAB SHELL
exec nsenter --net=/proc/"$pid"/ns/net sh -c "$*"
EOF
# skewed HOST CMD...: a runner whose host's clock is 5 s ahead
cat >"$TMP/bin/skewed" <<'EOF'
#!/bin/sh
echo $(($(date +%s%N) + 5000000000))
EOF
chmod +x "$TMP/bin/nsrun" "$TMP/bin/skewed"
PATH=$TMP/bin:$PATH

# host K: a namespace with eth0 127.1.K.2, its veth peer vK 127.1.K.1 here
# (the lab's address for that host: $LAB in nsrun).
host() {
	k=$1
	unshare --net sh -c 'i=0; while [ $i -lt 1200 ]; do sleep 0.5; i=$((i + 1)); done' &
	h=$!
	HPIDS="$HPIDS $h"
	i=0
	while [ "$(readlink /proc/$h/ns/net)" = "$(readlink /proc/self/ns/net)" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	ip link add "v$k" type veth peer name eth0 netns "$h" &&
	ip addr add "127.1.$k.1/24" dev "v$k" &&
	sysctl -qw "net.ipv4.conf.v$k.route_localnet=1" &&
	sysctl -qw "net.ipv4.conf.v$k.rp_filter=0" &&
	ip link set "v$k" up &&
	nsenter --net=/proc/$h/ns/net sh -c "
		ip link set lo up
		ip route del local 127.0.0.0/8 dev lo table local
		ip route add local 127.0.0.1 dev lo table local 2>/dev/null || true
		ip addr add 127.1.$k.2/24 dev eth0 &&
		sysctl -qw net.ipv4.conf.eth0.route_localnet=1 &&
		sysctl -qw net.ipv4.conf.all.route_localnet=1 &&
		ip link set eth0 up" &&
	echo "$h" >"$HOSTS_DIR/host$k"
}

for k in 1 2 3; do host "$k" || { echo "1..0 # SKIP cannot build the namespace hosts"; exit 0; }; done

start_mock --host 0.0.0.0 --ttft-ms 5 --itl-ms 1
PORT=${MOCK_URL##*:}
# each host names the lab (the mock's address) $LAB, as a name in DNS would
URL="http://\$LAB:$PORT"

OPTS="-m m --tokenizer builtin --random-seed 11 --isl 8 --osl 4 --export-level raw
	--ui-type none --request-rate 40 --request-rate-mode constant --request-count 30"

# start_at S: now + S seconds, epoch seconds with 3 decimals. (The
# margins leave room for three sanitizer-built runs on a loaded machine to
# start: a shard whose moment is past starts at once, off the schedule.)
start_at() {
	awk -v s="$1" 'BEGIN { srand(); printf "%.3f\n", srand() + s }'
}

# sched DIR: "id intended-ns-from-the-first" of every record, by id.
sched() {
	jq -r '"\(.metadata.x_request_id) \(.aiperf.intended_perf_ns)"' \
		"$1/profile_export_raw.jsonl" | sort -k2,2n |
		awk 'NR == 1 { z = $2 } { print $1, $2 - z }' | sort
}

test_expect_success 'each namespace host reaches the lab mock' '
	for k in 1 2 3; do
		i=0
		until nsrun host$k "curl -s -m 2 -o /dev/null $URL/"; do
			test $i -lt 100 || exit 1
			sleep 0.1; i=$((i + 1))
		done
	done
'

test_expect_success 'one host: the reference run from --start-at' '
	S=$(start_at 2) &&
	aiperf profile $OPTS --url "http://127.0.0.1:$PORT" --start-at "$S" --artifact-dir one >out 2>err &&
	test "$(wc -l <one/profile_export_raw.jsonl)" = 30 &&
	grep -q "start-at" one/logs/aiperf.log
'

test_expect_success 'three hosts, one shard each with one command line, merged' '
	S=$(start_at 10) &&
	cmd="cd $TMP && aiperf profile $(echo $OPTS) --url $URL --workers-max 3 --shard {} --start-at $S --artifact-dir $TMP/shard{} >$TMP/shard{}.out 2>$TMP/shard{}.err" &&
	if command -v parallel >/dev/null; then
		parallel --will-cite --ssh nsrun --sshlogin 1/host1,1/host2,1/host3 "$cmd" ::: 1 2 3
	else
		echo "no GNU parallel: the plain runner" &&
		for k in 1 2 3; do
			nsrun host$k "$(echo "$cmd" | sed "s/{}/$k/g")" & 
		done && wait
	fi &&
	for k in 1 2 3; do
		test -s shard$k/profile_export_raw.jsonl || { tail -5 shard$k.err; exit 1; }
		grep -q "\"worker_id\":\"worker_$((k - 1))\"" shard$k/profile_export_raw.jsonl &&
		! grep -v "\"worker_id\":\"worker_$((k - 1))\"" shard$k/profile_export_raw.jsonl || exit 1
	done &&
	aiperf profile $OPTS --url "$URL" --workers-max 3 --artifact-dir merged \
		--from-records shard3/profile_export_raw.jsonl shard1/profile_export_raw.jsonl \
		shard2/profile_export_raw.jsonl >mout 2>merr &&
	test "$(wc -l <merged/profile_export_raw.jsonl)" = 30 &&
	grep -qx "worker_1: 10 requests ended, 0 lost in flight (due before its last record ended), 0 never sent" merged/logs/shards.txt &&
	test "$(jq .request_count.avg merged/profile_export_aiperf.json)" = 30 &&
	cmp -s one/inputs.json merged/inputs.json
'

test_expect_success 'the merged schedule is the one-host schedule (ids, intended times within 1 ms)' '
	sched one >a && sched merged >b &&
	cut -d" " -f1 a >ia && cut -d" " -f1 b >ib && test_cmp ia ib &&
	join a b | awk "{ d = \$2 - \$3; if (d < 0) d = -d; if (d > 1000000) { print; bad = 1 } } END { exit bad }"
'

test_expect_success 'aiperf clocks: the namespace hosts agree, a skewed one is reported' '
	aiperf clocks --via nsrun host1 host2 host3 >out 2>err &&
	test "$(grep -c "^host[123] " out)" = 3 &&
	test_expect_code 1 aiperf clocks --via skewed --json c.json host1 >out 2>err &&
	grep -q "beyond 1 ms on host1" err && grep -q chrony err && grep -q ptp4l err &&
	jq -e ".hosts[0].ok == false and .hosts[0].offset_ms > 4000" c.json &&
	test_expect_code 1 aiperf clocks --via false hostx 2>err && grep -q "no time" err
'

test_expect_success 'a host killed mid-run loses only its own requests, reported per worker' '
	aiperf-mock --host 0.0.0.0 --port 0 --ttft-ms 1500 --itl-ms 1 >m2.url 2>m2.err &
	MOCK2_PID=$!
	i=0; while [ ! -s m2.url ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	U2="http://\$LAB:$(head -1 m2.url | sed "s/.*://")" &&
	S=$(start_at 8) &&
	pids= &&
	for k in 1 2 3; do
		mkdir -p tmp$k &&
		nsrun host$k "TMPDIR=$TMP/tmp$k aiperf profile $(echo $OPTS | sed "s/--request-rate 40/--request-rate 10/") --url $U2 --workers-max 3 --shard $k --start-at $S --artifact-dir $TMP/k$k >$TMP/k$k.out 2>$TMP/k$k.err" &
		pids="$pids $!"
	done
	# once shard 2 has sent requests that cannot have ended (1.5 s each),
	# and one has ended (a loaded machine may start the shards late):
	i=0
	while [ $i -lt 600 ] && { ! awk -v s="$S" "BEGIN { srand(); exit !(srand() >= s + 2) }" ||
		[ ! -s k2/profile_export_raw.jsonl ]; }; do
		sleep 0.05; i=$((i + 1))
	done
	p=$(cat tmp2/aiperf.*/send.pid) && kill -9 "$p" &&
	for p in $pids; do wait "$p" || :; done
	kill "$MOCK2_PID"; MOCK2_PID=
	test_expect_code 3 aiperf profile $OPTS --url "$U2" --workers-max 3 --artifact-dir km \
		--from-records k1/profile_export_raw.jsonl k2/profile_export_raw.jsonl \
		k3/profile_export_raw.jsonl >out 2>err &&
	cat km/logs/shards.txt &&
	grep -qx "worker_0: 10 requests ended, 0 lost in flight (due before its last record ended), 0 never sent" km/logs/shards.txt &&
	grep -qx "worker_2: 10 requests ended, 0 lost in flight (due before its last record ended), 0 never sent" km/logs/shards.txt &&
	line=$(grep "^worker_1: " km/logs/shards.txt) &&
	grep -qF "$line" err && grep -qF "$line" km/logs/aiperf.log &&
	set -- $line && test $(($2 + $5 + ${15})) = 10 && test "$2" -lt 10 && test "$5" -ge 1 &&
	test "$2" = "$(wc -l <k2/profile_export_raw.jsonl)" &&
	test "$(grep -c worker_0 km/profile_export_raw.jsonl)" = 10 &&
	test "$(grep -c worker_2 km/profile_export_raw.jsonl)" = 10
'

test_expect_success 'usage errors: --shard without a seed or out of range, --start-at malformed' '
	test_expect_code 2 aiperf profile -m m --workers-max 3 --shard 1 --request-count 9 2>err &&
	grep -q "needs --random-seed" err &&
	test_expect_code 2 aiperf profile -m m --workers-max 3 --shard 4 --random-seed 1 --request-count 9 2>err &&
	grep -q "invalid value for --shard" err &&
	test_expect_code 2 aiperf profile -m m --start-at soon 2>err &&
	grep -q "invalid value for --start-at" err &&
	test_expect_code 2 aiperf profile -m m --shard 1 --random-seed 1 2>err &&
	grep -q "needs --workers-max" err
'

test_done
