#!/bin/sh
# aiperf-supervise on plans aiperf-plan --plan made against aiperf-mock:
# one sender and two (--workers-max 2), every stage failing in turn (a
# generator, a spool, metrics, export), a sender to a closed port (export's
# verdict 3), the messages and statuses as aiperf profile's; usage errors
# (no plan, a malformed one, a control FIFO that is a regular file); a
# control FIFO's line names a signal, its end leaves the run to finish and
# the scratch folder removed; the supervisor killed outright leaves the
# stages to write every artifact; nothing left running.
# shellcheck disable=SC2016,SC2009,SC2086,SC2010,SC2034 source=tests/cli/lib.sh # eval'd bodies, ps of a session, word lists
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=
start_mock --fast

# plan NAME ARGS...: the plan of a run of ARGS into NAME.run/plan.json
# (the artifacts into NAME.a), its log file made as the script makes it
plan() {
	n=$1
	shift
	mkdir -p "$n.run" "$n.a/logs" &&
	aiperf-plan --run-dir "$PWD/$n.run" --plan "$n.run/plan.json" -- -m m \
		--tokenizer builtin --isl 8 --osl 4 --ui-type none --no-server-metrics \
		--artifact-dir "$n.a" "$@" >/dev/null 2>"$n.plan.err" &&
	: >"$n.a/logs/aiperf.log"
}

# edit NAME JQ: the plan rewritten by a jq filter on its .plan
edit() {
	jq -c ".plan |= ($2)" "$1.run/plan.json" >"$1.run/p" && mv "$1.run/p" "$1.run/plan.json"
}

# ours: our stages still running in this test's session, if any
ours() {
	ps -o stat=,args= -s "$(ps -o sid= -p $$ | tr -d " ")" |
		grep "^[^Z]* aiperf-\(gen\|send\|metrics\|export\|scrape\)" | grep -v grep
}

test_expect_success 'usage: no plan, a plan that is no file, a malformed plan, exit 2' '
	test_expect_code 2 aiperf-supervise 2>err && grep -q "^usage: aiperf-supervise" err &&
	test_expect_code 2 aiperf-supervise --plan nowhere.json 2>err &&
	grep -q "^aiperf-supervise: --plan: cannot read .nowhere.json." err &&
	printf "{\"aiperf_plan\": 1, \"plan\": {\"wrokers\": 2}}\n" >bad.json &&
	test_expect_code 2 aiperf-supervise --plan bad.json 2>err &&
	grep -q "unknown field .wrokers." err &&
	printf "{\"aiperf_plan\": 1, \"plan\": {}}\n" >empty.json &&
	test_expect_code 2 aiperf-supervise --plan empty.json 2>err &&
	grep -q "no senders" err &&
	test_expect_code 2 aiperf-supervise --plan bad.json --bogus 2>err &&
	aiperf-supervise --help | grep -q "^usage: aiperf-supervise --plan file"
'

test_expect_success 'a control FIFO that is a regular file, or missing: usage errors' '
	plan u --request-count 2 &&
	: >u.run/control &&
	test_expect_code 2 aiperf-supervise --plan u.run/plan.json --control-fifo u.run/control 2>err &&
	grep -q "^aiperf-supervise: --control-fifo .*u.run/control.: not a FIFO" err &&
	test_expect_code 2 aiperf-supervise --plan u.run/plan.json --control-fifo u.run/none 2>err &&
	grep -q "No such file" err && test ! -e u.a/profile_export_aiperf.json
'

test_expect_success 'one sender: the artifacts, export'"'"'s status, the log'"'"'s last line' '
	plan ok --request-count 5 --url "$MOCK_URL" &&
	aiperf-supervise --plan ok.run/plan.json >out 2>err &&
	test "$(jq .request_count.avg ok.a/profile_export_aiperf.json)" = 5 &&
	test "$(jq .was_cancelled ok.a/profile_export_aiperf.json)" = false &&
	grep -q "the stages ended: aiperf-export status 0$" ok.a/logs/aiperf.log &&
	grep -q "NVIDIA AIPerf" out &&
	test ! -e ok.a/.raw_records.spill.jsonl && test -s ok.run/stage-cpu &&
	test "$(tail -1 ok.run/stage-cpu)" = end && test -s ok.run/send.pid &&
	test -z "$(ours)"
