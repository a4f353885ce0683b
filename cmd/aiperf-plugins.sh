#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf plugins [CATEGORY [NAME]]: which of the original's plugins this
# build provides, asked of the tables the tools use (aiperf-plugins(1)):
# each stage's option table (--list-choices), profile-options.tsv and what
# aiperf-export writes; the original's list is plugins-original.tsv.
set -u
argv0="aiperf plugins"
VERSION=@VERSION@
[[ $VERSION == @*@ ]] && VERSION=0.1.0	# run from the source tree
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$here:$PATH"

die() { printf '%s: %s\n' "$argv0" "$*" >&2; exit 1; }
usage_error() {
	printf '%s: %s\n' "$argv0" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$argv0" >&2
	exit 2
}

usage() {
	cat <<'USAGE'
usage: aiperf plugins [-a | --all] [-v | --validate] [--category C] [--name N]
                      [CATEGORY [NAME]]
USAGE
}

# data_file NAME: NAME in the data folder, looked for as aiperf-tokenizers(7)
# says: $AIPERF_DATA_DIR, ../data and ../share/aiperf beside this script
# (links resolved), then DATADIR.
data_file() {
	local dir d
	dir=$(readlink -f "${BASH_SOURCE[0]}") && dir=${dir%/*}
	for d in ${AIPERF_DATA_DIR:+"$AIPERF_DATA_DIR"} "$dir/../data" \
		"$dir/../share/aiperf" "@DATADIR@"; do
		[[ -f $d/$1 ]] && printf '%s\n' "$d/$1" && return
	done
	die "cannot find $1 (set AIPERF_DATA_DIR to the folder holding it)"
}

# The original's plugins (plugins-original.tsv): CATS in order, and by
# "category/name" their selector, class and description.
CATS=()
declare -A CAT_DESC=() CAT_INTERNAL=() CAT_NAMES=()
declare -A SEL=() CLASS=() DESC=()
ERRORS=()	# what --validate reports about the tables

load_original() {
	local file n=0 cat name sel class desc
	file=$(data_file plugins-original.tsv) || exit 1
	while IFS=$'\t' read -r cat name sel class desc; do
		((++n))
		[[ -z $cat || $cat == '#'* ]] && continue
		if [[ -z $desc || $desc == *$'\t'* ]]; then
			ERRORS+=("$file:$n: not 5 tab-separated fields"); continue
		fi
		if [[ $name == - ]]; then
			CATS+=("$cat") CAT_DESC[$cat]=$desc
			CAT_INTERNAL[$cat]=$sel CAT_NAMES[$cat]=
			continue
		fi
		if [[ -z ${CAT_DESC[$cat]+x} ]]; then
			ERRORS+=("$file:$n: category '$cat' before its own line"); continue
		fi
		if [[ -n ${SEL[$cat/$name]+x} ]]; then
			ERRORS+=("$file:$n: '$cat/$name' twice"); continue
		fi
		[[ $sel =~ ^(--[a-z0-9-]+(=.+)?|file:.+|console:.+|command:[a-z-]+|-)$ ]] ||
			ERRORS+=("$file:$n: unknown selector '$sel'")
		SEL[$cat/$name]=$sel CLASS[$cat/$name]=$class
		DESC[$cat/$name]=$desc CAT_NAMES[$cat]+=" $name"
	done <"$file"
	((${#CATS[@]})) || die "$file: no categories"
}

# aiperf profile's options (profile-options.tsv), by each of their names:
# the canonical name, the stages that get it, support, note and the
# documented values (what the wrapper alone takes: no stage lists them).
declare -A PO_NAME=() PO_STAGES=() PO_SUPPORT=() PO_NOTE=() PO_VALUES=()

load_profile_options() {
	local file name aliases stages support note a
	file=$(data_file profile-options.tsv) || exit 1
	local values
	while IFS=$'\t' read -r name aliases _ stages _ _ values support note _; do
		[[ -z $name || $name == '#'* ]] && continue
		[[ $aliases == - ]] && aliases=
		[[ $stages == - ]] && stages=
		for a in "$name" $aliases; do
			PO_NAME[$a]=$name PO_STAGES[$a]=$stages
			PO_SUPPORT[$a]=$support PO_NOTE[$a]=$note
			[[ $stages == w && $values != - ]] && PO_VALUES[$a]=$values
		done
	done <"$file"
}

# stage_tools STAGES: the programs of profile-options.tsv's stage letters.
stage_tools() {
	local s=$1 t=()
	[[ $s == *g* ]] && t+=(aiperf-gen)
	[[ $s == *s* ]] && t+=(aiperf-send)
	[[ $s == *m* ]] && t+=(aiperf-metrics)
	[[ $s == *e* ]] && t+=(aiperf-export)
	[[ $s == *y* ]] && t+=("aiperf-trace synthesize")
	[[ $s == *a* ]] && t+=(aiperf-evalset)
	[[ $s == *w* ]] && t+=("aiperf profile")
	local IFS=,
	printf '%s' "${t[*]}" | sed 's/,/, /g'
}

# choices TOOL OPTION: sets CH to the values TOOL's option table lists for
# OPTION, one a line; fails when it lists none. Cached: call it in this
# shell, not in $(...).
declare -A CHOICES=()
choices() {
	local k="$1 $2" v
	if [[ -z ${CHOICES[$k]+x} ]]; then
		v=$("$1" --list-choices "$2" 2>/dev/null) || v=$'\001'
		CHOICES[$k]=$v
	fi
	CH=${CHOICES[$k]}
	[[ $CH != $'\001' ]]
}

# tool_opt TOOL OPTION: OPTION as TOOL names it (aiperf-evalset: without
# its --accuracy- prefix, as aiperf-plan passes it on).
tool_opt() {
	if [[ $1 == aiperf-evalset ]]; then printf '%s' "${2/#--accuracy-/--}"
	else printf '%s' "$2"; fi
}

# accepted OPTION: sets ACCEPTED, the values of OPTION that every stage
# listing them accepts, and LISTED, those stages (none: nothing is known).
accepted() {
	local opt=$1 t first=1 acc=''
	LISTED=()
	for t in aiperf-gen aiperf-send aiperf-metrics aiperf-export aiperf-evalset; do
		if [[ $t == aiperf-evalset ]]; then
			# its options are named without their --accuracy- prefix
			[[ ${PO_STAGES[$opt]} == *a* ]] || continue
			choices "$t" "$(tool_opt "$t" "$opt")" || continue
		else
			[[ ${PO_STAGES[$opt]} == *${t:7:1}* ]] || continue
			choices "$t" "$opt" || continue
		fi
		LISTED+=("$t")
		if ((first)); then acc=$CH; first=0
		else acc=$(grep -Fxf <(printf '%s\n' "$CH") <<<"$acc"); fi
	done
	ACCEPTED=$acc
}

# aiperf-export on a sample of one failed request, with nothing turned off:
# the files it writes and the titles it prints (file: and console:).
PROBE=
cleanup() { [[ -n $PROBE ]] && rm -rf "$PROBE"; }
trap cleanup EXIT
probe_export() {
	[[ -n $PROBE ]] && return
	PROBE=$(mktemp -d) || die "cannot make a temporary folder"
	printf '%s\n' '{"metadata":{"session_num":0,"x_request_id":"r0","conversation_id":"c0","turn_index":0,"request_start_ns":1000000000,"request_end_ns":1100000000,"benchmark_phase":"profiling","was_cancelled":false},"metrics":{"error_isl":{"value":1,"unit":"tokens"}},"error":{"code":500,"type":"Internal Server Error","message":"sample"}}' |
		aiperf-export --artifact-dir "$PROBE/out" >"$PROBE/console" 2>&1
	return 0
}

# status CATEGORY NAME: sets ST (provided, not provided, ours or unknown),
# WHY (the reason when not provided), BY (the programs that provide it)
# and HOW (the command lines that select it, one a line).
status() {
	local key="$1/$2" sel opt val
	sel=${SEL[$key]-}
	ST="not provided" WHY='' BY='' HOW=
	case $sel in
	--*=*) opt=${sel%%=*} val=${sel#*=}; status_value "$opt" "$val" ;;
	--*) status_option "$sel" ;;
	file:*)
		probe_export
		if [[ -f $PROBE/out/${sel#file:} ]]; then
			ST=provided BY=aiperf-export
			HOW="aiperf profile (always; aiperf-export writes ${sel#file:})"
		else
			WHY="aiperf-export does not write ${sel#file:}"
		fi ;;
	console:*)
		probe_export
		if sed 's/^ *//; s/ *$//' "$PROBE/console" | grep -qxF -- "${sel#console:}"; then
			ST=provided BY=aiperf-export
			HOW="aiperf profile (always; aiperf-export prints '${sel#console:}')"
		else
			WHY="aiperf-export does not print '${sel#console:}'"
		fi ;;
	command:*)
		if type -P "aiperf-${sel#command:}" >/dev/null; then
			ST=provided BY="aiperf-${sel#command:}" HOW="aiperf ${sel#command:}"
		else
			WHY="there is no command aiperf ${sel#command:}"
		fi ;;
	*) WHY="the original chooses it inside; no option selects it" ;;
	esac
}

