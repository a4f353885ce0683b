#!/bin/sh
# aiperf-plot --dashboard: serves the report on loopback (127.0.0.1 by
# default), with a meta refresh; a run that appears in a watched folder is
# in the report at the next poll; plots and data are served, nothing
# outside the output folder; SIGTERM and SIGINT stop it cleanly (exit 0).
# Every wait is a bounded loop.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
command -v curl >/dev/null || test_skip_all "no curl"
# stop SIGNAL: the dashboard stops on it, exits 0 and says so.
stop() {
	stop_plot_dashboard "$1" && grep -q "stopped" dash.err
}

test_expect_success 'serves the report on 127.0.0.1 with a meta refresh' '
	mkdir watch && cp -r "$DATA/pareto-c1" watch/ &&
	start_plot_dashboard --paths watch --output out --refresh 1 &&
	case $URL in http://127.0.0.1:*/) ;; *) echo "URL $URL"; false ;; esac &&
	curl -sf "$URL" >page &&
	grep -q "<meta http-equiv=\"refresh\" content=\"1\">" page &&
	grep -q "1 run," page
'

test_expect_success 'a new run in the watched folder appears in the report' '
	plot_dashboard_url &&
	cp -r "$DATA/pareto-c2" watch/ &&
	wait_line dash.err "report updated: 2 runs" &&
	curl -sf "$URL" >page &&
	grep -q "2 runs," page &&
	grep -q "<figure id=\"fig-pareto\">" page &&
	curl -sf -o p.png -w "%{content_type}\n" "${URL}pareto.png" >type &&
	test "$(cat type)" = image/png && test -s p.png &&
	curl -sf "${URL}data/pareto.dat" | grep -q "c=2" &&
	curl -sf "${URL}report.html" | cmp - page
'

test_expect_success 'nothing outside the output folder is served' '
	plot_dashboard_url &&
	test "$(curl -s -o /dev/null -w "%{http_code}" --path-as-is "${URL}../watch/pareto-c1/profile_export_aiperf.json")" = 404 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" --path-as-is "${URL}data/../../x")" = 404 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -X POST "$URL")" = 405
'

test_expect_success 'SIGTERM stops it cleanly' '
	test -s "$TMP/dash.pid" && stop TERM
'

test_expect_success 'SIGINT stops it cleanly; a folder still empty is a waiting page' '
	mkdir later &&
	start_plot_dashboard --paths later/runs --output out2 &&
	curl -sf "$URL" | grep -q "No runs yet" &&
	stop INT
'

test_expect_success 'a port in use is a clear error' '
	start_plot_dashboard --paths watch --output out3 &&
	port=${URL##*:} && port=${port%/} &&
	test_expect_code 1 timeout 10 aiperf-plot --dashboard --port "$port" --paths watch --output out4 2>err &&
	grep "cannot listen on 127.0.0.1 port $port" err &&
	stop TERM
'
test_done
