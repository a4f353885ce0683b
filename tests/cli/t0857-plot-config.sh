#!/bin/sh
# aiperf-plot --config: the original's plot_config.yaml picks the plots
# (single_run_defaults, multi_run_defaults) and their titles; timeslice
# presets draw their y's stat per slice; experiment_classification splits
# the comparisons into baseline (grey) and treatment (green) series by
# experiment group; groups/labels columns; custom x/y comparisons; bad
# configurations are errors naming the line. Data blocks equal values read
# independently from the artifacts with python.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
"$PY" -c "import json" 2>/dev/null || test_skip_all "no /usr/bin/python3"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

# blocks FILE: the data file's blocks as JSON [[title, [[cols...]...]]...]
blocks() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
out, title, rows, blank = [], None, [], 0
for line in open(sys.argv[1]).read().split("\n"):
    if line.startswith("# block"):
        title = line.split(": ", 1)[1]
    elif line.startswith("#"):
        continue
    elif line == "":
        blank += 1
        if blank == 2:
            out.append([title, rows]); title, rows = None, []
    else:
        blank = 0
        rows.append(line.split(" ", 2))
print(json.dumps(out))
PYEOF
}

cat >"$TMP/single.yaml" <<'YEOF'
visualization:
  single_run_defaults:
    - ttft_over_time
    - timeslices_ttft
    - latency_over_time
  single_run_plots:
    ttft_over_time:
      type: scatter
      x: request_number
      y: time_to_first_token
      title: "My TTFT"
    latency_over_time: {type: scatter_with_percentiles, x: timestamp, y: request_latency}
    timeslices_ttft:
      type: histogram
      x: Timeslice
      y: Time to First Token
      stat: p90
      source: timeslices
      use_slice_duration: true
    unused_plot: {type: scatter, y: request_latency}
  multi_run_defaults: []
YEOF

test_expect_success 'single_run_defaults pick the plots, in order, with their titles' '
	aiperf-plot --paths "$DATA/single" --output one --config single.yaml >out 2>err &&
	test ! -s err &&
	(cd one/data && ls *.dat) >got &&
	printf "latency_over_time.dat\nttft_over_time.dat\ntimeslices_ttft.dat\n" | sort >want &&
	test_cmp want got &&
	grep -o "id=.fig-[a-z_]*" one/report.html >order &&
	printf "id=\"fig-ttft_over_time\nid=\"fig-timeslices_ttft\nid=\"fig-latency_over_time\n" >want &&
	test_cmp want order &&
	grep -q "set title \"My TTFT\"" one/data/ttft_over_time.gp &&
	test -s one/timeslices_ttft.png
'

test_expect_success 'a timeslice preset: its stat per slice equals the timeslices file' '
	blocks one/data/timeslices_ttft.dat >got.json &&
	"$PY" - "$DATA/single/profile_export_aiperf_timeslices.json" got.json <<-\PYEOF
	import json, sys
	ts = json.load(open(sys.argv[1]))
	dur = ts["input_config"].get("output", {}).get("slice_duration") or 0
	want = [[s["timeslice_index"] * dur if dur else s["timeslice_index"],
	         s["time_to_first_token"]["p90"]] for s in ts["timeslices"]]
	got = json.load(open(sys.argv[2]))
	assert len(got) == 1 and got[0][0] == "Time to First Token", got
	rows = [[float(a), float(b)] for a, b in got[0][1]]
	assert len(rows) == len(want) and len(rows) > 0, (rows, want)
	for r, w in zip(rows, want):
	    assert abs(r[0] - w[0]) <= 1e-9 and abs(r[1] - w[1]) <= 1e-9 * abs(w[1]), (r, w)
	PYEOF
'

