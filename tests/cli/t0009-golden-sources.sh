#!/bin/sh
# The golden expectations against their independent references: each
# tests/golden/<tool>/check.py recomputes every case from its input (numpy,
# rich, Python's random, the tokenizer oracle) without running our tools.
# What each case was checked against is in tests/golden/<tool>/SOURCES.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
for t in export metrics gen trace; do
	test_expect_success "aiperf-$t goldens agree with check.py" '
		"$PY" -c "import numpy, rich" 2>/dev/null ||
			skip_because "no python3-numpy or python3-rich"
		"$PY" "$TOP/tests/golden/aiperf-'$t'/check.py" >out 2>&1 || { cat out; false; }
		! tail -1 out | grep -q skipped || skip_because "$(tail -1 out) (no tokenizer oracle)"
	'
done
test_done
