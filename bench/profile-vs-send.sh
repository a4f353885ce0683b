#!/bin/bash
# (run by sh, as bench/builds.sh runs the bench scripts: bash it is)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
# Does the pipeline distort what it measures? (issue 12, "What it must show")
# Side by side in one run, against aiperf-mock on this host: aiperf-send
# alone (as bench/send-vs-wrk.sh, bench/schedule.sh and bench/fidelity.sh run
# it) and the same load through `aiperf profile` as users run it
# (--export-level raw; every statistic of a profile run is computed from its
# artifact directory: profile_export_raw.jsonl, and the TTFT it reports in
# profile_export_aiperf.json).
#
#   1  non-streaming requests/s at CONNS connections (--concurrency,
#      --benchmark-duration DUR, grace 1 s), each as a ratio to wrk run just
#      before it (send-vs-wrk.sh): successful requests / (last request_end_ns
#      - first request_start_ns) of the raw records.
#      Target: through aiperf profile >= 0.8x wrk.
#   2  p99 schedule lateness at RATE req/s, constant arrivals, RATE_SECS s
#      (schedule.sh): start_perf_ns - intended_perf_ns of every raw record,
#      sorted, p99 = the int(0.99 (n - 1)) + 1-th. Target: < 100 us, and
#      through aiperf profile at most 1.5x aiperf-send alone (issue #28);
#      the rate achieved, (n - 1) / (last - first start_perf_ns), through
#      aiperf profile within 1% of aiperf-send alone's.
#   3  p99 observation delay at STREAMS streams, starts spread over one second
#      (--request-rate STREAMS, constant), TOKENS tokens each, mock TTFT ms and
#      ITL ms (fidelity.sh): aiperf-metrics --use-server-token-count over the
#      raw records, observation_delay_ns (client arrival - the mock's
#      aiperf_send_ns stamp) of every chunk, numpy-linear p99. Run sleeping
#      and with --busy-poll. Targets: through aiperf profile within 1.5x of
#      aiperf-send alone; < 100 us with --busy-poll.
#      Then TTFT (the sleeping runs): reported = avg and p99 of
#      time_to_first_token, from profile_export_aiperf.json for aiperf
#      profile, from aiperf-metrics' records of the same raw file (numpy
#      linear, as aiperf-export) for aiperf-send alone; truth = the same
#      statistic of the first chunk's aiperf_send_ns - start_perf_ns (the
#      mock's stamp: TTFT as the server produced it, its own lateness and the
#      request's way to it included, the client's observation delay not)
#      of the same run. Target: reported within 1 ms of that truth. The table
#      shows reported (reported - truth); the line after it gives the truths
#      against the configured TTFT, the difference being the mock's own
#      lateness.
#   4  a slow consumer: aiperf-send | cat >FILE against aiperf-send |
#      sh -c 'sleep S; cat' >FILE (S outlasts the run, so the sender's output
#      pipe fills while requests are in flight), with case 2's load (p99
#      lateness) and case 3's (p99 observation delay, sleeping).
#      Target: slow/fast <= 1.5x, or under 100 us.
#   5  the same slow consumer inside aiperf profile: aiperf-metrics replaced
#      by one that sleeps S before it starts (a copy of BIN whose
#      aiperf-metrics is a script: sleep S; exec the real one), against the
#      real one, with case 2's and case 3's loads. Target as case 4: the
#      sender does not notice (slow/fast <= 1.5x, or under 100 us).
#   6  aiperf-send alone with case 3's load (sleeping): standard output into
#      cat against --raw-file (standard output to /dev/null): the p99
#      observation delay of each, a figure for aiperf-send(1)'s Raw file.
#   7  through aiperf profile, case 1's load (req/s) and case 2's (p99
#      lateness) with every stage left to the scheduler (AIPERF_PIN=0)
#      against the sender on a CPU of its own (AIPERF_PIN=1, even on two
#      CPUs, where aiperf profile pins only a busy-polling sender): the
#      figure behind aiperf(7)'s CPU split.
#   8  through aiperf profile, case 2's load (p99 lateness) with
#      --no-server-metrics against the default, aiperf-scrape polling the
#      mock's /metrics (issue #15: scraping must not disturb the
#      measurement). Target as case 4: <= 1.5x, or under 100 us.
#
# Cases run ROUNDS times, alternating which of the two goes first; the table
# gives each number's median over the rounds and the median of the per-round
# ratios (send-vs-wrk.sh's way; a shared machine is noisy); the round lines
# above it give every value. The load of both sides is the same: aiperf-gen
# with the options aiperf profile passes it (--isl 1, --osl 1 or TOKENS,
# builtin tokenizer), written to a file first for aiperf-send alone (for
# case 1 its first record repeated, as send-vs-wrk.sh does). A measurement,
# not a test: exits 0 whatever the verdicts, non-zero only when something
# could not run.
#
# Usage: bench/profile-vs-send.sh
# Env:   BIN        the build to measure (default ./bin of this tree); its
#                   aiperf, aiperf-send, aiperf-gen, aiperf-metrics ...
#        MOCK_BIN   where aiperf-mock comes from (default BIN), to compare
#                   builds against one mock
#        QUICK=1    one round, 1 s cases (under a minute)
#        ROUNDS (3), DUR (3: case 1 s), CONNS (64), RATE (10000),
#        RATE_SECS (2: case 2 s), STREAMS (1000), TTFT (10 ms), ITL (10 ms),
#        TOKENS (50, as issue 12's fidelity.sh 1000 10 50: about half the
#        streams in flight at once, the peak is printed; from 110 tokens at
#        ITL 10 ms every stream outlasts the second of starts and all
#        overlap), SLOW_SLEEP (case 4's sleep, s; default the run's length
#        + 2 or 3), WRK_THREADS (1),
#        PROFILE_OPTS (more aiperf profile options), SEND_OPTS (more options
#        for both sides' aiperf-send)
# aiperf profile runs with its defaults, as users run it (it busy-polls by
# default on 4 CPUs or more: aiperf(7)), but case 3's sleeping run passes
# --no-busy-poll and its busy one --busy-poll, like aiperf-send alone.
# aiperf profile runs as: aiperf profile --model m --endpoint-type chat
# --tokenizer builtin --isl 1 --url URL --export-level raw --artifact-dir DIR
# and the case's load options (--osl ..., --concurrency or --request-rate).
# Defaults take about 2 minutes on 2 shared cores; QUICK=1 about 30 s.
set -eu
# shellcheck disable=SC1091
. "$(dirname "$0")/lib.sh"
die() { bench_die "$@"; }
# start_rate FILE: the requests started per second of FILE's raw records,
# (n - 1) / (last start_perf_ns - first start_perf_ns): the rate achieved
start_rate() {
	awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		if (NR == 1 || s < lo) lo = s
		if (NR == 1 || s > hi) hi = s }
		END { printf "%.0f\n", ((NR > 1 && hi > lo) ? (NR - 1) * 1e9 / (hi - lo) : 0) }' "$1"
}
BIN=$(cd "${BIN:-$TOP/bin}" && pwd) || die "no directory BIN=${BIN:-}"
MOCK_BIN=$(cd "${MOCK_BIN:-$BIN}" && pwd) || die "no directory MOCK_BIN=$MOCK_BIN"
PATH="$BIN:$PATH"
if [ "${QUICK:-0}" = 1 ]; then
	ROUNDS=${ROUNDS:-1} DUR=${DUR:-1} RATE_SECS=${RATE_SECS:-1}
