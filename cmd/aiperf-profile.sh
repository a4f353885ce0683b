#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf profile [options]: the original's command line over the C pipeline
# stages, gen | send | metrics | export; writes the original's artifacts.
# Run as aiperf-profile by aiperf(7)'s dispatcher, or directly.

# The signals, from the first instruction on: each is relayed, as a line
# naming it, into the control FIFO (CTL) that aiperf-supervise(1) reads
# (aiperf(7), Interrupting a run); until that is open they are kept in
# SIGQ and written as soon as it is.
SIGQ=() CTL=
relay() {
	if [[ -n $CTL ]]; then { printf '%s\n' "$1" >&"$CTL"; } 2>/dev/null; else SIGQ+=("$1"); fi
	return 0
}
trap 'relay INT' INT
trap 'relay TERM' TERM
trap 'relay HUP' HUP
# again CMD...: CMD with SIGINT, SIGTERM and SIGHUP ignored, run again when
# one ended it all the same. Until the supervisor runs, a signal to our
# process group (a Ctrl-C) reaches what this shell runs too; it is this
# shell's to relay (the run is then still written, cancelled), not the end
# of a helper. A child starts with the signals at their defaults until it
# has set them aside, a moment that a signal can hit: that helper runs
# again (3 times at most).
again() {
	local st n=0
	while :; do
		(trap '' INT TERM HUP; "$@")
		st=$?
		((st == 129 || st == 130 || st == 143)) && ((n++ < 3)) || return "$st"
	done
}
# again_out VAR CMD...: again, CMD's standard output into VAR.
again_out() {
	local -n again_to=$1
	local st n=0
	shift
	while :; do
		# shellcheck disable=SC2034 # a nameref: the caller's variable
		again_to=$(trap '' INT TERM HUP; "$@")
		st=$?
		((st == 129 || st == 130 || st == 143)) && ((n++ < 3)) || return "$st"
	done
}
relay_queued() {
	local s
	for s in "${SIGQ[@]}"; do printf '%s\n' "$s" >&"$CTL"; done
	SIGQ=()
}
set -o pipefail
argv0="aiperf profile"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$here:$PATH"

die() { printf '%s: %s\n' "$argv0" "$*" >&2; exit 1; }
# say FORMAT ARGS...: printf to standard output, which may have lost its
# reader (aiperf profile | head -1): in a subshell, which SIGPIPE ends
# instead of this shell, so the line is dropped and the run still ends
# with its own status, every artifact written.
say() {
	# shellcheck disable=SC2059 # the format is the caller's
	(printf "$@") 2>/dev/null
	return 0
}
warn() { printf '%s: %s\n' "$argv0" "$*" >&2; }
usage_error() {
	printf '%s: %s\n' "$argv0" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$argv0" >&2
	exit 2
}

# What aiperf-plan(1) decided (profile: eval "$(aiperf-plan ...)"): the
# options given (SET, canonical -> value(s), newline separated), the
# inert ones' notes, every stage's arguments, the CLI Command string.
GEN=() SEND=() MET=() EXP=()
declare -A SET=() INERT=()
CLI="aiperf profile"

# The run log, logs/aiperf.log, in the original's line form: "2026-11-26
# 10:30:00.123 - aiperf.profile - INFO - message". The stages append their
# own lines (lib/runlog.h) to the same file through AIPERF_LOG_FILE and
# AIPERF_LOG_LEVEL; -v is DEBUG, -vv TRACE.
declare -A LEVELS=([TRACE]=5 [DEBUG]=10 [INFO]=20 [NOTICE]=25 [WARNING]=30
	[SUCCESS]=35 [ERROR]=40 [CRITICAL]=50)
LOGLEVEL=INFO LOGFILE=

