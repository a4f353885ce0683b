#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf CMD [ARGS]: runs aiperf-CMD, git's way. The folder holding this
# script goes first on PATH, so its own commands win and each command finds
# the stages beside it; any aiperf-CMD on PATH is a command too.
set -u
argv0=aiperf
VERSION=@VERSION@
[[ $VERSION == @*@ ]] && VERSION=0.1.0	# run from the source tree
export AIPERF_VERSION=$VERSION	# for the run log
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$here:$PATH"

# commands: the names of the aiperf-* programs on PATH, sorted, one a line.
commands() {
	local dir f
	local IFS=:
	for dir in $PATH; do
		for f in "${dir:-.}"/aiperf-*; do
			[[ -f $f && -x $f ]] && printf '%s\n' "${f##*/aiperf-}"
		done
	done | sort -u
}

usage() {
	printf 'usage: aiperf CMD [ARGS]   (runs aiperf-CMD: %s, then PATH)\n' "$here"
	printf '       aiperf help CMD | --version | --help\n\n'
	printf 'commands found:\n'
	commands | paste -sd " " | fmt -w 72 | sed "s/^/  /"
	printf "\nSee 'aiperf CMD --help' and aiperf(7).\n"
}

usage_error() {
	printf '%s: %s\n' "$argv0" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$argv0" >&2
	exit 2
}

# The original's commands not built yet, with what brings them
# ([name]="what (issue #N)"); none today.
declare -A LATER=()

run() {	# CMD ARGS...: replaces this shell with aiperf-CMD
	local cmd=$1 path
	shift
	if [[ $cmd != */* && -n ${LATER[$cmd]+x} ]] && ! type -P "aiperf-$cmd" >/dev/null; then
		usage_error "command '$cmd' is not supported yet: ${LATER[$cmd]}"
	fi
	if [[ $cmd == */* ]] || ! path=$(type -P "aiperf-$cmd"); then
		usage_error "unknown command '$cmd' (known: $(commands | paste -sd ' ' | sed 's/ /, /g'))"
	fi
	exec "$path" "$@"
}

case ${1:-} in
-h|--help) usage ;;
help) [[ -n ${2:-} ]] && run "$2" --help; usage ;;
-V|--version) printf 'aiperf %s\n' "$VERSION" ;;
--list-commands) commands ;;
'') usage >&2; exit 2 ;;
-*) usage_error "unknown option '$1'" ;;
*) run "$@" ;;
esac
