/* SPDX-License-Identifier: Apache-2.0 */
/* Numbers with unit suffixes, parsed exactly with range checks (wrk units.c). */
#include "stats/units.h"

#include <string.h>

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit count_units[] = {
	{ "", 1 }, { "k", 1000 }, { "K", 1000 }, { "m", 1000000 },
	{ "M", 1000000 }, { "g", 1000000000 }, { "G", 1000000000 },
	{ NULL, 0 },
};

static const struct unit byte_units[] = {
	{ "", 1 }, { "B", 1 }, { "k", 1000 }, { "K", 1000 }, { "kB", 1000 },
	{ "KB", 1000 }, { "M", 1000000 }, { "MB", 1000000 },
	{ "G", 1000000000 }, { "GB", 1000000000 },
	{ "T", 1000000000000 }, { "TB", 1000000000000 },
	{ "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 }, { "GiB", 1ULL << 30 },
	{ "TiB", 1ULL << 40 }, { NULL, 0 },
};

static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	{ "m", 60000000000 }, { "h", 3600000000000 }, { NULL, 0 },
};

static int
fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -1;
}

static const struct unit *
find_unit(const struct unit *u, const char *suffix)
{
	for (; u->name; u++)
		if (!strcmp(u->name, suffix))
			return u;
	return NULL;
}

/* value = digits[int] . digits[frac] * mult, exactly, or -1. */
static int
scale(const char *ip, size_t ni, const char *fp, size_t nf, uint64_t mult,
      uint64_t max, uint64_t *out, const char **why)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t v = 0, f = 0, div = 1;

	while (nf && fp[nf - 1] == '0')
		nf--;
	if (nf > 19)
		return fail(why, "not a whole number");
	for (size_t i = 0; i < ni; i++) {
		uint64_t d = (uint64_t)(ip[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return fail(why, "too large");
		v = v * 10 + d;
	}
	for (size_t i = 0; i < nf; i++) {
		f = f * 10 + (uint64_t)(fp[i] - '0');
		div *= 10;
	}
	u128 frac = (u128)f * mult;
	if (frac % div)
		return fail(why, "not a whole number");
	u128 total = (u128)v * mult + frac / div;
	if (total > max)
		return fail(why, "too large");
	*out = (uint64_t)total;
	return 0;
}

static int
parse(const char *s, const struct unit *units, uint64_t dflt, uint64_t max,
      uint64_t *out, const char **why)
{
	const char *p = s, *ip, *fp = NULL;
	size_t ni, nf = 0;

	if (!s)
		return fail(why, "invalid number");
	ip = p;
	while (*p >= '0' && *p <= '9')
		p++;
	ni = (size_t)(p - ip);
	if (*p == '.') {
		fp = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		nf = (size_t)(p - fp);
	}
	if (ni + nf == 0)
		return fail(why, "invalid number");
	uint64_t mult = dflt;
	if (*p) {
		const struct unit *u = find_unit(units, p);
		if (!u)
			return fail(why, "unknown unit");
		mult = u->mult;
	}
	return scale(ip, ni, fp, nf, mult, max, out, why);
}

int
units_count(const char *s, uint64_t max, uint64_t *out, const char **why)
{
	return parse(s, count_units, 1, max, out, why);
}

int
units_bytes(const char *s, uint64_t max, uint64_t *out, const char **why)
{
	return parse(s, byte_units, 1, max, out, why);
}

int
units_duration_ns(const char *s, uint64_t dflt_ns, uint64_t max,
		  uint64_t *out, const char **why)
{
	return parse(s, time_units, dflt_ns, max, out, why);
}
