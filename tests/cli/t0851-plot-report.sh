#!/bin/sh
# run.sh: long
# report.html in headless Chromium, light and dark, single run and sweep:
# the page loads from a file with the network unreachable (names resolve
# to nothing, the proxy is a closed port) and names nothing outside
# itself; Chromium logs no console message; the DOM holds one figure per
# plot; every plot is drawn (the #plots view stacks them at known places:
# tests/cli/pngcheck.py decodes the screenshot and checks each region);
# the page background follows the theme. The screenshots are kept in
# build/tests/t0851/.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
DATA=$TOP/tests/data/plot
KEEP=$TOP/build/tests/t0851
"$PY" -c "import numpy" 2>/dev/null || test_skip_all "no python3-numpy"
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
command -v chromium >/dev/null || test_skip_all "no chromium"
mkdir -p "$KEEP"

# shot URL PNG WIDTH HEIGHT [chromium options]: a screenshot, the log in PNG.log
shot() {
	_u=$1 _p=$2 _w=$3 _h=$4
	shift 4
	HOME=$TMP timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --no-first-run --hide-scrollbars \
		--host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 \
		--enable-logging=stderr --v=0 --window-size="$_w,$_h" "$@" \
		--screenshot="$_p" "$_u" >"$_p.out" 2>"$_p.log" && test -s "$_p"
}

# check KIND THEME: render, then load and check the report in Chromium.
check() {
	case $1 in
	single) paths=$DATA/single ;;
	sweep) paths="$DATA/pareto-c1 $DATA/pareto-c2 $DATA/pareto-c4" ;;
	esac
	# shellcheck disable=SC2086 # the paths are words
	aiperf-plot --paths $paths --output "$1-$2" --theme "$2" >/dev/null &&
	n=$(find "$1-$2/data" -name "*.dat" | wc -l) &&
	test "$n" -ge 6 &&
	! grep -n "src=\|href=\"[a-z]*:\|url([^#]\|@import" "$1-$2/report.html" &&
	test "$(grep -c "<figure id=" "$1-$2/report.html")" -eq "$n" &&
	test "$(grep -c "<svg" "$1-$2/report.html")" -eq "$n" &&
	url="file://$TMP/$1-$2/report.html" &&
	shot "$url#plots" "$1-$2-plots.png" 1000 $((n * 584)) &&
	! grep "CONSOLE\|Uncaught" "$1-$2-plots.png.log" &&
	"$PY" "$TOP/tests/cli/pngcheck.py" plots "$1-$2-plots.png" "$n" 1000 560 24 &&
	shot "$url" "$1-$2-page.png" 1100 1400 &&
	! grep "CONSOLE\|Uncaught" "$1-$2-page.png.log" &&
	"$PY" "$TOP/tests/cli/pngcheck.py" bg "$1-$2-page.png" "$2" &&
	cp "$1-$2-plots.png" "$1-$2-page.png" "$KEEP/"
}

test_expect_success 'single run, light: loads offline, every plot drawn' 'check single light'
test_expect_success 'single run, dark: loads offline, every plot drawn' 'check single dark'
test_expect_success 'sweep, light: loads offline, every plot drawn' 'check sweep light'
test_expect_success 'sweep, dark: loads offline, every plot drawn' 'check sweep dark'

test_expect_success 'the DOM Chromium built holds the tables and every figure' '
	test -f single-light/report.html &&
	HOME=$TMP timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
		--proxy-server=127.0.0.1:9 --dump-dom "file://$TMP/single-light/report.html" \
		>dom 2>/dev/null &&
	test "$(grep -c "<figure id=" dom)" -eq "$(find single-light/data -name "*.dat" | wc -l)" &&
	grep -q "<td>time_to_first_token</td>" dom &&
	grep -q "</html>" dom
'

test_expect_success 'the checks fail on a page with a blank plot and a console error' '
	test -f sweep-light/report.html &&
	sed -e "0,/<svg/s//<svg style=\"visibility:hidden\"/" \
		-e "s|</body>|<script>nope()</script></body>|" \
		sweep-light/report.html >broken.html &&
	shot "file://$TMP/broken.html#plots" broken.png 1000 $((6 * 584)) &&
	grep -q "Uncaught" broken.png.log &&
	! "$PY" "$TOP/tests/cli/pngcheck.py" plots broken.png 6 1000 560 24 >out &&
	grep "plot 1: .*, 1 colors" out
'
test_done
