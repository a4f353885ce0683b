#!/bin/sh
# aiperf-plot --dashboard serves only regular files reached from its
# folder without a symbolic link: a link planted at a served name (to a
# file outside, or to a plot inside), a folder that is a link (runs/R,
# data) and a FIFO each answer 404 at once (curl --max-time 10), and
# nothing of their targets is sent; a plain file is still served.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
command -v curl >/dev/null || test_skip_all "no curl"

# code PATH: the status of GET PATH (000: no answer in 10 s), the body in got.
code() {
	curl -s --max-time 10 -o got -w "%{http_code}" --path-as-is "$URL$1" || :
}

# refused PATH...: each answers 404 and sends nothing of secret.
refused() {
	for _p in "$@"; do
		_c=$(code "$_p")
		test "$_c" = 404 || { echo "$_p: $_c"; return 1; }
		! grep -q "secret" got || { echo "$_p: sent the secret"; return 1; }
	done
}

test_expect_success 'setup: a report, with links and a FIFO planted in its folder' '
	echo "secret text" >secret &&
	mkdir -p elsewhere/r/data && echo "secret r" >elsewhere/r/x.png &&
	echo "secret d" >elsewhere/r/data/x.dat &&
	aiperf-plot --paths "$DATA/single" --output out >/dev/null &&
	ln -s "$TMP/secret" out/evil.png &&
	ln -s /etc/passwd out/passwd.svg &&
	ln -s ttft_histogram.png out/alias.png &&
	ln -s "$TMP/secret" out/data/evil.dat &&
	mkdir out/runs && ln -s "$TMP/elsewhere/r" out/runs/r &&
	mkfifo out/fifo.png &&
	echo "plain file" >out/plain.dat
'

test_expect_success 'a link at a served name answers 404' '
	start_plot_dashboard --paths "$DATA/single" --output out --refresh 3600 &&
	refused evil.png passwd.svg alias.png data/evil.dat &&
	! grep -q "^root:" got
'

test_expect_success 'a folder that is a link answers 404 for what is in it' '
	plot_dashboard_url &&
	refused runs/r/x.png runs/r/data/x.dat
'

test_expect_success 'a FIFO answers 404 at once' '
	plot_dashboard_url &&
	refused fifo.png
'

test_expect_success 'a data/ folder that is a link answers 404' '
	plot_dashboard_url &&
	mv out/data out/data.real && ln -s "$TMP/elsewhere/r/data" out/data &&
	refused data/x.dat &&
	rm out/data && mv out/data.real out/data
'

test_expect_success 'plain files are still served' '
	plot_dashboard_url &&
	test "$(code plain.dat)" = 200 && test "$(cat got)" = "plain file" &&
	test "$(code ttft_histogram.png)" = 200 && cmp got out/ttft_histogram.png &&
	test "$(code "")" = 200 && cmp got out/report.html &&
	stop_plot_dashboard TERM
'
test_done
