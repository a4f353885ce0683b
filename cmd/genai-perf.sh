#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# genai-perf SUBCOMMAND [options]: GenAI-Perf's command line over aiperf
# profile, for its users' scripts (genai-perf(1)). genai-perf-map(1) reads
# the options and the config file as data/genai-perf-options.tsv maps them;
# this script runs what it planned.
set -u -o pipefail
argv0=genai-perf
VERSION=@VERSION@
[[ $VERSION == @*@ ]] && VERSION=0.1.0	# run from the source tree
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$here:$PATH"

usage() {
	cat <<'USAGE'
usage: genai-perf profile [--dry-run] [option ...] [-- aiperf-option ...]
       genai-perf analyze [--dry-run] [--sweep-type type]
                  [--sweep-range start:stop[:step] | --sweep-list value,...] [option ...]
       genai-perf config -f file [--dry-run] [--override-config [option | key=value] ...]
       genai-perf create-template [-f file] [-v]
       genai-perf process-export-files -d dir [--artifact-dir dir]
       genai-perf --help | --version
USAGE
}

die() { printf '%s: %s\n' "$argv0" "$*" >&2; exit 1; }
warn() { printf '%s: %s\n' "$argv0" "$*" >&2; }
usage_error() {
	printf '%s: %s\n' "$argv0" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$argv0" >&2
	exit 2
}

# data_file NAME: a shipped data file, found as aiperf-tokenizers(7) says.
data_file() {
	local d
	for d in ${AIPERF_DATA_DIR:+"$AIPERF_DATA_DIR"} "$here/../data" "$here/../share/aiperf" "@DATADIR@"; do
		[[ -f $d/$1 ]] && { printf '%s\n' "$d/$1"; return 0; }
	done
	die "cannot find $1 (set AIPERF_DATA_DIR to the folder holding it)"
}

# words WORD...: the words as a shell reads them back: plain ones as they
# are, others in single quotes (a ' inside as '\'').
words() {
	local w q="'\\''" sep=''
	for w in "$@"; do
		if [[ -n $w && $w != *[!A-Za-z0-9_./:=,+@%-]* ]]; then
			printf '%s%s' "$sep" "$w"
		else
			printf "%s'%s'" "$sep" "${w//\'/$q}"
		fi
		sep=' '
	done
	printf '\n'
}

# run: aiperf profile with the mapped options (ARGS); --generate-plots
# (PLOTS) is its --auto-plot: each run plotted as it ends, a sweep once
# aggregated. The run's status.
run() {
	((PLOTS)) && ARGS+=(--auto-plot)
	if ((DRY_RUN)); then
		words aiperf profile "${ARGS[@]}"
		return 0
	fi
	aiperf profile "${ARGS[@]}"
}

# mapped SUBCOMMAND ARGS...: genai-perf-map's plan (ARGS, PLOTS, SWEEP,
# DRY_RUN, ACTION), then run it.
mapped() {
	# shellcheck disable=SC2034 # SWEEP: the plan's, aiperf profile sweeps by itself
	local plan ARGS=() PLOTS=0 SWEEP=0 DRY_RUN=0 ACTION=run
	plan=$(genai-perf-map "$@") || exit
	eval "$plan"
	case $ACTION in
	help) usage; return 0 ;;
	version) printf 'genai-perf %s (aiperf)\n' "$VERSION"; return 0 ;;
	esac
	run
}

# create-template [-f FILE] [-v]: GenAI-Perf's template, every option at
# its default; -v keeps the description above each.
create_template() {
	local file=genai_perf_config.yaml verbose=0 src
	while (($#)); do
		case $1 in
		-f|--file) (($# > 1)) || usage_error "create-template: option '$1' needs a value"
			file=$2; shift ;;
		-v|--verbose) verbose=1 ;;
		-h|--help) usage; return 0 ;;
		*) usage_error "create-template: unknown option '$1'" ;;
		esac
		shift
	done
	src=$(data_file genai-perf-template.yaml)
	if ((verbose)); then
		cat -- "$src" >"$file"
	else
		sed -e '/^ *#/d' -e '/^ *$/d' -- "$src" >"$file"
	fi || die "cannot write '$file'"
	printf '%s: template written to %s\n' "$argv0" "$file" >&2
}

# process-export-files -d DIR [--artifact-dir DIR]: the runs in DIR's
# folders (aiperf profile's artifact directories) aggregated by
# aiperf-aggregate(1), their records pooled (--collated).
process_export_files() {
	local in='' out=artifacts d
	local -a dirs=()
	while (($#)); do
		case $1 in
		-d|--input-directory|--input-path|--artifact-dir)
			(($# > 1)) || usage_error "process-export-files: option '$1' needs a value"
			if [[ $1 == --artifact-dir ]]; then out=$2; else in=$2; fi
			shift ;;
		-h|--help) usage; return 0 ;;
		--profile-export-file) usage_error "process-export-files: '$1' has no counterpart: aiperf-aggregate names its files" ;;
		*) usage_error "process-export-files: unknown option '$1'" ;;
		esac
		shift
	done
	[[ -n $in ]] || usage_error "process-export-files: the input directory is required (-d dir)"
	[[ -d $in ]] || die "'$in' is not a directory"
	for d in "$in"/*/; do
		[[ -f ${d}profile_export_aiperf.json ]] && dirs+=("${d%/}")
	done
	((${#dirs[@]})) || die "no run directories (with profile_export_aiperf.json) in '$in'"
	aiperf-aggregate --collated --output-dir "$out" "${dirs[@]}"
}

case ${1:-} in
profile|analyze) cmd=$1; shift; mapped "$cmd" -- "$@" ;;
config) shift; mapped config "$@" ;;
create-template) shift; create_template "$@" ;;
process-export-files) shift; process_export_files "$@" ;;
-h|--help) usage ;;
--version) printf 'genai-perf %s (aiperf)\n' "$VERSION" ;;
'') usage >&2; exit 2 ;;
compare) usage_error "command 'compare' has no counterpart: aiperf plot compares runs (aiperf-plot(1))" ;;
*) usage_error "unknown command '$1'" ;;
esac
