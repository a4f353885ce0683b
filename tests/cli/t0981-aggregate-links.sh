#!/bin/sh
# aiperf-aggregate never writes through a symbolic link planted in its
# --output-dir (issue #27, R11): the aggregate JSON and CSV and the
# collated records are each written under a new hidden name and renamed
# over their own, so a link at one of those names is replaced and what it
# points to is left as it was; no temporary is left, even when a rename
# fails.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

NAMES="profile_export_aiperf_aggregate.json profile_export_aiperf_aggregate.csv
profile_export_aiperf_collated.json"

# mkrun DIR AVG: a run directory with a small summary and one record
mkrun() {
	mkdir -p "$1" &&
	printf '{"request_latency": {"unit": "ms", "avg": %s, "p99": 20.0}}\n' "$2" \
		>"$1/profile_export_aiperf.json" &&
	printf '{"metadata":{"benchmark_phase":"profiling"},"metrics":{"request_latency":{"value":%s,"unit":"ms"}}}\n' \
		"$2" >"$1/profile_export.jsonl"
}

agg() {
	aiperf-aggregate --collated -o "$1" r/run_1 r/run_2 r/run_3 >/dev/null 2>"$1.err"
}

test_expect_success 'setup: three runs, and their aggregate in a clean folder' '
	mkrun r/run_1 10 && mkrun r/run_2 11 && mkrun r/run_3 12 &&
	agg clean && for n in $NAMES; do test -s "clean/$n" || exit 1; done
'

test_expect_success 'links at every output name are replaced, not written through' '
	plant_links o $NAMES && agg o && victims_untouched $NAMES &&
	for n in $NAMES; do test -f "o/$n" && ! test -L "o/$n" || exit 1; done &&
	jq -e ".metadata.num_successful_runs == 3" o/profile_export_aiperf_aggregate.json &&
	cmp clean/profile_export_aiperf_aggregate.csv o/profile_export_aiperf_aggregate.csv &&
	test "$(find o -name ".*" | wc -l)" = 0
'

test_expect_success 'a dangling link: nothing made where it points' '
	mkdir d && ln -s "$TMP/nowhere" d/profile_export_aiperf_aggregate.csv &&
	agg d && ! test -e nowhere && test -f d/profile_export_aiperf_aggregate.csv
'

test_expect_success 'a folder at an output name: exit 1, named, no temporary left' '
	mkdir -p f/profile_export_aiperf_aggregate.json &&
	test_expect_code 1 agg f &&
	grep -qx "aiperf-aggregate: cannot write '\''f/profile_export_aiperf_aggregate.json'\'': Is a directory" f.err &&
	test "$(find f -name ".*" | wc -l)" = 0
'
test_done
