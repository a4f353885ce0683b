/* SPDX-License-Identifier: Apache-2.0 */
/* A scanner for the compact metric records aiperf-metrics writes (fastrec.h). */
#include "summary/fastrec.h"

#include "summary/agg.h"

#include <math.h>

#include "util.h"

#define FR_MAX_NUM 64	/* longer number text is left to the parser */

void
frec_init(struct frec *fr)
{
	memset(fr, 0, sizeof(*fr));
	fr->at = xcalloc(metricdefs_len, sizeof(*fr->at));
	fr->stamp = xcalloc(metricdefs_len, sizeof(*fr->stamp));
	fr->pre = xcalloc(metricdefs_len, sizeof(*fr->pre));
	fr->post = xcalloc(metricdefs_len, sizeof(*fr->post));
	fr->npre = xcalloc(metricdefs_len, sizeof(*fr->npre));
	fr->npost = xcalloc(metricdefs_len, sizeof(*fr->npost));
	fr->order = xcalloc(metricdefs_len, sizeof(*fr->order));
	for (size_t i = 0; i < metricdefs_len; i++) {
		const struct metricdef *d = &metricdefs[i];
		struct buf b = BUF_INIT(BUF_NOMAX);

		json_quote(&b, d->tag, strlen(d->tag));
		buf_addstr(&b, ":{\"value\":");
		fr->pre[i] = buf_detach(&b, &fr->npre[i]);
		buf_addstr(&b, ",\"unit\":");
		json_quote(&b, d->display, strlen(d->display));
		buf_addch(&b, '}');
		fr->post[i] = buf_detach(&b, &fr->npost[i]);
	}
}

void
frec_release(struct frec *fr)
{
	free(fr->m);
	free(fr->base);
	free(fr->at);
	free(fr->stamp);
	free(fr->delay);
	for (size_t i = 0; i < metricdefs_len; i++) {
		free(fr->pre[i]);
		free(fr->post[i]);
	}
	free(fr->pre);
	free(fr->post);
	free(fr->npre);
	free(fr->npost);
	free(fr->order);
}

struct frscan {
	const char *p, *end;
};

static int
fr_lit(struct frscan *sc, const char *s, size_t n)
{
	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, s, n))
		return -1;
	sc->p += n;
	return 0;
}

#define FR_ONES ((uint64_t)0x0101010101010101)
#define FR_HIGHS (FR_ONES * 0x80)

/* The bytes of the eight in x that are '"', '\\', < 0x20 or > 0x7e: a
 * high bit at the first of them (those after it may be wrong). */
static inline uint64_t
fr_stops(uint64_t x)
{
	uint64_t q = x ^ (FR_ONES * '"'), b = x ^ (FR_ONES * '\\'), d = x ^ (FR_ONES * 0x7f);

	return (((x - FR_ONES * 0x20) & ~x) | ((q - FR_ONES) & ~q) | ((b - FR_ONES) & ~b) |
		((d - FR_ONES) & ~d) | x) & FR_HIGHS;
}

/* A string of printable ASCII without escapes: its bytes, or NULL. */
static inline const char *
fr_str(struct frscan *sc, size_t *len)
{
	const char *p = sc->p, *s;

	if (p >= sc->end || *p != '"')
		return NULL;
	s = ++p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (sc->end - p >= 8) {
		uint64_t x, st;

		memcpy(&x, p, 8);
		if ((st = fr_stops(x))) {
			p += __builtin_ctzll(st) / 8;
			break;
		}
		p += 8;
	}
#endif
	while (p < sc->end && *p != '"') {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e || *p == '\\')
			return NULL;
		p++;
	}
	if (p >= sc->end)
		return NULL;
	*len = (size_t)(p - s);
	sc->p = p + 1;
	return s;
}

static int
fr_digits(struct frscan *sc)
{
	const char *p = sc->p;

	while (sc->p < sc->end && *sc->p >= '0' && *sc->p <= '9')
		sc->p++;
	return sc->p > p ? 0 : -1;
}

/* A JSON number, as a NUL-terminated copy in a number node (tmp), or
 * only skipped when j is NULL. */