log() {	# LEVEL MESSAGE...
	local t=${EPOCHREALTIME/,/.} ms
	[[ -n $LOGFILE ]] && ((LEVELS[$1] >= LEVELS[$LOGLEVEL])) || return 0
	ms=${t#*.}
	printf '%(%Y-%m-%d %H:%M:%S)T.%s - aiperf.profile - %s - %s\n' "${t%.*}" \
		"${ms:0:3}" "$1" "${*:2}" >>"$LOGFILE" 2>/dev/null
	return 0
}

# log_settings DIR MODE: what this run is, for the log's reader; the
# command line and the whole configuration come from aiperf-export, which
# redacts them.
log_settings() {
	local o
	log INFO "aiperf profile ${AIPERF_VERSION:-} (pid $$) on ${HOSTNAME:-$(uname -n)}"
	log INFO "artifact directory: $1"
	log INFO "timing mode: $2"
	if [[ ${SET[--endpoint-type]:-} == image_retrieval && -z ${SET[--tokenizer]+x} ]]; then
		log INFO "Tokenization is disabled for this endpoint, skipping tokenizer configuration"
	elif [[ -z ${SET[--tokenizer]+x} ]]; then
		log INFO "tokenizer: ${SET[--model]%%$'\n'*} (the first model, as the original)"
	fi
	for o in "${!INERT[@]}"; do
		[[ -n ${SET[$o]+x} ]] && log WARNING "$o has no effect: ${INERT[$o]}"
	done
	log DEBUG "stages: aiperf-gen (${#GEN[@]} arguments), aiperf-send (${#SEND[@]})," \
		"aiperf-metrics (${#MET[@]}), aiperf-export (${#EXP[@]}); each logs its own"
	return 0
}

# new_file FILE: FILE made anew, empty, never through a link: whatever is
# at its name is removed (a link itself, not what it points to), then it is
# created exclusively (noclobber), so that a name taken again meanwhile
# fails rather than being followed.
new_file() {
	rm -f -- "$1" && (set -C && : >"$1") 2>/dev/null
}

WORKERS=1

# run_pipeline RUN: aiperf-supervise(1) carries out the plan aiperf-plan
# wrote into RUN/plan.json (the stages, their pipes, the scrapers, the
# phase barrier, the signals, the report), in a process group of its
# own: a Ctrl-C or a signal to our group reaches this shell alone, which
# relays it once, through the control FIFO (relay). Returns its status:
# 1 for a failed stage, 128+N when interrupted by signal N, else
# aiperf-export's.
run_pipeline() {
	local run=$1 sup
	set -m
	aiperf-supervise --plan "$run/plan.json" --control-fifo "$run/control" {CTL}>&- &
	sup=$!
	set +m
	wait_child "$sup"
}

# wait_child PID: PID's exit status. wait returns early when a trap ran:
# the child may still run; a trap and the child's end at once: its own
# status, if unread.
wait_child() {
	local st s2
	while :; do
		wait "$1"
		st=$?
		((st > 128)) && kill -0 "$1" 2>/dev/null && continue
		break
	done
	if ((st > 128)); then
		wait "$1" 2>/dev/null
		s2=$?
		((s2 != 127)) && st=$s2
	fi
	return "$st"
}

# ---------------------------------------------------------------------------
# Several hosts (issue #18; aiperf(7), Several hosts): one command line on
# every host. --shard K (with --workers-max N) runs sender K of N alone,
# as a one-host run of N senders would run it; --start-at starts its first
# phase at one wall-clock moment, the same on every host; --from-records
# merges the N shards' raw records into one artifact set, and reports the
# requests of each shard that have no record.
START_AT='' N_SHARDS=''

# loss_report RUN FILE...: the requests of each shard without a record in
# FILE..., lost in flight or never sent, by aiperf-loss(1) (the sender's
# rules, lib/shardloss.c), which regenerates each shard's requests
# (aiperf-gen --shard K/N, the same seed). One line a shard on standard
# output; 0 when none was lost, 3 when one was (or a record is of no
# shard), else 1 with the message in RUN/loss.err.
loss_report() {
	local run=$1
	local -a a=(--shards "$WORKERS" --concurrency "${SET[--concurrency]:-1}")
	shift
	[[ -n ${SET[--warmup-concurrency]:-} ]] && a+=(--warmup-concurrency "${SET[--warmup-concurrency]}")
	[[ -n ${SET[--concurrency-ramp-duration]:-} ]] &&
		a+=(--concurrency-ramp-duration "${SET[--concurrency-ramp-duration]}")
	[[ -n ${SET[--warmup-concurrency-ramp-duration]:-} ]] &&
		a+=(--warmup-concurrency-ramp-duration "${SET[--warmup-concurrency-ramp-duration]}")
	aiperf-loss "${a[@]}" "$@" -- "${GEN[@]}" </dev/null 2>"$run/loss.err"
}

# merge_records DIR LOG RAW RUN: --from-records: the artifacts of a run
# from its shards' raw records: inputs.json from aiperf-gen, metrics
# and export as a run writes them, the loss report on standard error,
# in the log and in DIR/logs/shards.txt. Returns aiperf-export's status,
# 3 when a request has no record, 1 when a stage failed.
merge_records() {
	local dir=$1 log=$2 raw=$3 run=$4 f st lost=0
	local -a files=() tee=() sts
	mapfile -t files < <(printf '%s' "${SET[--from-records]}")
	((${#files[@]})) || usage_error "profile: --from-records needs files"
	for f in "${files[@]}"; do
		[[ -f $f && -r $f ]] || die "cannot read '$f'"
		[[ $raw != /dev/null && $(readlink -f "$f") == "$(readlink -f "$raw")" ]] &&
			die "'$f' is this run's raw records' file: keep the shards' files outside its artifact directory"
	done
	export AIPERF_LOG_FILE=$log AIPERF_LOG_LEVEL=$LOGLEVEL
	log INFO "merging the records of $WORKERS shards from ${#files[@]} files"
	if ! aiperf-gen "${GEN[@]}" --inputs-json "$dir/inputs.json" </dev/null >/dev/null 2>"$run/gen.err"; then
		printf '%s: aiperf-gen failed: %s\n' "$argv0" "$(tail -1 "$run/gen.err")" >&2
		return 1
	fi
	new_file "$dir/logs/shards.txt" || die "cannot create '$dir/logs/shards.txt'"
	loss_report "$run" "${files[@]}" >"$dir/logs/shards.txt"
	st=$?
	((st == 0 || st == 3)) ||
		{ printf '%s: the loss report failed: %s\n' "$argv0" "$(tail -1 "$run/loss.err")" >&2; return 1; }
	((st)) && lost=1
	while read -r f; do
		if ((lost)); then printf '%s: %s\n' "$argv0" "$f" >&2; log WARNING "$f"
		else log INFO "$f"; fi
	done <"$dir/logs/shards.txt"
	[[ $raw == /dev/null ]] || tee=(--tee "$raw")
	aiperf-metrics "${MET[@]}" "${tee[@]}" "${files[@]}" 2>"$run/metrics.err" |
		aiperf-export "${EXP[@]}" --artifact-dir "$dir" \
			--input-config "$run/input_config.json" --run-info "$run/run_info.json" --cli-command "$CLI"
	sts=("${PIPESTATUS[@]}")
	unset AIPERF_LOG_FILE AIPERF_LOG_LEVEL
	if ((sts[0] != 0)); then
		printf '%s: aiperf-metrics failed (status %d)\n' "$argv0" "${sts[0]}" >&2
		tail -5 "$run/metrics.err" >&2
		return 1
	fi
	((sts[1] == 0 || sts[1] == 3)) || { printf '%s: aiperf-export failed (status %d)\n' "$argv0" "${sts[1]}" >&2; return 1; }
	if ((lost)); then
		printf '%s: requests without a record: the merged artifacts lack them (logs/shards.txt)\n' "$argv0" >&2
		return 3
	fi
	return "${sts[1]}"
}

# auto_plot DIR: --auto-plot (the original's; GenAI-Perf's --generate-plots):
# aiperf-plot(1) on DIR once its artifacts are written. A failure is a
# warning, or with --plot-required the command's failure (status 1).
auto_plot() {
	[[ -n ${SET[--auto-plot]+x} && -z ${SET[--no-auto-plot]+x} ]] || return 0
	if aiperf-plot "$1" >/dev/null 2>"$1/logs/plot.err"; then
		say 'Plots: %s\n' "$1/plots"
		return 0
	fi
	warn "aiperf plot failed on '$1': $(tail -1 "$1/logs/plot.err")"
	[[ -z ${SET[--plot-required]+x} ]]
}

# profile ARGS...: one run. aiperf-plan(1) parses and checks the options
# (profile-options.tsv), runs the stages' checks, names and makes the
# artifact directory, removes an earlier run's files from it, makes the
# run log anew, writes input_config (and a synthesized input) into the
# scratch folder and plans every stage's command line: its shell
# assignments are this function's variables (SET, GEN, SEND, MET, EXP,
# CLI, LOGLEVEL, WORKERS, dir, mode, RAW, ...).
profile() {
	local plan dir mode st
	# The configuration holds the command line as typed: it waits for
	# aiperf-export in a directory only we can read, not among the artifacts.
	again_out run mktemp -d "${TMPDIR:-/tmp}/aiperf.XXXXXX" || die "cannot make a temporary directory"
	trap 'rm -rf "$run"' EXIT
	# the control FIFO, held read-write: a write never blocks, and what
	# is written waits there for the supervisor (relay)
	again mkfifo "$run/control" || [[ -p $run/control ]] || die "cannot make '$run/control'"
	exec {CTL}<>"$run/control"
	relay_queued
	again_out plan aiperf-plan --run-dir "$run" --plan "$run/plan.json" -- "$@" || exit
	local RAW
	eval "$plan"
	local log=$dir/logs/aiperf.log raw=$RAW
	LOGFILE=$log
	log_settings "$dir" "$mode"
	[[ -n ${SET[--shard]:-} ]] && log INFO "shard ${SET[--shard]} of $N_SHARDS (--shard): sender worker_$((SET[--shard] - 1)) alone${START_AT:+, from $START_AT (--start-at)}"
	if [[ -n ${SET[--from-records]+x} ]]; then
		# no supervisor: a signal ends the merge
		trap 'exit 130' INT
		trap 'exit 143' TERM
		trap 'exit 129' HUP
		((${#SIGQ[@]})) && exit $((128 + $(kill -l "${SIGQ[0]}")))
		merge_records "$dir" "$log" "$raw" "$run"
	else
		run_pipeline "$run"
	fi
	local st=$?
	((st == 1)) && exit 1
	[[ $raw != /dev/null ]] && say 'Raw Records: %s\n' "$raw"
	say 'Log File: %s\n' "$log"
	auto_plot "$dir" || return 1
	return "$st"
}

# ---------------------------------------------------------------------------
# Multi-run confidence (issue #16; spec 8, the original's orchestrator):
# --num-profile-runs N runs this script once per run, into
# ARTIFACT_DIR/profile_runs/run_0001 ... (each a whole single run, its
# exit status in exit_status beside its artifacts), then aiperf-aggregate
# writes ARTIFACT_DIR/aggregate/. Everything of it is in this section;
# with none of its options, profile() runs alone, as before.
declare -A MR=()	# canonical multi-run option -> value (1 for a flag)
MR_CHILD=

mr_on_signal() {
	MR_SIG=$1
	[[ -n $MR_CHILD ]] && kill -"$1" "$MR_CHILD" 2>/dev/null
	return 0
}

# mr_run_one I DIR ARGS...: the run, in a process group of its own (a
# Ctrl-C reaches this shell, which passes it on once); its status.
mr_run_one() {
	local st
	set -m
	AIPERF_MR_RUN=1 AIPERF_RUN_AT=${MR_AT:-run:$1} "$MR_SELF" "${@:3}" "${MR_PASS[@]}" --artifact-dir "$2" &
	MR_CHILD=$!
	set +m
	wait_child "$MR_CHILD"
	st=$?
	MR_CHILD=
	mkdir -p "$2" && new_file "$2/exit_status" && printf '%d\n' "$st" >"$2/exit_status"
	return "$st"
}

# mr_converged DIRS...: whether the runs so far meet --convergence-metric.
mr_converged() {
	local out
	[[ -n ${MR[--convergence-metric]:-} ]] || return 1
	out=$(aiperf-aggregate "${MR_NAMES[@]}" --check-convergence "${MR[--convergence-mode]:-ci_width}" \
		--metric "${MR[--convergence-metric]}" --stat "${MR[--convergence-stat]:-avg}" \
		--threshold "${MR[--convergence-threshold]:-0.10}" \
		--confidence-level "${MR[--confidence-level]:-0.95}" "$@" 2>/dev/null)
	printf '%s: convergence: %s\n' "$argv0" "$out" >&2
	[[ $out == converged* ]]
}

multi_run() {
	local n i st base dir label cd seed=() args warm=0 mst=0 max
	local -a dirs=() rest
	# one run of several: its input_config keeps the multi-run options
	if [[ -n ${AIPERF_MR_RUN:-} ]]; then
		unset AIPERF_MR_RUN
		profile "$@"
		return
	fi
	# aiperf-plan --multi-run: the multi-run options split off (MR, MR_PASS)
	# and checked, the other arguments (MR_ARGS, the warmup's indexes
	# MR_WARM), aiperf-aggregate's names (MR_NAMES), the artifact
	# directory (base), the consistent seed; MR_N 0: a single run.
	local plan MR_N MR_KV=() MR_ARGS=() MR_WARM=() MR_PASS=() MR_NAMES=() SW_N=0 SEARCH=0 SR_ARGS=()
	plan=$(aiperf-plan --multi-run -- "$@") || exit
	eval "$plan"
	((MR_N)) || { profile "$@"; return; }
	((SW_N)) && { sweep; return; }
	((SEARCH)) && { search; return; }
	n=$MR_N
	for ((i = 0; i < ${#MR_KV[@]}; i += 2)); do MR[${MR_KV[i]}]=${MR_KV[i + 1]}; done
	MR_SELF=$(readlink -f "${BASH_SOURCE[0]}")
	mkdir -p "$base/profile_runs" || die "cannot create '$base/profile_runs'"
	base=$(cd "$base" && pwd)
	((${#seed[@]})) &&
		warn "No --random-seed specified. Using default seed 42 for multi-run consistency. All runs will use identical workloads."
	[[ -z ${MR[--no-profile-run-disable-warmup-after-first]+x} ]] && warm=1
	cd=${MR[--profile-run-cooldown-seconds]:-0}
	max=$n
	[[ -n ${MR[--convergence-metric]:-} ]] && ((n < 3)) &&
		warn "--num-profile-runs $n is below the 3 runs adaptive stopping needs: all $n run"
	trap 'mr_on_signal INT' INT
	trap 'mr_on_signal TERM' TERM
	trap 'mr_on_signal HUP' HUP
	MR_SIG=
	for ((i = 1; i <= max; i++)); do
		if ((i > 1)) && [[ $cd != 0 ]]; then
			sleep "$cd" &
			wait $! || kill $! 2>/dev/null
		fi
		[[ -n $MR_SIG ]] && break
		label=$(printf 'run_%04d' "$i")
		dir=$base/profile_runs/$label
		rest=("${MR_ARGS[@]}")
		if ((warm && i > 1)); then
			for args in "${MR_WARM[@]}"; do unset "rest[$args]"; done
		fi
		printf '%s: run %d of %d: %s\n' "$argv0" "$i" "$n" "$dir" >&2
		mr_run_one "$i" "$dir" "${rest[@]}" "${seed[@]}"
		st=$?
		dirs+=("$dir")
		((st == 2 && i == 1)) && exit 2
		((st != 0 && st != 3)) && warn "run $label failed (status $st)"
		[[ -n $MR_SIG ]] && break
		((i >= 3 || i >= n)) && ((i < max)) && mr_converged "${dirs[@]}" && break
	done
	trap - INT TERM HUP
	[[ -n $MR_SIG ]] && mst=$((128 + $(kill -l "$MR_SIG"))) &&
		warn "interrupted after ${#dirs[@]} run(s): aggregating what finished"
	# adaptive stopping also pools the runs' records, as the original does
	[[ -n ${MR[--convergence-metric]:-} ]] && MR_NAMES+=(--collated --cooldown-seconds "$cd")
	aiperf-aggregate "${MR_NAMES[@]}" --confidence-level "${MR[--confidence-level]:-0.95}" \
		--output-dir "$base/aggregate" "${dirs[@]}" || { st=$?; ((mst)) && exit "$mst"; exit "$st"; }
	say 'Aggregate: %s\n' "$base/aggregate/profile_export_aiperf_aggregate.json"
	((mst)) && exit "$mst"
	return 0
}

# ---------------------------------------------------------------------------
# Sweeps (issue #29; aiperf(7), Sweeps): list values (--concurrency 8,16,32)
# or --search-recipe make aiperf-plan --multi-run plan a sweep: its runs
# (SW_N; run J's folder SW_DIR[J] below base, its own options SW_CELL_J,
# the cooldown before it SW_COOL[J], its trial SW_TRIAL[J]) and
# base/sweep_plan.json (SW_PLAN), which each run reads for its run_info
# (AIPERF_RUN_AT) and aiperf-aggregate --sweep for the aggregates. A
# failed run does not stop the sweep; it is listed.
sweep() {
	local j st dir mst=0 failed=0 args
	local -a rest
	for ((j = 0; j < ${#MR_KV[@]}; j += 2)); do MR[${MR_KV[j]}]=${MR_KV[j + 1]}; done
	MR_SELF=$(readlink -f "${BASH_SOURCE[0]}")
	# the sweep's own log: a line a cell as it ends
	mkdir -p "$base/logs" && LOGFILE=$base/logs/aiperf.log
	log INFO "sweep of $SW_N runs: $SW_PLAN"
	trap 'mr_on_signal INT' INT
	trap 'mr_on_signal TERM' TERM
	trap 'mr_on_signal HUP' HUP
	MR_SIG=
	for ((j = 0; j < SW_N; j++)); do
		if [[ ${SW_COOL[j]} != 0 ]]; then
			sleep "${SW_COOL[j]}" &
			wait $! || kill $! 2>/dev/null
		fi
		[[ -n $MR_SIG ]] && break
		dir=$base/${SW_DIR[j]}
		rest=("${MR_ARGS[@]}")
		if ((SW_TRIAL[j] > 0)) && [[ -z ${MR[--no-profile-run-disable-warmup-after-first]+x} ]]; then
			for args in "${MR_WARM[@]}"; do unset "rest[$args]"; done
		fi
		unset -n cell
		local -n cell=SW_CELL_$j
		printf '%s: run %d of %d: %s\n' "$argv0" "$((j + 1))" "$SW_N" "$dir" >&2
		MR_AT=$SW_PLAN:$j mr_run_one "$((j + 1))" "$dir" "${rest[@]}" "${cell[@]}"
		st=$?
		((st == 2 && j == 0)) && exit 2
		((st != 0 && st != 3)) && { warn "run ${SW_DIR[j]} failed (status $st): the sweep goes on"; failed=$((failed + 1)); }
		args=$(aiperf-aggregate --sweep "$SW_PLAN" --cell "$j" "${MR_NAMES[@]}" 2>&1)
		[[ -z ${MR[--no-sweep-table]+x} ]] && say '%s\n' "$args"
		log INFO "$args"
		[[ -n $MR_SIG ]] && break
	done
	trap - INT TERM HUP
	[[ -n $MR_SIG ]] && mst=$((128 + $(kill -l "$MR_SIG"))) &&
		warn "interrupted after $j run(s): aggregating what finished"
	aiperf-aggregate --sweep "$SW_PLAN" "${MR_NAMES[@]}" || { st=$?; ((mst)) && exit "$mst"; exit "$st"; }
	((mst)) && exit "$mst"
	((failed)) && warn "$failed of $SW_N runs failed: sweep_aggregate lists them (failed_runs)"
	if [[ -n ${MR[--auto-plot]+x} && -z ${MR[--no-auto-plot]+x} ]]; then
		SET[--auto-plot]=1
		[[ -n ${MR[--plot-required]+x} ]] && SET[--plot-required]=1
		mkdir -p "$base/logs" && auto_plot "$base" || exit 1
	fi
	return 0
}

# search: --search-recipe max-concurrency-under-sla, monotonic or
# smooth_isotonic: aiperf-search(1) names each next concurrency from the
# iterations so far (SR_ARGS its options) until it says done; iteration K
# runs into base/search_iter_K/profile_runs/run_0001/, the original's
# layout; base/search_history.json is its record.
search() {
	local k=0 line dir mst=0
	local -a dirs=()
	MR_SELF=$(readlink -f "${BASH_SOURCE[0]}")
	mkdir -p "$base" || die "cannot create '$base'"
	trap 'mr_on_signal INT' INT
	trap 'mr_on_signal TERM' TERM
	trap 'mr_on_signal HUP' HUP
	MR_SIG=
	while :; do
		line=$(aiperf-search next "${SR_ARGS[@]}" --history "$base/search_history.json" "${dirs[@]}") || exit
		[[ $line == next\ * ]] || break
		dir=$base/$(printf 'search_iter_%04d' "$k")
		printf '%s: search iteration %d: concurrency %s: %s\n' "$argv0" "$k" "${line#next }" "$dir" >&2
		MR_AT=run:1 mr_run_one 1 "$dir/profile_runs/run_0001" "${MR_ARGS[@]}" \
			--concurrency "${line#next }" "${seed[@]}"
		(($? == 2 && k == 0)) && exit 2
		dirs+=("$dir")
		k=$((k + 1))
		[[ -n $MR_SIG ]] && break
	done
	trap - INT TERM HUP
	[[ -n $MR_SIG ]] && mst=$((128 + $(kill -l "$MR_SIG"))) &&
		warn "interrupted after $k iteration(s): the history holds them"
	((mst)) && exit "$mst"
	say 'Boundary: concurrency %s (search_history.json: %s)\n' "${line#done }" "$base/search_history.json"
	return 0
}
# ---------------------------------------------------------------------------

multi_run "$@"
