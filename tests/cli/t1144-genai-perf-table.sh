#!/bin/sh
# genai-perf's options table (data/genai-perf-options.tsv): every option of
# GenAI-Perf's README is in it, every aiperf option it names is one of
# aiperf profile's, each refusal and drop happens by name, and genai-perf(1)
# lists it (scripts/genai-perf-man.sh); the commands' own usage errors.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

GAP=$TOP/data/genai-perf-options.tsv
# shellcheck disable=SC2034 # the tests' (eval'd strings)
README=$SHARED/reference/original/genai-perf-readme.md

# rows: the table's rows, comments dropped.
rows() {
	grep -v "^#" "$GAP"
}

test_expect_success 'genai-perf(1) holds the table as the script writes it' '
	sed -n "/^\.\\\\\" table: /,/^\.\\\\\" end of table/p" "$TOP/man/genai-perf.1" | sed "1d;\$d" >man &&
	sh "$TOP/scripts/genai-perf-man.sh" >want &&
	test_cmp want man &&
	mandoc -Tlint -Wwarning "$TOP/man/genai-perf.1"
'

test_expect_success 'every aiperf option the table names is one of aiperf profile'"'"'s' '
	grep -v "^#" "$TOP/data/profile-options.tsv" | cut -f1,2 | tr "\t " "\n\n" | grep "^-" | sort -u >aiperf &&
	rows | cut -f5 | tr " " "\n" | grep "^--" | sort -u >named &&
	test -s named && comm -23 named aiperf >missing &&
	test_cmp /dev/null missing
'

test_expect_success 'every option of GenAI-Perf'"'"'s README is in the table' '
	test -f "$README" || skip_because "no $README"
	sed -n "/^## Command Line Options/,/^## Known Issues/p" "$README" |
		sed -n "s/^##### \`\(-[-A-Za-z]*\).*/\1/p" | sort -u >readme &&
	test "$(wc -l <readme)" -ge 60 &&
	rows | cut -f1 | sed "s/=[^ ]*//" | tr " " "\n" | sort -u >ours &&
	comm -23 readme ours | grep -vx -e -f -e --file -e --override-config >missing || :
	test_cmp /dev/null missing
'

test_expect_success 'each refused option or value is refused by name; each dropped one warned' '
	rows | awk -F "\t" "\$1 != \"-\" && (\$5 == \"!\" || \$5 == \"~\") { print \$2 \"\t\" \$1 \"\t\" \$5 }" >cases &&
	test "$(wc -l <cases)" -ge 15 &&
	while IFS="	" read -r kind names what; do
		name=${names%% *} val=
		case $name in *=*) val=${name#*=} name=${name%%=*} ;; esac
		val=${val%\*}
		[ -n "$val" ] || [ "$kind" = flag ] || val=1
		if [ "$name" = --sweep-type ]; then sub=analyze; else sub=profile; fi
		[ "$name" = --sweep-type ] && [ "$val" = 1 ] && val=colour
		st=0
		# shellcheck disable=SC2086 # no value for a flag
		genai-perf $sub -m m "$name" $val --dry-run >out 2>err || st=$?
		if [ "$what" = "!" ]; then
			test $st -eq 2 && grep -q -e "'"'"'$name" -e "sweep-type '"'"'$val" err ||
				{ echo "$name $val: status $st"; cat err; return 1; }
		else
			test $st -eq 0 && ! grep -q -- "$name" out || { echo "$name $val: status $st"; return 1; }
			[ "$name $val" = "--service-kind openai" ] || grep -q "'"'"'$name" err ||
				{ echo "$name: no warning"; return 1; }
		fi
	done <cases
'

test_expect_success 'the commands'"'"' usage errors' '
	test_expect_code 2 genai-perf 2>err &&
	test_expect_code 2 genai-perf compare 2>err && grep -q "no counterpart" err &&
	test_expect_code 2 genai-perf frob 2>err && grep -q "unknown command '"'"'frob'"'"'" err &&
	test_expect_code 2 genai-perf profile -m m --frob 2>err &&
	grep -q "^genai-perf: unknown option '"'"'--frob'"'"'" err &&
	test_expect_code 2 genai-perf profile --streaming gpt2 2>err &&
	grep -q "unexpected argument '"'"'gpt2'"'"'" err &&
	genai-perf --version | grep -q "^genai-perf [0-9]" &&
	genai-perf profile --help | grep -q "^usage: genai-perf profile" &&
	genai-perf --help | grep -q "genai-perf create-template" &&
	test_expect_code 2 genai-perf-map 2>err && genai-perf-map --help | grep -q "^usage: genai-perf-map"
'

test_expect_success 'the table is found beside the tool; a malformed one is named' '
	genai-perf-map --table | grep -q "rows$" &&
	mkdir d && printf "%s\n" "--a	arg	-	-	--a" >d/genai-perf-options.tsv &&
	test_expect_code 1 env AIPERF_DATA_DIR=d genai-perf-map profile -m x 2>err &&
	grep -q "d/genai-perf-options.tsv:1: malformed line" err
'
test_done
