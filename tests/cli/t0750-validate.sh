#!/bin/sh
# aiperf validate: an artifact directory of aiperf profile passes; each kind
# of damage (a file missing, cut short, a record gone, a number changed)
# fails, naming the check and the reason.
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
