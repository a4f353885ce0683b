#!/bin/sh
# aiperf validate: an artifact directory of aiperf profile passes; each kind
# of damage (a file missing, cut short, a record gone, a number changed)
# fails, naming the check and the reason. A graded run (--accuracy-benchmark)
# too: its accuracy.* entries are recomputed from the records' grades.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 5 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 32 --osl 8 --concurrency 2 --request-count 6 "$@" \
		>/dev/null 2>&1
}

# damaged NAME: a copy of the good directory to damage.
damaged() {
	rm -rf "$1" && cp -r good "$1"
}

# fails CHECK WHY DIR [OPTIONS]: aiperf-validate exits 1, prints
# "FAIL CHECK: ...WHY..." and names CHECK on stderr.
fails() {
	_check=$1 _why=$2
	shift 2
	test_expect_code 1 aiperf-validate "$@" >out 2>err &&
	grep -F "FAIL $_check: " out | grep -qF -- "$_why" &&
	grep -q "^aiperf-validate: [0-9]* of [0-9]* checks failed: .*$_check" err
}

test_expect_success 'setup: a run with goodput and raw records' '
	prof --streaming --goodput request_latency:300 --export-level raw --artifact-dir good &&
	test -s good/profile_export_raw.jsonl
'

test_expect_success 'a good run passes every check' '
	aiperf-validate good >out 2>err &&
	test_cmp /dev/null err &&
	! grep -v "^ok \|^skip " out &&
	for c in files json inputs records errors raw summary csv; do
		grep -q "^ok $c: " out || exit 1
	done &&
	grep -q "^ok files: .*profile_export_raw.jsonl, inputs.json (export level raw: input_config)" out &&
	grep -q "^ok records: profile_export.jsonl: 6 records" out &&
	grep -q "^skip timeslices: no timeslice files" out
'

test_expect_success 'aiperf validate is aiperf-validate' '
	aiperf validate good >out2 && aiperf-validate good >out && test_cmp out out2
'

test_expect_success 'a missing file' '
	damaged m && rm m/profile_export_aiperf.csv &&
	fails files "missing profile_export_aiperf.csv (export level raw" m &&
	grep -q "^skip csv: no profile_export_aiperf.csv" out &&
	damaged m2 && rm m2/profile_export_raw.jsonl &&
	fails files "missing profile_export_raw.jsonl" m2 &&
	damaged m3 && rm m3/inputs.json && fails files "missing inputs.json" m3
'

test_expect_success 'a truncated JSON summary' '
	damaged t && head -c 300 good/profile_export_aiperf.json >t/profile_export_aiperf.json &&
	fails json "profile_export_aiperf.json: at byte 300: " t
'

# cut FILE: FILE cut short in its third line.
cut3() {
	{ head -n 2 "$1" && sed -n 3p "$1" | head -c 50; } >x && mv x "$1"
}

test_expect_success 'a truncated records file or raw file' '
	damaged tr && cut3 tr/profile_export.jsonl &&
	fails records "profile_export.jsonl:3: at byte " tr &&
	damaged tw && cut3 tw/profile_export_raw.jsonl &&
	fails raw "profile_export_raw.jsonl:3: at byte " tw
'

test_expect_success 'a record removed' '
	damaged r && sed -i 3d r/profile_export.jsonl &&
	fails records "holds 5 valid and 0 error records, the summary counts request_count 6" r &&
	grep -q "^FAIL summary: profile_export_aiperf.json: request_throughput.avg is " out
'

test_expect_success 'a summary number edited, in the JSON or the CSV' '
	damaged e &&
	sed -i "/\"request_latency\": {/,/}/s/\"p50\": [0-9.e+-]*/\"p50\": 123.25/" \
		e/profile_export_aiperf.json &&
	! cmp -s good/profile_export_aiperf.json e/profile_export_aiperf.json &&
	fails summary "request_latency.p50 is 123.25, " e &&
	grep -q "^ok csv: " out &&
	damaged c && awk -F, -v OFS=, "/^Request Latency/ { \$3 = \"0.50\" } 1" \
		good/profile_export_aiperf.csv >c/profile_export_aiperf.csv &&
	fails csv "(Request Latency (ms)): min is 0.50, " c
'

test_expect_success 'error_summary must agree with error_request_count' '
	damaged es &&
	sed -i "s/\"error_summary\": \[\]/\"error_summary\": [{\"error_details\": {\"message\": \"x\"}, \"count\": 2}]/" \
		es/profile_export_aiperf.json &&
	fails errors "error_summary counts 2 errors, error_request_count 0" es
'

test_expect_success 'goodput comes from input_config; --goodput overrides it' '
	aiperf-validate good >/dev/null &&
	fails summary "goodput.avg is " good \
		--goodput request_latency:0.001
'

test_expect_success 'a summary-level run: the CSV is checked against the JSON' '
	prof --export-level summary --artifact-dir s &&
	aiperf-validate s >out &&
	grep -q "^skip records: export level summary writes none" out &&
	grep -q "^ok csv: .*every value as in the JSON summary (sums not checked)" out &&
	awk -F, -v OFS=, "/^Request Latency/ { \$2 = \"1.00\" } 1" s/profile_export_aiperf.csv >x &&
	mv x s/profile_export_aiperf.csv &&
	fails csv "avg is 1.00, " s && grep -q "from the JSON summary" out
'

test_expect_success 'a run with --profile-export-prefix: named with the same option' '
	prof --profile-export-prefix run1.json --artifact-dir p &&
	aiperf-validate --profile-export-prefix run1 p >out &&
	grep -q "^ok files: run1.json, run1.csv, run1.jsonl, inputs.json" out &&
	fails files "missing profile_export_aiperf.json" p
'

