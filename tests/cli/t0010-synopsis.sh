#!/bin/sh
# Every tool: --help prints its man page's SYNOPSIS (white space folded).
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"

# words: the text on stdin as one line, "usage: " dropped, blanks folded.
words() {
	sed "1s/^usage: //" | tr -s " \t\n" "   " | awk '{ $1 = $1; print }'
}

for man in "$TOP"/man/aiperf-*.1; do
	tool=$(basename "$man" .1)
	test_expect_success "$tool: --help equals the man page SYNOPSIS" '
		command -v mandoc >/dev/null || skip_because "mandoc is not installed" &&
		"$tool" --help | words >got &&
		mandoc -Tascii -O width=300 "$man" | col -b |
			sed -n "/^SYNOPSIS/,/^DESCRIPTION/p" | sed "1d;\$d" | words >want &&
		test -s want &&
		test_cmp want got
	'
done
test_done
