#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf clocks [--via CMD] [--max-skew-ms MS] [--samples N] [--json FILE] HOST...: the
# wall-clock offset of each host from this one, measured by one round trip
# (aiperf-clocks(1)): CMD HOST date +%s%N, our wall clock stamped before
# and after; offset = remote - midpoint, good to half the round trip.
# Exit status 1 when one offset is beyond --max-skew-ms or a host does not
# answer.
set -u
argv0=aiperf-clocks

# usage: the SYNOPSIS of aiperf-clocks(1), which says the rest (t0010).
usage() {
	cat <<'EOF'
usage: aiperf-clocks [--via cmd] [--max-skew-ms ms] [--samples n] [--json file] host ...
EOF
}

usage_error() {
	printf '%s: %s\n' "$argv0" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$argv0" >&2
	exit 2
}

via=ssh max=1 json='' samples=3
hosts=()
while (($#)); do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--via|--max-skew-ms|--json|--samples)
		(($# >= 2)) || usage_error "option '$1' needs a value"
		case $1 in
		--via) via=$2 ;;
		--max-skew-ms) max=$2 ;;
		--json) json=$2 ;;
		--samples) samples=$2 ;;
		esac
		shift 2 ;;
	--via=*) via=${1#*=}; shift ;;
	--max-skew-ms=*) max=${1#*=}; shift ;;
	--json=*) json=${1#*=}; shift ;;
	--samples=*) samples=${1#*=}; shift ;;
	--) shift; hosts+=("$@"); break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) hosts+=("$1"); shift ;;
	esac
done
((${#hosts[@]})) || usage_error "no host given"
[[ $max =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "invalid value for --max-skew-ms: '$max' (milliseconds, >= 0)"
if ! [[ $samples =~ ^[0-9]+$ ]] || ((samples < 1 || samples > 100)); then
	usage_error "invalid value for --samples: '$samples' (1 to 100)"
fi
[[ -n $via ]] || usage_error "--via needs a command"
read -ra runner <<<"$via"

now_ns() { local t=${EPOCHREALTIME/[.,]/}; echo $((t * 1000)); }

# ms N: N nanoseconds in milliseconds, 3 decimals (signed)
ms() {
	local n=$1 s=''
	((n < 0)) && s=- n=$((-n))
	printf '%s%d.%03d' "$s" $((n / 1000000)) $((n / 1000 % 1000))
}

st=0 rows=() bad=()
# the limit in ns (bash arithmetic: awk's %d stops at 2^31)
maxns=${max%%.*}
f=000000
[[ $max == *.* ]] && f=${max#*.}000000
maxns=$((10#$maxns * 1000000 + 10#${f:0:6}))
# probe HOST: OFF and RTT of the round trip, of SAMPLES, that was shortest
# (its midpoint is the surest); fails when no round trip gave a time.
probe() {
	local h=$1 i t0 t1 out rc=0 r
	OFF='' RTT=''
	for ((i = 0; i < samples; i++)); do
		t0=$(now_ns)
		out=$("${runner[@]}" "$h" date +%s%N 2>/dev/null </dev/null)
		rc=$?
		t1=$(now_ns)
		out=${out//[$'\r\n ']/}
		if ((rc != 0)) || ! [[ $out =~ ^[0-9]{10,}$ ]]; then continue; fi
		r=$((t1 - t0))
		[[ -z $RTT ]] || ((r < RTT)) || continue
		RTT=$r OFF=$((out - (t0 + r / 2)))
	done
	[[ -n $RTT ]] && return 0
	printf '%s: %s: no time from "%s %s date +%%s%%N" (status %d)\n' \
		"$argv0" "$h" "$via" "$h" "$rc" >&2
	return 1
}

for h in "${hosts[@]}"; do
	if ! probe "$h"; then
		rows+=("$h - -")
		st=1
		continue
	fi
	rows+=("$h $OFF $RTT")
	# the offset is known to half the round trip: skewed when even the
	# closest it can be is beyond the limit
	a=$((OFF < 0 ? -OFF : OFF))
	if ((a - RTT / 2 > maxns)); then
		bad+=("$h")
		st=1
	fi
done

if [[ $json != - ]]; then
	printf '%-24s %12s %12s\n' HOST OFFSET_MS RTT_MS
	for r in "${rows[@]}"; do
		read -r h off rtt <<<"$r"
		if [[ $off == - ]]; then
			printf '%-24s %12s %12s\n' "$h" - -
		else
			printf '%-24s %12s %12s\n' "$h" "$(ms "$off")" "$(ms "$rtt")"
		fi
	done
fi
if [[ -n $json ]]; then
	{
		printf '{"max_skew_ms": %s, "hosts": [' "$max"
		sep=
		for r in "${rows[@]}"; do
			read -r h off rtt <<<"$r"
			h=${h//\\/\\\\}
			h=${h//\"/\\\"}
			if [[ $off == - ]]; then
				printf '%s{"host": "%s", "offset_ms": null, "rtt_ms": null, "ok": false}' "$sep" "$h"
			else
				a=$((off < 0 ? -off : off))
				a=$((a - rtt / 2))
				printf '%s{"host": "%s", "offset_ms": %s, "rtt_ms": %s, "ok": %s}' "$sep" "$h" \
					"$(ms "$off")" "$(ms "$rtt")" "$( ((a > maxns)) && echo false || echo true)"
			fi
			sep=', '
		done
		printf ']}\n'
	} >"$([[ $json == - ]] && echo /dev/stdout || echo "$json")" || { printf '%s: cannot write %s\n' "$argv0" "$json" >&2; st=1; }
fi
if ((${#bad[@]})); then
	printf '%s: warning: clock offset beyond %s ms on %s: the hosts'"'"' send times and records disagree by as much;\n' \
		"$argv0" "$max" "${bad[*]}" >&2
	printf '%s: synchronize the clocks: NTP (chrony: chronyc tracking, makestep) to about a millisecond, PTP (ptp4l + phc2sys) to microseconds\n' \
		"$argv0" >&2
fi
exit "$st"
