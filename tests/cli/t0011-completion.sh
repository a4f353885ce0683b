#!/bin/sh
# Bash completion generated from each tool's option table (--completion bash).
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"

# offer TOOL WORD...: what completing the last WORD after TOOL offers, one a line.
cat >"$TMP/offer.bash" <<'EOS'
tool=$1; shift
eval "$("$tool" --completion bash)"
COMP_WORDS=("$tool" "$@")
COMP_CWORD=$#
"_${tool//-/_}"
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
EOS
offer() {
	bash "$TMP/offer.bash" "$@"
}

tools=
for t in aiperf-send aiperf-gen aiperf-metrics aiperf-export aiperf-mock aiperf-tok; do
	"$t" --completion bash >/dev/null 2>&1 && tools="$tools $t"
done

test_expect_success 'bash is installed' '
	command -v bash >/dev/null || skip_because "no bash"
'
for t in $tools; do
	test_expect_success "$t: every option of --help is offered after -" '
		command -v bash >/dev/null || skip_because "no bash" &&
		"$t" --help | grep -o -- "--[a-z][a-z-]*" | sort -u >want &&
		offer "$t" - | sort -u >all &&
		comm -23 want all >missing &&
		test_cmp /dev/null missing &&
		grep -qx -- --help all && grep -qx -- --version all
	'
	test_expect_success "$t: the script is valid bash, and --completion takes only bash" '
		"$t" --completion bash >c.bash && bash -n c.bash &&
		fn=_$(echo "$t" | tr - _) &&
		grep -q "^complete -F $fn $t\$" c.bash &&
		test_expect_code 2 "$t" --completion zsh 2>err &&
		grep -q "^$t: --completion takes" err
	'
done

test_expect_success 'aiperf-send: a prefix, choices, files, an argument' '
	command -v bash >/dev/null || skip_because "no bash" &&
	printf "%s\n" --concurrency --connection-reuse-strategy --concurrency-ramp-duration >want &&
	offer aiperf-send --con >got && test_cmp want got &&
	printf "%s\n" simple >want &&
	offer aiperf-send --ui-type s >got && test_cmp want got &&
	mkdir d && : >d/ca.pem &&
	offer aiperf-send --ssl-ca-file d/c >got && echo d/ca.pem >want && test_cmp want got &&
	offer aiperf-send --concurrency "" >got && test_cmp /dev/null got
'
test_expect_success 'aiperf-trace: subcommands, then each one'"'"'s options' '
	command -v bash >/dev/null || skip_because "no bash" &&
	printf "%s\n" analyze synthesize convert --help --version >want &&
	offer aiperf-trace "" >got && test_cmp want got &&
	offer aiperf-trace an >got && echo analyze >want && test_cmp want got &&
	offer aiperf-trace analyze --bl >got && echo --block-size >want && test_cmp want got &&
	offer aiperf-trace synthesize --gr >got && echo --group-sessions >want &&
	test_cmp want got &&
	offer aiperf-trace convert --no >got && echo --no-rebase >want && test_cmp want got &&
	: >t.jsonl && offer aiperf-trace analyze t. >got && echo t.jsonl >want &&
	test_cmp want got &&
	aiperf-trace --completion bash >c.bash && bash -n c.bash &&
	test_expect_code 2 aiperf-trace --completion zsh 2>err
'
test_expect_success 'aiperf-metrics: operands complete as files' '
	command -v bash >/dev/null || skip_because "no bash" &&
	: >r1.ndjson &&
	offer aiperf-metrics --streaming r1 >got && echo r1.ndjson >want && test_cmp want got
'
test_expect_success 'build/completion/aiperf.bash loads and completes each tool' '
	test -f "$TOP/build/completion/aiperf.bash" || skip_because "make completion not run" &&
	bash -c ". \"$TOP/build/completion/aiperf.bash\" && complete -p aiperf-send aiperf-gen" >out &&
	grep -q "_aiperf_gen aiperf-gen" out
'
test_done
