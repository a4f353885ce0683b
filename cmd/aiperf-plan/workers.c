/* SPDX-License-Identifier: Apache-2.0 */
/* How many senders, each one's share, and the CPUs: workers_resolve, shard_args, busy_poll, cpu_split. */
#define _GNU_SOURCE
#include "planner.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static long long
number(const char *s)
{
	long long v;
	const char *why;

	if (!s || !*s || strspn(s, "0123456789") != strlen(s) ||
	    util_strtonum(s, 0, LLONG_MAX, &v, &why) < 0)
		return -1;
	return v;
}

/* The CPUs we may run on as taskset lists them: none when taskset is missing. */
void
cpu_list(struct planner *p)
{
	cpu_set_t set;

	p->ncpus = 0;
	if (!on_path("taskset"))
		return;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (int c = 0; c < CPU_SETSIZE && p->ncpus < 1024; c++)
		if (CPU_ISSET(c, &set))
			p->cpus[p->ncpus++] = c;
}

int
ncpu(const struct planner *p)
{
	cpu_set_t set;

	if (p->ncpus)
		return p->ncpus;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}

/* The descriptor limit's senders: each holds a socket per request in flight. */
static long long
senders_needed(long long c, long long *cap, long long *hard)
{
	struct rlimit rl;
	long long need;

	*hard = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY
			? (long long)rl.rlim_max : 1048576;
	*cap = *hard > 128 ? *hard - 64 : *hard / 2;
	need = *cap > 0 ? (c + *cap - 1) / *cap : 1;
	return need < 1 ? 1 : need;
}

/* Never more senders than concurrency slots, requests or sessions. */
static long long
senders_cap(const struct planner *p, long long n)
{
	const char *opts[] = { "--concurrency", "--warmup-concurrency", "--prefill-concurrency",
			       "--warmup-prefill-concurrency", "--request-count",
			       "--conversation-num" };
	long long v;

	for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++)
		if ((v = number(val(p, opts[i], ""))) >= 1 && n > v)
			n = v;
	return n;
}

void
workers_resolve(struct planner *p)
{
	const char *w = val(p, "--workers-max", NULL);
	long long c = number(val(p, "--concurrency", "0")), wc, n, need, cap, hard, cpus;

	if (w && ((n = number(w)) < 1 || n > 1024))
		usage_error("profile: invalid value for --workers-max: '%s' (1 to 1024)", w);
	c = c < 0 ? 0 : c;
	if ((wc = number(val(p, "--warmup-concurrency", "0"))) > c)
		c = wc;
	need = senders_needed(c, &cap, &hard);
	if (w) {
		n = number(w);
		if (n < need) {
			warn("--workers-max %s: concurrency %lld needs %lld senders (each holds at most %lld sockets, ulimit -Hn %lld): %lld used",
			     w, c, need, cap, hard, need);
			n = need;
		}
	} else {
		cpus = ncpu(p);
		n = (c + 999) / 1000;
		if (n > cpus - 1)
			n = cpus - 1;
		if (n < need)
			n = need;
	}
	n = senders_cap(p, n);
	if (!strcmp(val(p, "--input-file", ""), "-") && n > 1) {
		if (w)
			warn("--workers-max: one sender: the dataset comes on standard input");
		n = 1;
	}
	p->workers = n < 1 ? 1 : (long)n;
}

long long
share(const struct planner *p, long long total, long k)
{
	return total / p->workers + (k <= total % p->workers ? 1 : 0);
}

static int
is_concurrency(const char *a)
{
	return !strcmp(a, "--concurrency") || !strcmp(a, "--warmup-concurrency") ||
	       !strcmp(a, "--prefill-concurrency") || !strcmp(a, "--warmup-prefill-concurrency");
}

void
shard_send(const struct planner *p, const struct plan_argv *send, long k, const char *run,
	   struct plan_argv *out)
{
	char *s;

	for (size_t i = 0; i < send->n; i++) {
		const char *a = send->v[i];

		if (is_concurrency(a) && i + 1 < send->n) {
			plan_argv_add(out, a);
			s = xstrfmt("%lld", share(p, number(send->v[i + 1]) < 0 ? 0
							: number(send->v[i + 1]), k));
			plan_argv_add(out, s);
			free(s);
			i++;
		} else if (!strcmp(a, "--scrape-cue") || !strcmp(a, "--scrape-ack")) {
			i++;
		} else {
			plan_argv_add(out, a);
		}
	}
	plan_argv_add(out, "--phase-cue");
	plan_argv_add(out, s = xstrfmt("%s/phase.cue", run));
	free(s);
	plan_argv_add(out, "--phase-ack");
	plan_argv_add(out, s = xstrfmt("%s/phase.%ld.ack", run, k));
	free(s);
	plan_argv_add(out, "--worker-id");
	plan_argv_add(out, s = xstrfmt("worker_%ld", k - 1));
	free(s);
}

static void
log_line(struct planner *p, const char *level, const char *msg)
{
	char *s = xstrfmt("%s %s", level, msg);

	plan_argv_add(&p->log, s);
	free(s);
}

/* Whether the sender spins on its sockets: by default with four CPUs or
 * more to run on and one sender; --busy-poll and --no-busy-poll decide. */
void
busy_poll(struct planner *p)
{
	int n = ncpu(p);
	const char *pin = getenv("AIPERF_PIN");
	char *s;

	if (is_set(p, "--no-busy-poll"))
		return;
	if (is_set(p, "--busy-poll") && n < 2) {
		warn("--busy-poll ignored: one CPU to run on, which the sender would take from every other stage");
		log_line(p, "WARNING", "--busy-poll ignored: one CPU");
	} else if (is_set(p, "--busy-poll")) {
		plan_argv_add(&p->busy, "--busy-poll");
	} else if (n >= 4 && p->ncpus > 0 && p->workers == 1 && !(pin && !strcmp(pin, "0"))) {
		plan_argv_add(&p->busy, "--busy-poll");
		s = xstrfmt("busy-polling: %d CPUs, aiperf-send on a CPU of its own (--no-busy-poll to sleep)", n);
		log_line(p, "INFO", s);
		free(s);
	}
}

int
cpu_split(struct planner *p, char *rest, size_t restlen)
{
	const char *pin = getenv("AIPERF_PIN");
	int n = p->ncpus, off = 0;
	char *s;

	if (pin && !strcmp(pin, "0"))
		return -1;
	if (pin && !strcmp(pin, "1") ? n < 2 : !(n >= 3 || (n == 2 && p->busy.n > 0)))
		return -1;
	rest[0] = '\0';
	for (int i = 0; i < n - 1 && (size_t)off < restlen; i++)
		off += snprintf(rest + off, restlen - (size_t)off, "%s%d", i ? "," : "", p->cpus[i]);
	s = xstrfmt("CPUs: aiperf-send on %d, the other stages on %s", p->cpus[n - 1], rest);
	log_line(p, "DEBUG", s);
	free(s);
	return p->cpus[n - 1];
}
