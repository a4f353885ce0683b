#!/bin/sh
# The live view's sender CPU with several senders (--workers-max): their
# CPU summed and their number, on the simple view's profiling line (and
# aiperf-ui given several --sender-pid-file); one sender shows no count.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || test_skip_all "no script(1)"
start_mock --ttft-ms 20 || test_skip_all "aiperf-mock did not start"
P="-m m --url $MOCK_URL --tokenizer builtin --isl 8 --osl 2 --concurrency 6
	--request-count 60 --request-rate 20"

test_expect_success 'three senders: their CPU summed, and their number' '
	script -qec "aiperf profile $(echo $P) --workers-max 3 --ui-type simple \
		--artifact-dir w3 2>&1 >/dev/null" /dev/null >tty.out &&
	grep -q "3 senders (--workers-max)" w3/logs/aiperf.log &&
	grep -a -q "Profiling \[[#-]*\] .* req/s .* send CPU [0-9]*% (3 senders)" tty.out
'

test_expect_success 'one sender: its CPU, no count' '
	script -qec "aiperf profile $(echo $P) --workers-max 1 --ui-type simple \
		--artifact-dir w1 2>&1 >/dev/null" /dev/null >tty.out &&
	grep -a -q "Profiling \[[#-]*\] .* req/s .* send CPU [0-9]*%" tty.out &&
	! grep -a -q "senders)" tty.out
'

test_expect_success 'aiperf-ui: --sender-pid-file repeated, the ones started counted' '
	sh -c "echo \$\$ >a.pid; i=0; while [ \$i -lt 30 ]; do sleep 0.1; i=\$((i + 1)); done" &
	a=$!
	sh -c "echo \$\$ >b.pid; i=0; while [ \$i -lt 30 ]; do sleep 0.1; i=\$((i + 1)); done" &
	b=$!
	wait_file a.pid && wait_file b.pid &&
	{ echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":1}}"; sleep 1.6
	  echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":2}}"; sleep 0.3; } |
	script -qec "aiperf-ui --ui-type simple --request-count 4 --sender-pid-file a.pid \
		--sender-pid-file b.pid --sender-pid-file none.pid" /dev/null >ui.out &&
	wait $a $b &&
	grep -a -q "send CPU [0-9]*% (2 senders)" ui.out
'

test_expect_success 'dashboard: the senders CPU summed, and their number' '
	command -v tmux >/dev/null || skip_because "no tmux"
	SOCK=aiperf-t0873-$$ && TMUX_TMPDIR=$TMP && export TMUX_TMPDIR &&
	for x in c d; do
		sh -c "echo \$\$ >$x.pid; i=0; while [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done" &
	done
	wait_file c.pid && wait_file d.pid &&
	mkfifo st &&
	tmux -L "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 40 \
		"aiperf-ui --request-count 10 --sender-pid-file c.pid --sender-pid-file d.pid <st; while :; do sleep 1; done" &&
	exec 7>st &&
	echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":4},\"end\":false}" >&7 &&
	i=0 && found= &&
	while [ $i -lt 100 ] && [ -z "$found" ]; do
		sleep 0.1; i=$((i + 1))
		tmux -L "$SOCK" capture-pane -p -t t >screen 2>/dev/null &&
		grep -q "aiperf-send CPU  *[0-9.]*% of a core (2 senders)" screen && found=1
	done
	exec 7>&-
	tmux -L "$SOCK" kill-server 2>/dev/null
	kill "$(cat c.pid)" "$(cat d.pid)" 2>/dev/null
	wait
	cat screen && test -n "$found"
'

test_done