fi
ROUNDS=${ROUNDS:-3}
DUR=${DUR:-3}
CONNS=${CONNS:-64}
RATE=${RATE:-10000}
RATE_SECS=${RATE_SECS:-2}
STREAMS=${STREAMS:-1000}
TTFT=${TTFT:-10}
ITL=${ITL:-10}
TOKENS=${TOKENS:-50}
THREADS=${WRK_THREADS:-1}
for t in aiperf aiperf-send aiperf-gen aiperf-metrics aiperf-export; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (make, or set BIN)"
done
[ -x "$MOCK_BIN/aiperf-mock" ] || die "$MOCK_BIN/aiperf-mock not found"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
command -v curl >/dev/null || die "curl not found"
ulimit -n $((STREAMS + 1024)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# start_mock NAME OPTIONS...: an aiperf-mock; its URL in $TMP/NAME.url.
start_mock() {
	local name=$1 i=0
	shift
	"$MOCK_BIN/aiperf-mock" --port 0 "$@" >"$TMP/$name.url" 2>"$TMP/$name.err" &
	bench_reap $!
	while [ ! -s "$TMP/$name.url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$TMP/$name.url" ] || die "aiperf-mock did not start: $(cat "$TMP/$name.err")"
}
start_mock fast --ttft-ms 0 --itl-ms 0 --max-connections 100000
start_mock stream --ttft-ms "$TTFT" --itl-ms "$ITL" --max-connections $((STREAMS * 2 + 100))

# case 5's build: BIN's programs, but an aiperf-metrics that sleeps $SLOW
# seconds before a run's follow (not before aiperf profile's option check).
mkdir "$TMP/slowbin"
for f in "$BIN"/aiperf*; do ln -s "$(readlink -f "$f")" "$TMP/slowbin/${f##*/}"; done
rm "$TMP/slowbin/aiperf-metrics"
cat >"$TMP/slowbin/aiperf-metrics" <<SH
#!/bin/sh
case " \$* " in *" --follow "*) sleep "\${SLOW:-0}" ;; esac
exec "$(readlink -f "$BIN/aiperf-metrics")" "\$@"
SH
chmod +x "$TMP/slowbin/aiperf-metrics"
URL=$(head -1 "$TMP/fast.url")
SURL=$(head -1 "$TMP/stream.url")