static int
fr_num(struct frscan *sc, struct json *j, char tmp[FR_MAX_NUM])
{
	const char *s = sc->p;

	if (sc->p < sc->end && *sc->p == '-')
		sc->p++;
	if (sc->p < sc->end && *sc->p == '0')
		sc->p++;
	else if (sc->p >= sc->end || *sc->p < '1' || *sc->p > '9' || fr_digits(sc) < 0)
		return -1;
	if (sc->p < sc->end && *sc->p == '.') {
		sc->p++;
		if (fr_digits(sc) < 0)
			return -1;
	}
	if (sc->p < sc->end && (*sc->p == 'e' || *sc->p == 'E')) {
		sc->p++;
		if (sc->p < sc->end && (*sc->p == '+' || *sc->p == '-'))
			sc->p++;
		if (fr_digits(sc) < 0)
			return -1;
	}
	size_t n = (size_t)(sc->p - s);

	if (!j)
		return 0;
	if (n >= FR_MAX_NUM)
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	memset(j, 0, sizeof(*j));
	j->type = JSON_NUMBER;
	j->str = tmp;
	j->len = n;
	return 0;
}

/* A plain integer (no leading zero, fraction or exponent) that fits in
 * int64, read in place as json_int64() reads it: 0, or -1 with sc
 * unmoved for any other text. */
