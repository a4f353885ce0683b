#!/bin/sh
# aiperf(7)'s GNU parallel recipe for several hosts (issue #18), gather
# step for real: one shard a "host" through parallel --sshlogin with a
# fake ssh (each host a directory here, commands run there as ssh would
# run them in the login's home), --return bringing each host's raw records
# back with rsync over that ssh, --cleanup removing them there, then the
# merge of the returned files.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v parallel >/dev/null || test_skip_all "no GNU parallel"
command -v rsync >/dev/null || test_skip_all "no rsync (scripts/install-deps.sh)"
start_mock --ttft-ms 5 --itl-ms 1 || test_skip_all "aiperf-mock did not start"

HOSTS_DIR=$TMP/hosts
export HOSTS_DIR
mkdir -p "$HOSTS_DIR" "$TMP/bin"
# fakessh [ssh options] HOST [--] CMD...: CMD (a shell command line, as
# ssh runs it) in HOST's directory, its home; GNU parallel's remote worker
# execs $SHELL, which ssh sets from the login's passwd entry.
cat >"$TMP/bin/fakessh" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in
	-[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
h=$1
shift
[ "$1" = -- ] && shift
case $h in */*|.*|'') echo "fakessh: bad host '$h'" >&2; exit 255 ;; esac
mkdir -p "$HOSTS_DIR/$h" && cd "$HOSTS_DIR/$h" || exit 255
echo "$h $*" >>"$HOSTS_DIR/log"
HOME=$HOSTS_DIR/$h SHELL=${SHELL:-/bin/sh}
export HOME SHELL
exec sh -c "$*"
EOS
chmod +x "$TMP/bin/fakessh"
PATH=$TMP/bin:$PATH

OPTS="-m m --tokenizer builtin --isl 8 --osl 4 --ui-type none --random-seed 7
	--request-rate 40 --request-rate-mode constant --request-count 30 --export-level raw"

test_expect_success 'the recipe: one shard a host, --return brings the raw records back' '
	S=$(($(date +%s) + 2)) &&
	parallel --will-cite --ssh fakessh --sshlogin 1/h1,1/h2,1/h3 --return shard{}.jsonl \
	  --cleanup "aiperf profile $(echo $OPTS) --url $MOCK_URL \
	    --workers-max 3 --shard {} --start-at $S \
	    --artifact-dir run{} && mv run{}/profile_export_raw.jsonl shard{}.jsonl" \
	  ::: 1 2 3 &&
	for k in 1 2 3; do
		test -s shard$k.jsonl &&
		grep -q "\"worker_id\":\"worker_$((k - 1))\"" shard$k.jsonl &&
		! grep -v "\"worker_id\":\"worker_$((k - 1))\"" shard$k.jsonl &&
		# ran on a host: its artifacts there, the returned file cleaned up
		ls hosts/h*/run$k/profile_export_aiperf.json &&
		! ls hosts/h*/shard$k.jsonl 2>/dev/null || exit 1
	done &&
	test "$(ls -d hosts/h*/run* | wc -l)" = 3 &&
	grep -q rsync hosts/log
'

test_expect_success 'the merge of the returned files' '
	aiperf profile $OPTS --url "$MOCK_URL" --workers-max 3 \
		--from-records shard1.jsonl shard2.jsonl shard3.jsonl --artifact-dir merged >out 2>err &&
	test "$(wc -l <merged/profile_export_raw.jsonl)" = 30 &&
	for k in 0 1 2; do
		grep -qx "worker_$k: 10 requests ended, 0 lost in flight (due before its last record ended), 0 never sent" \
			merged/logs/shards.txt || exit 1
	done &&
	test "$(jq .request_count.avg merged/profile_export_aiperf.json)" = 30
'

test_done
