#!/bin/sh
# aiperf-plot's named inputs are regular files, refused at once otherwise
# (never waited on): a FIFO as a run's profile_export.jsonl, as its
# summary or as an aggregate/'s JSON is an error naming it, not a file
# passed over; a FIFO or a device as --config is refused before anything
# is written; a --config over 1 MiB is refused by its size. Exit 1 each.
# Each run is bounded (timeout 20): a reader that waited on a FIFO would
# be killed, and fail.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"

# refused MESSAGE ARGS...: aiperf-plot ARGS exits 1 at once, saying MESSAGE.
refused() {
	_m=$1
	shift
	test_expect_code 1 timeout 20 aiperf-plot "$@" >out 2>err || return 1
	test "$(cat err)" = "aiperf-plot: $_m" || { cat err; return 1; }
}

test_expect_success 'a FIFO as profile_export.jsonl is refused, not passed over' '
	mkdir r && cp "$DATA/single/profile_export_aiperf.json" r/ &&
	mkfifo r/profile_export.jsonl &&
	refused "cannot open '\''r/profile_export.jsonl'\'': Not a regular file" \
		--paths r --output o
'

test_expect_success 'a FIFO as the summary is refused' '
	mkdir s && mkfifo s/profile_export_aiperf.json &&
	refused "cannot read '\''s/profile_export_aiperf.json'\'': Not a regular file" \
		--paths s --output o
'

test_expect_success 'a FIFO as an aggregate JSON is refused' '
	mkdir -p a/run a/aggregate && cp "$DATA/single/profile_export_aiperf.json" a/run/ &&
	mkfifo a/aggregate/profile_export_aiperf_aggregate.json &&
	refused "cannot read '\''a/aggregate/profile_export_aiperf_aggregate.json'\'': Not a regular file" \
		--paths a --output o
'

test_expect_success 'a FIFO or a device as --config is refused before anything is written' '
	mkfifo c.yaml &&
	refused "cannot read '\''c.yaml'\'': Not a regular file" --config c.yaml \
		--paths "$DATA/single" --output oc &&
	refused "cannot read '\''/dev/null'\'': Not a regular file" --config /dev/null \
		--paths "$DATA/single" --output oc &&
	! test -e oc
'

test_expect_success 'a --config over 1 MiB is refused by its size' '
	{ echo "visualization:" && head -c 1048577 /dev/zero | tr "\0" "#"; } >big.yaml &&
	refused "cannot read '\''big.yaml'\'': larger than 1 MiB" --config big.yaml \
		--paths "$DATA/single" --output oc
'
test_done
