#!/bin/sh
# aiperf-export never writes through a symbolic link planted in its
# --artifact-dir (issue #27, R11): each summary file (JSON, CSV, the time
# slices') is written under a new hidden name, created exclusively, and
# renamed over its own; the records' file is created afresh, the name
# removed first. A link at one of those names, or at the fixed NAME.tmp
# the summaries used to go through, is replaced or left alone, and what it
# points to is never written; the artifacts are byte for byte those of a
# clean folder, and no temporary is left, even when a rename fails.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

IN=$TOP/tests/golden/aiperf-export/streaming/in.ndjson
ID=00000000-0000-4000-8000-000000000000
NAMES="profile_export_aiperf.json profile_export_aiperf.csv profile_export.jsonl
profile_export_aiperf_timeslices.json profile_export_aiperf_timeslices.csv"

export_to() {
	aiperf-export --no-console --benchmark-id $ID --slice-duration 0.1 \
		--artifact-dir "$1" <"$IN"
}

test_expect_success 'a clean folder, for reference' '
	export_to clean && for n in $NAMES; do test -s "clean/$n" || exit 1; done
'

test_expect_success 'links at every artifact name are replaced, not written through' '
	plant_links a $NAMES &&
	export_to a && victims_untouched $NAMES &&
	for n in $NAMES; do
		test -f "a/$n" && ! test -L "a/$n" && cmp "clean/$n" "a/$n" || exit 1
	done &&
	test "$(find a -name ".*" | wc -l)" = 0
'

test_expect_success 'links at the NAME.tmp names are not written through' '
	T="profile_export_aiperf.json.tmp profile_export_aiperf.csv.tmp
		profile_export_aiperf_timeslices.json.tmp profile_export_aiperf_timeslices.csv.tmp" &&
	plant_links t $T && export_to t && victims_untouched $T &&
	cmp clean/profile_export_aiperf.json t/profile_export_aiperf.json &&
	cmp clean/profile_export_aiperf_timeslices.csv t/profile_export_aiperf_timeslices.csv
'

test_expect_success 'a dangling link: nothing made where it points' '
	mkdir d && ln -s "$TMP/nowhere.json" d/profile_export_aiperf.json &&
	ln -s "$TMP/nowhere.jsonl" d/profile_export.jsonl &&
	export_to d && ! test -e nowhere.json && ! test -e nowhere.jsonl &&
	cmp clean/profile_export.jsonl d/profile_export.jsonl
'

test_expect_success 'a folder at a summary name: exit 1, named, no temporary left' '
	mkdir -p f/profile_export_aiperf.csv &&
	test_expect_code 1 export_to f 2>err &&
	grep -q "^aiperf-export: cannot write '\''f/profile_export_aiperf.csv'\'': Is a directory" err &&
	test "$(find f -name ".*" | wc -l)" = 0
'

test_expect_success 'a folder at the records name: exit 1, named' '
	mkdir -p g/profile_export.jsonl &&
	test_expect_code 1 export_to g 2>err &&
	grep -q "^aiperf-export: cannot open '\''g/profile_export.jsonl'\'': Is a directory" err
'
test_done