# mock_counter NAME: a counter from the streaming mock's /metrics.
mock_counter() {
	curl -s "$SURL/metrics" | awk -v k="$1" '$1 ~ k { v = $2 } END { print v + 0 }'
}

# The load, as aiperf profile asks aiperf-gen for it: COMMON for both.
COMMON=(--model m --endpoint-type chat --tokenizer builtin --isl 1)
L1=(--osl 1 --concurrency "$CONNS")
L2=(--osl 1 --request-rate "$RATE" --arrival-pattern constant --request-count $((RATE * RATE_SECS)))
L3=(--streaming --osl "$TOKENS" --request-rate "$STREAMS" --arrival-pattern constant --request-count "$STREAMS")
aiperf-gen "${COMMON[@]}" "${L1[@]}" --request-count 1 >"$TMP/in1" || die "aiperf-gen failed (case 1)"
aiperf-gen "${COMMON[@]}" "${L2[@]}" >"$TMP/in2" || die "aiperf-gen failed (case 2)"
aiperf-gen "${COMMON[@]}" "${L3[@]}" >"$TMP/in3" || die "aiperf-gen failed (case 3)"
REC1=$(head -1 "$TMP/in1")

# send URL INPUT OUT [aiperf-send options]: aiperf-send alone, from a file.
send() {
	local url=$1 in=$2 out=$3
	shift 3
	# shellcheck disable=SC2086 # SEND_OPTS is a list of options
	aiperf-send -u "$url" --ui-type none ${SEND_OPTS:-} "$@" <"$in" >"$out" ||
		die "aiperf-send failed ($*)"
}

# profile DIR URL [options]: aiperf profile into DIR; its raw file is
# DIR/profile_export_raw.jsonl. aiperf-export's status 3 is its verdict on
# the run (the client may be the bottleneck), not a failure.
profile() {
	local dir=$1 url=$2 st=0
	shift 2
	rm -rf "$dir"
	# shellcheck disable=SC2086 # PROFILE_OPTS and SEND_OPTS are lists of options
	aiperf profile "${COMMON[@]}" --url "$url" --export-level raw --artifact-dir "$dir" \
		${PROFILE_OPTS:-} ${SEND_OPTS:-} "$@" >"$dir.out" 2>"$dir.err" || st=$?
	[ "$st" = 0 ] || [ "$st" = 3 ] ||
		die "aiperf profile failed (status $st): $(tail -5 "$dir.err")"
	[ -s "$dir/profile_export_raw.jsonl" ] || die "aiperf profile wrote no raw records in $dir"
}

# profile_in DIR ...: profile ... with DIR's aiperf (case 5's build whose
# aiperf-metrics sleeps $SLOW seconds before it follows the raw file).
profile_in() {
	local bin=$1
	shift
	PATH="$bin:$PATH" profile "$@"
}

