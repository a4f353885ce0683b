#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# genai-perf(1)'s table of GenAI-Perf's options, from
# data/genai-perf-options.tsv, as mdoc; t1144 checks that the man page
# holds it. Usage: sh scripts/genai-perf-man.sh [TSV] (writes the table on
# standard output; paste it between the man page's table markers).
tsv=${1:-$(dirname "$0")/../data/genai-perf-options.tsv}
awk -F '\t' '
function fl(name) { return "Fl " substr(name, 2) }
function head(names, value, prefix,   n, a, i, s) {
	if (names == "-")
		return "Cm " yaml
	n = split(names, a, " ")
	s = ""
	for (i = 1; i <= n; i++)
		s = s (i > 1 ? " , " : "") fl(a[i])
	if (value != "")
		s = s " Cm " value (prefix ? " Ns Ar ..." : "")
	return s
}
/^#/ || NF == 0 { next }
{
	names = $1; value = ""; prefix = 0
	if ((i = index(names, "=")) > 0) {
		value = substr(names, i + 1)
		names = substr(names, 1, i - 1)
		if (value ~ /\*$/) { value = substr(value, 1, length(value) - 1); prefix = 1 }
	}
	yaml = $3
	print ".It " head(names, value, prefix)
	if ($5 == "!")
		print "Refused" ($6 != "-" ? ": " $6 "." : ".")
	else if ($5 == "~")
		print "Ignored" ($6 != "-" ? ": " $6 "." : ".")
	else if ($5 == "@plots")
		print "Is\n.Nm aiperf Cm profile Fl -auto-plot :\neach run is plotted as it ends, a sweep once it is aggregated."
	else if ($5 == "@help")
		print "Prints the synopsis."
	else if ($5 == "@version")
		print "Prints the version."
	else if ($5 == "@dry-run")
		print "Prints the command lines instead of running them (ours)."
	else {
		t = $5
		gsub(/\*/, "value", t)
		printf "Becomes\n.Ql %s%s\n", t, ($2 == "words" || $2 == "joined") ? "" : " ."
		if ($2 == "words")
			print "once a value."
		else if ($2 == "joined")
			print "with the values as one, space-separated."
		if ($6 != "-")
			print $6 "."
	}
	if (yaml != "-" && names != "-")
		print "Config key\n.Cm " yaml (($4 != "-") ? " ,\nGenAI-Perf\047s default\n.Cm " $4 " ." : " .")
	else if (names == "-" && $4 != "-")
		print "GenAI-Perf\047s default\n.Cm " $4 " ."
}' "$tsv"
