#!/bin/sh
# run.sh: long
# aiperf profile --workers-max N (issue #18): the request stream split by
# session across N senders, their records merged into one artifact set.
# With N senders the schedule is still the asked schedule: the same
# request ids with the same intended send times (relative to the first) as
# one sender on the same seed, whatever the timing mode.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 20 --itl-ms 2

prof() {	# DIR WORKERS [options]
	d=$1 w=$2
	shift 2
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --random-seed 7 \
		--isl 8 --osl 4 --export-level raw --ui-type none \
		--workers-max "$w" --artifact-dir "$d" "$@"
}

# sched DIR: "id intended-ns-from-the-first" of every profiling record
# that has an intended time, by id.
sched() {
	jq -r 'select(.metadata.benchmark_phase == "profiling" and
		.aiperf.intended_perf_ns != null) |
		"\(.metadata.x_request_id) \(.aiperf.intended_perf_ns)"' \
		"$1/profile_export_raw.jsonl" | sort -k2,2n -k1,1 |
		awk 'NR == 1 { z = $2 } { print $1, $2 - z }' | sort
}

# ids DIR PHASE: the request ids of the phase, sorted.
ids() {
	jq -r "select(.metadata.benchmark_phase == \"$2\") | .metadata.x_request_id" \
		"$1/profile_export_raw.jsonl" | sort
}

# shape FILE: the paths of FILE's JSON (its shape, not its values), but
# for the scraper's cost, there only when scrapes fell among requests.
shape() {
	jq -r '[paths(scalars) | map(tostring) | join(".")] | .[]' "$1" |
		grep -v '^client\.scraper\.' | sort -u
}

# same_schedule A B: the runs in A and B sent the same requests on the
# same schedule, every one of them ended well.
same_schedule() {
	sched "$1" >"$1.sched" && sched "$2" >"$2.sched" &&
	test -s "$1.sched" && test_cmp "$1.sched" "$2.sched" &&
	ids "$1" profiling >"$1.ids" && ids "$2" profiling >"$2.ids" &&
	test_cmp "$1.ids" "$2.ids" &&
	ids "$1" warmup >"$1.wids" && ids "$2" warmup >"$2.wids" &&
	test_cmp "$1.wids" "$2.wids" &&
	! grep -q '"error":{' "$1/profile_export_raw.jsonl" &&
	! grep -q '"error":{' "$2/profile_export_raw.jsonl"
}

# workers DIR: the distinct worker_id values of DIR's records.
workers() {
	jq -r .metadata.worker_id "$1/profile_export_raw.jsonl" | sort -u | tr '\n' ' '
}

test_expect_success 'request-rate constant with warmup: 3 senders keep the schedule' '
	prof c1 1 --request-rate 400 --arrival-pattern constant --request-count 60 \
		--warmup-request-count 7 >out1 2>err1 &&
	prof c3 3 --request-rate 400 --arrival-pattern constant --request-count 60 \
		--warmup-request-count 7 >out3 2>err3 &&
	same_schedule c1 c3 &&
	test "$(workers c1)" = "worker_0 " &&
	test "$(workers c3)" = "worker_0 worker_1 worker_2 " &&
	grep -q "3 senders (--workers-max)" c3/logs/aiperf.log &&
	test "$(grep -c "profiling barrier passed" c3/logs/aiperf.log)" -eq 3 &&
	# the server metrics scraper cued once, by the wrapper, at the barrier
	test "$(grep -c "scrapers cued: 1 of 1 acknowledged" c3/logs/aiperf.log)" -eq 1 &&
	test "$(jq .request_count.avg c3/profile_export_aiperf.json)" = 60 &&
	test "$(wc -l <c3/profile_export.jsonl)" -eq 60
'

test_expect_success 'request-rate poisson: the arrival times of one sender' '
	prof p1 1 --request-rate 300 --request-count 50 >out 2>err &&
	prof p2 2 --request-rate 300 --request-count 50 >out 2>err &&
	same_schedule p1 p2 &&
	test "$(workers p2)" = "worker_0 worker_1 "
'

test_expect_success 'unseeded: the shards still build one dataset (one schedule)' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 8 --osl 4 \
		--export-level raw --ui-type none --workers-max 2 --request-count 30 \
		--request-rate 300 --artifact-dir u2 >out 2>err &&
	test "$(ids u2 profiling | sort -u | wc -l)" -eq 30 &&
	test "$(jq -r .metadata.session_num u2/profile_export_raw.jsonl | sort -n | uniq | wc -l)" -eq 30
'

test_expect_success 'fixed concurrency: the requests split, the concurrency too' '
	prof k1 1 --concurrency 5 --request-count 45 >out 2>err &&
	prof k3 3 --concurrency 5 --request-count 45 >out 2>err &&
	ids k1 profiling >k1.ids && ids k3 profiling >k3.ids &&
	test_cmp k1.ids k3.ids && test "$(wc -l <k3.ids)" -eq 45 &&
	! grep -q "\"error\":{" k3/profile_export_raw.jsonl &&
	# never more than 5 in flight together (2 + 2 + 1), from the records
	jq -r ".metadata | \"\(.request_start_ns) 1\n\(.request_end_ns) -1\"" \
		k3/profile_export_raw.jsonl | sort -k1,1n -k2,2n |
		awk "{ n += \$2; if (n > m) m = n } END { print m }" >peak &&
	test "$(cat peak)" -le 5 && test "$(cat peak)" -ge 1 &&
	for w in 0 1 2; do
		jq -r "select(.metadata.worker_id == \"worker_$w\") | .metadata |
			\"\(.request_start_ns) 1\n\(.request_end_ns) -1\"" \
			k3/profile_export_raw.jsonl | sort -k1,1n -k2,2n |
			awk "{ n += \$2; if (n > m) m = n } END { print m }" >peak.$w || return 1
	done &&
	test "$(cat peak.0)" -le 2 && test "$(cat peak.1)" -le 2 && test "$(cat peak.2)" -le 1
