#!/bin/sh
# aiperf-scrape's end of the scrape cue (lib/cue, aiperf(7) "Supervisor
# interface"): every line of its cue FIFO is one cue, whatever it holds
# (a word, NUL bytes, a line longer than any of the protocol's), each
# answered by one "ack" line once its samples are written; lines that
# come together share the scrapes.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

# acks N: N lines read from fd 4 (10 s at most): their words, one a line.
acks() {
	timeout 10 sh -c 'i=0; while [ $i -lt "$1" ] && IFS= read -r l; do
		echo "$l"; i=$((i + 1)); done' acks "$1" <&4
}

test_expect_success 'one ack per cue line, hostile lines included' '
	mkfifo cue ack
	exec 4<>ack
	aiperf-scrape --interval 60 --unbuffered --cue-fifo cue --ack-fifo ack \
		"$MOCK_URL/metrics" >samples 2>err &
	scr=$!
	wait_line samples "endpoint_url" &&
	printf "cue\n" >cue &&
	test "$(acks 1)" = ack &&
	{ printf "cue\n"; printf "%01000d\n" 0; printf "\000\000\n"; printf "\n"; } >cue &&
	test "$(acks 4 | sort -u)" = ack &&
	test "$(jq -s "map(select(.cue)) | length >= 2" samples)" = true
	st=$?
	kill "$scr"
	wait "$scr" 2>/dev/null
	exec 4>&-
	test "$st" = 0 && test ! -s err
'

test_done