# rate RAW: requests/s as send-vs-wrk.sh: successful requests / (last end -
# first start).
rate() {
	awk '
	/"status":200/ {
		ok++
		match($0, /"request_start_ns":[0-9]+/); s = substr($0, RSTART + 19, RLENGTH - 19) + 0
		match($0, /"request_end_ns":[0-9]+/); e = substr($0, RSTART + 17, RLENGTH - 17) + 0
		if (min == 0 || s < min) min = s
		if (e > max) max = e
	}
	END { if (max > min) printf "%.0f", ok / ((max - min) / 1e9); else print 0 }' "$1"
}

# plinear FILE Q: numpy's linear percentile of FILE's sorted numbers.
plinear() {
	awk -v q="$2" '{ d[NR] = $1 }
		END { c = NR; if (c == 0) { print -1; exit }
			h = (c - 1) * q; lo = int(h)
			printf "%.6f\n", d[lo + 1] + (h - lo) * (d[lo + 2 > c ? c : lo + 2] - d[lo + 1]) }' "$1"
}

# avg FILE: the mean of FILE's numbers.
avg() { awk '{ s += $1 } END { printf "%.6f\n", NR ? s / NR : -1 }' "$1"; }

# streams RAW REC: fidelity.sh's statistics of RAW (its records from
# aiperf-metrics into REC): "p99_us chunks peak_overlap errors
# truth_avg_ms truth_p99_ms ttft_avg_ms ttft_p99_ms" (ttft from REC).
streams() {
	local raw=$1 rec=$2 err over
	aiperf-metrics --use-server-token-count "$raw" >"$rec" || die "aiperf-metrics failed on $raw"
	err=$(grep -c '"error"' "$rec" || true)
	over=$(awk '{ match($0, /"start_perf_ns":[0-9]+/); print substr($0, RSTART + 16, RLENGTH - 16), 1
		match($0, /"end_perf_ns":[0-9]+/); print substr($0, RSTART + 14, RLENGTH - 14), -1 }' "$raw" |
		sort -n | awk '{ c += $2; if (c > m) m = c } END { print m }')
	grep -o '"observation_delay_ns":\[[-0-9,]*\]' "$rec" |
		sed 's/.*\[//; s/\]//' | tr ',' '\n' | sort -n >"$TMP/d"
	[ -s "$TMP/d" ] || die "no observation delays in $raw (no aiperf_send_ns stamps?)"
	# truth: first stamp - start, of the records that have a stamp
	awk '/"server_stamps":\[[0-9]/ {
		match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		match($0, /"server_stamps":\[[0-9]+/); t = substr($0, RSTART + 17, RLENGTH - 17) + 0
		printf "%.6f\n", (t - s) / 1e6 }' "$raw" | sort -n >"$TMP/truth"
	grep -o '"time_to_first_token":{"value":[-0-9.e+]*' "$rec" | sed 's/.*://' | sort -g >"$TMP/ttft"
	printf '%.1f %d %d %d %.3f %.3f %.3f %.3f\n' "$(awk '{ printf "%.3f\n", $1 / 1e3 }' "$TMP/d" | plinear /dev/stdin 0.99)" \
		"$(wc -l <"$TMP/d")" "$over" "$err" "$(avg "$TMP/truth")" "$(plinear "$TMP/truth" 0.99)" \
		"$(avg "$TMP/ttft")" "$(plinear "$TMP/ttft" 0.99)"
}

# reported JSON: "avg p99" of time_to_first_token in profile_export_aiperf.json.
reported() {
	awk '/"time_to_first_token": *\{/ { on = 1 } on && /"avg":/ { a = $2 } on && /"p99":/ { p = $2 }
		on && /\}/ { on = 0 } END { gsub(/,/, "", a); gsub(/,/, "", p); printf "%.3f %.3f\n", a, p }' "$1"
}

