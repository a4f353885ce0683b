// SPDX-License-Identifier: Apache-2.0
// The floor under aiperf-metrics | aiperf-export: what reading the raw
// records with simdjson (Debian libsimdjson-dev, a SIMD JSON parser) and
// passing one metric record a line between two processes cost, with no
// metric computed. bench/metrics.sh builds it and times it beside the
// real stages on the same records.
//
//   json-floor parse RECORD < raw.jsonl   each line parsed in full (DOM),
//       its metadata, payload and each "data" packet's value read, and
//       each packet's JSON (a string in the record) parsed again; then the
//       metric record line in file RECORD written to stdout per line, in
//       64 KiB writes (aiperf-metrics' way). RECORD "-" writes nothing.
//   json-floor drain < metric.jsonl        the lines read in 64 KiB reads
//       and split (aiperf-export's least: find each newline).
//
// Quiet; status 1 (and a line on stderr) when nothing was read.
//
// It is a measuring stick, not a part: nothing here is built by make or
// shipped.
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace simdjson;

static volatile size_t sink;

static void
put(std::string &out, const std::string &rec)
{
	out += rec;
	if (out.size() >= (1 << 16)) {
		if (write(1, out.data(), out.size()) != (ssize_t)out.size())
			exit(1);
		out.clear();
	}
}

/* One raw record parsed and read; -1: not JSON. */
static int
line(dom::parser &outer, dom::parser &inner, const char *s, size_t len,
     size_t &packets, size_t &sum)
{
	dom::element doc;
	if (outer.parse(s, len, false).get(doc))
		return -1;
	dom::object md;
	if (!doc["metadata"].get(md))
		for (auto kv : md)
			sum += kv.key.size();
	dom::element pl;
	if (!doc["payload"].get(pl))
		sum += pl.is_object();
	dom::array resps;
	if (doc["responses"].get(resps))
		return 0;
	for (dom::element r : resps) {
		int64_t perf;
		dom::array pks;

		if (!r["perf_ns"].get(perf))
			sum += (size_t)perf;
		if (r["packets"].get(pks))
			continue;
		for (dom::element p : pks) {
			std::string_view name, val, text;
			dom::element pj;

			if (p["name"].get(name) || name != "data" || p["value"].get(val))
				continue;
			packets++;
			if (val == "[DONE]" || inner.parse(val.data(), val.size(), true).get(pj))
				continue;
			if (!pj.at_pointer("/choices/0/delta/content").get(text))
				sum += text.size();
		}
	}
	return 0;
}

static int
parse(const char *recfile)
{
	std::string rec, out;
	dom::parser outer, inner;
	size_t lines = 0, packets = 0, sum = 0;

	if (strcmp(recfile, "-")) {
		FILE *f = fopen(recfile, "r");
		char b[1 << 16];
		size_t n;

		if (!f)
			return perror(recfile), 2;
		while ((n = fread(b, 1, sizeof(b), f)) > 0)
			rec.append(b, n);
		fclose(f);
	}
	/* 1 MiB reads into one buffer (with simdjson's padding after it), the
	 * whole lines in it parsed in place, the rest moved to its start */
	static char buf[(1 << 20) + SIMDJSON_PADDING];
	size_t have = 0;
	ssize_t got;

	while ((got = read(0, buf + have, (1 << 20) - have)) > 0 || have) {
		size_t end = have + (got > 0 ? (size_t)got : 0), at = 0;

		if (got <= 0)
			buf[end++] = '\n';	/* the last line without its newline */
		for (;;) {
			const char *nlp = (const char *)memchr(buf + at, '\n', end - at);
			if (!nlp)
				break;
			if (line(outer, inner, buf + at, (size_t)(nlp - buf) - at, packets, sum) < 0)
				return fprintf(stderr, "line %zu: not JSON\n", lines + 1), 1;
			lines++;
			if (!rec.empty())
				put(out, rec);
			at = (size_t)(nlp - buf) + 1;
		}
		if (at == 0 && end == (1 << 20))
			return fprintf(stderr, "line %zu: over 1 MiB\n", lines + 1), 1;
		memmove(buf, buf + at, end - at);
		have = end - at;
		if (got <= 0)
			break;
	}
	if (!out.empty() && write(1, out.data(), out.size()) != (ssize_t)out.size())
		return 1;
	sink = sum;	/* what was read is used: nothing is optimized away */
	if (!lines)
		return fprintf(stderr, "json-floor parse: %zu lines, %zu data packets\n",
			       lines, packets), 1;
	return 0;
}

static int
drain()
{
	static char b[1 << 16];
	size_t lines = 0, have = 0;
	ssize_t n;

	while ((n = read(0, b + have, sizeof(b) - have)) > 0) {
		const char *p = b, *end = b + have + n, *nl;

		while ((nl = (const char *)memchr(p, '\n', (size_t)(end - p))) != nullptr) {
			lines++;
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(b, p, have);
		if (have == sizeof(b))
			have = 0;	// a line over 64 KiB: counted as it ends
	}
	if (!lines)
		return fprintf(stderr, "json-floor drain: no lines\n"), 1;
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "parse"))
		return parse(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "drain"))
		return drain();
	fprintf(stderr, "usage: json-floor parse RECORD < raw.jsonl | json-floor drain\n");
	return 2;
}