test_expect_success 'sweep: baseline and treatment series by experiment group' '
	mkdir -p exp/baseline exp/treatment &&
	cp -r "$DATA/pareto-c1" exp/baseline/c1 && cp -r "$DATA/pareto-c2" exp/baseline/c2 &&
	cp -r "$DATA/pareto-c2" exp/treatment/c2 && cp -r "$DATA/pareto-c4" exp/treatment/c4 &&
	cat >cls.yaml <<-\YEOF &&
	visualization:
	  multi_run_defaults: [ttft_vs_throughput, pareto, custom_p99]
	  multi_run_plots:
	    ttft_vs_throughput:
	      type: scatter_line
	      x: time_to_first_token_avg
	      y: request_throughput_avg
	      labels: [concurrency]
	      groups: [model]
	    pareto: {type: pareto, labels: [run_name]}
	    custom_p99:
	      type: scatter_line
	      x: {metric: request_throughput, stat: avg}
	      y: time_to_first_token_p99
	      title: TTFT p99 vs throughput
	  single_run_defaults: []
	experiment_classification:
	  baselines: ["*baseline*"]
	  treatments: ["*treatment*"]
	  default: treatment
	  group_display_names: {treatment: "new scheduler"}
	YEOF
	aiperf-plot --paths exp --output cls --config cls.yaml >out 2>err &&
	test ! -s err &&
	(cd cls/data && ls *.dat) >got &&
	printf "custom_p99.dat\npareto.dat\nttft_vs_throughput.dat\n" >want &&
	test_cmp want got &&
	for f in ttft_vs_throughput pareto custom_p99; do blocks cls/data/$f.dat >$f.json || return 1; done &&
	"$PY" - exp <<-\PYEOF &&
	import json, os, sys
	def summ(d):
	    return json.load(open(os.path.join(sys.argv[1], d, "profile_export_aiperf.json")))
	runs = {}
	for g in ("baseline", "treatment"):
	    ds = sorted(os.listdir(os.path.join(sys.argv[1], g)),
	                key=lambda d: summ(g + "/" + d)["input_config"]["loadgen"]["concurrency"])
	    runs[g] = [summ(g + "/" + d) for d in ds]
	def close(a, b):
	    return abs(float(a) - b) <= 1e-12 * max(1, abs(b))
	def check(name, fx, fy, label):
	    got = json.load(open(name + ".json"))
	    assert [b[0] for b in got[:2]] == ["baseline", "new scheduler"], got
	    for (title, rows), g in zip(got, ("baseline", "treatment")):
	        assert len(rows) == len(runs[g]), (name, rows)
	        for row, s in zip(rows, runs[g]):
	            assert close(row[0], fx(s)) and close(row[1], fy(s)), (name, row)
	            assert row[2] == label(s), (name, row)
	    return got
	c = lambda s: s["input_config"]["loadgen"]["concurrency"]
	check("ttft_vs_throughput", lambda s: s["time_to_first_token"]["avg"],
	      lambda s: s["request_throughput"]["avg"], lambda s: "\"c=%d\"" % c(s))
	check("custom_p99", lambda s: s["request_throughput"]["avg"],
	      lambda s: s["time_to_first_token"]["p99"], lambda s: "\"c=%d\"" % c(s))
	got = check("pareto", lambda s: s["output_token_throughput"]["avg"],
	            lambda s: s["output_token_throughput_per_user"]["avg"],
	            lambda s: "\"c%d\"" % c(s))
	assert [b[0] for b in got[2:]] == ["baseline frontier", "new scheduler frontier"], got
	PYEOF
	grep -q "title \"baseline\"" cls/data/ttft_vs_throughput.gp &&
	grep "title \"baseline\"" cls/data/ttft_vs_throughput.gp | grep -q "#7f7f7f" &&
	grep "title \"new scheduler\"" cls/data/ttft_vs_throughput.gp | grep -q "#76b900" &&
	grep -q "set title \"TTFT p99 vs throughput\"" cls/data/custom_p99.gp
'

test_expect_success 'without classification: groups [model] is one series per model' '
	sed "/^experiment_classification/,\$d" cls.yaml >model.yaml &&
	grep -q "multi_run_defaults" model.yaml && ! grep -q "experiment_classification" model.yaml &&
	aiperf-plot --paths exp --output mod --config model.yaml >out 2>err &&
	blocks mod/data/ttft_vs_throughput.dat >m.json &&
	"$PY" -c "import json; b = json.load(open(\"m.json\")); assert [x[0] for x in b] == [\"m\"] and len(b[0][1]) == 4, b" &&
	blocks mod/data/pareto.dat >p.json &&
	"$PY" -c "import json; b = json.load(open(\"p.json\")); assert [x[0] for x in b] == [\"c1\", \"c2\", \"c4\", \"c1 frontier\", \"c2 frontier\", \"c4 frontier\"], b" &&
	! grep -q "#76b900" mod/data/ttft_vs_throughput.gp