'

test_expect_success 'multi-turn sessions stay on one sender, in order' '
	prof m1 1 --request-rate 200 --conversation-num 12 --session-turns-mean 3 \
		--session-turn-delay-mean 5 >out 2>err &&
	prof m3 3 --request-rate 200 --conversation-num 12 --session-turns-mean 3 \
		--session-turn-delay-mean 5 >out 2>err &&
	same_schedule m1 m3 &&
	test "$(wc -l <m3/profile_export_raw.jsonl)" -eq 36 &&
	jq -r ".metadata | \"\(.x_correlation_id) \(.worker_id)\"" \
		m3/profile_export_raw.jsonl | sort -u | awk "{ print \$1 }" | uniq -d >split &&
	test ! -s split &&
	test "$(workers m3)" = "worker_0 worker_1 worker_2 "
'

test_expect_success 'trace replay on its fixed schedule: the same times' '
	cat >t.jsonl <<-\EOF &&
	{"timestamp": 0, "input_length": 20, "output_length": 5, "hash_ids": [1, 2, 3]}
	{"timestamp": 40, "input_length": 18, "output_length": 6, "hash_ids": [1, 2, 4]}
	{"timestamp": 25, "text_input": "hello there", "output_length": 7}
	{"timestamp": 10, "session_id": "s1", "input_length": 10, "output_length": 2}
	{"timestamp": 60, "session_id": "s1", "input_length": 12, "output_length": 3}
	{"timestamp": 70, "input_length": 9, "output_length": 2}
	EOF
	prof f1 1 --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--fixed-schedule --isl-block-size 8 >out 2>err &&
	prof f2 2 --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--fixed-schedule --isl-block-size 8 >out 2>err &&
	same_schedule f1 f2 &&
	test "$(wc -l <f2/profile_export_raw.jsonl)" -eq 6 &&
	test "$(workers f2)" = "worker_0 worker_1 "
'

test_expect_success 'the artifacts have the shape of one sender'"'"'s' '
	for f in profile_export_aiperf.json; do
		shape c1/$f >s1 && shape c3/$f >s3 && test_cmp s1 s3 || return 1
	done &&
	head -1 c1/profile_export_aiperf.csv >h1 && head -1 c3/profile_export_aiperf.csv >h3 &&
	test_cmp h1 h3 &&
	cut -d, -f1 c1/profile_export_aiperf.csv >r1 && cut -d, -f1 c3/profile_export_aiperf.csv >r3 &&
	test_cmp r1 r3 &&
	head -1 c1/profile_export.jsonl | jq -r "[paths(scalars) | map(tostring) | join(\".\")] | .[]" |
		grep -v "^metrics\." | sort >j1 &&
	head -1 c3/profile_export.jsonl | jq -r "[paths(scalars) | map(tostring) | join(\".\")] | .[]" |
		grep -v "^metrics\." | sort >j3 &&
	test_cmp j1 j3 &&
	test -s c3/inputs.json && cmp c1/inputs.json c3/inputs.json &&
	! ls c3/.raw_records.spill* 2>/dev/null
'

test_expect_success 'a shard without warmup nor requests passes the barriers' '
	prof e3 3 --request-rate 200 --request-count 4 --warmup-request-count 1 >out 2>err &&
	test "$(ids e3 profiling | wc -l)" -eq 4 &&
	test "$(ids e3 warmup | wc -l)" -eq 1 &&
	grep -q "3 senders" e3/logs/aiperf.log
'

test_expect_success 'counts honoured: --request-count over the shards is the count' '
	prof n4 4 --concurrency 8 --request-count 37 --warmup-request-count 5 >out 2>err &&
	test "$(ids n4 profiling | wc -l)" -eq 37 &&
	test "$(ids n4 warmup | wc -l)" -eq 5 &&
	test "$(ids n4 profiling | sort -u | wc -l)" -eq 37
'

test_expect_success 'the descriptor limit spreads the concurrency by itself' '
	(ulimit -n 150 &&
		aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 8 --osl 4 \
		--export-level raw --ui-type none --random-seed 7 --concurrency 200 \
		--request-count 200 --artifact-dir a0 >out 2>err) &&
	grep -q "3 senders (--workers-max)" a0/logs/aiperf.log &&
	test "$(ids a0 profiling | wc -l)" -eq 200 &&
	! grep -q "\"error\":{" a0/profile_export_raw.jsonl
'

test_expect_success 'bad --workers-max values are usage errors' '
	test_expect_code 2 prof x 0 --request-count 2 >out 2>err &&
	grep -q "invalid value for --workers-max" err &&
	test_expect_code 2 prof x two --request-count 2 >out 2>err &&
	grep -q "invalid value for --workers-max" err
'

test_done
