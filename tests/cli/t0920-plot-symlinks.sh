#!/bin/sh
# aiperf-plot never writes through a symbolic link planted in its output
# folder: report.html, the plots gnuplot makes, the data files, scripts
# and logs are each written under a new name and renamed over theirs, so
# a link at one of those names is replaced and what it points to is left
# as it was; a data/ or runs/ folder that is a link is refused (exit 1)
# and nothing is written where it points. No work folder is left behind.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

# plant DIR NAME...: DIR/NAME a link to victims/NAME (its parents made),
# whose content is "victim NAME".
plant() {
	_d=$1
	shift
	for _n in "$@"; do
		mkdir -p "victims/$(dirname "$_n")" "$_d/$(dirname "$_n")" &&
		echo "victim $_n" >"victims/$_n" &&
		ln -s "$TMP/victims/$_n" "$_d/$_n" || return 1
	done
}

# untouched NAME...: each victim holds what it held, and DIR/NAME is a
# regular file now (DIR: $OUT).
untouched() {
	for _n in "$@"; do
		test "$(cat "victims/$_n")" = "victim $_n" ||
			{ echo "victims/$_n written through the link"; return 1; }
		if ! test -f "$OUT/$_n" || test -L "$OUT/$_n"; then
			echo "$OUT/$_n is not a regular file"
			return 1
		fi
	done
}

NAMES="report.html ttft_histogram.png ttft_histogram.svg data/ttft_histogram.dat
data/ttft_histogram.gp data/ttft_histogram.log"

test_expect_success 'links at every output name of a run are replaced, not written through' '
	OUT=out && plant out $NAMES &&
	aiperf-plot --paths "$DATA/single" --output out >path &&
	test "$(cat path)" = out/report.html &&
	untouched $NAMES &&
	grep -q "<figure id=\"fig-ttft_histogram\">" out/report.html &&
	test "$(find out -name ".*" | wc -l)" = 0
'

test_expect_success 'the same with records on stdin' '
	OUT=stdin && plant stdin $NAMES &&
	aiperf-plot --output stdin <"$DATA/single/profile_export.jsonl" >/dev/null &&
	untouched $NAMES
'

test_expect_success 'several runs: a link in a run section folder is replaced too' '
	OUT=sweep && plant sweep report.html pareto.svg runs/single/ttft_histogram.svg \
		runs/single/data/ttft_histogram.log &&
	aiperf-plot --paths "$DATA/single" "$DATA/pareto-c2" --output sweep >/dev/null &&
	untouched report.html pareto.svg runs/single/ttft_histogram.svg \
		runs/single/data/ttft_histogram.log
'

test_expect_success 'a data/ folder that is a link is refused; nothing written where it points' '
	mkdir elsewhere o1 && ln -s "$TMP/elsewhere" o1/data &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" --output o1 >path 2>err &&
	grep "'\''o1/data'\'' is a symbolic link: not followed" err &&
	test "$(ls -A elsewhere)" = "" && ! test -e o1/report.html &&
	test "$(find o1 -name ".*" | wc -l)" = 0
'

test_expect_success 'a runs/ folder or a run folder in it that is a link is refused' '
	mkdir o2 o3 o3/runs && ln -s "$TMP/elsewhere" o2/runs &&
	ln -s "$TMP/elsewhere" o3/runs/single &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" "$DATA/pareto-c2" --output o2 \
		>path 2>err &&
	grep "'\''o2/runs'\'' is a symbolic link: not followed" err &&
	test_expect_code 1 aiperf-plot --paths "$DATA/single" "$DATA/pareto-c2" --output o3 \
		>path 2>err &&
	grep "'\''o3/runs/single'\'' is a symbolic link: not followed" err &&
	test "$(ls -A elsewhere)" = ""
'
test_done
