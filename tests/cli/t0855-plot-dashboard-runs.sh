#!/bin/sh
# aiperf-plot --dashboard on the layout of aiperf profile
# --num-profile-runs: runs appearing one by one in profile_runs/run_000N
# are picked up at the next poll, each with its section; when aggregate/
# appears, report.html shows its confidence table (metric, mean, ci_low,
# ci_high, cv), checked against the JSON that aiperf-aggregate wrote.
# A run's own plots are served from runs/NAME/, nothing around them is.
# Every wait is a bounded loop.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
command -v curl >/dev/null || test_skip_all "no curl"

test_expect_success 'the dashboard starts on an artifact folder with no runs yet' '
	mkdir -p art/profile_runs &&
	start_plot_dashboard --refresh 1 --paths art --output out &&
	curl -sf "$URL" | grep -q "No runs yet"
'

test_expect_success 'run_0001, then run_0002 appear: each is picked up, with its section' '
	plot_dashboard_url &&
	cp -r "$DATA/single" art/profile_runs/run_0001 &&
	wait_line dash.err "report updated: 1 runs" &&
	cp -r "$DATA/pareto-c2" art/profile_runs/run_0002 &&
	wait_line dash.err "report updated: 2 runs" &&
	curl -sf "$URL" >page &&
	grep -q "2 runs," page &&
	grep -q "<h2>Run run_0001</h2>" page &&
	grep -q "<figure id=\"fig-pareto\">" page &&
	! grep -q "class=\"confidence\"" page
'

test_expect_success 'a run section plots are served; paths around them are not' '
	plot_dashboard_url &&
	curl -sf -o t.png -w "%{content_type}\n" "${URL}runs/run_0001/ttft_histogram.png" >type &&
	test "$(cat type)" = image/png && test -s t.png &&
	curl -sf "${URL}runs/run_0001/data/ttft_histogram.dat" | grep -q "^# columns" &&
	for p in runs/../report.html runs/.x/a.png runs/run_0001/../../x runs/run_0001 \
		runs//a.png runs/a/b/c.png; do
		test "$(curl -s -o /dev/null -w "%{http_code}" --path-as-is "${URL}$p")" = 404 ||
			{ echo "served $p"; return 1; }
	done
'

test_expect_success 'aggregate/ appears: the confidence table, equal to its JSON' '
	plot_dashboard_url &&
	cp -r "$DATA/pareto-c4" art/profile_runs/run_0003 &&
	aiperf-aggregate -o art/aggregate art/profile_runs/run_0002 art/profile_runs/run_0003 \
		art/profile_runs/run_0001 >/dev/null &&
	wait_line dash.err "report updated: 3 runs, confidence intervals" &&
	curl -sf "$URL" >page &&
	grep -q "<table class=\"confidence\">" page &&
	"$PY" -c "
import json, sys
agg = json.load(open(\"art/aggregate/profile_export_aiperf_aggregate.json\"))
page = open(\"page\").read()
n = 0
for key, m in agg[\"metrics\"].items():
    cv = \"\" if m[\"cv\"] is None else \"%.4f\" % m[\"cv\"]
    row = \"<tr><td>%s</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%s</td><td>%s</td></tr>\" % (
        key, m[\"mean\"], m[\"ci_low\"], m[\"ci_high\"], cv, m[\"unit\"])
    if row not in page:
        sys.exit(\"no row \" + row)
    n += 1
assert n > 10, n
print(\"ok\", n, \"rows\")
" &&
	grep -q "3 successful runs of 3, 95% confidence intervals" page
'

test_expect_success 'SIGTERM stops it cleanly' '
	stop_plot_dashboard TERM
'
test_done
