/* SPDX-License-Identifier: Apache-2.0 */
/* The checks across stages that no single stage can make, the wrapper's own options, the hosts. */
#include "planner.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const levels[] = { "TRACE", "DEBUG", "INFO", "NOTICE", "WARNING",
				      "SUCCESS", "ERROR", "CRITICAL", NULL };
static const int level_nums[] = { 5, 10, 20, 25, 30, 35, 40, 50 };

/* Whether s is all digits (bash's ^[0-9]+$). */
static int
digits(const char *s)
{
	return s && *s && strspn(s, "0123456789") == strlen(s);
}

/* s as bash's arithmetic reads a number here: digits, else 0. */
static long long
num(const char *s)
{
	long long v;
	const char *why;

	if (!digits(s) || util_strtonum(s, 0, LLONG_MAX, &v, &why) < 0)
		return 0;
	return v;
}

void
check_export_level(struct planner *p)
{
	const char *level = val(p, "--export-level", "records");

	if (strcmp(level, "summary") && strcmp(level, "records") && strcmp(level, "raw"))
		usage_error("profile: invalid value for --export-level: '%s' (summary, records, raw)",
			    level);
}

/* read_ahead: how far the sender reads ahead of its send times. A run
 * bounded by a count is read whole first; a very large one (over 100,000
 * requests), and one bounded by a duration, read 8,192 records ahead. */
static void
read_ahead(struct planner *p)
{
	if (is_set(p, "--benchmark-duration") || num(val(p, "--request-count", "0")) > 100000) {
		plan_argv_add(&p->read, "--read-ahead");
		plan_argv_add(&p->read, "8192");
	} else {
		plan_argv_add(&p->read, "--read-all");
	}
}

static void
need_with(struct planner *p, const char *opt, const char *with, const char *msg)
{
	if (is_set(p, opt) && !is_set(p, with))
		usage_error("%s", msg);
}

void
check_load_options(struct planner *p)
{
	need_with(p, "--benchmark-grace-period", "--benchmark-duration",
		  "profile: --benchmark-grace-period can only be used with duration-based benchmarking (--benchmark-duration).");
	need_with(p, "--warmup-grace-period", "--warmup-duration",
		  "--warmup-grace-period can only be used when --warmup-duration is set. Set --warmup-duration.");
	if (is_set(p, "--busy-poll") && is_set(p, "--no-busy-poll"))
		usage_error("profile: --busy-poll and --no-busy-poll cannot be used together");
	need_with(p, "--prefill-concurrency", "--streaming",
		  "profile: --prefill-concurrency requires --streaming to be enabled");
	/* with a duration the stream of requests must outlast it: the sender stops */
	if (is_set(p, "--benchmark-duration") && !is_set(p, "--request-count") &&
	    !is_set(p, "--conversation-num"))
		add_stage_arg(p, "g", "--request-count", "1000000000");
	/* user-centric runs with a duration wait for every turn */
	if (is_set(p, "--user-centric-rate") && is_set(p, "--benchmark-duration") &&
	    !is_set(p, "--benchmark-grace-period"))
		add_stage_arg(p, "s", "--benchmark-grace-period", "inf");
	if (is_set(p, "--request-rate"))
		add_stage_arg(p, "e", "--target-request-rate", get(p, "--request-rate"));
	read_ahead(p);
}

static int
level_of(const char *l)
{
	for (int i = 0; levels[i]; i++)
		if (!strcmp(levels[i], l))
			return i;
	return -1;
}

/* --fail-on-slo [--min-goodput-pct PCT] as aiperf-export's --min-goodput-pct. */
static void
slo_gate(struct planner *p)
{
	if (!is_set(p, "--fail-on-slo")) {
		if (is_set(p, "--min-goodput-pct"))
			usage_error("profile: --min-goodput-pct needs --fail-on-slo");
		return;
	}
	if (!*val(p, "--goodput", ""))
		usage_error("profile: --fail-on-slo needs --goodput (the SLOs that make a request good)");
	add_stage_arg(p, "e", "--min-goodput-pct", val(p, "--min-goodput-pct", "100"));
}

static void
only_choice(struct planner *p, const char *o)
{
	const struct proftab_opt *t = opt_get(p, o);
	const char *v = get(p, o);
	struct buf all;

	if (!t || !v || proftab_has_value(t, v))
		return;
	buf_init(&all, BUF_NOMAX);
	for (size_t i = 0; i < t->nvalues; i++)
		buf_addf(&all, "%s%s", i ? " " : "", t->values[i]);
	usage_error("profile: invalid value for %s: '%s' (the only choice here: %s)", o, v,
		    buf_str(&all));
}