test_expect_success 'timeslices: parsed, and recomputed when the duration is known' '
	mkdir ts && cp good/inputs.json ts/ &&
	aiperf-export --no-console --artifact-dir ts --slice-duration 0.01 \
		<good/profile_export.jsonl &&
	aiperf-validate ts >out &&
	grep -q "^skip timeslices: values not recomputed: the slice duration is unknown" out &&
	grep -q "^ok timeslices: profile_export_aiperf_timeslices.json parses" out &&
	aiperf-validate --slice-duration 0.01 ts >out &&
	test $(grep -c "^ok timeslices: .*every value as recomputed from the records" out) -eq 2 &&
	awk -F, -v OFS=, "NR == 3 { \$5 = \"7.77\\r\" } 1" ts/profile_export_aiperf_timeslices.csv >x &&
	mv x ts/profile_export_aiperf_timeslices.csv &&
	fails timeslices "line 3 (0, " ts --slice-duration 0.01 &&
	grep -q "Value is 7.77, " out
'

# A graded run (aiperf profile --accuracy-benchmark): aiperf-evalset's
# MMLU fixtures, a second mock answering from a key that is right unless
# the problem index is 2 mod 3 (then no letter at all).
# graded URL DIR [OPTIONS]: one graded run of 7 problems into DIR.
graded() {
	_u=$1 _d=$2
	shift 2
	aiperf profile -m m --url "$_u" --tokenizer builtin --accuracy-benchmark mmlu \
		--accuracy-tasks abstract_algebra,anatomy --accuracy-n-shots 0 \
		--accuracy-dataset-dir hub --request-count 7 --concurrency 2 --ui-type none \
		--artifact-dir "$_d" "$@" >/dev/null 2>&1
}

test_expect_success 'setup: a graded run' '
	cp -R "$TOP/tests/data/accuracy/hub" hub &&
	aiperf-evalset --benchmark mmlu --tasks abstract_algebra,anatomy --n-shots 0 \
		--dataset-dir hub --offline >problems.jsonl &&
	jq -c "{match: .messages[-1].content,
		reply: (if .index % 3 == 2 then \"none\" else (.gold | ltrimstr(\" \")) end)}" \
		problems.jsonl >key.jsonl &&
	url=$MOCK_URL pid=$MOCK_PID &&
	start_mock --answer-key key.jsonl && gurl=$MOCK_URL gpid=$MOCK_PID &&
	MOCK_URL=$url MOCK_PID=$pid || exit 1
	graded "$gurl" acc && graded "$gurl" accs --export-level summary
	rc=$? && kill $gpid && test $rc = 0 &&
	printf "%s\r\n" task,correct,total,unparsed,accuracy OVERALL,5,7,2,0.7143 \
		abstract_algebra,3,4,1,0.7500 anatomy,2,3,1,0.6667 >want &&
	test_cmp want acc/accuracy_results.csv
'

test_expect_success 'a graded run passes: its accuracy.* entries recomputed from the records' '
	aiperf-validate acc >out 2>err &&
	test_cmp /dev/null err && ! grep -v "^ok \|^skip " out &&
	grep -q "^ok files: .*profile_export.jsonl, accuracy_results.csv, inputs.json" out &&
	grep -q "^ok summary: profile_export_aiperf.json: every value as recomputed from the 7 records" out &&
	grep -q "^ok csv: .*every value as recomputed from the records" out &&
	aiperf-validate accs >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "^ok csv: .*every value as in the JSON summary" out
'

test_expect_success 'a graded run: an accuracy entry edited, or a row gone from the CSV' '
	rm -rf ae && cp -r acc ae &&
	sed -i "/\"accuracy.task.anatomy\": {/,/}/s/\"sum\": [0-9]*/\"sum\": 3/" \
		ae/profile_export_aiperf.json &&
	! cmp -s acc/profile_export_aiperf.json ae/profile_export_aiperf.json &&
	fails summary "accuracy.task.anatomy.sum is 3, 2 from the records" ae &&
	rm -rf ae && cp -r acc ae &&
	sed -i "/\"accuracy.overall\": {/,/}/s/\"ci95_low\": [0-9.e-]*/\"ci95_low\": 0.1/" \
		ae/profile_export_aiperf.json &&
	fails summary "accuracy.overall.ci95_low is 0.1, " ae &&
	rm -rf ae && cp -r accs ae &&
	grep -v "^Accuracy (anatomy) (ratio),.$" accs/profile_export_aiperf.csv >ae/profile_export_aiperf.csv &&
	fails csv "is '"'"'Accuracy Unparsed (Overall) (ratio)'"'"', '"'"'Accuracy (anatomy) (ratio)'"'"' from the JSON summary" ae
'

test_expect_success 'a run without accuracy after a graded one: no accuracy_results.csv left' '
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--request-count 4 --artifact-dir acc >/dev/null 2>err &&
	grep -q "removed the files of an earlier run from .*accuracy_results.csv" err &&
	test ! -e acc/accuracy_results.csv &&
	aiperf-validate acc >out && ! grep -q accuracy out &&
	! grep -q accuracy acc/profile_export_aiperf.json acc/profile_export_aiperf.csv
'

test_expect_success 'not a directory: one failed check' '
	test_expect_code 1 aiperf-validate nowhere >out 2>err &&
	grep -q "^FAIL dir: .nowhere.: No such file or directory" out &&
	grep -q "1 of 1 checks failed: dir" err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 aiperf-validate 2>err &&
	grep -q "expected one artifact directory" err &&
	test_expect_code 2 aiperf-validate good good 2>/dev/null &&
	test_expect_code 2 aiperf-validate --export-level all good 2>err &&
	grep -q "invalid value for --export-level" err &&
	test_expect_code 2 aiperf-validate --bogus good 2>/dev/null
'

test_done
