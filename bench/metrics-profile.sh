#!/bin/bash
# (run by sh, as bench/builds.sh runs the bench scripts: bash it is)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
# aiperf-metrics and aiperf-export records per CPU-second through `aiperf
# profile`, as users run it, side by side with the same stages alone on the
# same records (issue #18: metrics + export >= 300k records per CPU-second
# with server token counts; bench/metrics.sh measures the stages alone on
# synthetic records).
#
# Against aiperf-mock on this host (streaming, TTFT TTFT_MS and ITL ITL_MS
# ms), each of ROUNDS rounds runs, in this order:
#   A  aiperf profile --model m --endpoint-type chat --tokenizer builtin
#      --streaming --isl ISL --osl OSL --use-server-token-count --export-level
#      raw --request-count N --concurrency CONC --ui-type none: the CPU the
#      wrapper itself reports for aiperf-metrics and aiperf-export
#      (profile_export_aiperf.json, client.other_stages_cpu: its cpu_sampler
#      reads /proc/PID/stat, in clock ticks, every 50 ms while the sender
#      runs, and aiperf-export keeps the measured window's part);
#   B  the same run, with each stage's whole-process CPU (user + system, all
#      its threads, to the microsecond): aiperf profile started from a copy
#      of the build whose aiperf-metrics and aiperf-export are scripts that
#      run the real program as the child of a small timer (python3's
#      os.wait4; the same timer as the runs alone). The wrapper finds its
#      stages beside itself (it puts its own folder first on PATH), so these
#      run, with its chrt --idle (SCHED_IDLE) and taskset prefixes and its
#      pipes; they keep their command lines for the runs alone;
#   D  B without SCHED_IDLE: the same copy with a chrt that fails, which the
#      wrapper then does not use (it looks for chrt on PATH, its folder
#      first): the stages at normal priority;
#   P  alone at the run's pace: B's raw records appended to a file at B's
#      rate (what is due every 5 ms), read by aiperf-metrics --follow FILE
#      into aiperf-export through a pipe, as inside but with no sender, no
#      server, no SCHED_IDLE;
#   C  alone on B's finished profile_export_raw.jsonl: aiperf-metrics FILE,
#      aiperf-metrics --follow FILE </dev/null (the wrapper's way, on a
#      finished file), and aiperf-export reading metrics' output from a
#      file.
# The runs alone use the command lines the wrapper gave the stages in B,
# less what names its scratch files (--stage-cpu, --was-cancelled-if,
# --server-samples, --status-fd; --artifact-dir a folder of ours).
# Records per CPU-second = N / (user + system seconds); "metrics + export"
# = N / (the two summed). The table gives medians over the rounds; its
# ratio is the median of each round's inside (B) / alone (--follow FILE,
# export from a file). Each round checks that B's profile_export.jsonl,
# aiperf-metrics' output alone (from the file and through --follow) and
# aiperf-export's profile_export.jsonl alone (C and P) are the same bytes,
# and that the metric statistics of the profile_export_aiperf.json files
# are equal; it dies if not. The rounds' lines give every figure and the
# context switches (voluntary+involuntary) of each timed stage.
#
# Usage: bench/metrics-profile.sh [requests]   (default 20000; N=... works)
# Env:   BIN (the build, default ./bin), ROUNDS (3), CONC (32), TTFT_MS (1),
#        ITL_MS (1), ISL (100), OSL (8), PROFILE_OPTS (more aiperf profile
#        options, e.g. --no-server-metrics)
# Defaults: about 80-95 s on 2 shared cores (3 profile runs of ~5.5 s and
# a paced one a round).
#
# Measured 2026-11-27, 2 shared x86_64 cores, loadavg 3.7 -> 2.3 (other
# jobs on the machine: noisy, figures swing 20-30% from run to run),
# defaults (20,000 requests, concurrency 32, ~3,900 records/s, ~5.1 s
# runs; raw records ~4.6 kB, metric records ~2.15 kB), medians of 3 rounds,
# records per CPU-second (columns: B, D, P, C's --follow FILE and FILE,
# the ratio B / --follow FILE):
#                           B       D       P  --follow    FILE   ratio
#   aiperf-metrics      39.8k   36.0k   35.7k     44.5k   52.3k    0.87
#   aiperf-export        114k     97k    110k      191k    191k    0.57
#   metrics + export    29.5k   26.3k   26.7k     36.1k   41.0k    0.79
# (an earlier run, loadavg 2.2 -> 5.2: 25.1k inside, 26.4k alone --follow,
# 33.4k alone FILE for the two; export 99k inside, 145k alone.)
# What it shows:
# - The target is far off inside and alone: on these records (the real
#   sender's, with their "aiperf" member: the HTTP trace that makes 12
#   http_req_* metrics and the server stamps) aiperf-metrics alone does
#   ~55k rec/s, not bench/metrics.sh's 179k for its synthetic "small"
#   records; the same file with aiperf.http and aiperf.server_stamps
#   removed takes 0.23-0.25 s instead of 0.36-0.39 s for 20,000 (perf:
#   the JSON parser's string_onepass/parse_value, and printf's %g of the
#   many metric values).
# - Inside, aiperf-metrics costs ~1.15x and aiperf-export ~1.75x their CPU
#   alone. Not clearly SCHED_IDLE (D against B: 10-15% less CPU in
#   manual runs at loadavg ~2, more in this one: within the noise), nor
#   the sender and server on the same cores (alone at the run's pace, P,
#   costs as much as inside): following records as they arrive does.
#   aiperf-export wakes thousands of times (3,400 voluntary switches
#   inside, 8,700 paced alone, 1 from a file): aiperf-metrics --follow
#   keeps stdio's 4 KiB buffer for its output (main.c gives 64 KiB to
#   every other mode), so aiperf-export reads one 4 KiB write at a time.
#   With a 64 KiB buffer under --follow too (one line of
#   cmd/aiperf-metrics/main.c, tried, not committed) the paced pair,
#   alternated 3 times: aiperf-export 0.13-0.15 s (700 switches) against
#   0.15-0.19 s, aiperf-metrics 0.45-0.48 s against 0.47-0.51 s.
# - aiperf-metrics --follow on a finished file: 0.84x the records per
#   CPU-second of reading it directly (its helper thread copies the file
#   through a pipe; the 4 KiB output writes).
# - The wrapper's own report (A) saw 0.83 of aiperf-metrics' whole-process
#   CPU and 0.76 of aiperf-export's (0.55-1.03 across runs): its sampler
#   stops with the sender, and the stages, on idle CPU, finish after it.
# Since (the same day, same machine, loadavg 1.3 -> 0.9, defaults): the
# stamped records take aiperf-metrics' fast path, a chunk like the last is
# read from it, 17-digit numbers are found without snprintf, and --follow
# writes 64 KiB blocks (and whatever it holds once it has caught up):
#                           B       D       P  --follow    FILE   ratio
#   aiperf-metrics      61.7k   64.0k   69.0k     72.8k   91.7k    0.85
#   aiperf-export        128k    135k    156k      178k    178k    0.72
#   metrics + export    41.6k   43.1k   47.9k     51.7k   65.0k    0.81
# aiperf-export's wake-ups inside: 670 (3,400 before). Inside aiperf
# profile the two stages now cost 24 us a record (34 before). These
# 20,000-record runs carry more than bench/metrics.sh's: a usage chunk, 12
# http_req_* metrics, 9 stamps, and each stage's start; 100,000 copies of
# such records take aiperf-metrics 7.4 us a record alone.
# Then --follow passes the file into its pipe by splice(2), no copy through
# its helper thread: on a finished file it now costs what reading the file
# directly does (bench/metrics-follow.sh: 0.120 s both for 19,500 records;
# 100,000 of this script's records: 7.6 us a record, 9.4-10.3 before).
# Session 11 (2026-11-27, loadavg ~1, defaults, 3 rounds each, the build
# before, BIN=that build's bin, then this one; the same quiet machine gives
# twice session 10's figures for both): a chunk whose numbers after its
# text differ (aiperf-mock's aiperf_send_ns) is read from the last one,
# ms values from integer ns are written without the digit search
# (numfmt_scaled()), and aiperf-export reads 16-19 digit values exactly
# without strtod and the last record's metadata keys where they recur:
#                      inside  no IDLE  paced  --follow   FILE  ratio
#   aiperf-metrics     132k    133k     130k   137k       144k  0.97  before
#                      144k    144k     142k   150k       160k  0.97  after
#   aiperf-export      223k    228k     234k   293k       293k  0.76  before
#                      288k    279k     294k   381k       381k  0.75  after
#   metrics + export   83.0k   84.2k    83.3k  93.2k      96.6k 0.89  before
#                      96.1k   95.5k    95.7k  108k       113k  0.90  after
# 300k is not met, here nor alone: bench/metrics.sh's floor rows show that
# simdjson alone takes 3.9 us to read one of these records in full (300k
# is 3.33 us for both stages).
set -eu
# shellcheck disable=SC1091
. "$(dirname "$0")/lib.sh"
die() { bench_die "$@"; }
BIN=$(cd "${BIN:-$TOP/bin}" && pwd) || die "no directory BIN=${BIN:-}"
PATH="$BIN:$PATH"
N=${1:-${N:-20000}}
ROUNDS=${ROUNDS:-3}
CONC=${CONC:-32}
TTFT_MS=${TTFT_MS:-1}
ITL_MS=${ITL_MS:-1}
ISL=${ISL:-100}
OSL=${OSL:-8}
PY=/usr/bin/python3
for t in aiperf aiperf-profile aiperf-send aiperf-gen aiperf-metrics aiperf-export aiperf-mock; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (make, or set BIN)"
done
[ -x "$PY" ] || die "$PY not found"
command -v jq >/dev/null || die "jq not found"

