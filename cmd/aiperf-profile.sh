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

usage() {
	cat <<'USAGE'
usage: aiperf profile -m MODEL [options]
       aiperf profile --help

aiperf profile options (the original's names and aliases):
  Endpoint:  -m/--model/--model-names, --model-selection-strategy,
             --endpoint-type, --endpoint/--custom-endpoint, --streaming,
             -u/--url, --url-strategy round_robin, --transport http,
             --request-timeout-seconds, --api-key,
             --api-key-file FILE (ours; or $AIPERF_API_KEY),
             --use-legacy-max-tokens, --use-server-token-count,
             --download-video-content (video_generation: GET the content
             of every completed job; polls every
             $AIPERF_HTTP_VIDEO_POLL_INTERVAL seconds, 0.1 by default)
  Input:     --extra-inputs, -H/--header, --random-seed, --goodput,
             --isl/--synthetic-input-tokens-mean/--prompt-input-tokens-mean,
             --isl-stddev, --osl/--output-tokens-mean, --osl-stddev,
             --num-dataset-entries/--num-prompts,
             --conversation-num/--num-conversations/--num-sessions,
             --dataset-sampling-strategy sequential|random|shuffle
  Prompts:   --seq-dist/--sequence-distribution,
             --prompt-prefix-pool-size/--prefix-prompt-pool-size/
             --num-prefix-prompts, --prompt-prefix-length/
             --prefix-prompt-length, --shared-system-prompt-length,
             --user-context-prompt-length
  Rankings:  --rankings-passages-mean, --rankings-passages-stddev,
             --rankings-passages-prompt-token-mean,
             --rankings-passages-prompt-token-stddev,
             --rankings-query-prompt-token-mean,
             --rankings-query-prompt-token-stddev (the rankings types)
  Images:    --image-width-mean, --image-width-stddev, --image-height-mean,
             --image-height-stddev, --image-format png|jpeg|random,
             --image-batch-size/--batch-size-image,
             --inputs-json-full-media (ours: whole base64 in inputs.json),
             --raw-full-media (ours: whole base64 in the raw records)
  Dataset:   --input-file, --custom-dataset-type single_turn|multi_turn|
             random_pool|mooncake_trace|bailian_trace|burst_gpt_trace,
             --public-dataset sharegpt (--input-file: its local copy),
             --isl-block-size/--synthetic-input-tokens-block-size/
             --prompt-input-tokens-block-size, --fixed-schedule,
             --fixed-schedule-auto-offset, --fixed-schedule-start-offset,
             --fixed-schedule-end-offset, --no-fixed-schedule
  Audio:     --audio-length-mean, --audio-length-stddev (seconds),
             --audio-format wav|mp3, --audio-depths 8|16|24|32...,
             --audio-sample-rates KHZ..., --audio-num-channels 1|2,
             --audio-batch-size/--batch-size-audio
  Video:     --video-width, --video-height, --video-fps, --video-duration,
             --video-synth-type moving_shapes|grid_clock, --video-format
             mp4|webm, --video-codec (an ffmpeg encoder; needs the ffmpeg
             program), --video-batch-size/--batch-size-video
  Synthesis: --synthesis-speedup-ratio, --synthesis-prefix-len-multiplier,
             --synthesis-prefix-root-multiplier,
             --synthesis-prompt-len-multiplier, --synthesis-max-isl,
             --synthesis-max-osl (applied to --input-file on the fly by
             aiperf-trace synthesize)
  Load:      --concurrency, --request-count/--num-requests,
             --request-rate, --arrival-pattern/--request-rate-mode constant|
             poisson|gamma|concurrency_burst, --arrival-smoothness/
             --vllm-burstiness, --benchmark-duration,
             --benchmark-grace-period, --warmup-request-count/
             --num-warmup-requests, --warmup-request-rate,
             --warmup-arrival-pattern, --request-cancellation-rate,
             --request-cancellation-delay, --connection-reuse-strategy
             pooled|never|sticky-user-sessions, --concurrency-ramp-duration,
             --prefill-concurrency, --prefill-concurrency-ramp-duration,
             --warmup-concurrency, --warmup-concurrency-ramp-duration,
             --warmup-prefill-concurrency,
             --warmup-prefill-concurrency-ramp-duration,
             --request-rate-ramp-duration, --warmup-request-rate-ramp-duration,
             --user-centric-rate, --num-users, --warmup-duration,
             --num-warmup-sessions, --warmup-grace-period
  TLS:       --ssl-ca-file FILE, -k/--insecure (ours; verification is on)
  HTTP:      --http-engine auto|h1|curl, --busy-poll, --no-busy-poll (ours;
             by default on with 4 CPUs or more; see aiperf(7))
  Sessions:  --session-turns-mean, --session-turns-stddev,
             --session-turn-delay-mean, --session-turn-delay-stddev,
             --session-delay-ratio (and --conversation-turn-* aliases),
             -b/--prompt-batch-size/--batch-size
  Tokenizer: --tokenizer, --tokenizer-revision, --tokenizer-trust-remote-code
  Output:    --artifact-dir/--output-artifact-dir, --profile-export-prefix,
             --export-level/--profile-export-level summary|records|raw,
             --show-trace-timing, --slice-duration, --export-http-trace
  Server metrics: on by default from every --url base + /metrics;
             --server-metrics URL..., --no-server-metrics,
             --server-metrics-formats json|csv|jsonl|parquet... (parquet:
             not available in this build)
  GPU:       --gpu-telemetry [dashboard] [pynvml] [URL...] (DCGM exporters
             beside localhost:9400 and :9401, NVML, the console tables),
             --no-gpu-telemetry
  Exit gate: --max-error-rate PCT, --fail-on-slo [--min-goodput-pct PCT]
             (ours: exit 3 with the reason, after writing every artifact)
  Service:   --ui/--ui-type dashboard|simple|none (aiperf-ui(1); plain
             lines when stderr is not a terminal), --log-level TRACE|DEBUG|
             INFO|NOTICE|WARNING|SUCCESS|ERROR|CRITICAL (logs/aiperf.log),
             -v/--verbose (DEBUG), -vv/--extra-verbose (TRACE)
  Multi-run: --num-profile-runs N (1-10; runs into profile_runs/run_0001...,
             confidence statistics into aggregate/ by aiperf-aggregate),
             --profile-run-cooldown-seconds, --confidence-level,
             --profile-run-disable-warmup-after-first (the default),
             --no-profile-run-disable-warmup-after-first,
             --set-consistent-seed (the default: --random-seed 42 unless
             set), --no-set-consistent-seed, --convergence-metric (stop
             early once it converges), --convergence-stat,
             --convergence-threshold, --convergence-mode ci_width|cv|
             distribution
  Senders:   --workers-max/--max-workers N (N aiperf-gen --shard K/N |
             aiperf-send pipelines, sessions whole on one, the concurrency
             divided, phases started together, records merged; default:
             as many as the descriptor limit needs, one per 1,000
             concurrent requests with CPUs to spare; aiperf(7))
  Hosts:     --shard K (with --workers-max N and --random-seed: run sender K
             of N alone), --start-at EPOCH_S (the first phase starts then),
             --from-records FILE... (merge the N shards' raw records into
             the artifacts, requests without a record reported: exit 3);
             aiperf-clocks(1), aiperf(7) Several hosts
  Accepted, no effect here (the log says so): --zmq-host, --zmq-ipc-path,
             --record-processor-service-count/--record-processors
See aiperf(7) (man/aiperf.7) for the pipeline and every stage's man page.
Choices may be written in any case, with dashes or underscores. The
options, with those of the original not supported yet and the issue that
brings each: profile-options.tsv in the data folder (data/ in the source
tree).
USAGE
}

# The options, from data/profile-options.tsv (its header says the columns),
# as "canonical|aliases|kind|stages|config path:type" by each of their names;
# an option of the original we refuse has its reason in REFUSED instead.
OPTIONS=()
declare -A BYNAME=() REFUSED=() INERT=() VALUES=()

# options_file: the data folder's profile-options.tsv, looked for as
# aiperf-tokenizers(7) says: $AIPERF_DATA_DIR, then ../data and
# ../share/aiperf beside this script (links resolved), then DATADIR.
options_file() {
	local dir d
	dir=$(readlink -f "${BASH_SOURCE[0]}") && dir=${dir%/*}
	for d in ${AIPERF_DATA_DIR:+"$AIPERF_DATA_DIR"} "$dir/../data" \
		"$dir/../share/aiperf" "@DATADIR@"; do
		[[ -f $d/profile-options.tsv ]] && printf '%s\n' "$d/profile-options.tsv" && return
	done
	die "cannot find profile-options.tsv (set AIPERF_DATA_DIR to the folder holding it)"
}

load_options() {
	local file n=0 name aliases kind stages config values support note a e
	file=$(options_file) || exit 1
	while IFS=$'\t' read -r name aliases kind stages config _ values support note; do
		((++n))
		[[ -z $name || $name == '#'* ]] && continue
		[[ $kind =~ ^(flag|arg|list)$ && $support =~ ^(yes|ours|inert|no)$ ]] ||
			die "$file:$n: malformed option line"
		[[ $aliases == - ]] && aliases=
		[[ $stages == - ]] && stages=
		[[ $config == - ]] && config=
		[[ $values != - ]] && VALUES[$name]=$values
		[[ $support == inert ]] && INERT[$name]=$note
		for a in "$name" $aliases; do
			if [[ $support == no ]]; then REFUSED[$a]=$note; continue; fi
			e="$name|$aliases|$kind|$stages|$config"
			BYNAME[$a]=$e
		done
		[[ $support == no ]] || OPTIONS+=("$e")
	done <"$file"
}

GEN=() SEND=() MET=() EXP=() SYN=() CFG=()
declare -A SET=()	# canonical -> value(s), newline separated
CLI="aiperf profile"

lookup() {	# name -> sets ENTRY or fails
	[[ -n ${BYNAME[$1]+x} ]] || return 1
	ENTRY=${BYNAME[$1]}
}

# choice NAME VALUE: VALUE as NAME's documented choice it names, in any
# case and with dashes or underscores (the original's older help spells
# round-robin, nim-rankings); else VALUE as given, for the stage to judge.
choice() {
	local v c norm=${2,,}
	norm=${norm//-/_}
	for c in ${VALUES[$1]}; do
		v=${c,,}
		[[ ${v//-/_} == "$norm" ]] && printf '%s' "$c" && return
	done
	printf '%s' "$2"
}

shell_quote() {	# the original's CLI Command quoting: 'value'
	local v=$1
	if [[ $v =~ ^[A-Za-z0-9_./:=,+-]+$ ]]; then printf '%s' "$v"
	else printf "'%s'" "${v//\'/\'\\\'\'}"; fi
}

add_stage_arg() {	# stages name [value]
	local stages=$1 name=$2
	shift 2
	[[ $stages == *g* ]] && GEN+=("$name" "$@")
	[[ $stages == *s* ]] && SEND+=("$name" "$@")
	[[ $stages == *m* ]] && MET+=("$name" "$@")
	[[ $stages == *e* ]] && EXP+=("$name" "$@")
	[[ $stages == *y* ]] && SYN+=("$name" "$@")
	return 0
}

# NARGS: list options that take every value up to the next option, none
# included (the original's nargs="*"): --gpu-telemetry [dashboard] [URL...].
declare -A NARGS=([--gpu-telemetry]=1 [--from-records]=1)

# nargs_values NAME ARGS...: NAME's values from ARGS (one line each in
# SET[NAME], an empty one for none); NARGS_TAKEN says how many were taken.
nargs_values() {
	local canon=$1 v
	shift
	NARGS_TAKEN=0
	CLI+=" $canon"
	SET[$canon]+=
	while (($#)) && [[ $1 != -* ]]; do
		SET[$canon]+="$1"$'\n'
		CLI+=" $(shell_quote "$1")"
		shift
		((++NARGS_TAKEN))
	done
	return 0
}

parse_profile() {
	local arg name value has_value kind stages canon
	while (($#)); do
		arg=$1
		shift
		case $arg in
		-h|--help) usage; exit 0 ;;
		--*=*) name=${arg%%=*} value=${arg#*=} has_value=1 ;;
		*) name=$arg value='' has_value=0 ;;
		esac
		[[ -n ${REFUSED[$name]+x} ]] &&
			usage_error "profile: option '$name' is not supported yet: ${REFUSED[$name]}"
		lookup "$name" || usage_error "profile: unknown option '$name'"
		IFS='|' read -r canon _ kind stages _ <<<"$ENTRY"
		if [[ $kind == flag ]]; then
			((has_value)) && usage_error "profile: option '$canon' takes no value"
			SET[$canon]=1
			CLI+=" $canon"
			add_stage_arg "$stages" "$canon"
			continue
		fi
		if ((!has_value)) && [[ -n ${NARGS[$canon]+x} ]]; then
			nargs_values "$canon" "$@"
			shift "$NARGS_TAKEN"
			continue
		fi
		if ((!has_value)); then
			(($#)) || usage_error "profile: option '$canon' needs a value"
			value=$1
			shift
		fi
		[[ -n ${VALUES[$canon]:-} ]] && value=$(choice "$canon" "$value")
		# as typed: aiperf-export redacts it (lib/redact.c, the one rule)
		CLI+=" $canon $(shell_quote "$value")"
		if [[ $kind == list && $canon == --model ]]; then
			local m
			IFS=',' read -ra ms <<<"$value"
			for m in "${ms[@]}"; do
				SET[$canon]+="$m"$'\n'
				add_stage_arg "$stages" "$canon" "$m"
			done
			continue
		fi
		if [[ $kind == list ]]; then SET[$canon]+="$value"$'\n'
		else SET[$canon]=$value; fi
		# the original's nargs lists: the words up to the next option
		if [[ $canon == --server-metrics || $canon == --server-metrics-formats ]]; then
			while (($#)) && [[ $1 != -* ]]; do
				value=$1
				shift
				[[ -n ${VALUES[$canon]:-} ]] && value=$(choice "$canon" "$value")
				CLI+=" $(shell_quote "$value")"
				SET[$canon]+="$value"$'\n'
			done
		fi
		add_stage_arg "$stages" "$canon" "$value"
		# --audio-depths 16 24: each word a value of its own
		if [[ $canon == --audio-depths || $canon == --audio-sample-rates ]]; then
			while (($#)) && [[ $1 != -* ]]; do
				CLI+=" $(shell_quote "$1")"
				SET[$canon]+="$1"$'\n'
				add_stage_arg "$stages" "$canon" "$1"
				shift
			done
		fi
	done
	[[ -n ${SET[--model]:-} ]] || usage_error "profile: --model is required"
	# The original's tokenizer defaults to the (first) model name; it
	# loads none for an endpoint that neither tokenizes input nor produces
	# tokens (image_retrieval): the builtin one stands in, loading nothing.
	if [[ -z ${SET[--tokenizer]+x} ]]; then
		local first=${SET[--model]%%$'\n'*}
		[[ ${SET[--endpoint-type]:-} == image_retrieval ]] && first=builtin
		add_stage_arg gm --tokenizer "$first"
	fi
}

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

# The wrapper's own options: the log level, and the choices it alone can
# check (one URL strategy, one transport).
check_wrapper_options() {
	local l=${SET[--log-level]:-INFO} o
	l=${l^^}
	[[ -n ${LEVELS[$l]+x} ]] || usage_error "profile: invalid value for --log-level:" \
		"'${SET[--log-level]}' (TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR, CRITICAL)"
	[[ -n ${SET[--verbose]+x} ]] && ((LEVELS[$l] > LEVELS[DEBUG])) && l=DEBUG
	[[ -n ${SET[--extra-verbose]+x} ]] && l=TRACE
	LOGLEVEL=$l
	slo_gate
	for o in --url-strategy --transport; do
		[[ -z ${SET[$o]+x} || " ${VALUES[$o]} " == *" ${SET[$o]} "* ]] ||
			usage_error "profile: invalid value for $o: '${SET[$o]}' (the only" \
				"choice here: ${VALUES[$o]})"
	done
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

json_str() {	# JSON string literal of $1
	local s=$1 out='' c i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		'"') out+='\"' ;;
		\\) out+=\\\\ ;;
		$'\n') out+='\n' ;;
		$'\t') out+='\t' ;;
		$'\r') out+='\r' ;;
		*) out+=$c ;;
		esac
	done
	printf '"%s"' "$out"
}

json_val() {	# type value
	local t=$1 v=$2 first=1 item
	case $t in
	b) printf 'true' ;;
	B) printf 'false' ;;	# a --no- flag
	i) printf '%s' "$v" ;;
	f) if [[ ${v,,} == inf || ${v,,} == infinity ]]; then printf 'null'	# orjson's inf
	   elif [[ $v == *.* || $v == *e* ]]; then printf '%s' "$v"; else printf '%s.0' "$v"; fi ;;
	L) printf '['
	   while IFS= read -r item; do
		[[ -z $item ]] && continue
		((first)) || printf ', '
		first=0
		json_str "$item"
	   done <<<"$v"
	   printf ']' ;;
	I|F) printf '['	# of numbers: "16 24", "16,24" or "[16, 24]" a value
	   local -a nums
	   read -r -a nums <<<"${v//[][,$'\n']/ }"
	   for item in "${nums[@]}"; do
		((first)) || printf ', '
		first=0
		if [[ $t == I ]]; then printf '%s' "$item"; else json_val f "$item"; fi
	   done
	   printf ']' ;;
	*) json_str "$v" ;;
	esac
}

# The entries (path|type|canonical) under prefix $1 as one JSON object,
# nested by path, keys in the order first seen.
config_obj() {
	local prefix=$1 e key t canon child leaf out='{' first=1
	local -a kids=()
	for e in "${CFG[@]}"; do
		key=${e%%|*}
		[[ $key == "$prefix"* ]] || continue
		child=${key#"$prefix"}
		child=${child%%.*}
		[[ " ${kids[*]} " == *" $child "* ]] || kids+=("$child")
	done
	for child in "${kids[@]}"; do
		((first)) || out+=', '
		first=0
		leaf=
		for e in "${CFG[@]}"; do
			IFS='|' read -r key t canon <<<"$e"
			[[ $key == "$prefix$child" ]] && leaf=$(json_val "$t" "${SET[$canon]}")
		done
		[[ -n $leaf ]] || leaf=$(config_obj "$prefix$child.")
		out+="\"$child\": $leaf"
	done
	printf '%s}' "$out"
}

# input_config: the options the user set, nested as the original's UserConfig.
write_input_config() {
	local e canon path out
	CFG=()
	for e in "${OPTIONS[@]}"; do
		IFS='|' read -r canon _ _ _ path <<<"$e"
		[[ -z $path || -z ${SET[$canon]+x} ]] && continue
		CFG+=("${path%%:*}|${path##*:}|$canon")
	done
	out=$(config_obj '')
	out="${out%\}}, \"cli_command\": $(json_str "$CLI")}"
	[[ $out == '{, '* ]] && out="{${out#\{, }"
	printf '%s\n' "$out" >"$1"
}

py_float() {	# Python's str(float(x)) for plain decimals: 10 -> 10.0
	awk -v x="$1" 'BEGIN { v = x + 0; s = sprintf("%.15g", v);
		if (s !~ /[.e]/) s = s ".0"; print s }'
}

# Checks across stages that no single stage can make (spec 5.9).
check_load_options() {
	if [[ -n ${SET[--benchmark-grace-period]+x} && -z ${SET[--benchmark-duration]+x} ]]; then
		usage_error "profile: --benchmark-grace-period can only be used with duration-based benchmarking (--benchmark-duration)."
	fi
	if [[ -n ${SET[--warmup-grace-period]+x} && -z ${SET[--warmup-duration]+x} ]]; then
		usage_error "--warmup-grace-period can only be used when --warmup-duration is set. Set --warmup-duration."
	fi
	if [[ -n ${SET[--busy-poll]+x} && -n ${SET[--no-busy-poll]+x} ]]; then
		usage_error "profile: --busy-poll and --no-busy-poll cannot be used together"
	fi
	if [[ -n ${SET[--prefill-concurrency]+x} && -z ${SET[--streaming]+x} ]]; then
		usage_error "profile: --prefill-concurrency requires --streaming to be enabled"
	fi
	# With a duration the stream of requests must outlast it: the sender stops.
	if [[ -n ${SET[--benchmark-duration]+x} && -z ${SET[--request-count]+x} &&
		-z ${SET[--conversation-num]+x} ]]; then
		GEN+=(--request-count 1000000000)
	fi
	# User-centric runs with a duration wait for every turn (the original's
	# grace period defaults to infinity there).
	if [[ -n ${SET[--user-centric-rate]+x} && -n ${SET[--benchmark-duration]+x} &&
		-z ${SET[--benchmark-grace-period]+x} ]]; then
		SEND+=(--benchmark-grace-period inf)
	fi
	if [[ -n ${SET[--request-rate]+x} ]]; then
		EXP+=(--target-request-rate "${SET[--request-rate]}")
	fi
	read_ahead
	return 0
}

# read_ahead: how far the sender reads ahead of its send times (READ). A
# run bounded by a count is read whole before the first request, so the
# generator (on idle CPU) has finished before anything is measured; a
# very large one (over 100,000 requests), and a run bounded by a
# duration, whose stream has no end, read 8,192 records ahead (what is
# read but never sent is kept as NotSentError records).
READ=()
read_ahead() {
	local n=${SET[--request-count]:-0}
	if [[ -n ${SET[--benchmark-duration]+x} ]] || ((n > 100000)); then
		READ=(--read-ahead 8192)
	else
		READ=(--read-all)
	fi
}

artifact_subdir() {	# timing mode
	local models=${SET[--model]} first n stimulus
	first=${models%%$'\n'*}
	n=$(printf '%s' "$models" | grep -c .)
	local name=${first//\//_}
	((n > 1)) && name+=_multi
	stimulus=concurrency${SET[--concurrency]:-1}
	if [[ -n ${SET[--request-rate]:-} ]]; then
		stimulus=request_rate$(py_float "${SET[--request-rate]}")
		[[ -n ${SET[--concurrency]:-} ]] &&
			stimulus=concurrency${SET[--concurrency]}-$stimulus
	fi
	[[ $1 == fixed_schedule ]] && stimulus=fixed_schedule
	[[ $1 == user_centric_rate ]] &&
		stimulus=user_centric-users${SET[--num-users]}-qps$(py_float "${SET[--user-centric-rate]}")
	printf '%s-openai-%s-%s' "$name" "${SET[--endpoint-type]:-chat}" "$stimulus"
}

# The synthesis options rewrite --input-file through aiperf-trace synthesize
# (sessions grouped as the loader groups them) into $1; else nothing to do.
synthesize_input() {
	local -a opts=("${SYN[@]}")
	((${#opts[@]})) || return 1
	[[ -n ${SET[--isl-block-size]:-} ]] && opts+=(--block-size "${SET[--isl-block-size]}")
	[[ -n ${SET[--random-seed]:-} ]] && opts+=(--random-seed "${SET[--random-seed]}")
	new_file "$1" || die "cannot create '$1'"
	aiperf-trace synthesize --group-sessions "${opts[@]}" "${SET[--input-file]}" >"$1" ||
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
GPU_URLS=() GPU_NVML=0 GPU_CONSOLE=0 GPU_PID='' GPU_CSV=''

# metrics_url TEXT: TEXT as a Prometheus endpoint's URL: http:// when it
# names no scheme, /metrics when it names no path (before a query string
# or fragment: h:9400?x=1 is http://h:9400/metrics?x=1).
metrics_url() {
	local u=$1 auth tail
	[[ $u == *://* ]] || u=http://$u
	tail=${u#*://}
	auth=${tail%%[/?#]*}
	tail=${tail:${#auth}}
	[[ $tail == /* ]] || tail=/metrics$tail
	printf '%s' "${u%%://*}://$auth$tail"
}

# gpu_reachable URL...: those of the URLs a scrape answers within
# AIPERF_GPU_REACHABILITY_TIMEOUT seconds (default 10, as the original),
# probed together.
gpu_reachable() {
	local t=${AIPERF_GPU_REACHABILITY_TIMEOUT:-10} u i=0 dir
	local -a pids=()
	dir=$(mktemp -d "${TMPDIR:-/tmp}/aiperf-gpu.XXXXXX") || return 0
	for u in "$@"; do
		aiperf-scrape --once --timeout "$t" "$u" >"$dir/$i" 2>/dev/null &
		pids+=($!)
		((++i))
	done
	wait "${pids[@]}" 2>/dev/null
	i=0
	for u in "$@"; do
		[[ -s $dir/$i ]] && ! grep -q '"error":{' "$dir/$i" && printf '%s\n' "$u"
		((++i))
	done
	rm -rf "$dir"
}

# gpu_telemetry_setup: the sources from --gpu-telemetry and the default
# DCGM exporters (AIPERF_GPU_DEFAULT_DCGM_URLS, space-separated, else
# localhost:9400 and :9401), which count only when they answer; nothing
# with --no-gpu-telemetry. As the original: pynvml reads NVML instead of
# any exporter; a word is an address when it starts with http or holds a
# colon. A word ending in .csv is a custom metrics file (GPU_CSV, the
# last one given): extra DCGM fields aiperf-export collects.
gpu_telemetry_setup() {
	local w u
	local -a defaults user=()
	[[ -n ${SET[--no-gpu-telemetry]+x} ]] && return 0
	if [[ -n ${SET[--gpu-telemetry]+x} ]]; then
		GPU_CONSOLE=1
		for w in ${SET[--gpu-telemetry]}; do
			case $w in
			dashboard) ;;
			pynvml) GPU_NVML=1 ;;
			*.csv) [[ -f $w && -r $w ]] || usage_error "profile: --gpu-telemetry" \
				"$w: no such readable custom GPU metrics file"
				GPU_CSV=$w ;;
			http*|*:*) user+=("$(metrics_url "$w")") ;;
			*) warn "--gpu-telemetry: '$w' is neither dashboard, pynvml, a URL" \
				"nor a .csv file: ignored" ;;
			esac
		done
	fi
	if ((GPU_NVML)); then
		# counted, not shown: a URL's credentials are for the C rule to
		# redact (lib/http/redact.c), and none echoes it here
		((${#user[@]})) && warn "--gpu-telemetry: the DCGM URLs are not used with" \
			"pynvml (NVML reads this host's GPUs): ${#user[@]} ignored"
		return 0
	fi
	read -r -a defaults <<<"${AIPERF_GPU_DEFAULT_DCGM_URLS-http://localhost:9400/metrics http://localhost:9401/metrics}"
	if ((${#defaults[@]})); then
		while IFS= read -r u; do
			[[ -n $u ]] && GPU_URLS+=("$u")
		done < <(gpu_reachable "${defaults[@]}")
	fi
	for u in "${user[@]}"; do
		[[ " ${GPU_URLS[*]} " == *" $u "* ]] || GPU_URLS+=("$u")
	done
}

# gpu_telemetry_start RUN: the scraper, on idle CPU beside the other stages.
gpu_telemetry_start() {
	local run=$1
	local -a args=(--interval "${AIPERF_GPU_COLLECTION_INTERVAL:-0.333}")
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
	((GPU_NVML)) && args+=(--nvml)
	[[ -p $run/scrape.ctl ]] || return 0
	scrape_cue "$run" gpu && args+=(--cue-fifo "$run/gpu.cue" --ack-fifo "$run/scrape.ack")
	"${REST[@]}" "${IDLE[@]}" aiperf-scrape "${args[@]}" --unbuffered \
		--control-fifo "$run/scrape.ctl" "${GPU_URLS[@]}" \
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

# gpu_telemetry_export_args RUN: aiperf-export's options for the samples.
GPU_EXP=()
gpu_telemetry_export_args() {
	GPU_EXP=()
	[[ -n $GPU_PID ]] || return 0
	GPU_EXP=(--gpu-samples "$1/gpu.samples")
	((GPU_CONSOLE)) && GPU_EXP+=(--gpu-console)
	[[ -n $GPU_CSV ]] && GPU_EXP+=(--gpu-metrics "$GPU_CSV")
	return 0
}

# IDLE: the prefix that runs a stage on idle CPU only (SCHED_IDLE): while
# requests are in flight the sender alone runs at normal priority, and the
# other stages catch up on what is left of the machine (issue #12).
IDLE=()
command -v chrt >/dev/null && chrt --idle 0 true 2>/dev/null && IDLE=(chrt --idle 0)

# cpu_split: with three CPUs or more to run on, or two and --busy-poll,
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
cpu_split() {
	local -a cpus=("${CPUS[@]}")
	local n=${#CPUS[@]}
	case ${AIPERF_PIN:-} in
	0) return 0 ;;
	1) ((n >= 2)) || return 0 ;;
	*) ((n >= 3 || (n == 2 && ${#BUSY[@]} > 0))) || return 0 ;;
	esac
	SOLO=(taskset -c "${cpus[-1]}")
	unset 'cpus[-1]'
	REST=(taskset -c "$(IFS=,; echo "${cpus[*]}")")
	log DEBUG "CPUs: aiperf-send on ${SOLO[2]}, the other stages on ${REST[2]}"
}

# cpu_list: CPUS, the CPUs we may run on as taskset lists them (empty
# when taskset is missing or says something else); ncpu: their number,
# else nproc's.
CPUS=()
cpu_list() {
	local list part a b
	CPUS=()
	command -v taskset >/dev/null || return 0
	list=$(taskset -pc $$ 2>/dev/null) || return 0
	list=${list##*: }
	IFS=, read -r -a part <<<"$list"
	for a in "${part[@]}"; do
		b=${a#*-} a=${a%-*}
		[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] || { CPUS=(); return 0; }
		while ((a <= b)); do CPUS+=("$a"); ((a++)); done
	done
}
ncpu() {
	if ((${#CPUS[@]})); then echo "${#CPUS[@]}"; else nproc 2>/dev/null || echo 1; fi
}

# busy_poll: whether the sender spins on its sockets instead of sleeping
# (aiperf-send --busy-poll: no wake-up latency, a CPU at 100%), in BUSY.
# By default when CPUs are to spare: four or more to run on (the sender's,
# one for the other stages, two for the rest of the machine, a server on
# this host included), where cpu_split gives the sender one to itself;
# never on one CPU, where it would starve every other stage and the
# server. --busy-poll and --no-busy-poll decide.
BUSY=()
busy_poll() {
	local n
	n=$(ncpu)
	if [[ -n ${SET[--no-busy-poll]+x} ]]; then
		return 0
	elif [[ -n ${SET[--busy-poll]+x} ]] && ((n < 2)); then
		warn "--busy-poll ignored: one CPU to run on, which the sender would take from every other stage"
		log WARNING "--busy-poll ignored: one CPU"
	elif [[ -n ${SET[--busy-poll]+x} ]]; then
		BUSY=(--busy-poll)
	elif ((n >= 4 && ${#CPUS[@]} > 0 && WORKERS == 1)) && [[ ${AIPERF_PIN:-1} != 0 ]]; then
		BUSY=(--busy-poll)
		log INFO "busy-polling: $n CPUs, aiperf-send on a CPU of its own (--no-busy-poll to sleep)"
	fi
}

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

# server_metrics_urls: SRV_URLS from --url and --server-metrics, unless
# --no-server-metrics; a URL without a scheme gets http://, one without a
# path /metrics (the original's normalisation). A --url gives its base,
# scheme://host:port, without its path, query string or fragment
# (http://h:8000?api_key=k is scraped at http://h:8000/metrics).
server_metrics_urls() {
	local u base seen=' '
	local -a list=()
	SRV_URLS=()
	[[ -n ${SET[--no-server-metrics]+x} ]] && return 0
	while IFS= read -r u; do
		[[ -n $u ]] || continue
		[[ $u == *://* ]] || u=http://$u
		base=${u#*://}
		base=${u%%://*}://${base%%[/?#]*}
		list+=("$base/metrics")
	done <<<"${SET[--url]:-localhost:8000}"
	while IFS= read -r u; do
		[[ -n $u ]] && list+=("$(metrics_url "$u")")
	done <<<"${SET[--server-metrics]:-}"
	for u in "${list[@]}"; do
		[[ $seen == *" $u "* ]] && continue
		seen+="$u "
		SRV_URLS+=("$u")
	done
}

# server_metrics_formats: the formats for aiperf-export, in EXP.
server_metrics_formats() {
	local fmts=${SET[--server-metrics-formats]:-}
	[[ -n $fmts ]] && EXP+=(--server-metrics-formats "${fmts//$'\n'/ }")
	return 0
}

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
	local -a cue=()
	scrape_cue "$run" srv && cue=(--cue-fifo "$run/srv.cue" --ack-fifo "$run/scrape.ack")
	server_metrics_run "$run" "${cue[@]}" &
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
# reference (aiperf-send(1), Scrapers). Fails when the FIFOs cannot be made.
scrape_cue() {
	local run=$1 name=$2
	mkfifo "$run/$name.cue" || return 1
	if [[ ! -p $run/scrape.ack ]]; then
		mkfifo "$run/scrape.ack" || return 1
		SEND+=(--scrape-ack "$run/scrape.ack")
	fi
	SEND+=(--scrape-cue "$run/$name.cue")
	SCRAPE_CUES+=("$run/$name.cue")
}
SCRAPE_CUES=()
scrape_hold() {
	[[ -p $1/scrape.ctl ]] && exec 9<>"$1/scrape.ctl"
	return 0
}

# server_metrics_run RUN [OPTION...]: aiperf-scrape (with the OPTIONs: its
# cue, scrape_cue), on idle CPU beside the other
# stages, its records into RUN/samples.part, then moved to RUN/samples,
# which aiperf-export waits for. It runs until the FIFO RUN/scrape.ctl has
# no writer left: this shell holds it until the pipeline starts, the sender
# from then on (stage), so the scraper's final scrape of every endpoint
# (bounded by --timeout) comes when the sender has ended or this shell has
# died before it started, however either ends (signals, a crash, SIGKILL).
# No polling here.
server_metrics_run() {
	local run=$1 pid
	shift
	"${REST[@]}" "${IDLE[@]}" aiperf-scrape --timeout "$SRV_TIMEOUT" --unbuffered \
		--control-fifo "$run/scrape.ctl" "$@" "${SRV_URLS[@]}" \
		>"$run/samples.part" 2>"$run/scrape.err" </dev/null &
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

# slo_gate: --fail-on-slo [--min-goodput-pct PCT] as aiperf-export's
# --min-goodput-pct (default 100): exit 3 below it, after the artifacts.
slo_gate() {
	if [[ -z ${SET[--fail-on-slo]+x} ]]; then
		[[ -z ${SET[--min-goodput-pct]+x} ]] ||
			usage_error "profile: --min-goodput-pct needs --fail-on-slo"
		return 0
	fi
	[[ -n ${SET[--goodput]:-} ]] ||
		usage_error "profile: --fail-on-slo needs --goodput (the SLOs that make a request good)"
	EXP+=(--min-goodput-pct "${SET[--min-goodput-pct]:-100}")
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
ui_args() {
	local t=${SET[--ui-type]:-dashboard} o k
	t=${t,,}
	[[ $t == none || ( -z ${SET[--ui-type]+x} && ! -t 2 ) ]] && return 0
	# client health: the senders' CPU summed, from /proc of the PIDs
	# stage writes (send.pid; --workers-max: send.1.pid ...)
	UI=(--ui-type "$t")
	if ((WORKERS == 1)); then
		UI+=(--sender-pid-file "$run/send.pid")
	else
		for ((k = 1; k <= WORKERS; k++)); do UI+=(--sender-pid-file "$run/send.$k.pid"); done
	fi
	if [[ $t == dashboard && -t 2 ]]; then
		UI_NOTICE=$run/notice
		UI+=(--notice-file "$UI_NOTICE")
	fi
	for o in --request-count --warmup-request-count --benchmark-duration --warmup-duration; do
		[[ -n ${SET[$o]:-} ]] && UI+=("$o" "${SET[$o]}")
	done
	MET+=(--status-fd 3)
}
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

# workers_resolve: WORKERS from --workers-max, else automatic: as many
# senders as the descriptor limit needs for the concurrency asked (each
# holds a socket per request in flight and raises its soft limit to the
# hard one, `ulimit -Hn`, less 64 kept in reserve), and, with CPUs to
# spare, one per 1,000 concurrent requests up to one per CPU less one
# (the other stages and the server share the rest). Never more senders
# than concurrency slots, requests or sessions to give them; one when the
# dataset comes on standard input (it can be read once).
workers_resolve() {
	local w=${SET[--workers-max]:-} c=${SET[--concurrency]:-0} hard cap need n o v cpus
	local wc=${SET[--warmup-concurrency]:-0}
	if [[ -n $w ]]; then
		if ! [[ $w =~ ^[0-9]+$ ]] || ((w < 1 || w > 1024)); then
			usage_error "profile: invalid value for --workers-max: '$w' (1 to 1024)"
		fi
	fi
	[[ $c =~ ^[0-9]+$ ]] || c=0
	[[ $wc =~ ^[0-9]+$ ]] || wc=0
	((wc > c)) && c=$wc
	hard=$(ulimit -Hn 2>/dev/null) || hard=unlimited
	[[ $hard =~ ^[0-9]+$ ]] || hard=1048576
	cap=$((hard > 128 ? hard - 64 : hard / 2))
	need=$(((c + cap - 1) / cap))
	((need < 1)) && need=1
	if [[ -n $w ]]; then
		n=$w
		if ((n < need)); then
			warn "--workers-max $w: concurrency $c needs $need senders (each holds at most $cap sockets, ulimit -Hn $hard): $need used"
			n=$need
		fi
	else
		cpus=$(ncpu)
		n=$(((c + 999) / 1000))
		((n > cpus - 1)) && n=$((cpus - 1))
		((n < need)) && n=$need
	fi
	for o in --concurrency --warmup-concurrency --prefill-concurrency \
		--warmup-prefill-concurrency --request-count --conversation-num; do
		v=${SET[$o]:-}
		[[ $v =~ ^[0-9]+$ ]] && ((v >= 1 && n > v)) && n=$v
	done
	if [[ ${SET[--input-file]:-} == - ]] && ((n > 1)); then
		[[ -n $w ]] && warn "--workers-max: one sender: the dataset comes on standard input"
		n=1
	fi
	((n < 1)) && n=1
	WORKERS=$n
}

# share TOTAL K: shard K's part of TOTAL slots, split as evenly as can be.
share() {
	echo $(($1 / WORKERS + ($2 <= $1 % WORKERS ? 1 : 0)))
}

# shard_args K: SHARD_SEND, sender K's options: the concurrency limits
# divided (shard K's share), its own scrape cue left to the coordinator,
# the phase barrier; SHARD_GEN, generator K's.
SHARD_SEND=() SHARD_GEN=() SHARD_SEED=
shard_args() {
	local k=$1 i a
	SHARD_SEND=()
	for ((i = 0; i < ${#SEND[@]}; i++)); do
		a=${SEND[i]}
		case $a in
		--concurrency|--warmup-concurrency|--prefill-concurrency|--warmup-prefill-concurrency)
			SHARD_SEND+=("$a" "$(share "${SEND[i + 1]}" "$k")")
			((++i)) ;;
		--scrape-cue|--scrape-ack) ((++i)) ;;
		*) SHARD_SEND+=("$a") ;;
		esac
	done
	SHARD_SEND+=(--phase-cue "$run/phase.cue" --phase-ack "$run/phase.$k.ack"
		--worker-id "worker_$((k - 1))")
	SHARD_GEN=(--shard "$k/$WORKERS")
	[[ -n ${SET[--random-seed]+x} ]] || SHARD_GEN+=(--shard-seed "$SHARD_SEED")
	((k == 1)) && SHARD_GEN+=(--inputs-json "$dir/inputs.json")
	return 0
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
			START_NS=
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
		shard_args "$k"
		{
			stage "gen.$k" "${REST[@]}" "${IDLE[@]}" aiperf-gen "${GEN[@]}" \
				"${SHARD_GEN[@]}" <"$in" 2>"$run/gen.$k.err" |
				stage "send.$k" aiperf-send "${SHARD_SEND[@]}" |
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
	SEND+=("${READ[@]}")
	if ((WORKERS == 1)); then
		MET+=(--follow "$spill")
	else
		# a spool a sender, merged by aiperf-metrics; the raw records'
		# file is its copy of what it read
		spill=$dir/$SPILL
		for ((i = 1; i <= WORKERS; i++)); do
			rm -f "$spill.$i" || die "cannot remove '$spill.$i'"
			MET+=(--follow "$spill.$i")
			mkfifo "$run/phase.$i.ack" || die "cannot make '$run/phase.$i.ack'"
		done
		[[ $raw == /dev/null ]] || MET+=(--tee "$raw")
		mkfifo "$run/phase.cue" || die "cannot make '$run/phase.cue'"
		exec {PHASE_FD}<>"$run/phase.cue"
		# the shards of an unseeded run build one dataset all the same
		SHARD_SEED=$(od -An -N7 -tu8 /dev/urandom | tr -d ' ')
		log INFO "$WORKERS senders (--workers-max): the request stream split by session"
	fi
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	export AIPERF_LOG_FILE=$log AIPERF_LOG_LEVEL=$LOGLEVEL
	# gen's and metrics' messages are kept off the artifact disk until the
	# end, so that a full disk cannot swallow the message that says so.
	busy_poll
	cpu_split
	SEND+=("${BUSY[@]}")
	# The live view comes from the records aiperf-metrics reads anyway (on
	# idle CPU), not from the sender's loop (ui_args). The sender checked
	# the user's --ui-type; the last one given wins.
	SEND+=(--ui-type none)
	ui_args
	local -a srv=()
	set -m
	scrape_fifo "$run"
	server_metrics_start "$run"
	gpu_telemetry_start "$run"
	gpu_telemetry_export_args "$run"
	# This shell holds the FIFO until the pipeline starts, the sender from
	# then on: the scrapers outlive neither (server_metrics_run).
	scrape_hold "$run"
	server_metrics_baseline "$run"
	[[ -n $SRV_ON ]] && srv=(--server-samples "$run/samples")
	feed "$dir" "$in" "$spill" |
		{ stage metrics "${REST[@]}" "${IDLE[@]}" aiperf-metrics "${MET[@]}" \
			3> >(ui_view) 2>"$run/metrics.err"; gpu_telemetry_stop "$run"; } |
		stage export "${REST[@]}" "${IDLE[@]}" aiperf-export "${EXP[@]}" "${GPU_EXP[@]}" \
			--artifact-dir "$dir" \
			--input-config "$run/input_config.json" --cli-command "$CLI" \
			--was-cancelled-if "$run/cancelled" --stage-cpu "$run/stage-cpu" "${srv[@]}" \
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

# hosts_resolve: checks --shard, --start-at and --from-records after
# workers_resolve; with --shard, GEN and SEND become shard K's and WORKERS
# one; with --start-at, the sender (one) or the coordinator (several)
# starts the first phase then.
hosts_resolve() {
	local k=${SET[--shard]:-} from=${SET[--from-records]+x} n=${SET[--workers-max]:-} i a
	START_AT=${SET[--start-at]:-}
	if [[ -n $START_AT ]] && ! [[ $START_AT =~ ^[0-9]+(\.[0-9]{1,9})?$ ]]; then
		usage_error "profile: invalid value for --start-at: '$START_AT' (seconds since the epoch, up to 9 decimals)"
	fi
	if [[ -z $k && -z $from ]]; then
		[[ -z $START_AT ]] && return 0
		if ((WORKERS == 1)); then SEND+=(--start-at "$START_AT")
		else START_NS=$(start_ns "$START_AT"); fi
		return 0
	fi
	local opt=--shard
	[[ -n $from ]] && opt=--from-records
	[[ -n $k && -n $from ]] && usage_error "profile: --shard and --from-records cannot be used together"
	[[ -n $from && -n $START_AT ]] && usage_error "profile: --start-at has no meaning with --from-records (nothing is sent)"
	[[ -n $n ]] || usage_error "profile: $opt needs --workers-max N, the number of shards"
	[[ -n ${SET[--random-seed]+x} ]] ||
		usage_error "profile: $opt needs --random-seed: every host must build the same dataset"
	((WORKERS == n)) ||
		usage_error "profile: $opt: with these options a run has $WORKERS senders, not --workers-max $n (fewer requests, sessions or concurrency slots than shards?)"
	[[ -n $from ]] && return 0
	if ! [[ $k =~ ^[0-9]+$ ]] || ((k < 1 || k > n)); then
		usage_error "profile: invalid value for --shard: '$k' (1 to --workers-max $n)"
	fi
	local run=/nonexistent dir=/nonexistent
	shard_args "$k"
	SEND=()
	for ((i = 0; i < ${#SHARD_SEND[@]}; i++)); do
		a=${SHARD_SEND[i]}
		case $a in
		--phase-cue|--phase-ack) ((++i)) ;;
		*) SEND+=("$a") ;;
		esac
	done
	GEN+=(--shard "$k/$n")
	N_SHARDS=$n WORKERS=1
	[[ -n $START_AT ]] && SEND+=(--start-at "$START_AT")
	return 0
}

# start_ns EPOCH_S: epoch seconds (up to 9 decimals) in epoch ns.
start_ns() {
	local s=${1%%.*} f=000000000
	[[ $1 == *.* ]] && f=${1#*.}000000000
	echo $((10#$s * 1000000000 + 10#${f:0:9}))
}
START_NS=

# ports_check: warns when this host's concurrency gives one server
# address and port (--url, each taking an even part) more connections
# than half the ephemeral port range: past that, the kernel's connect()
# scans every even local port for each new one (__inet_check_established)
# and the senders stall (bench/concurrency.sh: 11 s at 16,700 a port).
ports_check() {
	local c=${SET[--concurrency]:-0} wc=${SET[--warmup-concurrency]:-0} lo hi u n=0
	local -A seen=()
	[[ -n ${SET[--from-records]+x} ]] && return 0
	[[ $c =~ ^[0-9]+$ ]] || c=0
	[[ $wc =~ ^[0-9]+$ ]] && ((wc > c)) && c=$wc
	[[ -n ${SET[--shard]:-} ]] && c=$(((c + ${SET[--workers-max]} - 1) / ${SET[--workers-max]}))
	read -r lo hi <<<"$(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)"
	[[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] || return 0
	while IFS= read -r u; do
		[[ -n $u ]] || continue
		u=${u#*://}
		seen[${u%%/*}]=1
	done <<<"${SET[--url]:-localhost:8000}"
	n=${#seen[@]}
	((n < 1)) && n=1
	((c / n > (hi - lo + 1) / 2)) || return 0
	warn "concurrency $c over $n server address(es) and port(s): past $(((hi - lo + 1) / 2)) connections to one (half of net.ipv4.ip_local_port_range $lo-$hi), each connect scans the local ports and the senders stall; give the server more ports or addresses (--url repeated), or widen the range"
}

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

# check_stage CMD...: CMD with no input must accept its options; its
# message is this command's usage error.
check_stage() {
	local err
	err=$("$@" </dev/null 2>&1 >/dev/null) || usage_error "${err%%$'\n'Try *}"
}

profile() {
	parse_profile "$@"
	local level=${SET[--export-level]:-records}
	case $level in summary|records|raw) ;; *)
		usage_error "profile: invalid value for --export-level: '$level' (summary, records, raw)" ;;
	esac
	check_load_options
	check_wrapper_options
	cpu_list
	workers_resolve
	hosts_resolve
	ports_check
	local input=${SET[--input-file]:-} mode st
	[[ -n $input ]] && GEN+=(--input-file "$input")
	# validates the dataset and timing options before anything is written
	mode=$(aiperf-gen "${GEN[@]}" --print-timing-mode) || { st=$?; exit "$st"; }
	# and the other stages' options, with no records (their warnings come
	# in the run)
	check_stage aiperf-send "${SEND[@]}"
	check_stage aiperf-metrics "${MET[@]}"
	server_metrics_urls
	server_metrics_formats
	check_stage aiperf-export --check "${EXP[@]}"
	gpu_telemetry_setup
	local dir=${SET[--artifact-dir]:-}
	[[ -z $dir ]] && dir=artifacts/$(artifact_subdir "$mode")
	mkdir -p "$dir/logs" || die "cannot create '$dir'"
	[[ -L $dir/logs ]] && die "'$dir/logs' is a symbolic link: not followed"
	dir=$(cd "$dir" && pwd)
	local RAW
	clean_artifacts "$dir"
	local log=$dir/logs/aiperf.log raw=$RAW
	# aiperf-metrics opens the raw file while aiperf-export may not yet have
	# made the prefix's directories
	[[ $raw == /dev/null ]] || mkdir -p "${raw%/*}" || die "cannot create '${raw%/*}'"
	# The configuration holds the command line as typed: it waits for
	# aiperf-export in a directory only we can read, not among the artifacts.
	run=$(mktemp -d "${TMPDIR:-/tmp}/aiperf.XXXXXX") || die "cannot make a temporary directory"
	trap 'rm -rf "$run"' EXIT
	# Until the stages run there is nothing to flush: a signal ends it here
	# (run_pipeline takes the signals over).
	trap 'exit 130' INT
	trap 'exit 143' TERM
	write_input_config "$run/input_config.json"
	local synth=$dir/.synthesized_input.jsonl
	if [[ -n $input ]] && synthesize_input "$synth"; then
		GEN=("${GEN[@]:0:${#GEN[@]}-2}" --input-file "$synth")
	fi
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
MR_OPTS=' --num-profile-runs --profile-run-cooldown-seconds --confidence-level
	--profile-run-disable-warmup-after-first --no-profile-run-disable-warmup-after-first
	--set-consistent-seed --no-set-consistent-seed --convergence-metric
	--convergence-stat --convergence-threshold --convergence-mode '
# the original's LoadGeneratorConfig.disable_warmup() fields
MR_WARMUP=' --warmup-request-count --warmup-duration --num-warmup-sessions
	--warmup-concurrency --warmup-prefill-concurrency --warmup-request-rate
	--warmup-arrival-pattern --warmup-grace-period --warmup-concurrency-ramp-duration
	--warmup-prefill-concurrency-ramp-duration --warmup-request-rate-ramp-duration '
declare -A MR=()	# canonical multi-run option -> value (1 for a flag)
MR_ARGS=()		# the other arguments, as given
MR_WARM=()		# their indexes that are warmup options or their values
MR_PASS=()		# the multi-run options, canonical: each run gets them back
MR_DIR=			# --artifact-dir, as given
MR_CHILD=

# mr_split ARGS...: MR and MR_ARGS; fails when there is nothing to do here
# (no multi-run option, or --help).
mr_split() {
	local arg name value kind canon has
	while (($#)); do
		arg=$1
		shift
		[[ $arg == -h || $arg == --help ]] && return 1
		case $arg in
		--*=*) name=${arg%%=*} value=${arg#*=} has=1 ;;
		*) name=$arg value='' has=0 ;;
		esac
		canon='' kind=''
		lookup "$name" 2>/dev/null && IFS='|' read -r canon _ kind _ <<<"$ENTRY"
		if [[ -n $canon && $MR_OPTS == *[[:space:]]"$canon"[[:space:]]* ]]; then
			if [[ $kind == flag ]]; then MR[$canon]=1; MR_PASS+=("$canon"); continue; fi
			if ((!has)); then
				(($#)) || usage_error "profile: option '$canon' needs a value"
				value=$1
				shift
			fi
			MR[$canon]=$value
			MR_PASS+=("$canon" "$value")
			continue
		fi
		# each run's own --artifact-dir replaces the user's (mr_base_dir)
		if [[ $canon == --artifact-dir ]]; then
			MR_DIR=$value
			((has)) || { MR_DIR=${1:-}; shift; }
			continue
		fi
		[[ -n $canon && $MR_WARMUP == *[[:space:]]"$canon"[[:space:]]* ]] && MR_WARM+=("${#MR_ARGS[@]}")
		MR_ARGS+=("$arg")
		if [[ -n $kind && $kind != flag ]] && ((!has)) && (($#)) &&
			[[ -z ${NARGS[$canon]+x} ]]; then
			[[ $MR_WARMUP == *[[:space:]]"$canon"[[:space:]]* ]] && MR_WARM+=("${#MR_ARGS[@]}")
			MR_ARGS+=("$1")
			shift
		fi
	done
	((${#MR[@]}))
}

# mr_number NAME VALUE LOW HIGH [int]: VALUE within (LOW, HIGH) bounds
# as the original checks them ("[" inclusive, "(" exclusive in LOW/HIGH).
mr_number() {
	local n=$1 v=$2 lo=$3 hi=$4 l=${3:0:1} top=${4:1} re='^[0-9]+(\.[0-9]*)?$'
	[[ ${5:-} == int ]] && re='^[0-9]+$'
	# shellcheck disable=SC2015 # usage_error exits
	[[ $v =~ $re ]] && awk -v v="$v" -v lo="${lo:1}" -v hi="${hi:1}" -v l="${lo:0:1}" \
		-v h="${hi:0:1}" 'BEGIN { ok = (l == "[" ? v >= lo : v > lo) &&
			(hi == "" || (h == "]" ? v <= hi : v < hi)); exit !ok }' ||
		usage_error "profile: invalid value for $n: '$v' (${lo:1} to ${top:-inf}$([[ $l == '(' ]] && echo ', exclusive'))"
}

# mr_check: the original's checks of the multi-run options.
mr_check() {
	local n=${MR[--num-profile-runs]:-1} o ui
	mr_number --num-profile-runs "$n" '[1' ']10' int
	[[ -n ${MR[--confidence-level]+x} ]] && mr_number --confidence-level "${MR[--confidence-level]}" '(0' ')1'
	[[ -n ${MR[--profile-run-cooldown-seconds]+x} ]] &&
		mr_number --profile-run-cooldown-seconds "${MR[--profile-run-cooldown-seconds]}" '[0' ''
	[[ -n ${MR[--convergence-threshold]+x} ]] &&
		mr_number --convergence-threshold "${MR[--convergence-threshold]}" '(0' ')1'
	if [[ -n ${MR[--convergence-mode]+x} ]]; then
		MR[--convergence-mode]=$(choice --convergence-mode "${MR[--convergence-mode]}")
		[[ " ${VALUES[--convergence-mode]} " == *" ${MR[--convergence-mode]} "* ]] ||
			usage_error "profile: invalid value for --convergence-mode: '${MR[--convergence-mode]}' (ci_width, cv, distribution)"
	fi
	[[ -n ${MR[--convergence-stat]+x} && ${MR[--convergence-mode]:-} == distribution ]] &&
		usage_error "--convergence-stat is not applicable with --convergence-mode distribution. Distribution mode uses per-request data directly and ignores the stat parameter. Remove --convergence-stat or use --convergence-mode ci_width or cv."
	for o in --convergence-mode --convergence-threshold --convergence-stat; do
		[[ -n ${MR[$o]+x} && -z ${MR[--convergence-metric]+x} ]] &&
			usage_error "$o requires --convergence-metric to be set. Either add --convergence-metric or remove $o."
	done
	if ((n == 1)); then
		for o in "${!MR[@]}"; do
			[[ $o == --num-profile-runs ]] || usage_error "${o#--no-} only applies when running multiple trials (--num-profile-runs > 1). Either remove $o or add --num-profile-runs 5 (or higher)."
		done
		return 0
	fi
	[[ ${MR[--convergence-mode]:-} == distribution && $(mr_value --export-level) == summary ]] &&
		usage_error "--convergence-mode distribution needs the per-request records: --export-level records or raw"
	[[ $(mr_value --input-file) == - ]] &&
		usage_error "profile: --input-file - (standard input) can be read by one run only, not by --num-profile-runs $n"
	ui=$(mr_value --ui-type)
	[[ ${ui,,} == dashboard ]] && usage_error "Dashboard UI is not supported with multi-run mode (--num-profile-runs > 1) due to terminal control limitations. Please use '--ui simple' or '--ui none' instead."
	return 0
}

# mr_value NAME: the value of option NAME (canonical) in MR_ARGS, last wins.
mr_value() {
	local i a name canon v=
	for ((i = 0; i < ${#MR_ARGS[@]}; i++)); do
		a=${MR_ARGS[i]}
		name=${a%%=*}
		lookup "$name" 2>/dev/null || continue
		IFS='|' read -r canon _ <<<"$ENTRY"
		[[ $canon == "$1" ]] || continue
		if [[ $a == *=* ]]; then v=${a#*=}; else v=${MR_ARGS[i + 1]:-}; fi
	done
	printf '%s' "$v"
}

# mr_base_dir: the artifact directory, as profile() names it.
mr_base_dir() {
	local tm input
	[[ -n $MR_DIR ]] && { printf '%s\n' "$MR_DIR"; return 0; }
	(
		parse_profile "${MR_ARGS[@]}"
		check_load_options
		input=${SET[--input-file]:-}
		[[ -n $input ]] && GEN+=(--input-file "$input")
		tm=$(aiperf-gen "${GEN[@]}" --print-timing-mode) || exit
		printf 'artifacts/%s\n' "$(artifact_subdir "$tm")"
	)
}

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

# mr_names: MR_NAMES, aiperf-aggregate's names of a run's summary and
# records (aiperf-export's, for the --profile-export-prefix given).
MR_NAMES=()
mr_names() {
	local p kind path
	p=$(mr_value --profile-export-prefix)
	[[ -n $p ]] || return 0
	while IFS=$'\t' read -r kind path; do
		[[ $kind == json ]] && MR_NAMES+=(--export-file "${path#/.x/}")
		[[ $kind == records ]] && MR_NAMES+=(--records-file "${path#/.x/}")
	done < <(aiperf-export --list-files --profile-export-prefix "$p" --artifact-dir /.x)
	return 0
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
	local n i st base dir label cd seed=() args warm=0 ui mst=0 max
	local -a dirs=() rest
	# one run of several: its input_config keeps the multi-run options
	if [[ -n ${AIPERF_MR_RUN:-} ]]; then
		unset AIPERF_MR_RUN
		profile "$@"
		return
	fi
	mr_split "$@" || { profile "$@"; return; }
	mr_check
	n=${MR[--num-profile-runs]:-1}
	# one run is a single run (the table routes the option nowhere)
	((n == 1)) && { profile "$@"; return; }
	MR_SELF=$(readlink -f "${BASH_SOURCE[0]}")
	mr_names
	base=$(mr_base_dir) || exit
	mkdir -p "$base/profile_runs" || die "cannot create '$base/profile_runs'"
	base=$(cd "$base" && pwd)
	[[ -z ${MR[--no-set-consistent-seed]+x} && -z $(mr_value --random-seed) ]] &&
		seed=(--random-seed 42) &&
		warn "No --random-seed specified. Using default seed 42 for multi-run consistency. All runs will use identical workloads."
	ui=$(mr_value --ui-type)
	[[ -z $ui ]] && MR_ARGS+=(--ui-type simple)
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

load_options
multi_run "$@"