# status_option OPTION: provided when aiperf profile takes OPTION.
status_option() {
	local opt=$1
	if [[ -z ${PO_NAME[$opt]+x} ]]; then
		WHY="aiperf profile has no $opt"; return
	fi
	if [[ ${PO_SUPPORT[$opt]} == no ]]; then
		WHY=${PO_NOTE[$opt]}; return
	fi
	ST=provided BY=$(stage_tools "${PO_STAGES[$opt]}")
	HOW="aiperf profile ${PO_NAME[$opt]}"
}

# status_value OPTION VALUE: provided when aiperf profile takes OPTION and
# every stage that lists its values lists VALUE.
status_value() {
	local opt=$1 val=$2 t
	status_option "$opt"
	[[ $ST == provided ]] || return
	opt=${PO_NAME[$opt]}
	accepted "$opt"
	HOW="aiperf profile $opt $val"
	for t in "${LISTED[@]}"; do
		HOW+=$'\n'"$t $(tool_opt "$t" "$opt") $val"
	done
	if ((${#LISTED[@]} == 0)) && [[ -n ${PO_VALUES[$opt]+x} ]]; then
		[[ " ${PO_VALUES[$opt]} " == *" $val "* ]] && return
		ST="not provided" WHY="aiperf profile does not take $opt $val"
		return
	fi
	if ((${#LISTED[@]} == 0)); then
		ST=unknown WHY="the option tables of $BY list no values of $opt"
		return
	fi
	grep -qFx -- "$val" <<<"$ACCEPTED" && return
	ST="not provided"
	for t in "${LISTED[@]}"; do
		choices "$t" "$(tool_opt "$t" "$opt")"
		grep -qFx -- "$val" <<<"$CH" && continue
		WHY="$t does not accept $(tool_opt "$t" "$opt") $val (it takes: $(paste -sd, <<<"$CH" |
			sed 's/,/, /g'))"
		return
	done
}

# In a category whose plugins one option selects by value (endpoint:
# --endpoint-type), the values the stages accept that the original lacks:
# this build's own plugins, added to CAT_NAMES and marked in OURS.
declare -A OURS=() OURS_DONE=()
add_ours() {
	local cat=$1 name opt='' v
	[[ -z ${OURS_DONE[$cat]-} ]] || return 0
	OURS_DONE[$cat]=1
	for name in ${CAT_NAMES[$cat]}; do
		v=${SEL[$cat/$name]}
		[[ $v == --*=* && ( -z $opt || ${v%%=*} == "$opt" ) ]] || return 0
		opt=${v%%=*}
	done
	[[ -n $opt && -n ${PO_NAME[$opt]+x} && ${PO_SUPPORT[$opt]} != no ]] || return 0
	accepted "${PO_NAME[$opt]}"
	while IFS= read -r v; do
		[[ -n $v && -z ${SEL[$cat/$v]+x} ]] || continue
		SEL[$cat/$v]="$opt=$v" CLASS[$cat/$v]=- CAT_NAMES[$cat]+=" $v"
		DESC[$cat/$v]="This build's own, not the original's: $opt $v."
		OURS[$cat/$v]=1
	done <<<"$ACCEPTED"
}

# "custom_dataset_loader" -> "Custom Dataset Loader" (the original's _title).
title() {
	local w out=
	for w in ${1//_/ }; do
		case $w in
		ui|api|gpu|cpu|http|zmq|csv|json|hf|tei|url) w=${w^^} ;;
		*) w=${w^} ;;
		esac
		out+="${out:+ }$w"
	done
	printf '%s' "$out"
}

# norm WORD: the original matches names case-insensitively, '-' as '_'.
norm() { local w=${1,,}; printf '%s' "${w//-/_}"; }

hint() { [[ -t 1 ]] && printf '\n%s\n' "$*"; return 0; }

# wrap INDENT TEXT: TEXT folded to 79 columns, lines after the first
# indented by INDENT spaces.
wrap() {
	local pad
	pad=$(printf '%*s' "$1" '')
	fmt -w $((79 - $1)) <<<"$2" | sed "2,\$s/^/$pad/"
}

# plugin_status CATEGORY NAME: status(), "ours" for this build's own,
# computed once.
declare -A ST_OF=() WHY_OF=() BY_OF=() HOW_OF=()
plugin_status() {
	local k="$1/$2"
	if [[ -z ${ST_OF[$k]+x} ]]; then
		status "$1" "$2"
		[[ -n ${OURS[$k]-} && $ST == provided ]] && ST=ours
		ST_OF[$k]=$ST WHY_OF[$k]=$WHY BY_OF[$k]=$BY HOW_OF[$k]=$HOW
	fi
	ST=${ST_OF[$k]} WHY=${WHY_OF[$k]} BY=${BY_OF[$k]} HOW=${HOW_OF[$k]}
}

show_packages() {
	local cat name count=0 total=0
	for cat in "${CATS[@]}"; do
		add_ours "$cat"
		for name in ${CAT_NAMES[$cat]}; do
			plugin_status "$cat" "$name"
			[[ $ST == provided || $ST == ours ]] && ((++count))
			((++total))
		done
	done
	printf 'Installed Packages\n'
	printf '%-8s %-9s %-8s %s\n' Package Version Plugins Description
	printf '%-8s %-9s %-8s %s\n' aiperf "$VERSION" "$count" \
		"AIPerf in C: gen | send | metrics | export ($count of $total plugins)"
	hint "Usage: aiperf plugins --all to see all categories and plugins"
}

show_overview() {
	local cat name st p note
	printf 'Plugin Categories\n'
	for cat in "${CATS[@]}"; do
		add_ours "$cat"
		note=
		[[ ${CAT_INTERNAL[$cat]} == internal ]] && note=", internal to the original"
		printf '\n%s (%s%s)\n' "$(title "$cat")" "$cat" "$note"
		for st in provided ours unknown "not provided"; do
			p=()
			for name in ${CAT_NAMES[$cat]}; do
				plugin_status "$cat" "$name"
				[[ $ST == "$st" ]] && p+=("$name")
			done
			((${#p[@]})) && printf '  %-14s %s\n' "$st:" "$(wrap 17 "$(list "${p[@]}")")"
		done
	done
	hint "Usage: aiperf plugins <category> to see available types"
}

list() { local IFS=,; printf '%s' "$*" | sed 's/,/, /g'; }

# show_category CATEGORY ALL: its types, those not provided too with ALL.
show_category() {
	local cat=$1 all=$2 name rows=() w=4 r d
	add_ours "$cat"
	for name in ${CAT_NAMES[$cat]}; do
		plugin_status "$cat" "$name"
		[[ $ST == "not provided" && $all == 0 ]] && continue
		d=${DESC[$cat/$name]%%. *}
		[[ $d == *. ]] || d+=.
		rows+=("$name"$'\t'"$ST"$'\t'"$d")
		((${#name} > w)) && w=${#name}
	done
	wrap 0 "${CAT_DESC[$cat]}"
	printf '\n%s Types\n' "$(title "$cat")"
	if ((${#rows[@]} == 0)); then
		printf 'none provided (aiperf plugins --all %s lists the original'"'"'s)\n' "$cat"
		return
	fi
	printf '%-*s  %-12s  %s\n' "$w" Type Status Description
	for r in "${rows[@]}"; do
		IFS=$'\t' read -r name st d <<<"$r"
		printf '%-*s  %-12s  %s\n' "$w" "$name" "$st" "$d"
	done
	hint "Usage: aiperf plugins $cat <type> for details"
}

# original_sel CATEGORY/NAME: how the original selects it, in words.
original_sel() {
	local sel=${SEL[$1]}
	case $sel in
	--*) printf 'selected by %s' "${sel/=/ }" ;;
	file:*) printf 'always on: writes %s' "${sel#file:}" ;;
	console:*) printf "always on: prints '%s'" "${sel#console:}" ;;
	command:*) printf 'run by aiperf %s' "${sel#command:}" ;;
	*) printf 'chosen inside the original' ;;
	esac
}

show_details() {
	local cat=$1 name=$2 line first=1
	plugin_status "$cat" "$name"
	printf '%s:%s\n' "$cat" "$name"
	printf '%-13s %s\n' Type: "$name" Category: "$cat" Package: "aiperf $VERSION (this build)"
	if [[ -n $WHY ]]; then
		printf '%-13s %s\n' Status: "$(wrap 14 "$ST: $WHY")"
	else
		printf '%-13s %s\n' Status: "$ST"
	fi
	[[ $ST == provided || $ST == ours ]] && printf '%-13s %s\n' "Provided by:" "$BY"
	if [[ -n $HOW && $ST != "not provided" ]]; then
		while IFS= read -r line; do
			printf '%-13s %s\n' "$( ((first)) && echo 'Selected by:')" "$line"
			first=0
		done <<<"$HOW"
	fi
	[[ -n ${OURS[$cat/$name]-} ]] ||
		printf '%-13s %s\n' Original: "$(wrap 14 "${CLASS[$cat/$name]}, $(original_sel "$cat/$name")")"
	printf '\n%s\n' "$(wrap 0 "${DESC[$cat/$name]}")"
}

# find_category WORD: sets CAT or exits 2.
find_category() {
	local w c
	w=$(norm "$1")
	for c in "${CATS[@]}"; do
		[[ $c == "$w" ]] && CAT=$c && return
	done
	usage_error "unknown category '$1' (known: $(list "${CATS[@]}"))"
}

# find_name CATEGORY WORD: sets NAME or exits 2.
find_name() {
	local w n names
	w=$(norm "$2")
	add_ours "$1"
	read -ra names <<<"${CAT_NAMES[$1]}"
	for n in "${names[@]}"; do
		[[ $(norm "$n") == "$w" ]] && NAME=$n && return
	done
	usage_error "unknown $1 type '$2' (known: $(list "${names[@]}"))"
}

# show_name WORD: every plugin of that name, in any category.
show_name() {
	local cat n w found=0
	w=$(norm "$1")
	for cat in "${CATS[@]}"; do
		add_ours "$cat"
		for n in ${CAT_NAMES[$cat]}; do
			[[ $(norm "$n") == "$w" ]] || continue
			((found++)) && printf '\n'
			show_details "$cat" "$n"
		done
	done
	((found)) || usage_error "no plugin named '$1' in any category"
}

validate() {
	local e t fail=0
	printf 'Validating plugins...\n\n'
	for t in aiperf-gen aiperf-send aiperf-metrics aiperf-export; do
		type -P "$t" >/dev/null || ERRORS+=("no $t beside aiperf plugins or on PATH")
	done
	probe_export
	[[ -f $PROBE/out/profile_export_aiperf.json ]] ||
		ERRORS+=("aiperf-export wrote no profile_export_aiperf.json for the sample")
	if ((${#ERRORS[@]})); then
		printf '\xe2\x9c\x97 Plugin tables\n'
		for e in "${ERRORS[@]}"; do printf '    %s\n' "$e"; done
		fail=1
	else
		printf '\xe2\x9c\x93 Plugin tables\n'
	fi
	if ((fail)); then printf '\nValidation failed\n'; return 1; fi
	printf '\nAll checks passed\n'
}

CATEGORY='' NAMEARG='' ALL=0 VALIDATE=0
ARGS=()
while (($#)); do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-a|--all) ALL=1 ;;
	--no-all) ALL=0 ;;
	-v|--validate) VALIDATE=1 ;;
	--no-validate) VALIDATE=0 ;;
	--category|--name)
		(($# > 1)) || usage_error "option '$1' requires an argument"
		[[ $1 == --category ]] && CATEGORY=$2 || NAMEARG=$2
		shift ;;
	--category=*) CATEGORY=${1#*=} ;;
	--name=*) NAMEARG=${1#*=} ;;
	--) shift; ARGS+=("$@"); break ;;
	-?*) usage_error "unknown option '$1'" ;;
	*) ARGS+=("$1") ;;
	esac
	shift
done
((${#ARGS[@]} <= 2)) || usage_error "unexpected argument '${ARGS[2]}'"
if ((${#ARGS[@]} >= 1)); then
	[[ -z $CATEGORY ]] || usage_error "a category given twice: '$CATEGORY' and '${ARGS[0]}'"
	CATEGORY=${ARGS[0]}
fi
if ((${#ARGS[@]} == 2)); then
	[[ -z $NAMEARG ]] || usage_error "a type given twice: '$NAMEARG' and '${ARGS[1]}'"
	NAMEARG=${ARGS[1]}
fi

load_original
load_profile_options
if ((VALIDATE)); then
	validate
	exit
fi
((${#ERRORS[@]} == 0)) || die "${ERRORS[0]} (aiperf plugins --validate lists all)"
if [[ -n $CATEGORY ]]; then
	find_category "$CATEGORY"
	if [[ -n $NAMEARG ]]; then
		find_name "$CAT" "$NAMEARG"
		show_details "$CAT" "$NAME"
	else
		show_category "$CAT" "$ALL"
	fi
elif [[ -n $NAMEARG ]]; then
	show_name "$NAMEARG"
elif ((ALL)); then
	show_overview
else
	show_packages
fi