'

test_expect_success 'a sender to a closed port: every request an error, export'"'"'s verdict 3' '
	plan closed --request-count 3 --url http://127.0.0.1:1 &&
	test_expect_code 3 aiperf-supervise --plan closed.run/plan.json >/dev/null 2>err &&
	! grep -q "failed (status" err &&
	test "$(jq .error_request_count.avg closed.a/profile_export_aiperf.json)" = 3
'

test_expect_success 'a generator that fails: named first, its last messages, status 1' '
	plan g --request-count 3 --url "$MOCK_URL" &&
	edit g ".senders[0].gen = [\"sh\", \"-c\", \"echo gen-boom >&2; exit 7\"]" &&
	test_expect_code 1 aiperf-supervise --plan g.run/plan.json >/dev/null 2>err &&
	head -1 err | grep -q "^aiperf profile: aiperf-gen failed (status 7); its messages are in $PWD/g.a/logs/aiperf.log" &&
	grep -qx gen-boom err &&
	grep -q "ERROR - aiperf-gen failed (status 7)" g.a/logs/aiperf.log &&
	! grep -q "the stages ended" g.a/logs/aiperf.log && test -z "$(ours)"
'

test_expect_success 'a generator that cannot run: status 127, named' '
	plan g2 --request-count 3 --url "$MOCK_URL" &&
	edit g2 ".senders[0].gen[0] = \"aiperf-no-such-tool\"" &&
	test_expect_code 1 aiperf-supervise --plan g2.run/plan.json >/dev/null 2>err &&
	grep -q "^aiperf profile: aiperf-gen failed (status 127)" err &&
	grep -q "cannot run .aiperf-no-such-tool." err
'

test_expect_success 'a spool that cannot write: the raw records'"'"' spool named, its last message' '
	plan sp --request-count 3 --url "$MOCK_URL" &&
	edit sp ".senders[0].spool = \"$PWD/sp.nodir/spill\"" &&
	test_expect_code 1 aiperf-supervise --plan sp.run/plan.json >/dev/null 2>err &&
	grep -q "^aiperf profile: cannot create .$PWD/sp.nodir/spill.: No such file" err &&
	grep -q "^aiperf profile: writing the raw records to $PWD/sp.nodir/spill failed (status 1)" err &&
	grep -q "writing the raw records" sp.a/logs/aiperf.log && test -z "$(ours)"
'

test_expect_success 'metrics that fail: named, its last five lines' '
	plan m --request-count 3 --url "$MOCK_URL" &&
	edit m ".metrics = [\"sh\", \"-c\", \"cat >/dev/null; seq 1 9 >&2; exit 4\"]" &&
	test_expect_code 1 aiperf-supervise --plan m.run/plan.json >/dev/null 2>err &&
	grep -q "^aiperf profile: aiperf-metrics failed (status 4)" err &&
	test "$(grep -cx "[0-9]" err)" = 5 && grep -qx 9 err && ! grep -qx 4 err
'

test_expect_success 'export that fails: named, then its messages whole; its verdict 3 is none' '
	plan e --request-count 3 --url "$MOCK_URL" &&
	edit e ".export = [\"sh\", \"-c\", \"cat >/dev/null; seq 1 7 >&2; exit 5\"]" &&
	test_expect_code 1 aiperf-supervise --plan e.run/plan.json >/dev/null 2>err &&
	head -1 err | grep -q "^aiperf profile: aiperf-export failed (status 5)" &&
	test "$(grep -cx "[0-9]" err)" = 7 &&
	plan e3 --request-count 3 --url "$MOCK_URL" &&
	edit e3 ".export = [\"sh\", \"-c\", \"cat >/dev/null; echo verdict >&2; exit 3\"]" &&
	test_expect_code 3 aiperf-supervise --plan e3.run/plan.json >/dev/null 2>err &&
	! grep -q failed err && grep -qx verdict err
