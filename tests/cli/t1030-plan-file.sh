#!/bin/sh
# aiperf-plan --plan: the plan of one run (lib/plan.h) for the supervisor,
# every command line as the wrapper runs it: one sender; several, the
# concurrency divided (5 = 3 + 2) and the phase FIFOs; the live view
# (live) or none; the server metrics' URLs from --url, its query string
# dropped; the shell assignments aiperf profile evals say the same.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=
P="-m m --tokenizer builtin --request-count 10 --url http://127.0.0.1:1"

# plan NAME ARGS...: aiperf-plan's plan of ARGS into NAME.json (its run
# folder NAME.run), its shell code into NAME.sh
plan() {
	n=$1
	shift
	mkdir -p "$n.run" &&
	aiperf-plan --run-dir "$PWD/$n.run" --plan "$n.json" -- "$@" --artifact-dir "$n.a" >"$n.sh" 2>"$n.err"
}

# q NAME FILTER: jq's answer on NAME.json's plan, compact
q() { jq -c ".plan | $2" "$1.json"; }

test_expect_success 'one sender: gen | send | spool, metrics follows the spool, no live view' '
	plan one $P --ui-type none &&
	test "$(q one ".senders | length")" = 1 &&
	test "$(q one ".senders[0].gen[0], .senders[0].send[0]")" = "$(printf "\"aiperf-gen\"\n\"aiperf-send\"")" &&
	test "$(q one ".senders[0].gen[-2:]")" = "[\"--inputs-json\",\"$PWD/one.a/inputs.json\"]" &&
	q one ".senders[0].send" | grep -qF "\"--read-all\",\"--ui-type\",\"none\"" &&
	test "$(q one ".senders[0].phase_ack")" = null && test "$(q one ".phase_cue")" = null &&
	test "$(q one ".metrics[-2:]")" = "[\"--follow\",\"$PWD/one.a/.raw_records.spill.jsonl\"]" &&
	test "$(q one ".live")" = 0 && test "$(q one ".ui")" = "[]" && test "$(q one ".raw")" = null &&
	test "$(q one ".run_dir")" = "\"$PWD/one.run\"" &&
	test "$(q one ".log_file")" = "\"$PWD/one.a/logs/aiperf.log\"" &&
	q one ".export" | grep -qF "\"--input-config\",\"$PWD/one.run/input_config.json\"" &&
	q one ".export" | grep -qF "\"--was-cancelled-if\",\"$PWD/one.run/cancelled\"" &&
	test -s one.run/input_config.json &&
	jq -e ".cli_command | startswith(\"aiperf profile --model m\")" one.run/input_config.json
'

