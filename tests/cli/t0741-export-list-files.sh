#!/bin/sh
# aiperf-export: --profile-export-prefix paths as the original joins them,
# and --list-files, which names every file a run writes (and may have left).
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

IN=$TOP/tests/golden/aiperf-export/streaming/in.ndjson

# listed ARGS...: the paths --list-files gives for ARGS, kind "other" left
# out, raw too (aiperf-metrics --tee writes it), sorted.
listed() {
	aiperf-export --list-files "$@" | awk -F "\t" "\$1 != \"other\" && \$1 != \"raw\" { print \$2 }" | sort
}

test_expect_success 'a relative prefix keeps its directories, under the artifact directory' '
	aiperf-export --no-console --artifact-dir d --profile-export-prefix runs/a.json <"$IN" &&
	find d -type f | sort >got &&
	printf "d/runs/a.%s\n" csv json jsonl >want &&
	test_cmp want got
'

test_expect_success 'an absolute prefix names the place itself' '
	aiperf-export --no-console --artifact-dir d2 --profile-export-prefix "$TMP/abs/b_raw.jsonl" \
		--slice-duration 1 <"$IN" &&
	find abs -type f | sort >got &&
	printf "abs/b%s\n" .csv .json .jsonl _timeslices.csv _timeslices.json >want &&
	test_cmp want got &&
	test -d d2 && test -z "$(ls d2)"
'

test_expect_success 'the prefix is read as pathlib writes it: ./ and // and a trailing / dropped' '
	aiperf-export --list-files --artifact-dir /r --profile-export-prefix ./s//t/ >got &&
	printf "%s\t/r/s/t%s\n" json .json csv .csv records .jsonl other _raw.jsonl \
		other _timeslices.csv other _timeslices.json other _server_metrics.json \
		other _server_metrics.csv other _server_metrics.jsonl \
		other _server_metrics.parquet other _gpu_telemetry.jsonl >want &&
	printf "other\t/r/accuracy_results.csv\n" >>want &&
	test_cmp want got
'

test_expect_success 'a prefix that names no file is a usage error' '
	for p in _raw.jsonl runs/.csv .. /; do
		test_expect_code 2 aiperf-export --list-files --artifact-dir d \
			--profile-export-prefix "$p" 2>err &&
		grep -q "invalid value for --profile-export-prefix" err || exit 1
	done
'

test_expect_success '--list-files: default names, kinds, the files written first' '
	aiperf-export --list-files --artifact-dir /a >got &&
	printf "%s\t/a/%s\n" json profile_export_aiperf.json csv profile_export_aiperf.csv \
		records profile_export.jsonl other profile_export_raw.jsonl \
		other profile_export_aiperf_timeslices.csv \
		other profile_export_aiperf_timeslices.json other server_metrics_export.json \
		other server_metrics_export.csv other server_metrics_export.jsonl \
		other server_metrics_export.parquet other gpu_telemetry_export.jsonl \
		other accuracy_results.csv >want &&
	test_cmp want got &&
	aiperf-export --list-files --artifact-dir /a --profile-export-prefix p.csv \
		--export-level raw --slice-duration 5 >got &&
	printf "%s\t/a/p%s\n" json .json csv .csv records .jsonl raw _raw.jsonl \
		timeslices_csv _timeslices.csv timeslices_json _timeslices.json \
		other _server_metrics.json other _server_metrics.csv \
		other _server_metrics.jsonl other _server_metrics.parquet other _gpu_telemetry.jsonl >want &&
	printf "other\t/a/accuracy_results.csv\n" >>want &&
	test_cmp want got &&
	aiperf-export --list-files --artifact-dir /a --export-level summary | cut -f1 | paste -sd " " >got &&
	echo "json csv other other other other other other other other other other" >want && test_cmp want got
'

test_expect_success '--list-files names exactly the files a run writes' '
	for args in "" "--export-level summary" "--slice-duration 0.5" \
		"--export-level raw --profile-export-prefix x/y"; do
		rm -rf w &&
		# shellcheck disable=SC2086 # the words of $args
		aiperf-export --no-console --artifact-dir w $args <"$IN" &&
		listed --artifact-dir w $args >want &&
		find w -type f | sort >got &&
		test_cmp want got || exit 1
	done
'

test_expect_success '--list-files checks the options first, creates nothing' '
	test_expect_code 2 aiperf-export --list-files --artifact-dir n \
		--goodput time_to_first_token:9 >out 2>err &&
	test_cmp /dev/null out && grep -q "not applicable" err && test ! -e n &&
	aiperf-export --list-files --artifact-dir n --streaming --goodput time_to_first_token:9 >out &&
	test ! -e n && test $(wc -l <out) -eq 12 &&
	aiperf-export --list-files </dev/null >out && test_cmp /dev/null out
'

test_done
