/* SPDX-License-Identifier: Apache-2.0 */
/* Request-rate schedules: the original's interval generators, written as at_ns. */
#include <math.h>
#include <string.h>

#include "gen.h"
#include "util.h"

int
sched_pattern(const char *name)
{
	static const char *const names[] = {
		[PAT_BURST] = "concurrency_burst", [PAT_CONSTANT] = "constant",
		[PAT_POISSON] = "poisson", [PAT_GAMMA] = "gamma",
	};

	for (int i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/*
 * One generator per phase, each derived afresh (so warmup and profiling
 * draw the same interval sequence, as the original's per-phase
 * IntervalGenerator does): poisson expovariate(rate) from
 * timing.request.poisson_interval, gamma gammavariate(k, 1/(rate k)) from
 * timing.request.gamma_interval, constant 1/rate.
 */
void
sched_init(struct sched *s, const struct sched_opts *so, uint64_t root)
{
	memset(s, 0, sizeof(*s));
	s->pattern = so->rate > 0 ? so->pattern : PAT_BURST;
	s->rate = so->rate;
	if (s->pattern == PAT_CONSTANT)
		s->period = 1.0 / so->rate;
	if (s->pattern == PAT_POISSON)
		rng_derive(&s->r, root, "timing.request.poisson_interval");
	if (s->pattern == PAT_GAMMA) {
		s->shape = so->smoothness > 0 ? so->smoothness : 1.0;
		s->scale = 1.0 / (so->rate * s->shape);
		rng_derive(&s->r, root, "timing.request.gamma_interval");
	}
}

static double
next_interval(struct sched *s)
{
	switch (s->pattern) {
	case PAT_CONSTANT: return s->period;
	case PAT_POISSON: return rng_expovariate(&s->r, s->rate);
	case PAT_GAMMA: return rng_gammavariate(&s->r, s->shape, s->scale);
	default: return 0;
	}
}

/* The first request waits one interval: next = start + first interval. */
long long
sched_next(struct sched *s)
{
	if (s->pattern == PAT_BURST)
		return -1;
	s->t += next_interval(s);
	return llround(s->t * 1e9);
}

/* validate_timing_mode and friends: the original's combinations. */
void
sched_check_opts(struct gen_opts *o)
{
	struct sched_opts *s = &o->sched, *w = &o->warmup_sched;

	if (s->smoothness > 0 && s->pattern < 0)
		s->pattern = PAT_GAMMA;
	if (s->smoothness > 0 && s->pattern != PAT_GAMMA)
		die_usage("--arrival-smoothness can only be used with "
			  "--arrival-pattern gamma");
	if (s->rate > 0 && s->pattern == PAT_BURST)
		die_usage("--arrival-pattern concurrency_burst cannot be used "
			  "with --request-rate");
	if (s->rate <= 0 && s->pattern > PAT_BURST)
		die_usage("--arrival-pattern needs --request-rate");
	if (s->pattern < 0)
		s->pattern = s->rate > 0 ? PAT_POISSON : PAT_BURST;
	if (w->rate <= 0)
		w->rate = s->rate;
	if (w->pattern < 0)
		w->pattern = s->pattern;
	w->smoothness = s->smoothness;
	if (w->rate > 0 && w->pattern == PAT_BURST)
		w->pattern = PAT_POISSON;
	if (w->rate <= 0 && w->pattern > PAT_BURST)
		die_usage("--warmup-arrival-pattern needs a request rate");
	if (o->cancel_delay >= 0 && o->cancel_rate <= 0)
		die_usage("--request-cancellation-delay can only be used with "
			  "--request-cancellation-rate");
	if (o->cancel_delay < 0)
		o->cancel_delay = 0;
}
