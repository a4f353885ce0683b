#!/bin/sh
# man-options.sh: aiperf(7)'s list of aiperf profile's options, between its
# two marker comments, generated anew from data/profile-options.tsv by
# bin/aiperf-plan --profile-man (make man-options; tests/cli/t1031 fails
# when the page and the table differ).
set -eu
page=man/aiperf.7
begin='.\" BEGIN: aiperf-plan --profile-man (make man-options); do not edit'
end='.\" END: aiperf-plan --profile-man'
if ! grep -qxF "$begin" "$page" || ! grep -qxF "$end" "$page"; then
	echo "man-options.sh: $page has no markers" >&2
	exit 1
fi
AIPERF_DATA_DIR=data bin/aiperf-plan --profile-man >"$page.list"
# (the markers through the environment: awk -v would take their backslash)
B=$begin E=$end L=$page.list awk '
	$0 == ENVIRON["B"] { print; while ((getline l < ENVIRON["L"]) > 0) print l; skip = 1; next }
	$0 == ENVIRON["E"] { skip = 0 }
	!skip' "$page" >"$page.tmp"
rm -f "$page.list"
mv "$page.tmp" "$page"
