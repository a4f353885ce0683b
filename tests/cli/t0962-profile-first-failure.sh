#!/bin/sh
# aiperf profile: the stage that failed first is named first, with its
# file and reason, before what follows from it (aiperf-export's "no
# profiling records"): a disk that fills while aiperf-gen writes
# inputs.json blames aiperf-gen, not aiperf-export (issue #27, R27).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 400 --osl 2 --request-count 100 --concurrency 4 --url "$MOCK_URL" \
		--ui-type none "$@"
}

# limited CMD...: CMD under a file size limit of 50 KB (sh counts 512-byte
# blocks), SIGXFSZ ignored so that a write past it fails with EFBIG.
limited() {
	(trap "" XFSZ; ulimit -f 100; "$@")
}

# first_failure DIR REASON: err's first line blames aiperf-gen, its second
# names DIR/inputs.json and REASON; aiperf-export's messages come after.
first_failure() {
	sed -n 1p err | grep -q "^aiperf profile: aiperf-gen failed (status 1)" &&
	sed -n 2p err | grep -qxF "aiperf-gen: cannot write '$PWD/$1/inputs.json': $2" &&
	! sed -n 1,2p err | grep -q aiperf-export &&
	grep -q "^aiperf-export: no profiling records in the input" err &&
	! grep -q "aiperf-export failed" err
}

# A file size limit stands in for a full disk (EFBIG where ENOSPC would
# be): inputs.json (some 200 KB) does not fit in 50 KB, the files of a run
# without records do.
test_expect_success 'inputs.json on a full disk: aiperf-gen is named first' '
	test_expect_code 1 limited prof --artifact-dir full >out 2>err &&
	first_failure full "File too large" &&
	grep -q "ERROR - aiperf-gen failed (status 1)" full/logs/aiperf.log
'

# A link planted in the artifact directory is replaced, never written
# through (t0982), so a full device is reached only by naming it.
test_expect_success 'inputs.json on a device that is full: ENOSPC, aiperf-gen says so' '
	test -w /dev/full || skip_because "no writable /dev/full" &&
	test_expect_code 1 aiperf-gen --model test/model --tokenizer builtin --random-seed 7 \
		--isl 400 --osl 2 --request-count 100 --inputs-json /dev/full >/dev/null 2>err &&
	grep -qxF "aiperf-gen: cannot write '\''/dev/full'\'': No space left on device" err
'

test_expect_success 'a run that fails nowhere: aiperf-export'"'"'s messages still shown' '
	aiperf profile --model test/model --tokenizer builtin --isl 8 --osl 2 \
		--request-count 2 --url "$MOCK_URL" --ui-type none \
		--server-metrics http://127.0.0.1:1/metrics --artifact-dir ok >out 2>err &&
	grep -q "^aiperf-export: server metrics: no successful scrape of http://127.0.0.1:1/metrics" err &&
	grep -q "^CLI Command: " out
'

test_done
