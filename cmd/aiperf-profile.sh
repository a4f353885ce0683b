#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf profile [options]: the original's command line over the C pipeline
# stages, gen | send | metrics | export; writes the original's artifacts.
# Run as aiperf-profile by aiperf(7)'s dispatcher, or directly.
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
GEN=() SEND=() MET=() EXP=() SYN=() MET_RUN=() EXP_RUN=() PLAN_LOG=()
SRV_ARGS=() GPU_ARGS=()
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
	log INFO "aiperf profile ${AIPERF_VERSION:-} (pid $$) on $(uname -n)"
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

# The synthesis options rewrite --input-file through aiperf-trace synthesize
# (sessions grouped as the loader groups them) into $1; else nothing to do.
# (SYN, aiperf-plan's; GEN already reads $1).
synthesize_input() {
	((${#SYN[@]})) || return 1
	new_file "$1" || die "cannot create '$1'"
	aiperf-trace synthesize --group-sessions "${SYN[@]}" "${SET[--input-file]}" >"$1" ||
		die "cannot synthesize '${SET[--input-file]}'"
}

# clean_artifacts DIR: removes the files an earlier run wrote into DIR
# (the names this run writes, by aiperf-export --list-files, and the other
# names of the same prefix; the wrapper's own), so that none is mistaken
# for this run's; says which. Sets RAW to the raw records' path, or
# /dev/null when the export level keeps none.
clean_artifacts() {
	local dir=$1 kind path f list gone=()
	local -a paths=()
	RAW=/dev/null
	list=$(aiperf-export --list-files "${EXP[@]}" --artifact-dir "$dir") ||
		die "aiperf-export --list-files failed"
	while IFS=$'\t' read -r kind path; do
		[[ -n $path ]] || continue
		[[ $kind == raw ]] && RAW=$path
		paths+=("$path")
	done <<<"$list"
	for f in inputs.json logs/aiperf.log logs/shards.txt .input_config.json \
		.synthesized_input.jsonl "$SPILL"; do
		paths+=("$dir/$f")
	done
	# a link at a name goes too (rm removes the link, never what it
	# points to): no stage writes through it (aiperf(7), Output files)
	for f in "${paths[@]}"; do
		[[ -f $f || -L $f ]] || continue
		rm -f "$f" || die "cannot remove '$f'"
		gone+=("${f#"$dir"/}")
	done
	((${#gone[@]})) || return 0
	local IFS=,
	printf '%s: removed the files of an earlier run from %s: %s\n' "$argv0" \
		"$dir" "${gone[*]}" | sed 's/,/, /g' >&2
}

# new_file FILE: FILE made anew, empty, never through a link: whatever is
# at its name is removed (a link itself, not what it points to), then it is
# created exclusively (noclobber), so that a name taken again meanwhile
# fails rather than being followed.
new_file() {
	rm -f -- "$1" && (set -C && : >"$1") 2>/dev/null
}

# stage NAME CMD...: runs CMD; its pid goes to $run/NAME.pid, its exit
# status to $run/NAME.st.
stage() {
	local name=$1
	shift
	# fd 9, the scraper's FIFO (server_metrics_start), stays with the
	# sender alone (stage runs in the pipeline's subshells only)
	[[ $name == send || $name == send.* ]] || exec 9>&-
	(echo "$BASHPID" >"$run/$name.pid" && exec "$@")
	echo "$?" >"$run/$name.st"
}

# The raw records' file below export level raw, while the run lasts.
SPILL=.raw_records.spill.jsonl

# trim_partial FILE: FILE without a last line cut short (a write that
# failed half way), truncated in place (a full disk has no room for a
# copy).
trim_partial() {
	local f=$1 size
	size=$(stat -c %s "$f" 2>/dev/null) || return 0
	((size)) || return 0
	[[ $(tail -c 1 "$f" | od -An -tx1) == *0a* ]] && return 0
	truncate -s $((size - $(tail -n 1 "$f" | wc -c))) "$f"
}

# GPU telemetry (issue #15; the original's gpu_telemetry/, aiperf(7)): the
# DCGM exporters to scrape (GPU_URLS), NVML (GPU_NVML), the console tables
# (GPU_CONSOLE); one aiperf-scrape (GPU_PID) from before the first request
# to after the sender's end, its samples in $run/gpu.samples for
# aiperf-export --gpu-samples.
GPU_URLS=() GPU_NVML=0 GPU_PID=''

# gpu_telemetry_start RUN: the scraper, on idle CPU beside the other stages.
gpu_telemetry_start() {
	local run=$1
	: >"$run/gpu.samples"
	if [[ -n ${SET[--no-gpu-telemetry]+x} ]]; then
		log INFO "GPU telemetry disabled (--no-gpu-telemetry)"
		return 0
	elif ! ((${#GPU_URLS[@]} || GPU_NVML)); then
		log INFO "GPU telemetry: no DCGM exporter reachable"
		return 0
	fi
	log INFO "GPU telemetry from ${#GPU_URLS[@]} DCGM exporter(s)$( ((GPU_NVML)) &&
		echo " and pynvml") (aiperf-scrape names them)"
	[[ -p $run/scrape.ctl ]] || return 0
	scrape_cue "$run" gpu
	# GPU_ARGS: aiperf-plan's, the cue's FIFOs included
	"${REST[@]}" "${IDLE[@]}" aiperf-scrape "${GPU_ARGS[@]}" \
		>"$run/gpu.samples" 2>"$run/gpu.err" </dev/null &
	GPU_PID=$!
}

# gpu_telemetry_stop: the scraper's end, which comes by itself once the
# sender has ended (the FIFO, scrape_fifo), with its final scrape; 30 s at
# most (an exited scraper nobody has reaped yet counts as ended). Its
# warnings to our stderr and the log. Run after aiperf-metrics, before
# aiperf-export reads the samples.
gpu_telemetry_stop() {
	local run=$1 i=0 state='' line
	[[ -n $GPU_PID ]] || return 0
	while read -r _ _ state _ 2>/dev/null <"/proc/$GPU_PID/stat" && [[ $state != Z ]] &&
		((i++ < 3000)); do
		sleep 0.01
	done
	((i > 3000)) && kill -KILL "$GPU_PID" 2>/dev/null
	while IFS= read -r line; do
		printf '%s\n' "$line" >&2
		log WARNING "$line"
	done <"$run/gpu.err"
	return 0
}

# IDLE: the prefix that runs a stage on idle CPU only (SCHED_IDLE): while
# requests are in flight the sender alone runs at normal priority, and the
# other stages catch up on what is left of the machine (issue #12).
IDLE=()
command -v chrt >/dev/null && chrt --idle 0 true 2>/dev/null && IDLE=(chrt --idle 0)

# SOLO, REST (aiperf-plan's cpu_split): with three CPUs or more to run on,
# or two and --busy-poll,
# the sender gets the last of them to itself among our stages (SOLO) and
# the others share the rest (REST), so that no stage of ours, not even on
# idle CPU, takes a time slice on the sender's CPU (a SCHED_IDLE task still
# gets one there now and then, a millisecond and more, which a --busy-poll
# sender, never idle, pays in full). On two CPUs a sleeping sender is left
# free to move: a server on the same host then has both (bench
# profile-vs-send.sh case 7: pinned, 0.87x the requests/s, 1.76x the p99
# lateness).
# AIPERF_PIN=0 leaves the CPUs to the scheduler; AIPERF_PIN=1 splits them
# whenever there are two (bench/profile-vs-send.sh case 7 measures both).
SOLO=() REST=()

# cpu_sampler RUN: while the sender runs, a sample every 50 ms of the other
# stages' CPU time (user + system from /proc/PID/stat, in ns) into
# RUN/stage-cpu, then "end"; aiperf-export --stage-cpu reports what they
# used inside the measured window. Runs on idle CPU itself.
cpu_sampler() {
	local run=$1 tck send i n p t fd
	local -a pids=() cpu=(0 0 0) f
	[[ ${#IDLE[@]} -gt 0 ]] && chrt --idle -p 0 "$BASHPID" 2>/dev/null
	[[ ${#REST[@]} -gt 0 ]] && taskset -pc "${REST[2]}" "$BASHPID" >/dev/null 2>&1
	tck=$(getconf CLK_TCK 2>/dev/null) || tck=100
	for ((i = 0; i < 500; i++)); do
		n=$(stage_pids "$run" send | wc -w)
		((n == WORKERS)) && [[ -s $run/metrics.pid && -s $run/export.pid ]] &&
			(($(stage_pids "$run" gen | wc -w) == WORKERS)) && break
		sleep 0.01
	done
	local -a sends gens
	mapfile -t sends < <(stage_pids "$run" send)
	((${#sends[@]})) || return 0
	mapfile -t gens < <(stage_pids "$run" gen)
	for n in metrics export; do pids+=("$(cat "$run/$n.pid" 2>/dev/null)"); done
	exec {fd}<> <(:)	# read -t on it: a sleep without a process
	{
		echo "names aiperf-gen aiperf-metrics aiperf-export"
		# while a sender runs; the generators' CPU summed (--workers-max)
		while any_alive "${sends[@]}"; do
			t=${EPOCHREALTIME/[.,]/}000
			send=0
			for p in "${gens[@]}"; do
				read -r -a f 2>/dev/null <"/proc/$p/stat" &&
					send=$((send + (f[13] + f[14]) * 1000000000 / tck))
			done
			((send > cpu[0])) && cpu[0]=$send
			for i in 1 2; do
				p=${pids[i - 1]}
				[[ -n $p ]] && read -r -a f 2>/dev/null <"/proc/$p/stat" &&
					cpu[i]=$(((f[13] + f[14]) * 1000000000 / tck))
			done
			printf '%s %s %s %s\n' "$t" "${cpu[@]}"
			read -r -t 0.05 -u "$fd" _ || :
		done
		echo end
	} >"$run/stage-cpu"
	exec {fd}<&-
}

# Server metrics (issue #15): aiperf-scrape polls every --url base +
# /metrics and each --server-metrics URL from a baseline scrape before the
# first request to a final one after the sender ends, on idle CPU beside
# the other stages; aiperf-export --server-samples aggregates its records
# over the profiling window. No flush wait after the final scrape (the
# original waits 2 s): the final scrape starts once the sender has ended,
# when every request it counted has been answered. An endpoint that fails
# is a warning, never a failed run; one that stalls costs at most
# SRV_TIMEOUT at the start (the baseline) and twice that at the end.
SRV_TIMEOUT=5 SRV_URLS=() SRV_PID=

# server_metrics_start RUN: server_metrics_run in the background (a process
# group of its own: a Ctrl-C reaches only us); returns once each endpoint's
# baseline scrape is written (SRV_TIMEOUT + 1 s at most). Sets SRV_ON.
SRV_ON=
server_metrics_start() {
	local run=$1
	((${#SRV_URLS[@]})) || return 0
	log INFO "server metrics from ${#SRV_URLS[@]} endpoint(s) (aiperf-scrape names them)"
	: >"$run/samples.part"
	[[ -p $run/scrape.ctl ]] || return 0
	SRV_ON=1
	scrape_cue "$run" srv
	server_metrics_run "$run" &
	SRV_PID=$!
}

# server_metrics_baseline RUN: wait for each endpoint's first scrape (the
# baseline), SRV_TIMEOUT + 1 s at most.
server_metrics_baseline() {
	local run=$1 i n
	[[ -n $SRV_ON ]] || return 0
	for ((i = 0; i < (SRV_TIMEOUT + 1) * 50; i++)); do
		# a scraper that has ended (a full disk) moved its file
		[[ -e $run/samples ]] && break
		n=$(wc -l <"$run/samples.part" 2>/dev/null) || break
		((n >= ${#SRV_URLS[@]})) && break
		sleep 0.02
	done
}

# scrape_fifo RUN: RUN/scrape.ctl, the FIFO whose last writer's end is the
# scrapers' cue (server_metrics_run, gpu_telemetry_start), when either
# runs. The scrapers are started before this shell opens it as fd 9
# (scrape_hold), so that they hold no writer of their own.
scrape_fifo() {
	((${#SRV_URLS[@]} || ${#GPU_URLS[@]} || GPU_NVML)) || return 0
	mkfifo "$1/scrape.ctl" || warn "cannot make '$1/scrape.ctl': no server metrics nor GPU telemetry"
	return 0
}
# scrape_cue RUN NAME: RUN/NAME.cue, the FIFO on which the sender cues
# that scraper once the warmup has drained (aiperf-send --scrape-cue); it
# acknowledges on RUN/scrape.ack, which all scrapers share, once that
# scrape of each of its endpoints is written: the profiling window's
# reference (aiperf-send(1), Scrapers); aiperf-plan put both in the
# sender's and the scraper's arguments. Fails when the FIFOs cannot be made.
scrape_cue() {
	local run=$1 name=$2
	mkfifo "$run/$name.cue" || return 1
	if [[ ! -p $run/scrape.ack ]]; then
		mkfifo "$run/scrape.ack" || return 1
	fi
	SCRAPE_CUES+=("$run/$name.cue")
}
SCRAPE_CUES=()
scrape_hold() {
	[[ -p $1/scrape.ctl ]] && exec 9<>"$1/scrape.ctl"
	return 0
}

# server_metrics_run RUN: aiperf-scrape (SRV_ARGS, aiperf-plan's: its
# cue, scrape_cue, and the URLs), on idle CPU beside the other
# stages, its records into RUN/samples.part, then moved to RUN/samples,
# which aiperf-export waits for. It runs until the FIFO RUN/scrape.ctl has
# no writer left: this shell holds it until the pipeline starts, the sender
# from then on (stage), so the scraper's final scrape of every endpoint
# (bounded by --timeout) comes when the sender has ended or this shell has
# died before it started, however either ends (signals, a crash, SIGKILL).
# No polling here.
server_metrics_run() {
	local run=$1 pid
	"${REST[@]}" "${IDLE[@]}" aiperf-scrape "${SRV_ARGS[@]}" >"$run/samples.part" 2>"$run/scrape.err" </dev/null &
	pid=$!
	wait "$pid"
	log DEBUG "server metrics: the scraper has ended"
	trim_partial "$run/samples.part"
	mv -f "$run/samples.part" "$run/samples"
}

# server_metrics_warnings RUN: the scraper's warnings (an endpoint that
# failed) on stderr and in the log.
server_metrics_warnings() {
	local run=$1 line
	[[ -s $run/scrape.err ]] || return 0
	while IFS= read -r line; do
		warn "server metrics: ${line#aiperf-scrape: }"
		log WARNING "server metrics: ${line#aiperf-scrape: }"
	done <"$run/scrape.err"
}

# on_signal INT|TERM: the first signal asks the sender to stop issuing and
# flush (the stages downstream read to the end and write every artifact,
# marked cancelled); the second makes it cancel what is in flight at once
# and stops the generator; a third kills the pipeline. Nothing but our own
# stages is signalled.
on_signal() {
	local pid i=0
	# under the dashboard a line on stderr would be lost: it shows it, and
	# prints it once the screen is restored (or run_pipeline does)
	((++nsig == 1)) && caught=$1 && : >"$run/cancelled" &&
		printf '%s: interrupted: stopping (again to cancel requests in flight)\n' \
			"$argv0" >>"${UI_NOTICE:-/dev/stderr}"
	local what=("no new requests; those in flight finish"
		"requests in flight cancelled" "the stages killed")
	log WARNING "SIG$1 ($nsig): ${what[nsig > 2 ? 2 : nsig - 1]}"
	if ((nsig > 2)); then
		kill -KILL -- -"$job" 2>/dev/null
		[[ -n $SRV_PID ]] && kill -KILL -- -"$SRV_PID" 2>/dev/null
		[[ -n $GPU_PID ]] && kill -KILL "$GPU_PID" 2>/dev/null
		return
	fi
	# every sender (--workers-max: send.1.pid ...), once all have started
	local -a pids=()
	while mapfile -t pids < <(stage_pids "$run" send) && ((${#pids[@]} < WORKERS && i++ < 200)); do
		sleep 0.01
	done
	((${#pids[@]})) && kill -"$1" "${pids[@]}" 2>/dev/null
	# a generator still busy (a large dataset) is of no use any more
	((nsig == 2)) && mapfile -t pids < <(stage_pids "$run" gen) && ((${#pids[@]})) &&
		kill -TERM "${pids[@]}" 2>/dev/null
	return 0
}

# The live view (aiperf-ui(1), --ui-type simple|dashboard): aiperf-metrics
# writes status lines on its fd 3 (--status-fd), aiperf-ui draws them on
# our stderr (on idle CPU, off the sender's, as every stage but the
# sender) and is gone before aiperf-metrics ends, so the screen is
# restored before aiperf-export prints. None for --ui-type none, nor for
# the default when stderr is not a terminal (an explicit type prints
# plain lines there). ui_args sets UI, aiperf-ui's arguments.
UI=()
UI_NOTICE=	# the dashboard's notice file: what would hide under it goes there
ui_view() {
	((${#UI[@]})) || return 0
	# the scraper's FIFO is the sender's alone to hold (stage)
	exec 9>&-
	exec "${REST[@]}" "${IDLE[@]}" aiperf-ui "${UI[@]}" >/dev/null
}

# ---------------------------------------------------------------------------
# Several senders (--workers-max, issue #18): the request stream split by
# session across WORKERS pipelines aiperf-gen --shard K/N | aiperf-send,
# their raw records merged by aiperf-metrics --follow (one spool file a
# sender, whole lines of each as they come), one artifact set. The senders
# start each phase together (aiperf-send --phase-cue, phase_coordinator),
# so the union of their intended send times is the asked schedule.
WORKERS=1

# stage_pids RUN NAME: the pids of stage NAME (NAME.pid, or NAME.1.pid ...).
stage_pids() {
	local f
	for f in "$1/$2.pid" "$1/$2".[0-9]*.pid; do
		[[ -s $f ]] && cat "$f" 2>/dev/null
	done
	return 0
}

# any_alive PID...: whether one of them still runs.
any_alive() {
	local p
	for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done
	return 1
}

# scrape_cue_all RUN: the scrapers' cue between warmup and profiling, as
# one sender gives it (aiperf-send(1), Scrapers): a "cue" line to each,
# then their acknowledgements, 2 s at most.
scrape_cue_all() {
	local run=$1 f fd a want=0 got=0 i
	((${#SCRAPE_CUES[@]})) || return 0
	exec {a}<>"$run/scrape.ack"
	for f in "${SCRAPE_CUES[@]}"; do
		exec {fd}<>"$f"
		printf 'cue\n' >&"$fd" && ((++want))
		exec {fd}>&-
	done
	for ((i = 0; i < 20 && got < want; i++)); do
		while ((got < want)) && read -r -t 0.1 -u "$a" _; do ((++got)); done
	done
	exec {a}>&-
	((got < want)) && warn "$((want - got)) of $want scrapers did not acknowledge the cue within 2 s: profiling starts without their reference scrape"
	log INFO "scrapers cued: $got of $want acknowledged"
}

# phase_coordinator RUN: the senders' phase barrier (aiperf-send
# --phase-cue): once all WORKERS have cued a phase (a line "PHASE BOOT_ID
# MONO_NS WALL_NS" each into RUN/phase.cue), the scrapers are cued (before
# profiling) and each sender gets "go WALL BOOT_ID MONO" on its
# RUN/phase.K.ack: the phase starts for all of them
# AIPERF_PHASE_MARGIN_US (default 5000) from now, at MONO on their
# shared monotonic clock (WALL, wall-clock ns, for senders on other
# hosts). The barriers come in order, warmup then profiling, and
# every sender passes both.
phase_coordinator() {
	local run=$1 phase got line t a k margin=${AIPERF_PHASE_MARGIN_US:-5000}
	local -a ack=()
	exec 9>&-
	for ((k = 1; k <= WORKERS; k++)); do
		exec {a}<>"$run/phase.$k.ack"
		ack+=("$a")
	done
	local name boot b m w off go prev=0
	for phase in warmup profiling; do
		got=0 boot='' off=''
		while ((got < WORKERS)) && read -r name b m w <&"$PHASE_FD"; do
			[[ $name == "$phase" ]] || log WARNING "phase barrier: '$name' while waiting for $phase"
			[[ -z $boot ]] && boot=$b
			[[ $b == "$boot" && $m =~ ^[0-9]+$ && $w =~ ^[0-9]+$ ]] || boot=-
			# the monotonic clock's offset from the wall clock, as one sender saw it
			[[ -z $off && $boot != - ]] && off=$((m - w))
			((++got))
		done
		((got == WORKERS)) || return 0
		[[ $phase == profiling ]] && scrape_cue_all "$run"
		t=${EPOCHREALTIME/[.,]/}
		t=$(((t + margin) * 1000))
		# --start-at: the first phase then (later ones as they come)
		if [[ -n $START_NS ]]; then
			if ((START_NS > t)); then t=$START_NS
			else warn "--start-at ${SET[--start-at]} is past: the run starts now"; fi
					fi
		# never before the previous phase's start (a sender without
		# warmup passes both barriers before it sleeps)
		((t < prev)) && t=$prev
		prev=$t
		go="go $t"
		# one host: one moment of its monotonic clock, the same for all
		[[ $boot != - ]] && go+=" $boot $((t + off))"
		for a in "${ack[@]}"; do printf '%s\n' "$go" >&"$a"; done
		log INFO "$WORKERS senders: the $phase phase starts at $t (epoch ns)"
	done
}

# feed DIR IN SPILL: the generators and senders, their records spooled
# into SPILL (one sender) or SPILL.K (several, each its own); this
# function's standard output carries nothing and ends when the last spool
# has (aiperf-metrics --follow).
feed() {
	local dir=$1 in=$2 spill=$3 k cpid
	local -a pids=()
	if ((WORKERS == 1)); then
		stage gen "${REST[@]}" "${IDLE[@]}" aiperf-gen "${GEN[@]}" \
			--inputs-json "$dir/inputs.json" <"$in" 2>"$run/gen.err" |
			stage send "${SOLO[@]}" aiperf-send "${SEND[@]}" |
			{ stage spool "${REST[@]}" "${IDLE[@]}" cat >"$spill" 2>"$run/spool.err"; }
		return
	fi
	phase_coordinator "$run" >/dev/null &
	cpid=$!
	for ((k = 1; k <= WORKERS; k++)); do
		# shard K's arguments, aiperf-plan's
		local -n shard_gen=SHARD_GEN_$k shard_send=SHARD_SEND_$k
		{
			stage "gen.$k" "${REST[@]}" "${IDLE[@]}" aiperf-gen "${shard_gen[@]}" \
				<"$in" 2>"$run/gen.$k.err" |
				stage "send.$k" aiperf-send "${shard_send[@]}" |
				{ stage "spool.$k" "${REST[@]}" "${IDLE[@]}" cat >"$spill.$k" \
					2>"$run/spool.$k.err"; }
		} &
		pids+=($!)
	done
	wait "${pids[@]}"
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	return 0
}

# shards_gather RUN SPILL: after several senders, each stage's status as
# one sender's (the first that failed) and their messages together, for
# run_pipeline's report; the spools removed.
shards_gather() {
	local run=$1 spill=$2 n k st first
	((WORKERS > 1)) || return 0
	for n in gen send spool; do
		first=0
		for ((k = 1; k <= WORKERS; k++)); do
			st=$(cat "$run/$n.$k.st" 2>/dev/null || echo 255)
			((first == 0 && st != 0)) && first=$st
			[[ -f $run/$n.$k.err ]] && cat "$run/$n.$k.err" >>"$run/$n.err"
		done
		echo "$first" >"$run/$n.st"
	done
	for ((k = 1; k <= WORKERS; k++)); do rm -f "$spill.$k"; done
}

# stages_report RUN SPILL LOG CAUGHT: names every stage that failed,
# upstream first (aiperf-gen, aiperf-send, the raw records' spool,
# aiperf-metrics, aiperf-export): the first line names the first failure,
# the rest follow from it (on a full disk, aiperf-gen's inputs.json before
# aiperf-export's files). The stages take a broken pipe as the end of
# their work (exit 0); one killed by SIGPIPE (141) failed only because a
# stage after it did. After a signal (CAUGHT) the generator's status is
# that pipe's. aiperf-export's status 3 is its verdict on the run, not a
# failure. Fails when a stage failed.
stages_report() {
	local run=$1 spill=$2 log=$3 caught=$4 i st later=0
	local names=(gen send spool metrics export)
	local -a bad=()
	for i in 4 3 2 1 0; do
		[[ -n $caught && $i == 0 ]] && continue
		st=$(cat "$run/${names[i]}.st" 2>/dev/null || echo 255)
		((st == 0 || (i == 4 && st == 3) || (st == 141 && later))) && continue
		bad[i]=$st
		later=1
	done
	((${#bad[@]})) || return 0
	for i in 0 1 2 3 4; do
		[[ -n ${bad[i]+x} ]] && stage_failed "$run" "${names[i]}" "${bad[i]}" "$spill" "$log"
	done
	return 1
}

# stage_failed RUN NAME STATUS SPILL LOG: the message of one failed stage,
# with its last messages (aiperf-export's come whole after the report); a
# spool that failed leaves the raw file its whole lines.
stage_failed() {
	local run=$1 name=$2 st=$3 spill=$4 log=$5
	if [[ $name == spool ]]; then
		trim_partial "$spill"
		printf '%s: writing the raw records to %s failed (status %d): %s\n' "$argv0" \
			"$spill" "$st" "$(tail -1 "$run/spool.err" 2>/dev/null)" >&2
		log ERROR "writing the raw records to $spill failed (status $st)"
		return 0
	fi
	printf '%s: aiperf-%s failed (status %d)%s\n' "$argv0" "$name" "$st" \
		"${log:+; its messages are in $log}" >&2
	log ERROR "aiperf-$name failed (status $st)"
	[[ $name != export && -f $run/$name.err ]] && tail -5 "$run/$name.err" >&2
	return 0
}

# run_pipeline DIR LOG RAW RUN: gen | send | metrics (--tee RAW) | export into
# DIR; RUN is our private scratch directory, removed on return.
# The stages run in a process group of their own, so a Ctrl-C or a signal
# to our group reaches this shell alone, which passes it to the sender.
# Prints what failed; returns 1 for a failed stage, 128+N when interrupted
# by signal N, else aiperf-export's status.
run_pipeline() {
	local dir=$1 log=$2 raw=$3 run=$4 in=/dev/null i st spill=$3
	local nsig=0 caught='' job
	[[ ${SET[--input-file]:-} == - ]] && in=/dev/stdin
	# The sender never waits on its consumers: what its pipe has no room
	# for waits in its memory (aiperf-send(1), Standard output); cat, on
	# idle CPU like every stage but the sender, spools the raw records into
	# a file, and aiperf-metrics follows that file at its own pace, ending
	# when the spool's output (which carries nothing) ends. Below export
	# level raw the file is a spill, removed at the end. (aiperf-send
	# --raw-file writes the file from a thread of its own, but measured
	# slower: bench/profile-vs-send.sh case 6.)
	[[ $raw == /dev/null ]] && spill=$dir/$SPILL
	rm -f "$spill" || die "cannot remove '$spill'"
	# aiperf-metrics follows the spool (several: a spool a sender, merged,
	# the raw records' file its copy of what it read): MET_RUN
	if ((WORKERS > 1)); then
		spill=$dir/$SPILL
		for ((i = 1; i <= WORKERS; i++)); do
			rm -f "$spill.$i" || die "cannot remove '$spill.$i'"
			mkfifo "$run/phase.$i.ack" || die "cannot make '$run/phase.$i.ack'"
		done
		mkfifo "$run/phase.cue" || die "cannot make '$run/phase.cue'"
		exec {PHASE_FD}<>"$run/phase.cue"
		log INFO "$WORKERS senders (--workers-max): the request stream split by session"
	fi
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	export AIPERF_LOG_FILE=$log AIPERF_LOG_LEVEL=$LOGLEVEL
	# gen's and metrics' messages are kept off the artifact disk until the
	# end, so that a full disk cannot swallow the message that says so.
	# aiperf-plan's notes: busy-polling, the CPUs (cpu_split)
	local line
	for line in "${PLAN_LOG[@]}"; do log "${line%% *}" "${line#* }"; done
	# The live view comes from the records aiperf-metrics reads anyway (on
	# idle CPU), not from the sender's loop (UI, aiperf-plan's).
	set -m
	scrape_fifo "$run"
	server_metrics_start "$run"
	gpu_telemetry_start "$run"
	# This shell holds the FIFO until the pipeline starts, the sender from
	# then on: the scrapers outlive neither (server_metrics_run).
	scrape_hold "$run"
	server_metrics_baseline "$run"
	feed "$dir" "$in" "$spill" |
		{ stage metrics "${REST[@]}" "${IDLE[@]}" aiperf-metrics "${MET_RUN[@]}" \
			3> >(ui_view) 2>"$run/metrics.err"; gpu_telemetry_stop "$run"; } |
		stage export "${REST[@]}" "${IDLE[@]}" aiperf-export "${EXP_RUN[@]}" \
			2>"$run/export.err" &
	exec 9>&-
	job=$(ps -o pgid= -p $! | tr -d ' ')
	cpu_sampler "$run" &
	set +m
	while ! wait; do :; done
	trap - INT TERM
	shards_gather "$run" "$spill"
	unset AIPERF_LOG_FILE AIPERF_LOG_LEVEL
	local -A sig=([INT]=2 [TERM]=15)
	local failed=0
	stages_report "$run" "$spill" "$log" "$caught" || failed=1
	# a notice the dashboard did not show (it had ended)
	[[ -n $UI_NOTICE && -s $UI_NOTICE ]] && cat "$UI_NOTICE" >&2
	server_metrics_warnings "$run"
	# aiperf-export's own messages come after the report: what it says of
	# a run whose generator failed (no records) follows from that failure
	[[ -s $run/export.err ]] && cat "$run/export.err" >&2
	((failed)) && rm -rf "$run" && { [[ $spill == "$raw" ]] || rm -f "$spill"; } && return 1
	st=$(cat "$run/export.st" 2>/dev/null || echo 1)
	rm -rf "$run"
	[[ $spill == "$raw" ]] || rm -f "$spill"
	log INFO "the stages ended: $( [[ -n $caught ]] && echo "cancelled by SIG$caught" ||
		echo "aiperf-export status $st")"
	# interrupted says more than a verdict on a run that was cut short
	[[ -n $caught ]] && return $((128 + ${sig[$caught]}))
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
			--input-config "$run/input_config.json" --cli-command "$CLI"
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

# profile ARGS...: one run. aiperf-plan(1) parses and checks the options
# (profile-options.tsv), runs the stages' checks, names and makes the
# artifact directory, writes input_config into the scratch folder and
# plans every stage's command line: its shell assignments are this
# function's variables (SET, GEN, SEND, MET, EXP, MET_RUN, EXP_RUN, SYN,
# CLI, LOGLEVEL, WORKERS, dir, mode, ...).
profile() {
	local plan dir mode st input=${SET[--input-file]:-}
	# The configuration holds the command line as typed: it waits for
	# aiperf-export in a directory only we can read, not among the artifacts.
	run=$(mktemp -d "${TMPDIR:-/tmp}/aiperf.XXXXXX") || die "cannot make a temporary directory"
	trap 'rm -rf "$run"' EXIT
	# Until the stages run there is nothing to flush: a signal ends it here
	# (run_pipeline takes the signals over).
	trap 'exit 130' INT
	trap 'exit 143' TERM
	plan=$(aiperf-plan --run-dir "$run" -- "$@") || exit
	eval "$plan"
	input=${SET[--input-file]:-}
	local RAW
	clean_artifacts "$dir"
	local log=$dir/logs/aiperf.log raw=$RAW
	# aiperf-metrics opens the raw file while aiperf-export may not yet have
	# made the prefix's directories
	[[ $raw == /dev/null ]] || mkdir -p "${raw%/*}" || die "cannot create '${raw%/*}'"
	local synth=$dir/.synthesized_input.jsonl
	[[ -n $input ]] && synthesize_input "$synth"
	new_file "$log" || die "cannot create '$log'"
	LOGFILE=$log
	log_settings "$dir" "$mode"
	[[ -n ${SET[--shard]:-} ]] && log INFO "shard ${SET[--shard]} of $N_SHARDS (--shard): sender worker_$((SET[--shard] - 1)) alone${START_AT:+, from $START_AT (--start-at)}"
	if [[ -n ${SET[--from-records]+x} ]]; then
		merge_records "$dir" "$log" "$raw" "$run"
	else
		run_pipeline "$dir" "$log" "$raw" "$run"
	fi
	local st=$?
	rm -f "$synth"
	((st == 1)) && exit 1
	[[ $raw != /dev/null ]] && say 'Raw Records: %s\n' "$raw"
	say 'Log File: %s\n' "$log"
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
	AIPERF_MR_RUN=1 "$MR_SELF" "${@:3}" "${MR_PASS[@]}" --artifact-dir "$2" &
	MR_CHILD=$!
	set +m
	while :; do
		wait "$MR_CHILD"
		st=$?
		((st > 128)) && kill -0 "$MR_CHILD" 2>/dev/null && continue
		break
	done
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
	local plan MR_N MR_KV=() MR_ARGS=() MR_WARM=() MR_PASS=() MR_NAMES=()
	plan=$(aiperf-plan --multi-run -- "$@") || exit
	eval "$plan"
	((MR_N)) || { profile "$@"; return; }
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
	trap - INT TERM
	[[ -n $MR_SIG ]] && mst=$([[ $MR_SIG == INT ]] && echo 130 || echo 143) &&
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

multi_run "$@"