bench_mock --ttft-ms "$TTFT_MS" --itl-ms "$ITL_MS" --max-connections $((CONC * 2 + 100))

# The timer (bench/cputime.py): a command's user and system seconds and
# its context switches, from wait4(2).
CPUTIME=$TOP/bench/cputime.py
# cpu OUT command...: the command under the timer; OUT its "user sys
# voluntary involuntary".
cpu() {
	local out=$1
	shift
	rm -f "$out"
	"$PY" "$CPUTIME" "$out" "$@"
}

# pace.py RATE SRC DST: appends SRC's lines to DST at RATE lines a
# second, what is due every 5 ms (the sender's spool as aiperf-metrics
# --follow sees it, without the sender); its stdout carries nothing.
cat >"$TMP/pace.py" <<'PY'
import os, sys, time
rate, src, dst = float(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(src, "rb") as f:
    lines = f.readlines()
fd = os.open(dst, os.O_WRONLY | os.O_APPEND)
t0, i = time.monotonic(), 0
while i < len(lines):
    due = min(len(lines), int((time.monotonic() - t0) * rate) + 1)
    if due > i:
        os.write(fd, b"".join(lines[i:due]))
        i = due
    time.sleep(0.005)
os.close(fd)
PY

# shim DIR: a copy of BIN's programs in DIR whose aiperf-metrics and
# aiperf-export are timed (the run's: metrics with --follow, export
# without --list-files or --check) into DIR/NAME.cpu, their arguments kept one a line
# in DIR/NAME.args (aiperf-export's --input-config copied into DIR).
shim() {
	local d=$1 f
	mkdir "$d"
	for f in "$BIN"/aiperf*; do ln -s "$(readlink -f "$f")" "$d/${f##*/}"; done
	rm "$d/aiperf-metrics" "$d/aiperf-export"
	cat >"$d/aiperf-metrics" <<-SH
		#!/bin/sh
		case " \$* " in *" --follow "*) ;; *) exec "$BIN/aiperf-metrics" "\$@" ;; esac
		printf '%s\n' "\$@" >"$d/metrics.args"
		exec "$PY" "$CPUTIME" "$d/metrics.cpu" "$BIN/aiperf-metrics" "\$@"
	SH
	cat >"$d/aiperf-export" <<-SH
		#!/bin/sh
		case " \$* " in *" --list-files "* | *" --check "*) exec "$BIN/aiperf-export" "\$@" ;; esac
		printf '%s\n' "\$@" >"$d/export.args"
		prev=
		for a; do
			[ "\$prev" = --input-config ] && cp "\$a" "$d/input_config.json"
			prev=\$a
		done
		exec "$PY" "$CPUTIME" "$d/export.cpu" "$BIN/aiperf-export" "\$@"
	SH
	chmod +x "$d/aiperf-metrics" "$d/aiperf-export"
}
# B's build, and D's: the same with a chrt that fails, so that the
# wrapper finds no SCHED_IDLE (it looks for chrt on PATH, its own folder
# first) and runs its stages at normal priority.
SHIM=$TMP/shim NOIDLE=$TMP/noidle
shim "$SHIM"
shim "$NOIDLE"
printf '#!/bin/sh\nexit 1\n' >"$NOIDLE/chrt"
chmod +x "$NOIDLE/chrt"

