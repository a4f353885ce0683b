/* SPDX-License-Identifier: Apache-2.0 */
/* Request-rate schedules: the original's interval generators, written as at_ns. */
#include <math.h>
#include <string.h>

#include "gen.h"
#include "util.h"

const char *const sched_patterns[] = {
	[PAT_BURST] = "concurrency_burst", [PAT_CONSTANT] = "constant",
	[PAT_POISSON] = "poisson", [PAT_GAMMA] = "gamma", NULL,
};

int
sched_pattern(const char *name)
{
	for (int i = 0; sched_patterns[i]; i++)
		if (!strcmp(name, sched_patterns[i]))
			return i;
	return -1;
}

/* The ramper's update interval (AIPERF_TIMING_RATE_RAMP_UPDATE_INTERVAL). */
#define RAMP_STEP 0.1

/* set_rate: the interval generator at a new rate. */
static void
set_rate(struct sched *s, double rate)
{
	s->rate = rate;
	s->period = 1.0 / rate;
	if (s->pattern == PAT_GAMMA)
		s->scale = 1.0 / (rate * s->shape);
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
	if (s->pattern == PAT_BURST)
		return;
	s->shape = so->smoothness > 0 ? so->smoothness : 1.0;
	s->target = so->rate;
	s->ramp = so->ramp;
	/* the rate ramp starts at one linear increment of the target */
	s->start = s->ramp > 0 ? so->rate * (RAMP_STEP / s->ramp) : so->rate;
	set_rate(s, s->start);
	if (s->pattern == PAT_POISSON)
		rng_derive(&s->r, root, "timing.request.poisson_interval");
	if (s->pattern == PAT_GAMMA)
		rng_derive(&s->r, root, "timing.request.gamma_interval");
}

/*
 * The ramped rate at t seconds into the phase: the ramper sets the start
 * rate, then every RAMP_STEP seconds (update n at n * RAMP_STEP) the
 * linear value start + (target - start) * elapsed / ramp, and the target
 * once elapsed >= ramp.
 */
static double
ramp_rate(const struct sched *s, double t)
{
	double n = floor(t / RAMP_STEP), e, range = fabs(s->target - s->start);

	while ((n + 1) * RAMP_STEP <= t)
		n++;
	while (n > 0 && n * RAMP_STEP > t)
		n--;
	if (n < 1)
		return s->start;
	e = n * RAMP_STEP;
	if (range == 0 || e >= s->ramp)
		return s->target;
	return s->start + range * (s->target > s->start ? 1.0 : -1.0) *
			  (e / s->ramp);
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

/*
 * The first request waits one interval: next = start + first interval;
 * each later interval is drawn when the previous request is issued, at
 * the rate in force then.
 */
long long
sched_next(struct sched *s)
{
	if (s->pattern == PAT_BURST)
		return -1;
	if (s->ramp > 0)
		set_rate(s, ramp_rate(s, s->t));
	s->t += next_interval(s);
	return llround(s->t * 1e9);
}

/* validate_timing_mode's user-centric branch (before the pattern defaults). */
static void
check_ucr(const struct gen_opts *o)
{
	if (!o->num_users)
		die_usage("--user-centric-rate requires --num-users to be set");
	if (o->sched.rate > 0 || o->sched.pattern >= 0)
		die_usage("--user-centric-rate cannot be used together with "
			  "--request-rate or --arrival-pattern");
	if (o->turns_mean < 2)
		die_usage("--user-centric-rate requires multi-turn conversations "
			  "(--session-turns-mean >= 2). For single-turn "
			  "workloads, use --request-rate instead.");
}

/* validate_timing_mode and friends: the original's combinations. */
void
sched_check_opts(struct gen_opts *o)
{
	struct sched_opts *s = &o->sched, *w = &o->warmup_sched;

	if (o->uc_rate > 0 && !o->fixed_schedule)
		check_ucr(o);

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
	if (w->ramp <= 0)
		w->ramp = s->ramp;
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

/* validate_num_users_requirements, the warmup validators,
 * validate_unused_options and friends: checks on the resolved mode; then
 * the sampler's default. */
void
sched_check_mode(struct gen_opts *o)
{
	if (o->request_count >= 0 && o->num_sessions)
		die_usage("Both a request-count and number of conversations are "
			  "set. This can result in confusing output. Use either "
			  "--request-count or --conversation-num but not both.");
	if (o->warmup_count && o->warmup_sessions)
		die_usage("Both --warmup-request-count and --num-warmup-sessions "
			  "are set. Use either --warmup-request-count or "
			  "--num-warmup-sessions but not both.");
	if (o->num_users && o->num_sessions && o->num_sessions < o->num_users)
		die_usage("--num-sessions (%lld) cannot be less than --num-users "
			  "(%lld). Each user needs at least one session.",
			  o->num_sessions, o->num_users);
	if (o->num_users && o->request_count >= 0 &&
	    o->request_count < o->num_users)
		die_usage("--request-count (%lld) cannot be less than "
			  "--num-users (%lld). There must be at least one "
			  "request per user.", o->request_count, o->num_users);
	if (o->warmup_grace >= 0 && !(o->warmup_sched.duration > 0))
		die_usage("--warmup-grace-period can only be used when "
			  "--warmup-duration is set. Set --warmup-duration.");
	if (o->num_users && !(o->uc_rate > 0))
		die_usage("--num-users can only be used with "
			  "--user-centric-rate. Either add --user-centric-rate "
			  "or remove --num-users.");
	if (o->ramp_set && (o->fixed || o->uc_rate > 0))
		die_usage("--request-rate-ramp-duration can only be used with "
			  "--request-rate scheduling.");
	/* validate_concurrency_limits: the default concurrency, 1, always fits */
	if (o->num_sessions && o->concurrency > o->num_sessions)
		die_usage("Concurrency (%lld) cannot be greater than the number of "
			  "conversations (%lld). Either reduce --concurrency or "
			  "increase --conversation-num.", o->concurrency,
			  o->num_sessions);
	if (o->fixed && o->sampling >= 0)
		die_usage("Dataset sampling strategy is not compatible with fixed "
			  "schedule mode. Please remove the "
			  "--dataset-sampling-strategy option.");
	/* the loaders' preferred strategies: shuffle for synthetic data and
	 * random_pool, sequential for other files */
	if (o->sampling < 0)
		o->sampling = o->input_file && o->ds_type != DS_RANDOM_POOL ?
				      SAMPLE_SEQUENTIAL : SAMPLE_SHUFFLE;
	if (o->fixed)
		o->uc_rate = 0;
}
