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
# Tests run in subshells: the dashboard's pid and URL live in files.
trap '[ ! -s "$TMP/dash.pid" ] || kill "$(cat "$TMP/dash.pid")" 2>/dev/null; cleanup' EXIT

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (10 s at most).
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "$2" "$1"
}

# dash ARGS...: starts the dashboard in the background (its pid in
# $TMP/dash.pid, its exit status in dash.rc when it ends); sets URL.
dash() {
	rm -f dash.rc dash.err "$TMP/dash.pid"
	# shellcheck disable=SC2094 # dash.pid is written once, then read
	sh -c 'aiperf-plot --dashboard --port 0 "$@" 2>dash.err &
		echo $! >"$0"; wait $!; echo $? >dash.rc' "$TMP/dash.pid" "$@" &
	wait_for dash.err "serving http://" &&
	urls
}

# urls: URL from the dashboard's message.
urls() {
	URL=$(sed -n "s|.*serving \(http://[^ ]*\) .*|\1|p" dash.err | head -1)
	test -n "$URL"
}

# stop SIGNAL: the dashboard stops on it and exits 0.
stop() {
	kill -"$1" "$(cat "$TMP/dash.pid")" &&
	wait_for dash.rc . &&
	rm -f "$TMP/dash.pid" &&
	test "$(cat dash.rc)" -eq 0 && grep -q "stopped" dash.err
}

test_expect_success 'serves the report on 127.0.0.1 with a meta refresh' '
	mkdir watch && cp -r "$DATA/pareto-c1" watch/ &&
	dash --paths watch --output out --refresh 1 &&
	case $URL in http://127.0.0.1:*/) ;; *) echo "URL $URL"; false ;; esac &&
	curl -sf "$URL" >page &&
	grep -q "<meta http-equiv=\"refresh\" content=\"1\">" page &&
	grep -q "1 run," page
'

test_expect_success 'a new run in the watched folder appears in the report' '
	urls &&
	cp -r "$DATA/pareto-c2" watch/ &&
	wait_for dash.err "report updated: 2 runs" &&
	curl -sf "$URL" >page &&
	grep -q "2 runs," page &&
	grep -q "<figure id=\"fig-pareto\">" page &&
	curl -sf -o p.png -w "%{content_type}\n" "${URL}pareto.png" >type &&
	test "$(cat type)" = image/png && test -s p.png &&
	curl -sf "${URL}data/pareto.dat" | grep -q "c=2" &&
	curl -sf "${URL}report.html" | cmp - page
'

test_expect_success 'nothing outside the output folder is served' '
	urls &&
	test "$(curl -s -o /dev/null -w "%{http_code}" --path-as-is "${URL}../watch/pareto-c1/profile_export_aiperf.json")" = 404 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" --path-as-is "${URL}data/../../x")" = 404 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -X POST "$URL")" = 405
'

test_expect_success 'SIGTERM stops it cleanly' '
	test -s "$TMP/dash.pid" && stop TERM
'

test_expect_success 'SIGINT stops it cleanly; a folder still empty is a waiting page' '
	mkdir later &&
	dash --paths later/runs --output out2 &&
	curl -sf "$URL" | grep -q "No runs yet" &&
	stop INT
'

test_expect_success 'a port in use is a clear error' '
	dash --paths watch --output out3 &&
	port=${URL##*:} && port=${port%/} &&
	test_expect_code 1 timeout 10 aiperf-plot --dashboard --port "$port" --paths watch --output out4 2>err &&
	grep "cannot listen on 127.0.0.1 port $port" err &&
	stop TERM
'
test_done