void
check_wrapper_options(struct planner *p)
{
	char *l = xstrdup(val(p, "--log-level", "INFO"));
	int i;

	for (char *c = l; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	if ((i = level_of(l)) < 0)
		usage_error("profile: invalid value for --log-level: '%s' (TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR, CRITICAL)",
			    get(p, "--log-level"));
	if (is_set(p, "--verbose") && level_nums[i] > 10)
		i = 1;
	if (is_set(p, "--extra-verbose"))
		i = 0;
	p->loglevel = levels[i];
	free(l);
	slo_gate(p);
	only_choice(p, "--url-strategy");
	only_choice(p, "--transport");
}

long long
start_ns(const char *epoch_s)
{
	const char *dot = strchr(epoch_s, '.');
	char frac[10] = "000000000", *whole = xstrndup(epoch_s, dot ? (size_t)(dot - epoch_s)
								     : strlen(epoch_s));
	long long s = num(whole);

	free(whole);
	if (dot)
		memcpy(frac, dot + 1, strnlen(dot + 1, 9));
	return s * 1000000000LL + num(frac);
}

/* ^[0-9]+(\.[0-9]{1,9})?$ */
static int
epoch_ok(const char *s)
{
	size_t n = strspn(s, "0123456789"), f;

	if (n == 0)
		return 0;
	if (!s[n])
		return 1;
	if (s[n] != '.')
		return 0;
	f = strspn(s + n + 1, "0123456789");
	return f >= 1 && f <= 9 && !s[n + 1 + f];
}

/* --shard K: GEN and SEND become shard K's, one sender. */
static void
hosts_shard(struct planner *p, const char *k, long n)
{
	struct plan_argv shard = { 0 }, send = { 0 };
	char *s;

	if (!digits(k) || num(k) < 1 || num(k) > n)
		usage_error("profile: invalid value for --shard: '%s' (1 to --workers-max %ld)", k, n);
	shard_send(p, &p->send, num(k), "/nonexistent", &shard);
	for (size_t i = 0; i < shard.n; i++) {
		if (!strcmp(shard.v[i], "--phase-cue") || !strcmp(shard.v[i], "--phase-ack"))
			i++;
		else
			plan_argv_add(&send, shard.v[i]);
	}
	plan_argv_release(&shard);
	plan_argv_release(&p->send);
	p->send = send;
	s = xstrfmt("%s/%ld", k, n);
	plan_argv_add(&p->gen, "--shard");
	plan_argv_add(&p->gen, s);
	free(s);
	p->n_shards = n;
	p->workers = 1;
	if (p->start_at)
		add_stage_arg(p, "s", "--start-at", p->start_at);
}

void
hosts_resolve(struct planner *p)
{
	const char *k = val(p, "--shard", NULL), *n = val(p, "--workers-max", NULL);
	const char *opt = is_set(p, "--from-records") ? "--from-records" : "--shard";
	int from = is_set(p, "--from-records");

	p->start_at = val(p, "--start-at", NULL);
	if (p->start_at && !epoch_ok(p->start_at))
		usage_error("profile: invalid value for --start-at: '%s' (seconds since the epoch, up to 9 decimals)",
			    p->start_at);
	if (!k && !from) {
		if (p->start_at && p->workers == 1)
			add_stage_arg(p, "s", "--start-at", p->start_at);
		else if (p->start_at)
			p->start_ns = start_ns(p->start_at);
		return;
	}
	if (k && from)
		usage_error("profile: --shard and --from-records cannot be used together");
	if (from && p->start_at)
		usage_error("profile: --start-at has no meaning with --from-records (nothing is sent)");
	if (!n)
		usage_error("profile: %s needs --workers-max N, the number of shards", opt);
	if (!is_set(p, "--random-seed"))
		usage_error("profile: %s needs --random-seed: every host must build the same dataset", opt);
	if (p->workers != num(n))
		usage_error("profile: %s: with these options a run has %ld senders, not --workers-max %s (fewer requests, sessions or concurrency slots than shards?)",
			    opt, p->workers, n);
	if (!from)
		hosts_shard(p, k, (long)num(n));
}

void
ports_check(struct planner *p)
{
	long long c = num(val(p, "--concurrency", "0")), wc, lo, hi, n = 0, half;
	const char *wcs = val(p, "--warmup-concurrency", "0"), *u;
	struct plan_argv seen = { 0 };
	FILE *f;
	char *line, *host, *nl;

	if (is_set(p, "--from-records"))
		return;
	if (digits(wcs) && (wc = num(wcs)) > c)
		c = wc;
	if (*val(p, "--shard", ""))
		c = (c + num(get(p, "--workers-max")) - 1) / num(get(p, "--workers-max"));
	if (!(f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r")))
		return;
	if (fscanf(f, "%lld %lld", &lo, &hi) != 2 || lo < 0 || hi < 0) {
		fclose(f);
		return;
	}
	fclose(f);
	line = xstrdup(val(p, "--url", "localhost:8000"));
	for (char *s = line; s && *s; s = nl) {
		if ((nl = strchr(s, '\n')))
			*nl++ = '\0';
		if (!*s)
			continue;
		u = strstr(s, "://") ? strstr(s, "://") + 3 : s;
		host = xstrndup(u, strcspn(u, "/"));
		for (size_t i = 0; i < seen.n && host; i++)
			if (!strcmp(seen.v[i], host)) {
				free(host);
				host = NULL;
			}
		if (host)
			plan_argv_add(&seen, host);
		free(host);
	}
	free(line);
	n = seen.n ? (long long)seen.n : 1;
	plan_argv_release(&seen);
	half = (hi - lo + 1) / 2;
	if (c / n > half)
		warn("concurrency %lld over %lld server address(es) and port(s): past %lld connections to one (half of net.ipv4.ip_local_port_range %lld-%lld), each connect scans the local ports and the senders stall; give the server more ports or addresses (--url repeated), or widen the range",
		     c, n, half, lo, hi);
}
