#!/bin/sh
# Each stage under SIGINT, SIGTERM and SIGHUP in the middle of its work,
# started as a terminal job would be (its own session, the signals at
# their defaults): it dies by the signal (status 128+N), or, where its
# manual page says so, stops as documented; nothing of it is left running.
# A stage that catches a signal and exits 0 before its work is done makes
# the shell that waits for it take the signal as handled (bash's
# wait-and-cooperative-exit), so a Ctrl-C is lost.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"

# start NAME CMD...: CMD in a session of its own with INT, TERM and HUP at
# their defaults (sh starts background jobs with SIGINT ignored), stdin
# $IN (else /dev/null), stdout NAME.out (or $OUT), stderr NAME.err; its
# pid (= its session) in NAME.pid, and once it ends its status, as sh
# gives it, in NAME.rc.
start() {
	_n=$1
	shift
	rm -f "$_n.pid" "$_n.rc"
	python3 -c 'import os, signal, sys
pid = os.fork()
if pid == 0:
    os.setsid()
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
    os.execvp(sys.argv[2], sys.argv[2:])
with open(sys.argv[1] + ".pid.tmp", "w") as f:
    print(pid, file=f)
os.rename(sys.argv[1] + ".pid.tmp", sys.argv[1] + ".pid")
st = os.waitpid(pid, 0)[1]
rc = 128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
with open(sys.argv[1] + ".rc.tmp", "w") as f:
    print(rc, file=f)
os.rename(sys.argv[1] + ".rc.tmp", sys.argv[1] + ".rc")' "$_n" "$@" \
		<"${IN:-/dev/null}" >"${OUT:-$_n.out}" 2>"$_n.err" &
	wait_file "$_n.pid"
}
# running PID PROG: until PID runs PROG (exec done), 30 s at most.
running() {
	_i=0
	while [ "$(readlink "/proc/$1/exe" 2>/dev/null)" != "$TOP/bin/$2" ] &&
		[ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(readlink "/proc/$1/exe")" = "$TOP/bin/$2" ]
}
# caught PID N: until PID takes signal N itself (caught, or blocked for a
# signalfd), 30 s at most.
caught() {
	_i=0
	while [ $_i -lt 300 ]; do
		sed -n 's/^Sig[BC][lg][kt]:[[:space:]]*//p' "/proc/$1/status" >"$TMP/.masks" 2>/dev/null
		while read -r _m; do
			[ $(((0x$_m >> ($2 - 1)) & 1)) -eq 1 ] && return 0
		done <"$TMP/.masks"
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
# settled PID: until no signal is pending for PID (its handler ran).
settled() {
	_i=0
	while [ $_i -lt 300 ]; do
		awk '/^(Sig|Shd)Pnd:/ && $2 !~ /^0+$/ { p = 1 } END { exit p }' \
			"/proc/$1/status" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
# ends NAME WANT: the process of NAME ends with status WANT (30 s at most,
# then it is killed and the test fails), and nothing of its session is left.
ends() {
	_p=$(cat "$1.pid")
	wait_file "$1.rc" || { kill -9 "$_p"; echo "$1: still running"; return 1; }
	[ "$(cat "$1.rc")" -eq "$2" ] ||
		{ echo "$1: status $(cat "$1.rc"), want $2"; cat "$1.err"; return 1; }
	! pgrep -s "$_p" >/dev/null || { echo "$1: left running"; return 1; }
}

# stall: a loopback server on port $(cat stall.port) that accepts and never
# answers; the file accepted exists once it holds a connection.
stall() {
	rm -f stall.port accepted
	python3 -c '
import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = [s.accept()[0]]
open("accepted", "w").write("1\n")
while True:
    held.append(s.accept()[0])
' >stall.port &
	echo $! >stall.pid
	echo $! >>"$TMP/stallers"
	wait_file stall.port
}
kill_stallers() {
	[ -s "$TMP/stallers" ] || return 0
	while read -r _s; do
		kill "$_s" 2>/dev/null
	done <"$TMP/stallers"
}
trap 'kill_stallers; cleanup' EXIT

start_mock --ttft-ms 1 --itl-ms 40

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --osl 4 --random-seed 7"
export HF_HUB_CACHE="$TMP/hf" HF_HOME="$TMP/hfhome"

# filter NAME TOOL ARGS...: TOOL reads a FIFO that the test holds open
# (read-write: no open waits for the other end); once it runs, $sig is
# sent, and it must die by it.
filter() {
	_f=$1
	shift
	rm -f "$_f.fifo" && mkfifo "$_f.fifo" && exec 4<>"$_f.fifo" &&
	IN=$_f.fifo start "$_f" "$@" && printf '\n' >&4 &&
	running "$(cat "$_f.pid")" "$1" &&
	kill -"$sig" "$(cat "$_f.pid")" &&
	ends "$_f" $((128 + n)) &&
	exec 4>&-
}

for sig in INT TERM HUP; do
	case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; esac
	want=$((128 + n))

	test_expect_success "aiperf-scrape --once: SIG$sig during a scrape ends it at once ($want)" '
		stall &&
		start once aiperf-scrape --once --timeout 3600 "http://127.0.0.1:$(cat stall.port)/metrics" &&
		wait_file accepted && caught "$(cat once.pid)" $n &&
		kill -$sig "$(cat once.pid)" &&
		ends once $want &&
		kill "$(cat stall.pid)"
	'
	test_expect_success "aiperf-gen --print-timing-mode: SIG$sig while the tokenizer downloads ($want)" '
		stall &&
		HF_ENDPOINT="http://127.0.0.1:$(cat stall.port)" start mode aiperf-gen -m org/model \
			--request-count 10 --print-timing-mode &&
		wait_file accepted &&
		kill -$sig "$(cat mode.pid)" &&
		ends mode $want && test_cmp /dev/null mode.out &&
		kill "$(cat stall.pid)"
	'
	test_expect_success "aiperf-gen: SIG$sig while it writes records ($want)" '
		rm -f recs && mkfifo recs && exec 3<>recs &&
		OUT=recs start gen $G --request-count 100000000 &&
		read -r line <&3 && test -n "$line" &&
		kill -$sig "$(cat gen.pid)" &&
		ends gen $want &&
		exec 3<&-
	'
	test_expect_success "aiperf-metrics: SIG$sig while it reads ($want)" '
		filter metrics aiperf-metrics --tokenizer builtin
	'
	test_expect_success "aiperf-export: SIG$sig while it reads ($want)" '
		filter export aiperf-export --artifact-dir art &&
		test_cmp /dev/null export.out
	'
	test_expect_success "aiperf-trace analyze: SIG$sig while it reads ($want)" '
		filter trace aiperf-trace analyze
	'
	test_expect_success "aiperf-tok: SIG$sig while it reads ($want)" '
		filter tok aiperf-tok --tokenizer builtin
	'
	test_expect_success "aiperf-ui: SIG$sig while it reads, the view gone ($want)" '
		rm -f ui.fifo && mkfifo ui.fifo && exec 4<>ui.fifo &&
		IN=ui.fifo start ui aiperf-ui --ui-type simple &&
		caught "$(cat ui.pid)" $n &&
		kill -$sig "$(cat ui.pid)" &&
		ends ui $want &&
		exec 4>&-
	'
done

# aiperf-send: the first SIGINT, SIGTERM or SIGHUP stops issuing, flushes
# every record read and exits 0 (t0213); SIGHUP ignored (nohup) is ignored.
$G --request-count 40 >"$TMP/in.send"
test_expect_success 'aiperf-send: SIGHUP as SIGTERM: stops issuing, every record written, 0' '
	IN=in.send start send aiperf-send -u "$MOCK_URL" --concurrency 2 \
		--shutdown-grace-period 0.05 &&
	wait_line send.out "\"status\":200" 30 && caught "$(cat send.pid)" 1 &&
	kill -HUP "$(cat send.pid)" &&
	ends send 0 &&
	grep -q "^aiperf-send: interrupted: " send.err &&
	test "$(wc -l <send.out)" -eq 40 && grep -q NotSentError send.out
'
$G --request-count 4 >"$TMP/in.nohup"
test_expect_success 'aiperf-send: SIGHUP ignored by nohup stays ignored' '
	IN=in.nohup start nohup sh -c "trap \"\" HUP; exec aiperf-send -u \"\$1\" --concurrency 1" \
		sh "$MOCK_URL" &&
	wait_line nohup.out "\"status\":200" 30 &&
	kill -HUP "$(cat nohup.pid)" &&
	ends nohup 0 &&
	! grep -q "interrupted" nohup.err &&
	test "$(grep -c "\"status\":200" nohup.out)" -eq 4
'
test_expect_success 'aiperf-scrape: SIGHUP as SIGTERM: a final scrape, then 0' '
	start srv aiperf-scrape --interval 0.05 --unbuffered "$MOCK_URL/metrics" &&
	wait_line srv.out "\"scrape\":2," 30 && caught "$(cat srv.pid)" 1 &&
	kill -HUP "$(cat srv.pid)" &&
	ends srv 0 &&
	tail -1 srv.out | grep -q "\"status\":200"
'
test_expect_success 'aiperf-scrape: a second signal ends the final scrape at once (130)' '
	stall &&
	start fin aiperf-scrape --timeout 3600 "http://127.0.0.1:$(cat stall.port)/metrics" &&
	wait_file accepted && caught "$(cat fin.pid)" 15 &&
	kill -TERM "$(cat fin.pid)" && settled "$(cat fin.pid)" &&
	kill -INT "$(cat fin.pid)" &&
	ends fin 130 &&
	kill "$(cat stall.pid)"
'
test_done
