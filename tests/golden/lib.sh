# shellcheck shell=sh
# Shared by tests/golden.sh and tests/golden/*/regen.sh: how one golden case
# is laid out and run, so that checking and regenerating run it identically.
# Sourced, not run; the caller has cd'ed to the repository root and put
# bin/ first on PATH.
#
# A case is a directory tests/golden/<tool>/<case>/ holding:
#   args               shell words given to <tool> (optional), run in the
#                      case directory, so args may name files there
#   in, in.ndjson, in.txt   standard input (optional; default /dev/null)
#   out, out.ndjson, out.txt   expected standard output: exactly one of them
#                      is required, an empty file meaning "must be empty"
#   err                expected standard error: required, empty meaning
#                      "must be empty"
#   status             expected exit status (optional; default 0)
# Other files (want.json, want.csv, trace.jsonl ...) are inputs or the
# expectations of other checks (tests/cli/t0700-export-artifacts.sh).

# golden_stdout_file DIR: prints the expected-stdout file of the case;
# fails, printing why, when there is none or more than one.
golden_stdout_file() {
	gs_found=
	for gs_f in "$1"/out "$1"/out.ndjson "$1"/out.txt; do
		[ -f "$gs_f" ] || continue
		if [ -n "$gs_found" ]; then
			echo "several expected stdout files: keep one of" \
				"'${gs_found##*/}' and '${gs_f##*/}'"
			return 1
		fi
		gs_found=$gs_f
	done
	if [ -z "$gs_found" ]; then
		echo "no expected stdout: add an empty 'out' file if it must be empty"
		return 1
	fi
	echo "$gs_found"
}

# golden_stderr_file DIR: prints the expected-stderr file; fails, printing
# why, when there is none.
golden_stderr_file() {
	if [ ! -f "$1/err" ]; then
		echo "no expected stderr: add an empty 'err' file if it must be empty"
		return 1
	fi
	echo "$1/err"
}

# golden_want_status DIR: prints the expected exit status.
golden_want_status() {
	if [ -f "$1/status" ]; then cat "$1/status"; else echo 0; fi
}

# golden_run DIR OUT ERR: runs the case, stdout to OUT and stderr to ERR
# (paths valid from the repository root); returns the tool's exit status.
golden_run() {
	gr_tool=$(basename "$(dirname "$1")")
	gr_in=/dev/null
	for gr_f in "$1"/in.ndjson "$1"/in.txt "$1"/in; do
		[ -f "$gr_f" ] && gr_in=$gr_f
	done
	gr_args=
	[ -f "$1/args" ] && gr_args=$(cat "$1/args")
	(cd "$1" && eval "$gr_tool $gr_args") <"$gr_in" >"$2" 2>"$3"
}

# golden_regen TOOL [--write] [CASE...]: reruns the cases of
# tests/golden/TOOL (all, or the CASE names given) with the current bin/ and
# shows which expected files would change, as a diff. Only with --write are
# the files rewritten: out/out.ndjson/out.txt (the name the case already
# has, else 'out'), err, status (removed when the status is 0), plus the
# files a regen_extra DIR NEWDIR function, when the caller defines one,
# writes into NEWDIR. Returns 1 when, without --write, something differs;
# 2 on a usage error or a stale build.
golden_regen() {
	rg_tool=$1
	shift
	rg_write=0
	if [ "${1:-}" = --write ]; then
		rg_write=1
		shift
	fi
	case ${1:-} in
	-*)
		echo "usage: tests/golden/$rg_tool/regen.sh [--write] [case...]" >&2
		return 2 ;;
	esac
	if ! make -q all 2>/dev/null; then
		echo "regen: bin/ is not up to date: run 'make all' first" >&2
		return 2
	fi
	rg_tmp=$(mktemp -d) || return 2
	rg_changed=0
	if [ $# -eq 0 ]; then
		# case names are single words (directory names without blanks)
		# shellcheck disable=SC2046
		set -- $(cd "tests/golden/$rg_tool" && for d in */; do
			printf '%s\n' "${d%/}"; done)
	fi
	for rg_case in "$@"; do
		rg_dir=tests/golden/$rg_tool/$rg_case
		if [ ! -d "$rg_dir" ]; then
			echo "regen: no case '$rg_dir'" >&2
			rm -rf "$rg_tmp"
			return 2
		fi
		rm -rf "$rg_tmp/new" && mkdir "$rg_tmp/new"
		rg_out=$(golden_stdout_file "$rg_dir") || rg_out=$rg_dir/out
		rg_out=${rg_out##*/}
		golden_run "$rg_dir" "$rg_tmp/new/$rg_out" "$rg_tmp/new/err"
		rg_status=$?
		[ $rg_status -eq 0 ] || echo $rg_status >"$rg_tmp/new/status"
		if command -v regen_extra >/dev/null 2>&1; then
			regen_extra "$rg_dir" "$rg_tmp/new"
		fi
		if [ $rg_status -eq 0 ] && [ -f "$rg_dir/status" ]; then
			echo "$rg_case: status file removed (status now 0)"
			rg_changed=1
			[ $rg_write -eq 1 ] && rm -f "$rg_dir/status"
		fi
		for rg_f in "$rg_tmp"/new/*; do
			rg_name=${rg_f##*/}
			cmp -s "$rg_f" "$rg_dir/$rg_name" && continue
			rg_changed=1
			echo "$rg_case/$rg_name:"
			if [ -f "$rg_dir/$rg_name" ]; then
				diff -u "$rg_dir/$rg_name" "$rg_f" | sed 1,2d | head -40
			else
				echo "  (new file)"
			fi
			[ $rg_write -eq 1 ] && cp "$rg_f" "$rg_dir/$rg_name"
		done
	done
	rm -rf "$rg_tmp"
	if [ $rg_write -eq 0 ]; then
		[ $rg_changed -eq 0 ] && echo "regen: $rg_tool: no change"
		[ $rg_changed -eq 0 ] || echo "regen: $rg_tool: nothing written (give --write to rewrite)"
		return $rg_changed
	fi
	echo "regen: $rg_tool: written; review 'git diff tests/golden/$rg_tool'" \
		"and update tests/golden/$rg_tool/SOURCES"
}