static int
fr_int_plain(struct frscan *sc, int64_t *out)
{
	const char *p = sc->p, *end = sc->end, *s;
	int neg = p < end && *p == '-';
	uint64_t x = 0;

	for (s = p += neg; p < end && *p >= '0' && *p <= '9' && p - s < 20; p++)
		x = x * 10 + (uint64_t)(*p - '0');
	if (p == s || p - s > 19 || (*s == '0' && p - s > 1) ||
	    (p < end && (*p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9'))) ||
	    x > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*out = neg ? (int64_t)(0 - x) : (int64_t)x;
	sc->p = p;
	return 0;
}

static int
fr_int_of(struct frscan *sc, int64_t *out)
{
	char tmp[FR_MAX_NUM];
	struct json j;

	if (fr_int_plain(sc, out) == 0)
		return 0;
	return fr_num(sc, &j, tmp) < 0 ? -1 : json_int64(&j, out);
}

static int
fr_key(struct frscan *sc, const char **k, size_t *kn)
{
	*k = fr_str(sc, kn);
	return *k && fr_lit(sc, ":", 1) == 0 ? 0 : -1;
}

#define FR_KEY_IS(k, n, s) ((n) == sizeof(s) - 1 && !memcmp((k), (s), sizeof(s) - 1))

/* The keys ks[0..n) (each within its line, "key": around it) as the
 * keys the next record's metadata likely has; none when they do not fit. */
static void
fr_keep_keys(struct frec *fr, const char *const *ks, const size_t *kns, size_t n)
{
	size_t off = 0;

	fr->nmkey = 0;
	if (n > FR_MKEYS)
		return;
	for (size_t i = 0; i < n; i++) {
		if (kns[i] + 3 > FR_MKEY_BYTES - off)
			return;
		fr->mkoff[i] = off;
		memcpy(fr->mkey + off, ks[i] - 1, kns[i] + 3);
		off += kns[i] + 3;
	}
	fr->mkoff[n] = off;
	fr->nmkey = n;
}

/*
 * The flat metadata object: the three members agg.c reads (the last of
 * each). A key whose "key": text is the one the last record had at its
 * place is taken as it is (those bytes were read as a key then).
 */
static int
fr_metadata(struct frec *fr, struct frscan *sc)
{
	const char *k, *v, *ks[FR_MKEYS];
	size_t kn, vn, kns[FR_MKEYS], i = 0;
	char tmp[FR_MAX_NUM];
	struct json j;
	int miss = 0;

	if (fr_lit(sc, "{", 1) < 0)
		return -1;
	if (fr_lit(sc, "}", 1) == 0)
		return 0;
	do {
		size_t want = i < fr->nmkey ? fr->mkoff[i + 1] - fr->mkoff[i] : 0;

		if (want && (size_t)(sc->end - sc->p) > want &&
		    !memcmp(sc->p, fr->mkey + fr->mkoff[i], want)) {
			k = sc->p + 1;
			kn = want - 3;
			sc->p += want;
		} else if (fr_key(sc, &k, &kn) < 0 || sc->p >= sc->end) {
			return -1;
		} else {
			miss = 1;
		}
		if (i < FR_MKEYS) {
			ks[i] = k;
			kns[i] = kn;
		}
		i++;
		int64_t *t = FR_KEY_IS(k, kn, "request_start_ns") ? &fr->start
			: FR_KEY_IS(k, kn, "request_end_ns") ? &fr->end : NULL;
		int *have = t == &fr->start ? &fr->have_start : &fr->have_end;
		int phase = FR_KEY_IS(k, kn, "benchmark_phase");

		if (t)
			*have = 0;
		if (phase)
			fr->warmup = 0;
		switch (*sc->p) {
		case '"':
			if (!(v = fr_str(sc, &vn)))
				return -1;
			if (phase)
				fr->warmup = FR_KEY_IS(v, vn, "warmup");
			break;
		case 't':
			if (fr_lit(sc, "true", 4) < 0)
				return -1;
			break;
		case 'f':
			if (fr_lit(sc, "false", 5) < 0)
				return -1;
			break;
		case 'n':
			if (fr_lit(sc, "null", 4) < 0)
				return -1;
			break;
		default:
			if (t && fr_int_plain(sc, t) == 0) {
				*have = 1;
				break;
			}
			if (fr_num(sc, t ? &j : NULL, tmp) < 0)
				return -1;
			if (t)
				*have = json_int64(&j, t) == 0;
		}
	} while (fr_lit(sc, ",", 1) == 0);
	if (fr_lit(sc, "}", 1) < 0)
		return -1;
	if (miss || i != fr->nmkey)
		fr_keep_keys(fr, ks, kns, i);
	return 0;
}

static void
fr_push_base(struct frec *fr, double v)
{
	if (fr->nbase == fr->capbase) {
		fr->capbase = fr->capbase ? 2 * fr->capbase : 256;
		fr->base = xreallocarray(fr->base, fr->capbase, sizeof(*fr->base));
	}
	fr->base[fr->nbase++] = v;
}

__extension__ typedef unsigned __int128 fr_u128;

/*
 * m / 10^k rounded to the nearest double, ties to even, as strtod does,
 * for 0 < m < 2^64 and 0 <= k <= 22: m is shifted to the top of 128 bits
 * (so that the quotient keeps at least 54 of them: 2^127 / 10^22 > 2^53),
 * divided exactly, and the quotient's bits past the 53rd and the
 * remainder decide the rounding. Every step is integer arithmetic, the
 * last an exact power-of-two scaling of a 53-bit integer.
 */
static double
fr_exact(uint64_t m, int k)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
		10000000, 100000000, 1000000000, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL };
	fr_u128 d = k <= 19 ? p10[k] : (fr_u128)p10[19] * p10[k - 19];
	int s = 64 + __builtin_clzll(m);
	fr_u128 num = (fr_u128)m << s, q = num / d;
	int sticky = num % d != 0;
	int bits = 128 - (q >> 64 ? __builtin_clzll((uint64_t)(q >> 64))
				 : 64 + __builtin_clzll((uint64_t)q));
	int shift = bits - 53;	/* >= 1: q has 54 bits or more */
	uint64_t mant = (uint64_t)(q >> shift);
	fr_u128 rest = q & (((fr_u128)1 << shift) - 1), half = (fr_u128)1 << (shift - 1);

	if (rest > half || (rest == half && (sticky || (mant & 1))))
		mant++;
	if (mant >> 53) {
		mant >>= 1;
		shift++;
	}
	/* mant * 2^(shift - s), mant in [2^52, 2^53): a normal double
	 * (1e-7 < m / 10^k < 1e20) whose bits are written directly */
	uint64_t u = (uint64_t)(shift - s + 52 + 1023) << 52 | (mant & (((uint64_t)1 << 52) - 1));
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/*
 * A JSON number as a double: json_double()'s own fast path (Clinger's: at
 * most 15 significant digits, a decimal exponent within +-22, one exact
 * IEEE operation) read while scanning; 16 to 19 digits (the shortest text
 * of most doubles has 17) by fr_exact(); else json_double() on its text.
 */
static int
fr_num_double(struct frscan *sc, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
		1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
		1e19, 1e20, 1e21, 1e22 };
	const char *p = sc->p, *end = sc->end, *ip, *fp;
	uint64_t m = 0;
	int neg = 0, e10 = 0;
	ptrdiff_t digits, zeros;	/* significant: digits - zeros (leading ones) */
	char tmp[FR_MAX_NUM];
	struct json j;
	double d;

	if (p < end && *p == '-')
		neg = 1, p++;
	if (p >= end || *p < '0' || *p > '9' || (*p == '0' && p + 1 < end &&
						 p[1] >= '0' && p[1] <= '9'))
		goto slow;
	/* m wraps past 19 digits, which are counted from the text */
	for (ip = p; p < end && *p >= '0' && *p <= '9'; p++)
		m = m * 10 + (uint64_t)(*p - '0');
	digits = p - ip;
	zeros = *ip == '0';	/* a lone 0 */
	if (p < end && *p == '.') {
		if (++p >= end || *p < '0' || *p > '9')
			goto slow;
		for (fp = p; p < end && *p >= '0' && *p <= '9'; p++)
			m = m * 10 + (uint64_t)(*p - '0');
		if (p - fp > 22)
			goto slow;
		e10 = -(int)(p - fp);
		digits += p - fp;
		for (const char *z = fp; zeros && z < p && *z == '0'; z++)
			zeros++;
	}
	digits -= zeros;
	if (digits > 19 || (p < end && (*p == 'e' || *p == 'E')))
		goto slow;
	if (digits > 15) {
		d = fr_exact(m, -e10);
	} else {
		d = (double)m;
		d = e10 < 0 ? d / pow10[-e10] : d;
	}
	*out = neg ? -d : d;
	sc->p = p;
	return 0;
slow:
	if (fr_num(sc, &j, tmp) < 0 || json_double(&j, out) < 0)
		return -1;
	return 0;
}

/* One value of a metric: its base value is kept for a METRIC_RECORD. */
static int
fr_metric_num(struct frec *fr, struct frscan *sc, const struct metricdef *d, struct fmet *m)
{
	double v;

	if (fr_num_double(sc, &v) < 0)
		return -1;
	m->display = v;
	if (!d || d->kind != METRIC_RECORD)
		return 0;
	v = agg_to_base(v, d->factor);
	if (!isfinite(v))
		return -1;	/* the parser's path says "value out of range" */
	fr_push_base(fr, v);
	m->n++;
	return 0;
}

/* "tag":{"value":V,"unit":"u"}; first as the last record had it */
static int
fr_metric(struct frec *fr, struct frscan *sc)
{
	const char *k, *u;
	size_t kn, un, left = (size_t)(sc->end - sc->p);
	const struct metricdef *d = NULL;
	struct fmet m = { 0, 0, NAN, fr->nbase, 0 };

	if (fr->nm < fr->norder) {
		size_t t = fr->order[fr->nm];

		if (left > fr->npre[t] && !memcmp(sc->p, fr->pre[t], fr->npre[t])) {
			d = &metricdefs[t];
			sc->p += fr->npre[t];
		}
	}
	if (!d) {
		if (fr_key(sc, &k, &kn) < 0 || fr_lit(sc, "{\"value\":", 9) < 0 || sc->p >= sc->end)
			return -1;
		d = metricdef_findn(k, kn);
	}
	if (d) {
		m.def = (size_t)(d - metricdefs);
		if (fr->stamp[m.def] == fr->gen)
			return -1;	/* twice: the general path knows which counts */
	}
	if (*sc->p == '[') {
		m.arr = 1;
		sc->p++;
		if (fr_lit(sc, "]", 1) < 0) {
			do {
				if (fr_metric_num(fr, sc, d, &m) < 0)
					return -1;
			} while (fr_lit(sc, ",", 1) == 0);
			if (fr_lit(sc, "]", 1) < 0)
				return -1;
		}
		m.display = NAN;
	} else if (fr_metric_num(fr, sc, d, &m) < 0) {
		return -1;
	}
	if (d && (size_t)(sc->end - sc->p) >= fr->npost[m.def] &&
	    !memcmp(sc->p, fr->post[m.def], fr->npost[m.def]))
		sc->p += fr->npost[m.def];
	else if (fr_lit(sc, ",\"unit\":", 8) < 0 || !(u = fr_str(sc, &un)) || fr_lit(sc, "}", 1) < 0)
		return -1;
	if (!d)
		return 0;
	if (fr->nm == fr->capm) {
		fr->capm = fr->capm ? 2 * fr->capm : 32;
		fr->m = xreallocarray(fr->m, fr->capm, sizeof(*fr->m));
	}
	fr->stamp[m.def] = fr->gen;
	fr->at[m.def] = fr->nm;
	fr->m[fr->nm++] = m;
	return 0;
}

static int
fr_metrics(struct frec *fr, struct frscan *sc)
{
	if (fr_lit(sc, "{", 1) < 0)
		return -1;
	if (fr_lit(sc, "}", 1) == 0)
		return 0;
	do {
		if (fr_metric(fr, sc) < 0)
			return -1;
	} while (fr_lit(sc, ",", 1) == 0);
	return fr_lit(sc, "}", 1);
}

static int
fr_delay_one(struct frec *fr, struct frscan *sc)
{
	int64_t v;

	if (fr_int_of(sc, &v) < 0)
		return -1;	/* the parser's path rejects the record */
	if (fr->ndelay == fr->capdelay) {
		fr->capdelay = fr->capdelay ? 2 * fr->capdelay : 16;
		fr->delay = xreallocarray(fr->delay, fr->capdelay, sizeof(*fr->delay));
	}
	fr->delay[fr->ndelay++] = v;
	return 0;
}

static int
fr_delays(struct frec *fr, struct frscan *sc)
{
	fr->ndelay = 0;
	fr->have_delay = 1;
	if (fr_lit(sc, "[", 1) < 0)
		return fr_delay_one(fr, sc);
	if (fr_lit(sc, "]", 1) == 0)
		return 0;
	do {
		if (fr_delay_one(fr, sc) < 0)
			return -1;
	} while (fr_lit(sc, ",", 1) == 0);
	return fr_lit(sc, "]", 1);
}

/* The "aiperf" object aiperf-metrics writes (health.c): integers only. */
static int
fr_aiperf(struct frec *fr, struct frscan *sc)
{
	const char *k;
	size_t kn;
	int rc;

	fr->have_aiperf = 1;
	if (fr_lit(sc, "{", 1) < 0)
		return -1;
	if (fr_lit(sc, "}", 1) == 0)
		return 0;
	do {
		if (fr_key(sc, &k, &kn) < 0)
			return -1;
		if (FR_KEY_IS(k, kn, "schedule_lateness_ns"))
			rc = fr_int_of(sc, &fr->late);
		else if (FR_KEY_IS(k, kn, "intended_latency_ns"))
			rc = fr_int_of(sc, &fr->intended);
		else if (FR_KEY_IS(k, kn, "cpu_ns"))
			rc = fr_int_of(sc, &fr->cpu);
		else if (FR_KEY_IS(k, kn, "observation_delay_ns"))
			rc = fr_delays(fr, sc);
		else
			return -1;
		if (rc < 0)
			return -1;
		fr->have_late |= FR_KEY_IS(k, kn, "schedule_lateness_ns");
		fr->have_intended |= FR_KEY_IS(k, kn, "intended_latency_ns");
		fr->have_cpu |= FR_KEY_IS(k, kn, "cpu_ns");
	} while (fr_lit(sc, ",", 1) == 0);
	if (fr_lit(sc, "}", 1) < 0)
		return -1;
	return fr->have_cpu && fr->cpu < 0 ? -1 : 0;
}

int
frec_scan(struct frec *fr, const char *s, size_t n)
{
	struct frscan sc = { s, s + n };

	if (++fr->gen == 0) {
		memset(fr->stamp, 0, metricdefs_len * sizeof(*fr->stamp));
		fr->gen = 1;
	}
	fr->warmup = fr->have_start = fr->have_end = 0;
	fr->nm = fr->nbase = fr->ndelay = 0;
	fr->have_aiperf = fr->have_cpu = fr->have_late = fr->have_intended = fr->have_delay = 0;
	if (fr_lit(&sc, "{\"metadata\":", 12) < 0 || fr_metadata(fr, &sc) < 0 ||
	    fr_lit(&sc, ",\"metrics\":", 11) < 0)
		return -1;
	int rc = fr_metrics(fr, &sc);

	/* no duplicates: each metricdef at most once */
	for (size_t i = 0; i < fr->nm; i++)
		fr->order[i] = fr->m[i].def;
	fr->norder = fr->nm;
	if (rc < 0)
		return -1;
	if (fr_lit(&sc, ",\"aiperf\":", 10) == 0 && fr_aiperf(fr, &sc) < 0)
		return -1;
	return fr_lit(&sc, "}", 1) == 0 && sc.p == sc.end ? 0 : -1;
}

int
frec_value(const struct frec *fr, size_t def, double *v)
{
	const struct fmet *m;

	if (fr->stamp[def] != fr->gen)
		return -1;
	m = &fr->m[fr->at[def]];
	if (m->arr)
		return -1;
	*v = m->display;
	return 0;
}
