# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Bash completion for aiperf(7): `aiperf <TAB>` completes the commands that
# `aiperf --list-commands` finds; `aiperf profile --<TAB>` the options in
# profile-options.tsv (those it accepts), and an option's value its
# documented choices; anything else falls back to file names.
# Source it, or install it as share/bash-completion/completions/aiperf.

_aiperf_completion_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# _aiperf_options_file AIPERF: the profile-options.tsv that AIPERF (the
# command as typed) reads: $AIPERF_DATA_DIR, ../data or ../share/aiperf
# beside its aiperf-profile (links resolved), then beside this script.
_aiperf_options_file() {
	local exe dir d
	exe=$(type -P "$1") && exe=$(readlink -f "$exe") &&
		dir=$(readlink -f "${exe%/*}/aiperf-profile") && dir=${dir%/*}
	for d in ${AIPERF_DATA_DIR:+"$AIPERF_DATA_DIR"} ${dir:+"$dir/../data"} \
		${dir:+"$dir/../share/aiperf"} "$_aiperf_completion_dir/../data" \
		"$_aiperf_completion_dir/../../aiperf"; do
		[[ -f $d/profile-options.tsv ]] && printf '%s\n' "$d/profile-options.tsv" && return
	done
	return 1
}

# _aiperf_profile FILE CUR PREV: sets COMPREPLY for aiperf profile.
_aiperf_profile() {
	local file=$1 cur=$2 prev=$3 name aliases kind values support a words=
	while IFS=$'\t' read -r name aliases kind _ _ _ values support _; do
		[[ $name == -* && $support != no ]] || continue
		[[ $aliases == - ]] && aliases=
		for a in "$name" $aliases; do
			if [[ $prev == "$a" && $kind != flag ]]; then
				[[ $values == - ]] && return 0	# a value: file names
				mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
				return
			fi
			words+=" $a"
		done
	done <"$file"
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
	fi
	return 0
}

_aiperf() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' cmd=${COMP_WORDS[1]:-} file
	local -i i=COMP_CWORD
	COMPREPLY=()
	((i > 0)) && prev=${COMP_WORDS[i - 1]}
	# --name=value: bash splits the word at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then cur=''
	elif [[ $prev == = ]] && ((i > 1)); then prev=${COMP_WORDS[i - 2]}; fi
	if ((i == 1)) || [[ $cmd == help && $i == 2 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" --list-commands 2>/dev/null)" -- "$cur")
		if ((i == 1)) && [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
		fi
		return 0
	fi
	case $cmd in
	profile)
		file=$(_aiperf_options_file "${COMP_WORDS[0]}") || return 0
		_aiperf_profile "$file" "$cur" "$prev" ;;
	plugins)
		file=$(_aiperf_options_file "${COMP_WORDS[0]}") || return 0
		_aiperf_plugins "${file%/*}/plugins-original.tsv" "$cur" "$prev" ;;
	esac
	return 0
}

# _aiperf_plugins FILE CUR PREV: sets COMPREPLY for aiperf plugins: its
# options, then the original's categories (data/plugins-original.tsv) and
# a category's plugin names.
_aiperf_plugins() {
	local file=$1 cur=$2 prev=$3 cat='' w
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "--category --name -a --all -v --validate --help" -- "$cur")
		return 0
	fi
	[[ -f $file ]] || return 0
	for w in "${COMP_WORDS[@]:2:COMP_CWORD-2}"; do
		[[ $w == -* || $w == "$prev" && $prev == --name ]] && continue
		cat=$w
	done
	[[ $prev == --category ]] && cat=
	if [[ -z $cat || $prev == --category ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(awk -F'\t' '!/^#/ && $2 == "-" { print $1 }' "$file")" -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -W "$(awk -F'\t' -v c="$cat" '!/^#/ && $1 == c && $2 != "-" { print $2 }' "$file")" -- "$cur")
	fi
	return 0
}

complete -o default -F _aiperf aiperf
