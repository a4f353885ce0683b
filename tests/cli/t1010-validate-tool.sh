#!/bin/sh
# aiperf-validate is a program of its own (#28), no longer aiperf-export
# --validate run by a script: a binary, aiperf-export refuses --validate as
# any unknown option, and the checks of a real run's artifacts (and of a
# damaged copy) read as they did when it was aiperf-export's mode.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'aiperf-validate is an ELF binary, not a script' '
	test "$(head -c 4 "$TOP/bin/aiperf-validate" | tail -c 3)" = ELF &&
	test ! -e "$TOP/cmd/aiperf-validate.sh" &&
	test -f "$TOP/cmd/aiperf-validate/main.c"
'

test_expect_success 'aiperf-export --validate is an unknown option (usage, 2)' '
	mkdir d &&
	test_expect_code 2 aiperf-export --validate d >out 2>err &&
	test_cmp /dev/null out &&
	grep -q "unrecognized option .--validate." err &&
	! aiperf-export --help | grep -q validate
'

start_mock --ttft-ms 5 --itl-ms 1

test_expect_success 'setup: a run with goodput, raw records and timeslices' '
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 32 --osl 8 --concurrency 2 --request-count 6 \
		--streaming --goodput request_latency:300 --export-level raw \
		--slice-duration 1e9 --artifact-dir run >/dev/null 2>&1 &&
	test -s run/profile_export_aiperf_timeslices.json
'

test_expect_success 'the checks of the run, as they were' '
	cat >want <<-\END &&
	ok files: profile_export_aiperf.json, profile_export_aiperf.csv, profile_export.jsonl, profile_export_raw.jsonl, profile_export_aiperf_timeslices.csv, profile_export_aiperf_timeslices.json, inputs.json (export level raw: input_config)
	ok json: profile_export_aiperf.json parses (35 metrics)
	ok inputs: inputs.json parses (100 sessions)
	ok records: profile_export.jsonl: 6 records, as the summary counts (request_count 6, error_request_count 0)
	ok errors: error_summary counts 0 errors, as error_request_count
	ok raw: profile_export_raw.jsonl: 6 records, 6 profiling (the summary counts 6)
	ok summary: profile_export_aiperf.json: every value as recomputed from the 6 records
	skip gpu: no GPU telemetry
	ok csv: profile_export_aiperf.csv parses (38 lines), every value as recomputed from the records
	ok timeslices: profile_export_aiperf_timeslices.json parses (1 slices), every value as recomputed from the records
	ok timeslices: profile_export_aiperf_timeslices.csv parses (361 lines), every value as recomputed from the records
	END
	aiperf-validate run >out 2>err &&
	test_cmp want out &&
	test_cmp /dev/null err &&
	aiperf validate run >out2 2>err2 &&
	test_cmp want out2 &&
	test_cmp /dev/null err2
'

test_expect_success 'a record gone: the same failures and exit status 1' '
	cp -r run cut &&
	sed "\$d" run/profile_export.jsonl >cut/profile_export.jsonl &&
	test_expect_code 1 aiperf-validate cut >out 2>err &&
	grep -c "^FAIL " out >n &&
	echo 5 >five && test_cmp five n &&
	grep -qx "FAIL records: profile_export.jsonl holds 5 valid and 0 error records, the summary counts request_count 6, error_request_count 0" out &&
	echo "aiperf-validate: 5 of 10 checks failed: records, summary, csv, timeslices, timeslices" >want &&
	test_cmp want err &&
	test_expect_code 1 aiperf validate cut >out2 2>err2 &&
	test_cmp out out2 &&
	test_cmp err err2
'

test_done
