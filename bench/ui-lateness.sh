#!/bin/bash
# (run by sh, as bench/builds.sh runs the bench scripts: bash it is)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
# Does the live view slow the sender? (issue 16, "What it must show")
# Side by side in one run, against aiperf-mock on this host: the same load
# through `aiperf profile` with the dashboard on (--ui-type dashboard on a
# tmux terminal, 120x40) and with --ui-type none, ROUNDS times, alternating
# which goes first. Each run's p99 schedule lateness (start_perf_ns -
# intended_perf_ns of profile_export_raw.jsonl, as bench/profile-vs-send.sh
# reads it) and the ratio dashboard / none of the medians, and the median of
# each round's ratio (a pair run back to back: steadier on a shared host).
# Target: the ratio within 10% (<= 1.10).
#
# Environment: ROUNDS (3), RATE (1000 requests/s, constant), SECS (10 s a run).
# shellcheck disable=SC1091
. "$(dirname "$0")/lib.sh"
die() { bench_die "$@"; }

ROUNDS=${ROUNDS:-3}
RATE=${RATE:-1000}
SECS=${SECS:-10}
command -v tmux >/dev/null || die "tmux is not installed (scripts/install-deps.sh)"
K=0 SOCK=aiperf-bench-ui-$$-0
# the servers' sockets in TMP, removed with it
export TMUX_TMPDIR=$TMP
# shellcheck disable=SC2317 # run by the trap
ui_exit() { tmux -L "$SOCK" kill-server 2>/dev/null; bench_exit; }
trap ui_exit EXIT
bench_mock
LOAD=(--model m --endpoint-type chat --tokenizer builtin --isl 1 --osl 1 --url "$URL"
	--request-rate "$RATE" --arrival-pattern constant --request-count $((RATE * SECS))
	--export-level raw)

# cpu PID: the CPU seconds (user + system) PID has used, or nothing.
cpu() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ printf "%.2f", ($12 + $13) / 100 }'; }

# tree PID: PID and its descendants.
tree() {
	local c
	echo "$1"
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree "$c"; done
}

# wait_rc DIR [dashboard]: waits for DIR.rc (bounded), polling twice a
# second in both runs alike; in the dashboard's, looks at the screen once
# half way (the dashboard must be drawn) and reads aiperf-ui's and the
# terminal's CPU once a second before the end.
wait_rc() {
	local i=0 seen=0 p st
	while [ ! -s "$1.rc" ] && [ $i -lt $((SECS * 2 + 240)) ]; do
		if [ -n "${2:-}" ] && [ $i = "$SECS" ]; then
			tmux -L "$SOCK" capture-pane -p -t b 2>/dev/null | grep -q "Latency so far" && seen=1
		fi
		if [ -n "${2:-}" ] && [ $i = $((SECS * 2 - 2)) ]; then
			for p in $(tree "$(tmux -L "$SOCK" display -p -t b "#{pane_pid}" 2>/dev/null)"); do
				[ "$(cat "/proc/$p/comm" 2>/dev/null)" = aiperf-ui ] && UI_CPU=$(cpu "$p")
			done
			TERM_CPU=$(cpu "$(tmux -L "$SOCK" display -p "#{pid}" 2>/dev/null)")
		fi
		sleep 0.5
		i=$((i + 1))
	done
	[ -s "$1.rc" ] || die "the ${2:-none} run did not end"
	st=$(cat "$1.rc")
	[ "$st" = 0 ] || [ "$st" = 3 ] || die "aiperf profile (${2:-none}) failed (status $st)"
	[ -z "${2:-}" ] || [ "$seen" = 1 ] || die "the dashboard was not drawn"
}

# none DIR: the load with --ui-type none.
none() {
	rm -rf "$1" "$1.rc"
	{ aiperf profile "${LOAD[@]}" --ui-type none --artifact-dir "$1" >"$1.out" 2>"$1.err"
		echo $? >"$1.rc.tmp" && mv "$1.rc.tmp" "$1.rc"; } &
	local pid=$!
	wait_rc "$1"
	wait "$pid"
}

# dashboard DIR: the load with the dashboard on a tmux terminal (120x40).
dashboard() {
	rm -rf "$1" "$1.rc"
	# a server of its own each run (one killed may still be on its way out)
	K=$((K + 1))
	SOCK=aiperf-bench-ui-$$-$K
	printf '%q ' aiperf profile "${LOAD[@]}" --ui-type dashboard --artifact-dir "$1" >"$TMP/cmd"
	printf '>%q; echo $? >%q.tmp && mv %q.tmp %q\n' "$1.out" "$1.rc" "$1.rc" "$1.rc" >>"$TMP/cmd"
	tmux -L "$SOCK" -f /dev/null new-session -d -s b -x 120 -y 40 \
		"PATH='$PATH'; bash $TMP/cmd; while :; do sleep 1; done"
	UI_CPU='?' TERM_CPU='?'
	wait_rc "$1" dashboard
	tmux -L "$SOCK" kill-server 2>/dev/null
}

med() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "rate=$RATE/s for ${SECS}s, rounds=$ROUNDS, cores=$(nproc), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$TMP/d" && : >"$TMP/n" && : >"$TMP/r"
declare -A P N E
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="dashboard none"; else order="none dashboard"; fi
	for who in $order; do
		"$who" "$TMP/$who"
		read -r p n e <<<"$(bench_lateness "$TMP/$who/profile_export_raw.jsonl")"
		P[$who]=$p N[$who]=$n E[$who]=$e
	done
	cpus="aiperf-ui $UI_CPU s, the terminal (tmux) $TERM_CPU s of CPU"
	echo "${P[dashboard]}" >>"$TMP/d"
	echo "${P[none]}" >>"$TMP/n"
	awk -v d="${P[dashboard]}" -v n="${P[none]}" 'BEGIN { printf "%.3f\n", (n > 0 ? d / n : 0) }' \
		>>"$TMP/r"
	echo "round $r: p99 lateness dashboard ${P[dashboard]} us (${N[dashboard]} requests," \
		"${E[dashboard]} errors; $cpus), none ${P[none]} us (${N[none]} requests," \
		"${E[none]} errors)"
done
d=$(med <"$TMP/d") n=$(med <"$TMP/n")
ratio=$(awk -v d="$d" -v n="$n" 'BEGIN { printf "%.3f", (n > 0 ? d / n : 0) }')
verdict=$(awk -v x="$ratio" 'BEGIN { print (x <= 1.10 ? "PASS" : "FAIL") }')
echo "median p99 schedule lateness: dashboard $d us, none $n us; ratio $ratio (target <= 1.10): $verdict"
echo "median of the rounds' ratios (each pair run back to back): $(med <"$TMP/r")"