'

# bad CONFIG-TEXT WANT: aiperf-plot exits 1 with WANT (a grep pattern) on
# stderr; CONFIG-TEXT "-": bad.yaml as it is
bad() {
	if [ "$1" != - ]; then printf "%b" "$1" >bad.yaml; fi &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" --output bad --config bad.yaml 2>err &&
	if ! grep -q -- "$2" err; then cat err; return 1; fi
}

test_expect_success 'bad configurations: errors naming the file and line' '
	bad "" "bad.yaml:1: empty configuration" &&
	bad "a: [1, 2\\n" "bad.yaml:2: .*flow sequence" &&
	bad "plots: {}\\n" "bad.yaml:1: missing .visualization. top-level key" &&
	bad "- 1\\n" "bad.yaml:1: the configuration: expected a mapping, got a list" &&
	bad "visualization:\\n  single_run_defaults: [nope]\\n" \
		"bad.yaml:2: plot .nope. listed in single_run_defaults but not found in single_run_plots" &&
	bad "visualization:\\n  single_run_defaults: [a]\\n  single_run_plots:\\n    a: {type: pie, y: x}\\n" \
		"bad.yaml:4: plot .a.: unknown type .pie." &&
	bad "visualization:\\n  single_run_defaults: [a]\\n  single_run_plots:\\n    a:\\n      y: x\\n" \
		"bad.yaml:5: plot .a.: missing .type." &&
	bad "visualization:\\n  multi_run_defaults: [a]\\n  multi_run_plots:\\n    a: {type: pareto, x: b, y: c, groups: [model, concurrency]}\\n" \
		"bad.yaml:4: groups: one column only" &&
	bad "visualization:\\n  multi_run_defaults: [a]\\n  multi_run_plots:\\n    a: {type: pareto, x: b, y: c, labels: [gpu]}\\n" \
		"bad.yaml:4: labels: unknown column .gpu." &&
	bad "visualization:\\n  single_run_defaults: [../x]\\n  single_run_plots:\\n    ../x: {type: scatter, y: a}\\n" \
		"bad.yaml:4: plot name .\\.\\./x.: use 1 to 100 letters" &&
	bad "visualization: {}\\nvisualization: {}\\n" "bad.yaml:2: the configuration: key .visualization. given twice" &&
	bad "visualization: {}\\nexperiment_classification: {default: control}\\n" \
		"bad.yaml:2: default: .control. is neither .baseline. nor .treatment." &&
	bad "visualization: {}\\nexperiment_classification: {baselines: \\"*a*\\"}\\n" \
		"bad.yaml:2: baselines: expected a list of glob patterns" &&
	printf "%s\\n" "visualization:" "  single_run_defaults: [a]" "  single_run_plots:" \
		"    a: {type: scatter, y: \"\\x01\"}" >bad.yaml &&
	bad - "bad.yaml:4: y: control character" &&
	bad "visualization:\\n  single_run_defaults: [a]\\n  single_run_plots: &p\\n    a: *p\\n" \
		"bad.yaml:3: plot .a.: missing .type." &&
	printf "visualization: {}\\n\\000\\n" >nul.yaml &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" --output bad --config nul.yaml 2>err &&
	grep -q "nul.yaml: a NUL byte" err &&
	test ! -e bad/report.html
'

test_expect_success 'an empty selection draws no plots; the report still has the tables' '
	printf "visualization:\\n  single_run_defaults: []\\n" >none.yaml &&
	aiperf-plot --paths "$DATA/single" --output none --config none.yaml >out &&
	test ! -e none/data/ttft_histogram.dat &&
	grep -q "time_to_first_token" none/report.html
'

test_done
