#!/bin/sh
# aiperf-send's end of the phase barrier (lib/cue, aiperf(7) "Supervisor
# interface"), against a coordinator played in shell: its cue lines in the
# documented form, warmup then profiling; a go with its boot id starts on
# the monotonic clock, one with another's on the wall clock; hostile go
# lines are warnings, never a hang, and every record is still written.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1
BOOT=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)
HOUR=3600000000000

aiperf-gen -m m --tokenizer builtin --isl 8 --osl 2 --request-count 4 \
	--warmup-request-count 2 --random-seed 1 >"$TMP/req" 2>/dev/null

# coord REPLY...: the coordinator, in the background: for each REPLY, one
# cue line read from fd 3 (appended to cues), then REPLY written to fd 4,
# with NOW the wall clock, LATER an hour from now, MONO the cue's monotonic
# time and MONOLATER an hour past it.
coord() {
	for r in "$@"; do
		IFS= read -r line <&3 || exit 1
		printf '%s\n' "$line" >>cues
		now=$(date +%s%N)
		mono=$(echo "$line" | cut -d" " -f3)
		printf '%s\n' "$r" | sed -e "s/MONOLATER/$((mono + HOUR))/" -e "s/MONO/$mono/" \
			-e "s/LATER/$((now + HOUR))/" -e "s/NOW/$now/" >&4
	done
}

# barrier REPLY...: aiperf-send through the barrier (20 s at most), its
# coordinator answering with the REPLYs; raw, err and cues are left.
barrier() {
	rm -f cue ack cues && mkfifo cue ack && : >cues &&
	exec 3<>cue 4<>ack &&
	{ coord "$@" & } &&
	cpid=$! &&
	st=0 &&
	timeout 20 aiperf-send -u "$MOCK_URL" --phase-cue cue --phase-ack ack \
		<req >raw 2>err || st=$?
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	exec 3>&- 4>&-
	return "$st"
}

test_expect_success 'the cues: warmup then profiling, in the documented form' '
	barrier "go NOW" "go NOW" &&
	test "$(wc -l <raw)" = 6 && test ! -s err &&
	test "$(wc -l <cues)" = 2 &&
	grep -Eq "^warmup [!-~]{1,39} [1-9][0-9]* [1-9][0-9]*\$" cues &&
	sed -n 2p cues | grep -Eq "^profiling [!-~]{1,39} [1-9][0-9]* [1-9][0-9]*\$" &&
	test "$(cut -d" " -f2 cues | sort -u)" = "$BOOT" &&
	m1=$(sed -n 1p cues | cut -d" " -f3) && m2=$(sed -n 2p cues | cut -d" " -f3) &&
	test "$m2" -gt "$m1"
'

test_expect_success 'a go with our boot id: its monotonic time, not its wall time' '
	test "$BOOT" != - || skip_because "no boot id here"
	barrier "go LATER $BOOT MONO" "go LATER $BOOT MONO" &&
	test "$(wc -l <raw)" = 6 && test ! -s err
'

test_expect_success 'a go with another boot id: its wall time, not its monotonic time' '
	barrier "go NOW another-kernel MONOLATER" "go NOW another-kernel MONOLATER" &&
	test "$(wc -l <raw)" = 6 && test ! -s err
'

test_expect_success 'hostile go lines: a warning, the phases unsynchronized, every record' '
	for r in "go 0" "go 5 x" "go 05" "go -5" "go 5 $BOOT 0" "go  5" "stop" \
		"go 99999999999999999999" "go 5 a 6 7"; do
		barrier "$r" || { cat err; exit 1; }
		test "$(wc -l <raw)" = 6 &&
		test "$(wc -l <cues)" = 1 &&
		grep -q "^aiperf-send: .ack.: not a go line" err || { echo "$r"; cat err; exit 1; }
	done
'

test_expect_success 'a go line too long: a warning, every record' '
	barrier "go $(printf "%0300d" 5)" &&
	test "$(wc -l <raw)" = 6 &&
	grep -q "a line too long for a go line" err
'

test_expect_success 'nobody reads the cue FIFO: a warning, every record, no wait' '
	rm -f cue ack && mkfifo cue ack &&
	timeout 20 aiperf-send -u "$MOCK_URL" --phase-cue cue --phase-ack ack \
		<req >raw 2>err &&
	test "$(wc -l <raw)" = 6 &&
	grep -q "cannot open .cue.: the phases start unsynchronized" err
'

test_done