'

test_expect_success 'two senders: one generator that fails, named once; the spools removed' '
	plan w --request-count 6 --url "$MOCK_URL" --workers-max 2 &&
	test "$(jq ".plan.senders | length" w.run/plan.json)" = 2 &&
	edit w ".senders[1].gen = [\"sh\", \"-c\", \"echo shard-two >&2; exit 6\"]" &&
	test_expect_code 1 aiperf-supervise --plan w.run/plan.json >/dev/null 2>err &&
	test "$(grep -c "^aiperf profile: aiperf-gen failed (status 6)" err)" = 1 &&
	grep -qx shard-two err &&
	test ! -e w.a/.raw_records.spill.jsonl.1 && test ! -e w.a/.raw_records.spill.jsonl.2 &&
	test -z "$(ours)"
'

test_expect_success 'the control FIFO: a line naming a signal cancels; junk is ignored' '
	plan c --request-count 400 --concurrency 2 --url "$MOCK_URL" &&
	mkfifo c.run/control &&
	long=$(printf "%0300d" 0) &&
	{ printf "junk\nINTX\nint\n${long}INT\n\nINT\n" >c.run/control & } &&
	exec 7<>c.run/control &&
	test_expect_code 130 aiperf-supervise --plan c.run/plan.json --control-fifo c.run/control \
		>/dev/null 2>err &&
	exec 7>&- &&
	test "$(jq .was_cancelled c.a/profile_export_aiperf.json)" = true &&
	grep -q "^aiperf profile: interrupted: stopping" err &&
	grep -q "SIGINT (1): no new requests" c.a/logs/aiperf.log &&
	test "$(grep -c "names no signal ignored" c.a/logs/aiperf.log)" = 5 &&
	test "$(grep -c "SIGINT (" c.a/logs/aiperf.log)" = 1
'

test_expect_success 'the control FIFO'"'"'s end: the run goes on to its end, the scratch folder removed' '
	plan x --request-count 5 --url "$MOCK_URL" &&
	mkfifo x.run/control &&
	exec 7<>x.run/control &&
	{ aiperf-supervise --plan x.run/plan.json --control-fifo x.run/control 7>&- >/dev/null 2>err & } &&
	exec 7>&- &&
	i=0 && while [ -d x.run ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done &&
	test ! -d x.run &&
	test "$(jq .request_count.avg x.a/profile_export_aiperf.json)" = 5
'

test_expect_success 'the supervisor killed outright: the stages end the run, every artifact written' '
	mkdir -p kl.run kl.a/logs && : >kl.a/logs/aiperf.log &&
	aiperf-plan --run-dir "$PWD/kl.run" --plan kl.run/plan.json -- -m m --tokenizer builtin \
		--isl 8 --osl 4 --ui-type none --request-count 300 --concurrency 2 \
		--url "$MOCK_URL" --artifact-dir kl.a >/dev/null &&
	test "$(jq ".plan.scrapers | length" kl.run/plan.json)" = 1 &&
	{ aiperf-supervise --plan kl.run/plan.json >/dev/null 2>err & } &&
	sup=$! &&
	i=0 && while [ ! -s kl.run/send.pid ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done &&
	send=$(cat kl.run/send.pid) && kill -KILL "$sup" &&
	i=0 && while kill -0 "$send" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done &&
	i=0 && while [ ! -s kl.a/server_metrics_export.json ] && [ $i -lt 600 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	i=0 && while test -n "$(ours)" && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done &&
	test -z "$(ours)" &&
	{ test "$(jq .request_count.avg kl.a/profile_export_aiperf.json)" = 300 &&
	test -s kl.a/server_metrics_export.json && test ! -e kl.run/samples.part || {
		echo "kl.a: $(ls kl.a | tr "\n" " ")"
		for f in kl.run/*.err; do echo "$f:"; tail -5 "$f"; done
		tail -8 kl.a/logs/aiperf.log
		false
	}; }
'

test_done