test_expect_success '--workers-max 2, concurrency 5: shares 3 and 2, the barrier'"'"'s FIFOs' '
	plan two $P --ui-type none --concurrency 5 --workers-max 2 &&
	test "$(q two ".senders | length")" = 2 &&
	q two ".senders[0].send" | grep -qF "\"--concurrency\",\"3\"" &&
	q two ".senders[1].send" | grep -qF "\"--concurrency\",\"2\"" &&
	q two ".senders[1].send[-6:]" >got &&
	echo "[\"--phase-cue\",\"$PWD/two.run/phase.cue\",\"--phase-ack\",\"$PWD/two.run/phase.2.ack\",\"--worker-id\",\"worker_1\"]" >want &&
	test_cmp want got &&
	test "$(q two ".senders[1].phase_ack")" = "\"$PWD/two.run/phase.2.ack\"" &&
	test "$(q two ".phase_cue")" = "\"$PWD/two.run/phase.cue\"" &&
	q two ".senders[0].gen" | grep -qF "\"--shard\",\"1/2\",\"--shard-seed\"" &&
	q two ".senders[1].gen" | grep -qF "\"--shard\",\"2/2\",\"--shard-seed\"" &&
	test "$(q two "[.senders[].gen | index(\"--shard-seed\") as \$i | .[\$i + 1]] | unique | length")" = 1 &&
	! q two ".senders[1].gen" | grep -q inputs-json &&
	q two ".metrics" | grep -qF "\"--follow\",\"$PWD/two.a/.raw_records.spill.jsonl.1\",\"--follow\",\"$PWD/two.a/.raw_records.spill.jsonl.2\"" &&
	! q two ".senders[].send" | grep -q scrape-cue &&
	q two ".senders[0].send" | grep -qF "\"--worker-id\",\"worker_0\""
'

test_expect_success '--export-level raw: the spool is the raw file; several: metrics tees it' '
	plan raw1 $P --ui-type none --export-level raw &&
	test "$(q raw1 ".raw")" = "\"$PWD/raw1.a/profile_export_raw.jsonl\"" &&
	test "$(q raw1 ".senders[0].spool")" = "\"$PWD/raw1.a/profile_export_raw.jsonl\"" &&
	plan raw2 $P --ui-type none --export-level raw --workers-max 2 --concurrency 2 &&
	test "$(q raw2 ".senders[1].spool")" = "\"$PWD/raw2.a/.raw_records.spill.jsonl.2\"" &&
	q raw2 ".metrics[-2:]" >got &&
	echo "[\"--tee\",\"$PWD/raw2.a/profile_export_raw.jsonl\"]" >want && test_cmp want got
'

test_expect_success 'a live view (simple, dashboard asked for) is live; none is not' '
	plan simple $P --ui-type simple &&
	test "$(q simple ".live")" = 1 &&
	test "$(q simple ".ui")" = "[\"aiperf-ui\",\"--ui-type\",\"simple\",\"--sender-pid-file\",\"$PWD/simple.run/send.pid\",\"--request-count\",\"10\"]" &&
	q simple ".metrics" | grep -qF "\"--status-fd\",\"3\"" &&
	plan dash $P --ui-type dashboard --workers-max 2 --concurrency 2 &&
	test "$(q dash ".live")" = 1 && test "$(q dash ".notice")" = null &&
	q dash ".ui" | grep -qF "\"--sender-pid-file\",\"$PWD/dash.run/send.1.pid\",\"--sender-pid-file\",\"$PWD/dash.run/send.2.pid\"" &&
	plan none $P --ui-type NONE &&
	test "$(q none ".live")" = 0 && ! q none ".metrics" | grep -q status-fd &&
	plan default $P &&
	test "$(q default ".live")" = 0
'

test_expect_success 'server metrics: --url'"'"'s base, its query string dropped; --server-metrics as given' '
	plan srv -m m --tokenizer builtin --request-count 2 --ui-type none \
		--url "http://127.0.0.1:1/v1/chat?api_key=k#f" --url 127.0.0.1:2 \
		--server-metrics "127.0.0.1:3?x=1" "http://127.0.0.1:1/metrics" &&
	test "$(q srv ".scrapers | length")" = 1 &&
	test "$(q srv ".scrapers[0].argv[-3:]")" = "[\"http://127.0.0.1:1/metrics\",\"http://127.0.0.1:2/metrics\",\"http://127.0.0.1:3/metrics?x=1\"]" &&
	test "$(q srv ".scrapers[0] | [.name, .baseline, .endpoints, .cue, .done]")" = "[\"server-metrics\",1,3,\"$PWD/srv.run/srv.cue\",\"$PWD/srv.run/samples\"]" &&
	q srv ".senders[0].send" | grep -qF "\"--scrape-ack\",\"$PWD/srv.run/scrape.ack\",\"--scrape-cue\",\"$PWD/srv.run/srv.cue\"" &&
	test "$(q srv ".scrape_ctl")" = "\"$PWD/srv.run/scrape.ctl\"" &&
	q srv ".export" | grep -qF "\"--server-samples\",\"$PWD/srv.run/samples\"" &&
	plan nosrv $P --ui-type none --no-server-metrics &&
	test "$(q nosrv ".scrapers")" = "[]" && test "$(q nosrv ".scrape_ctl")" = null
'

# sh NAME CMD: CMD in bash after NAME.sh's assignments
sh_of() { bash -c "eval \"\$(cat $1.sh)\" && $2"; }

test_expect_success 'the shell code says what the script reads, the plan the rest' '
	sh_of two "printf \"%s\\n\" \"\${SEND[@]}\"" >got &&
	grep -qx -- "--concurrency" got &&
	sh_of two "echo \$WORKERS \$dir" >got &&
	echo "2 $PWD/two.a" >want && test_cmp want got &&
	! grep -q "^\(SHARD_\|MET_RUN\|EXP_RUN\|SOLO\|REST\|UI\|SRV_ARGS\|GPU_ARGS\|PLAN_LOG\)" two.sh
'

test_expect_success 'no live view: aiperf-metrics waits on a gate until the senders end; beside them otherwise' '
	test "$(q one ".metrics_gate")" = "\"$PWD/one.run/metrics.gate\"" &&
	test "$(q one ".metrics[0:3]")" = "[\"aiperf-metrics\",\"--start-fifo\",\"$PWD/one.run/metrics.gate\"]" &&
	plan live $P --ui-type simple &&
	test "$(q live ".metrics_gate")" = null && ! q live ".metrics" | grep -q start-fifo &&
	plan tworaw $P --ui-type none --workers-max 2 --export-level raw &&
	test "$(q tworaw ".metrics_gate")" = null &&
	plan twosum $P --ui-type none --workers-max 2 &&
	test "$(q twosum ".metrics_gate")" = "\"$PWD/twosum.run/metrics.gate\""
'

test_expect_success 'a plan needs its run folder; an unwritable plan file fails' '
	test_expect_code 2 aiperf-plan --plan x.json -- $P 2>err &&
	grep -q "^usage: aiperf-plan" err &&
	mkdir -p bad.run &&
	test_expect_code 1 aiperf-plan --run-dir "$PWD/bad.run" --plan /nonexistent/x.json -- $P \
		--ui-type none --artifact-dir bad.a >/dev/null 2>err &&
	grep -q "cannot create ./nonexistent/x.json." err
'

test_done