# keep KEY VALUE: one round's value of KEY.
keep() { echo "$2" >>"$TMP/m.$1"; }
median() { sort -g "$TMP/m.$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# order: "alone profile" in odd rounds, "profile alone" in even ones.
order() { if [ $(($1 % 2)) = 1 ]; then echo alone profile; else echo profile alone; fi; }

cat >"$TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$(printf '%s' "$REC1" | sed 's/.*"payload":\(.*\)}$/\1/')'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
LUA

S2=${SLOW_SLEEP:-$((RATE_SECS + 2))}
S3=${SLOW_SLEEP:-$(((1000 + TTFT + TOKENS * ITL) / 1000 + 3))}
echo "bin=$BIN mock=$MOCK_BIN rounds=$ROUNDS cores=$(nproc) loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "case 1: $CONNS connections, ${DUR}s (+1 s grace); case 2: $RATE req/s constant, ${RATE_SECS}s;" \
	"case 3: $STREAMS streams over 1 s, TTFT $TTFT ms, ITL $ITL ms, $TOKENS tokens;" \
	"case 4: slow consumer sleeps ${S2}s / ${S3}s"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# case 1
	wrk -t"$THREADS" -c"$CONNS" -d"${DUR}s" -s "$TMP/post.lua" "$URL/v1/chat/completions" >"$TMP/wrk.out" ||
		die "wrk failed"
	wrk=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$TMP/wrk.out")
	wrkerr=$(awk '/Non-2xx|Socket errors/ { printf " (%s)", $0 }' "$TMP/wrk.out")
	[ -n "$wrk" ] || die "no rate from wrk: $(cat "$TMP/wrk.out")"
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			yes "$REC1" | aiperf-send -u "$URL" --concurrency "$CONNS" --benchmark-duration "$DUR" \
				--benchmark-grace-period 1 --ui-type none ${SEND_OPTS:-} >"$TMP/raw1" || true
			a1=$(rate "$TMP/raw1")
		else
			profile "$TMP/p1" "$URL" "${L1[@]}" --benchmark-duration "$DUR" --benchmark-grace-period 1
			p1=$(rate "$TMP/p1/profile_export_raw.jsonl")
		fi
	done
	keep wrk "$wrk"
	keep 1a "$(ratio "$a1" "$wrk")"
	keep 1p "$(ratio "$p1" "$wrk")"
	keep 1r "$(ratio "$p1" "$a1")"
	echo "round $r case 1: wrk $wrk/s$wrkerr; aiperf-send $a1/s ($(tail -1 "$TMP/m.1a")x wrk);" \
		"aiperf profile $p1/s ($(tail -1 "$TMP/m.1p")x wrk)"

	# case 2
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			send "$URL" "$TMP/in2" "$TMP/raw2"
			read -r a2 a2n a2e <<<"$(bench_lateness "$TMP/raw2")"
			a2q=$(start_rate "$TMP/raw2")
		else
			profile "$TMP/p2" "$URL" "${L2[@]}"
			read -r p2 p2n p2e <<<"$(bench_lateness "$TMP/p2/profile_export_raw.jsonl")"
			p2q=$(start_rate "$TMP/p2/profile_export_raw.jsonl")
		fi
	done
	keep 2a "$a2"
	keep 2p "$p2"
	keep 2r "$(ratio "$p2" "$a2")"
	keep 2qa "$a2q"
	keep 2qp "$p2q"
	keep 2qr "$(ratio "$p2q" "$a2q")"
	echo "round $r case 2: p99 lateness aiperf-send $a2 us ($a2n requests, $a2e errors," \
		"$a2q/s started); aiperf profile $p2 us ($p2n requests, $p2e errors, $p2q/s started)"

	# case 3, sleeping and busy-polling
	for mode in sleep busy; do
		opt='' popt=--no-busy-poll
		[ $mode = busy ] && opt=--busy-poll popt=--busy-poll
		for who in $(order "$r"); do
			late0=$(mock_counter late_chunks_total)
			if [ "$who" = alone ]; then
				# shellcheck disable=SC2086 # opt is empty or one option
				send "$SURL" "$TMP/in3" "$TMP/raw3" $opt
				read -r a3 a3c a3o a3e a3ta a3tp a3ra a3rp <<<"$(streams "$TMP/raw3" "$TMP/rec3")"
				a3l=$(($(mock_counter late_chunks_total) - late0))
			else
				profile "$TMP/p3" "$SURL" "${L3[@]}" "$popt"
				read -r p3 p3c p3o p3e p3ta p3tp _ _ <<<"$(streams "$TMP/p3/profile_export_raw.jsonl" "$TMP/rec3")"
				read -r p3ra p3rp <<<"$(reported "$TMP/p3/profile_export_aiperf.json")"
				p3l=$(($(mock_counter late_chunks_total) - late0))
			fi
			rm -f "$TMP/raw3" "$TMP/rec3"
		done
		keep "3a$mode" "$a3"
		keep "3p$mode" "$p3"
		keep "3r$mode" "$(ratio "$p3" "$a3")"
		echo "round $r case 3 ($mode): p99 observation delay aiperf-send $a3 us ($a3c chunks," \
			"peak overlap $a3o, $a3e errors, mock late chunks $a3l); aiperf profile $p3 us ($p3c chunks," \
			"peak overlap $p3o, $p3e errors, mock late chunks $p3l)"
		[ $mode = sleep ] || continue
		for s in avg p99; do
			if [ $s = avg ]; then at=$a3ta ar=$a3ra pt=$p3ta pr=$p3ra; else at=$a3tp ar=$a3rp pt=$p3tp pr=$p3rp; fi
			keep "3ta$s" "$ar"
			keep "3tp$s" "$pr"
			keep "3da$s" "$(awk -v a="$ar" -v b="$at" 'BEGIN { printf "%+.3f", a - b }')"
			keep "3dp$s" "$(awk -v a="$pr" -v b="$pt" 'BEGIN { printf "%+.3f", a - b }')"
			keep "3tt$s" "$pt"
			keep "3at$s" "$at"
			keep "3tr$s" "$(ratio "$pr" "$ar")"
			echo "round $r case 3 TTFT $s: aiperf-send reported $ar ms (truth by the mock's stamps $at ms);" \
				"aiperf profile reported $pr ms (truth $pt ms); configured $TTFT ms"
		done
	done

	# case 4: the same loads, into cat and into a consumer that sleeps first
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			aiperf-send -u "$URL" --ui-type none ${SEND_OPTS:-} <"$TMP/in2" | cat >"$TMP/raw4"
			read -r f4l _ _ <<<"$(bench_lateness "$TMP/raw4")"
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			aiperf-send -u "$SURL" --ui-type none ${SEND_OPTS:-} <"$TMP/in3" | cat >"$TMP/raw4"
			read -r f4d _ <<<"$(streams "$TMP/raw4" "$TMP/rec4")"
		else
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			aiperf-send -u "$URL" --ui-type none ${SEND_OPTS:-} <"$TMP/in2" |
				sh -c "sleep $S2; exec cat" >"$TMP/raw4"
			read -r s4l _ _ <<<"$(bench_lateness "$TMP/raw4")"
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			aiperf-send -u "$SURL" --ui-type none ${SEND_OPTS:-} <"$TMP/in3" |
				sh -c "sleep $S3; exec cat" >"$TMP/raw4"
			read -r s4d _ <<<"$(streams "$TMP/raw4" "$TMP/rec4")"
		fi
		rm -f "$TMP/raw4" "$TMP/rec4"
	done
	# case 5: through aiperf profile, aiperf-metrics slow to start or not
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			profile "$TMP/p5" "$URL" "${L2[@]}"
			read -r f5l _ _ <<<"$(bench_lateness "$TMP/p5/profile_export_raw.jsonl")"
			profile "$TMP/p5" "$SURL" "${L3[@]}"
			read -r f5d _ <<<"$(streams "$TMP/p5/profile_export_raw.jsonl" "$TMP/rec5")"
		else
			SLOW=$S2 profile_in "$TMP/slowbin" "$TMP/p5" "$URL" "${L2[@]}"
			read -r s5l _ _ <<<"$(bench_lateness "$TMP/p5/profile_export_raw.jsonl")"
			SLOW=$S3 profile_in "$TMP/slowbin" "$TMP/p5" "$SURL" "${L3[@]}"
			read -r s5d _ <<<"$(streams "$TMP/p5/profile_export_raw.jsonl" "$TMP/rec5")"
		fi
		rm -rf "$TMP/p5" "$TMP/rec5"
	done
	keep 5la "$f5l"
	keep 5lp "$s5l"
	keep 5lr "$(ratio "$s5l" "$f5l")"
	keep 5da "$f5d"
	keep 5dp "$s5d"
	keep 5dr "$(ratio "$s5d" "$f5d")"
	echo "round $r case 5: aiperf profile p99 lateness $f5l us, with a slow aiperf-metrics $s5l us;" \
		"p99 observation delay $f5d us, with a slow aiperf-metrics $s5d us"
	keep 4la "$f4l"
	keep 4lp "$s4l"
	keep 4lr "$(ratio "$s4l" "$f4l")"
	keep 4da "$f4d"
	keep 4dp "$s4d"
	keep 4dr "$(ratio "$s4d" "$f4d")"
	echo "round $r case 4: p99 lateness into cat $f4l us, into sleep;cat $s4l us;" \
		"p99 observation delay into cat $f4d us, into sleep;cat $s4d us"

	# case 6: aiperf-send alone with case 3's load (sleeping): stdout into
	# cat against --raw-file (aiperf-send(1), Raw file)
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			# shellcheck disable=SC2086 # SEND_OPTS is a list of options
			aiperf-send -u "$SURL" --ui-type none ${SEND_OPTS:-} <"$TMP/in3" | cat >"$TMP/raw6" ||
				die "aiperf-send failed (case 6)"
			read -r f6 _ <<<"$(streams "$TMP/raw6" "$TMP/rec6")"
		else
			send "$SURL" "$TMP/in3" /dev/null --raw-file "$TMP/raw6"
			read -r s6 _ <<<"$(streams "$TMP/raw6" "$TMP/rec6")"
		fi
		rm -f "$TMP/raw6" "$TMP/rec6"
	done
	keep 6a "$f6"
	keep 6p "$s6"
	keep 6r "$(ratio "$s6" "$f6")"
	echo "round $r case 6: p99 observation delay, stdout into cat $f6 us, --raw-file $s6 us"

	# case 7: through aiperf profile, case 1's and case 2's loads with the
	# stages left to the scheduler (AIPERF_PIN=0) and with the sender on a
	# CPU of its own (AIPERF_PIN=1), whatever the CPU count
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then pin=0; else pin=1; fi
		AIPERF_PIN=$pin profile "$TMP/p7" "$URL" "${L1[@]}" --benchmark-duration "$DUR" \
			--benchmark-grace-period 1
		q=$(rate "$TMP/p7/profile_export_raw.jsonl")
		AIPERF_PIN=$pin profile "$TMP/p7" "$URL" "${L2[@]}"
		read -r l _ _ <<<"$(bench_lateness "$TMP/p7/profile_export_raw.jsonl")"
		if [ $pin = 0 ]; then f7q=$q f7l=$l; else s7q=$q s7l=$l; fi
		rm -rf "$TMP/p7"
	done
	keep 7qa "$f7q"
	keep 7qp "$s7q"
	keep 7qr "$(ratio "$s7q" "$f7q")"
	keep 7la "$f7l"
	keep 7lp "$s7l"
	keep 7lr "$(ratio "$s7l" "$f7l")"
	echo "round $r case 7: aiperf profile unpinned $f7q/s, p99 lateness $f7l us;" \
		"pinned $s7q/s, p99 lateness $s7l us"

	# case 8: through aiperf profile, case 2's load without server metrics
	# (--no-server-metrics) and with them (the default: aiperf-scrape polls
	# the mock's /metrics every 0.333 s)
	for who in $(order "$r"); do
		if [ "$who" = alone ]; then
			profile "$TMP/p8" "$URL" "${L2[@]}" --no-server-metrics
			read -r f8l _ _ <<<"$(bench_lateness "$TMP/p8/profile_export_raw.jsonl")"
		else
			profile "$TMP/p8" "$URL" "${L2[@]}"
			read -r s8l _ _ <<<"$(bench_lateness "$TMP/p8/profile_export_raw.jsonl")"
		fi
		rm -rf "$TMP/p8"
	done
	keep 8la "$f8l"
	keep 8lp "$s8l"
	keep 8lr "$(ratio "$s8l" "$f8l")"
	echo "round $r case 8: aiperf profile p99 lateness without server metrics $f8l us, with $s8l us"
	r=$((r + 1))
done

# The table: medians over the rounds.
row() { printf '%-44s %-22s %-22s %-8s %-24s %s\n' "$@"; }
pass() { awk "BEGIN { print (($1) ? \"PASS\" : \"FAIL\") }"; }
m() { median "$1"; }
echo
echo "loadavg at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians over $ROUNDS round(s); ratio = through aiperf profile / aiperf-send alone (case 4: slow / fast consumer)"
row case "aiperf-send alone" "through aiperf profile" ratio target verdict
row "1 req/s, $CONNS conns (wrk $(m wrk)/s)" "$(m 1a)x wrk" "$(m 1p)x wrk" "$(m 1r)" ">= 0.8x wrk" \
	"$(pass "$(m 1p) >= 0.8")"
row "2 p99 lateness, $RATE/s constant" "$(m 2a) us" "$(m 2p) us" "$(m 2r)" "< 100 us" \
	"$(pass "$(m 2p) < 100")"
row "2 same, as a ratio to alone" "$(m 2a) us" "$(m 2p) us" "$(m 2r)" "<= 1.5x alone" \
	"$(pass "$(m 2r) <= 1.5")"
row "2 requests started per s" "$(m 2qa)/s" "$(m 2qp)/s" "$(m 2qr)" "within 1% of alone" \
	"$(pass "$(m 2qr) >= 0.99 && $(m 2qr) <= 1.01")"
row "3 p99 observation delay, $STREAMS streams" "$(m 3asleep) us" "$(m 3psleep) us" "$(m 3rsleep)" \
	"<= 1.5x alone" "$(pass "$(m 3rsleep) <= 1.5")"
row "3 same, --busy-poll" "$(m 3abusy) us" "$(m 3pbusy) us" "$(m 3rbusy)" "< 100 us" \
	"$(pass "$(m 3pbusy) < 100")"
for s in avg p99; do
	row "3 TTFT $s, ms (reported - truth)" "$(m "3ta$s") ($(m "3da$s"))" \
		"$(m "3tp$s") ($(m "3dp$s"))" "$(m "3tr$s")" "within 1 ms of truth" \
		"$(pass "$(m "3dp$s") <= 1 && $(m "3dp$s") >= -1")"
done
row "4 p99 lateness, cat | sleep ${S2}s;cat" "$(m 4la) us" "$(m 4lp) us" "$(m 4lr)" "<= 1.5x or < 100 us" \
	"$(pass "$(m 4lr) <= 1.5 || $(m 4lp) < 100")"
row "4 p99 obs. delay, cat | sleep ${S3}s;cat" "$(m 4da) us" "$(m 4dp) us" "$(m 4dr)" "<= 1.5x or < 100 us" \
	"$(pass "$(m 4dr) <= 1.5 || $(m 4dp) < 100")"
row "5 profile p99 lateness, slow metrics" "$(m 5la) us" "$(m 5lp) us" "$(m 5lr)" "<= 1.5x or < 100 us" \
	"$(pass "$(m 5lr) <= 1.5 || $(m 5lp) < 100")"
row "5 profile p99 obs. delay, slow metrics" "$(m 5da) us" "$(m 5dp) us" "$(m 5dr)" "<= 1.5x or < 100 us" \
	"$(pass "$(m 5dr) <= 1.5 || $(m 5dp) < 100")"
row "6 p99 obs. delay, stdout|cat : --raw-file" "$(m 6a) us" "$(m 6p) us" "$(m 6r)" "(a figure, no target)" "-"
row "7 profile req/s, AIPERF_PIN=0 : 1" "$(m 7qa)/s" "$(m 7qp)/s" "$(m 7qr)" "(a figure, no target)" "-"
row "7 profile p99 lateness, AIPERF_PIN=0 : 1" "$(m 7la) us" "$(m 7lp) us" "$(m 7lr)" "(a figure, no target)" "-"
row "8 profile p99 lateness, scraper off : on" "$(m 8la) us" "$(m 8lp) us" "$(m 8lr)" "<= 1.5x or < 100 us" \
	"$(pass "$(m 8lr) <= 1.5 || $(m 8lp) < 100")"
echo "(case 5: the columns are aiperf profile as it is, and with an aiperf-metrics that sleeps first;"
echo " case 6: aiperf-send alone, stdout into cat and --raw-file;"
echo " case 7: aiperf profile with its stages left to the scheduler, and with the sender pinned;"
echo " case 8: aiperf profile with --no-server-metrics, and with its scraper (the default))"
echo "TTFT truth, the mock's stamps (first aiperf_send_ns - start_perf_ns), medians:" \
	"aiperf-send runs avg $(m 3atavg) p99 $(m 3atp99) ms, aiperf profile runs avg $(m 3ttavg)" \
	"p99 $(m 3ttp99) ms; configured $TTFT ms (the rest is the mock's own lateness)"
exit 0