# profile AIPERF DIR: one aiperf profile run into DIR with AIPERF (BIN's
# or a shim's aiperf). aiperf-export's status 3 is its verdict on the run
# (the client may be the bottleneck), not a failure.
profile() {
	local aiperf=$1 dir=$2 st=0 d
	d=$(dirname "$aiperf")
	rm -rf "$dir" "$d"/*.args "$d"/*.cpu "$d/input_config.json"
	# shellcheck disable=SC2086 # PROFILE_OPTS is a list of options
	"$aiperf" profile --model m --endpoint-type chat --tokenizer builtin --streaming \
		--isl "$ISL" --osl "$OSL" --url "$URL" --use-server-token-count \
		--export-level raw --request-count "$N" --concurrency "$CONC" --ui-type none \
		--artifact-dir "$dir" ${PROFILE_OPTS:-} >"$dir.out" 2>"$dir.err" || st=$?
	[ "$st" = 0 ] || [ "$st" = 3 ] ||
		die "aiperf profile failed (status $st): $(tail -5 "$dir.err")"
	[ "$(wc -l <"$dir/profile_export_raw.jsonl")" = "$N" ] ||
		die "aiperf profile wrote $(wc -l <"$dir/profile_export_raw.jsonl") raw records, not $N, in $dir"
	[ "$d" = "$BIN" ] || { [ -s "$d/metrics.cpu" ] && [ -s "$d/export.cpu" ] && [ -s "$d/metrics.args" ]; } ||
		die "the timed aiperf-metrics or aiperf-export did not run inside aiperf profile ($d)"
}

# secs FILE: user + system seconds of a timer's file.
secs() { awk '{ s = $1 + $2 } END { printf "%.6f\n", s }' "$1"; }
# sw FILE: a timer's context switches, "voluntary+involuntary".
sw() { awk '{ printf "%d+%d\n", $3, $4 }' "$1"; }
# per SECONDS...: records per CPU-second of N over their sum.
per() { awk -v n="$N" 'BEGIN { for (i = 1; i < ARGC; i++) s += ARGV[i]; printf "%.0f\n", (s > 0 ? n / s : 0) }' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
keep() { echo "$2" >>"$TMP/m.$1"; }
median() { sort -g "$TMP/m.$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# keep3 KEY METRICS_S EXPORT_S: records per CPU-second of metrics, export
# and both, as KEYm, KEYe, KEYb.
keep3() {
	keep "$1m" "$(per "$2")"
	keep "$1e" "$(per "$3")"
	keep "$1b" "$(per "$2" "$3")"
}

# stats JSON: profile_export_aiperf.json's metric statistics (what the
# records make), without what says how the run went (client, CPU, the
# command line, the input configuration, server metrics).
stats() {
	jq -S 'del(.client, .cli_command, .input_config, .server_metrics, .telemetry_data)
		| with_entries(select(.value | type == "object" and has("unit")))' "$1"
}

echo "bin=$BIN requests=$N rounds=$ROUNDS cores=$(nproc) loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "aiperf profile --streaming --use-server-token-count --export-level raw --isl $ISL --osl $OSL" \
	"--concurrency $CONC, aiperf-mock TTFT $TTFT_MS ms ITL $ITL_MS ms"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# A: as users run it, the wrapper's own CPU report
	profile "$BIN/aiperf" "$TMP/a"
	read -r wm we <<<"$(jq -r '.client.other_stages_cpu | "\(.["aiperf-metrics"]) \(.["aiperf-export"])"' \
		"$TMP/a/profile_export_aiperf.json")"
	win=$(jq -r '.benchmark_duration.avg * 100 | round / 100' "$TMP/a/profile_export_aiperf.json")
	# B: the same, whole-process CPU of each stage
	profile "$SHIM/aiperf" "$TMP/b"
	im=$(secs "$SHIM/metrics.cpu") ie=$(secs "$SHIM/export.cpu")
	raw=$TMP/b/profile_export_raw.jsonl
	dur=$(jq -r '.benchmark_duration.avg * 1000 | round / 1000' "$TMP/b/profile_export_aiperf.json")
	# D: the same without SCHED_IDLE
	profile "$NOIDLE/aiperf" "$TMP/d"
	nm=$(secs "$NOIDLE/metrics.cpu") ne=$(secs "$NOIDLE/export.cpu")
	# alone, with the wrapper's command lines (B's)
	mapfile -t margs <"$SHIM/metrics.args"
	mapfile -t eargs <"$SHIM/export.args"
	mopt=() eopt=()
	for ((i = 0; i < ${#margs[@]}; i++)); do
		case ${margs[i]} in
		--follow | --status-fd | --progress-fd) i=$((i + 1)) ;;
		*) mopt+=("${margs[i]}") ;;
		esac
	done
	for ((i = 0; i < ${#eargs[@]}; i++)); do
		case ${eargs[i]} in
		--stage-cpu | --was-cancelled-if | --server-samples | --gpu-samples | --artifact-dir) i=$((i + 1)) ;;
		--input-config) eopt+=(--input-config "$SHIM/input_config.json") i=$((i + 1)) ;;
		*) eopt+=("${eargs[i]}") ;;
		esac
	done
	[ "$r" = 1 ] && echo "alone: aiperf-metrics ${mopt[*]} RAW; aiperf-export ${eopt[*]}" | sed "s|$TMP|TMP|g"
	# P: B's raw records written at B's pace into a file that
	# aiperf-metrics --follow reads, into aiperf-export (normal priority)
	rm -rf "$TMP/p" "$TMP/live"
	: >"$TMP/live"
	set +e
	"$PY" "$TMP/pace.py" "$(awk -v n="$N" -v d="$dur" 'BEGIN { print n / d }')" "$raw" "$TMP/live" |
		cpu "$TMP/pm.cpu" aiperf-metrics "${mopt[@]}" --follow "$TMP/live" |
		cpu "$TMP/pe.cpu" aiperf-export "${eopt[@]}" --artifact-dir "$TMP/p" >/dev/null 2>"$TMP/p.err"
	st="${PIPESTATUS[*]}"
	set -e
	case $st in
	"0 0 0" | "0 0 3") ;;
	*) die "paced aiperf-metrics | aiperf-export failed (status $st): $(tail -3 "$TMP/p.err")" ;;
	esac
	pm=$(secs "$TMP/pm.cpu") pe=$(secs "$TMP/pe.cpu")
	# alone from the finished file
	cpu "$TMP/m.cpu" aiperf-metrics "${mopt[@]}" "$raw" </dev/null >"$TMP/m.out" ||
		die "aiperf-metrics alone failed"
	cpu "$TMP/f.cpu" aiperf-metrics "${mopt[@]}" --follow "$raw" </dev/null >"$TMP/f.out" ||
		die "aiperf-metrics --follow alone failed"
	rm -rf "$TMP/e"
	st=0
	cpu "$TMP/e.cpu" aiperf-export "${eopt[@]}" --artifact-dir "$TMP/e" <"$TMP/m.out" >/dev/null 2>"$TMP/e.err" ||
		st=$?
	[ "$st" = 0 ] || [ "$st" = 3 ] || die "aiperf-export alone failed (status $st): $(tail -3 "$TMP/e.err")"
	am=$(secs "$TMP/m.cpu") af=$(secs "$TMP/f.cpu") ae=$(secs "$TMP/e.cpu")
	# the same records inside and alone
	cmp -s "$TMP/b/profile_export.jsonl" "$TMP/m.out" ||
		die "round $r: aiperf-metrics alone wrote other records than aiperf profile's profile_export.jsonl"
	cmp -s "$TMP/m.out" "$TMP/f.out" ||
		die "round $r: aiperf-metrics --follow alone wrote other records than from the file"
	for x in e p; do
		cmp -s "$TMP/b/profile_export.jsonl" "$TMP/$x/profile_export.jsonl" ||
			die "round $r: aiperf-export alone ($x) wrote another profile_export.jsonl than aiperf profile"
		stats "$TMP/b/profile_export_aiperf.json" >"$TMP/sb"
		stats "$TMP/$x/profile_export_aiperf.json" >"$TMP/sx"
		[ "$(jq length "$TMP/sb")" -gt 5 ] || die "round $r: no metric statistics in profile_export_aiperf.json"
		cmp -s "$TMP/sb" "$TMP/sx" ||
			die "round $r: aiperf-export alone's ($x) statistics differ from aiperf profile's: $(diff "$TMP/sb" "$TMP/sx" | head -5)"
	done
	keep3 i "$im" "$ie"
	keep3 n "$nm" "$ne"
	keep3 p "$pm" "$pe"
	keep3 f "$af" "$ae"
	keep3 a "$am" "$ae"
	keep rm "$(ratio "$(per "$im")" "$(per "$af")")"
	keep re "$(ratio "$(per "$ie")" "$(per "$ae")")"
	keep rb "$(ratio "$(per "$im" "$ie")" "$(per "$af" "$ae")")"
	keep rf "$(ratio "$(per "$af")" "$(per "$am")")"
	keep win "$win"
	keep cm "$(ratio "$wm" "$im")"
	keep ce "$(ratio "$we" "$ie")"
	keep swi "$(awk '{ print $3 }' "$SHIM/export.cpu")"
	keep swn "$(awk '{ print $3 }' "$NOIDLE/export.cpu")"
	keep swp "$(awk '{ print $3 }' "$TMP/pe.cpu")"
	keep swe "$(awk '{ print $3 }' "$TMP/e.cpu")"
	echo "round $r: CPU s (context switches) of metrics, export: inside $im ($(sw "$SHIM/metrics.cpu")), $ie" \
		"($(sw "$SHIM/export.cpu")), a ${dur} s run; inside without SCHED_IDLE $nm ($(sw "$NOIDLE/metrics.cpu"))," \
		"$ne ($(sw "$NOIDLE/export.cpu")); the wrapper's sampler (a ${win} s run) $wm, $we; alone at the" \
		"run's pace $pm ($(sw "$TMP/pm.cpu")), $pe ($(sw "$TMP/pe.cpu")); alone --follow FILE $af" \
		"($(sw "$TMP/f.cpu")), FILE $am ($(sw "$TMP/m.cpu")), export $ae ($(sw "$TMP/e.cpu")); same records: yes"
	r=$((r + 1))
done

m() { median "$1"; }
row() { printf '%-18s %10s %10s %10s %10s %10s %7s\n' "$@"; }
echo
echo "loadavg at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "records per CPU-second (user + system), medians over $ROUNDS round(s) of $N records"
row "" "inside" "inside," "alone," "alone" "alone" "inside/"
row "" "aiperf" "no SCHED_" "at the" "--follow" "FILE" "alone"
row "" "profile" "IDLE" "run's pace" "FILE" "" "--follow"
row aiperf-metrics "$(m im)" "$(m nm)" "$(m pm)" "$(m fm)" "$(m am)" "$(m rm)"
row aiperf-export "$(m ie)" "$(m ne)" "$(m pe)" "$(m fe)" "$(m ae)" "$(m re)"
row "metrics + export" "$(m ib)" "$(m nb)" "$(m pb)" "$(m fb)" "$(m ab)" "$(m rb)"
echo "(aiperf-export alone reads metrics' output from a file in both last columns, from a pipe at the run's pace)"
echo "aiperf-export's voluntary context switches (its wake-ups): inside $(m swi), without SCHED_IDLE" \
	"$(m swn), alone at the run's pace $(m swp), alone from a file $(m swe)"
echo "aiperf-metrics --follow FILE / FILE alone: $(m rf) (--follow's price on a finished file)"
echo "the wrapper's own sampler (client.other_stages_cpu, run A) reported $(m cm) of aiperf-metrics'" \
	"whole-process CPU and $(m ce) of aiperf-export's (those of run B)"
echo "target (issue #18): metrics + export >= 300000 records per CPU-second"
