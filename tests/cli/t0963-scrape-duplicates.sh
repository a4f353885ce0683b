#!/bin/sh
# aiperf-scrape: duplicate Prometheus series (the same name and labels, a
# histogram's bucket with the same le) keep their first sample, and say
# so on stderr once per metric and endpoint, however many samples and
# scrapes repeat them; aiperf profile passes the warning on (issue #27,
# R27). Each record's warnings hold one line per metric.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/www"
printf '# TYPE g gauge\ng{a="1"} 1\ng{a="1"} 2\ng{a="1"} 3\ng{a="2"} 4\ng{a="2"} 5\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3\nh_count 2\nh_count 2\nok 1\n' \
	>"$TMP/www/dup"
awk 'BEGIN { for (i = 0; i < 40; i++) printf "m%d 1\nm%d 2\n", i, i }' >"$TMP/www/many"

start_http_dir "$TMP/www" || exit 1

# scrapes N URL...: aiperf-scrape polling the URLs into out (err) until
# out holds N records, at most 10 s.
scrapes() {
	n=$1
	shift
	# emptied here, not by the job's redirection: the loop must not count
	# the last test's records before the scraper has started
	: >out
	aiperf-scrape --interval 0.02 "$@" >>out 2>err &
	pid=$!
	i=0
	while [ "$(wc -l <out)" -lt "$n" ] && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	kill -TERM $pid && wait $pid
}

test_expect_success 'duplicates: the first sample kept, one record warning a metric' '
	aiperf-scrape --once "$URL/dup" >out 2>err &&
	jq -e ".warning_count == 2 and
		.warnings == [\"3 duplicate samples of '"'"'g'"'"' dropped: the first of each series kept\",
			\"2 duplicate samples of '"'"'h'"'"' dropped: the first of each series kept\"] and
		[.metrics.g.series[].value] == [1, 4] and
		.metrics.h.series[0].buckets == {\"1\": 1, \"+Inf\": 2} and
		.metrics.h.series[0].count == 2" out
'

test_expect_success 'duplicates: one stderr warning a metric, not one a sample' '
	test "$(wc -l <err)" -eq 2 &&
	grep -qxF "aiperf-scrape: warning: scrape of '"'"'$URL/dup'"'"': duplicate series of '"'"'g'"'"' (3 samples dropped, the first of each series kept); not said again for it" err &&
	grep -q "duplicate series of '"'"'h'"'"' (2 samples dropped" err
'

test_expect_success 'duplicates: said once per endpoint over many scrapes' '
	scrapes 10 "$URL/dup" "$URL/dup?second" &&
	test "$(wc -l <out)" -ge 10 &&
	test "$(grep -c "scrape of '"'"'$URL/dup'"'"': duplicate series of '"'"'g'"'"'" err)" -eq 1 &&
	test "$(grep -c "scrape of '"'"'$URL/dup?second'"'"': duplicate series of '"'"'g'"'"'" err)" -eq 1 &&
	test "$(wc -l <err)" -eq 4
'

test_expect_success 'duplicates of many metrics: 32 named, one line for the rest' '
	scrapes 3 "$URL/many" &&
	test "$(grep -c "duplicate series of" err)" -eq 32 &&
	test "$(grep -c "more metrics with duplicate series, not named" err)" -eq 1 &&
	test "$(wc -l <err)" -eq 33 &&
	jq -e -s ".[0].warning_count == 40" out
'

start_mock --ttft-ms 2 --itl-ms 1

test_expect_success 'aiperf profile: the scraper'"'"'s duplicate warning once a metric' '
	aiperf profile --model test/model --tokenizer builtin --isl 8 --osl 2 \
		--request-count 4 --url "$MOCK_URL" --server-metrics "$URL/dup" \
		--ui-type none --artifact-dir p >stdout 2>err &&
	jq -e ".summary.endpoint_info[\"$URL/dup\"].total_fetches >= 2" \
		p/server_metrics_export.json &&
	test "$(grep -c "^aiperf profile: server metrics: warning: scrape of '"'"'$URL/dup'"'"': duplicate series of '"'"'g'"'"'" err)" -eq 1 &&
	test "$(grep -c "duplicate series of '"'"'h'"'"'" err)" -eq 1 &&
	grep -q "WARNING - server metrics: warning: scrape of .*duplicate series of '"'"'g'"'"'" p/logs/aiperf.log
'

test_done
