/* SPDX-License-Identifier: Apache-2.0 */
/* The planners' common ask/tell, and the monotonic one: exponential probe, then bisection (perf_analyzer --binary-search). */
#include "search.h"

#include "util.h"

void
planner_init(struct planner *p, const struct cfg *c, int smooth)
{
	memset(p, 0, sizeof(*p));
	p->cfg = c;
	p->smooth = smooth;
	p->feasible_max = p->infeasible_min = -1;
	p->phase = PH_PROBE;
	p->next = c->lo;
	p->candidate = -1;
	p->binding = -1;
}

void
planner_release(struct planner *p)
{
	free(p->pts);
	free(p->probes);
	free(p->queue);
}

long long
planner_ask(struct planner *p)
{
	if (p->reason)
		return -1;
	if (p->iter >= p->cfg->max_iterations) {
		p->reason = "max_iterations";
		return -1;
	}
	if (p->nqueue) {
		p->next = p->queue[0];
		memmove(p->queue, p->queue + 1, --p->nqueue * sizeof(*p->queue));
	}
	return p->next;
}

void
planner_tell(struct planner *p, struct iter *it)
{
	int feasible = sla_feasible(it, p->cfg->filters, p->cfg->nfilters);

	p->this_iter_non_mono = 0;
	if (p->smooth)
		iso_tell(p, it, it->value, feasible);
	else
		mono_tell(p, it->value, feasible);
	it->idx = p->iter;
	it->feasible = feasible;
	it->non_monotonic = p->this_iter_non_mono;
	it->has_objective = sla_mean(it, "output_token_throughput", "avg", &it->objective) == 0;
	p->iter++;
}

static struct point *
point_at(struct planner *p, long long x)
{
	for (size_t i = 0; i < p->npts; i++)
		if (p->pts[i].x == x)
			return &p->pts[i];
	p->pts = xreallocarray(p->pts, p->npts + 1, sizeof(*p->pts));
	p->pts[p->npts] = (struct point){ .x = x };
	return &p->pts[p->npts++];
}

static void
flag(struct planner *p, long long value, const char *what, long long bound)
{
	p->non_monotonic = p->this_iter_non_mono = 1;
	if (!p->quiet)
		warn("%s verdict at %lld %s %lld: the SLA boundary is non-monotonic; "
		     "continuing with the boundary already found", what, value,
		     what[0] == 'f' ? "above infeasible_min" : "at or below feasible_max", bound);
}

/* A latched verdict widens the bracket only while it stays consistent. */
static void
absorb(struct planner *p, long long v, int ok)
{
	long long *fm = &p->feasible_max, *im = &p->infeasible_min;

	if (ok) {
		if (*im >= 0 && v >= *im)
			flag(p, v, "feasible", *im);
		if ((*fm < 0 || v > *fm) && (*im < 0 || v < *im))
			*fm = v;
		return;
	}
	if (*fm >= 0 && v <= *fm)
		flag(p, v, "infeasible", *fm);
	if ((*im < 0 || v < *im) && (*fm < 0 || v > *fm))
		*im = v;
}

static void
bisect(struct planner *p)
{
	long long fm = p->feasible_max, im = p->infeasible_min, gap, mid;

	if (fm < 0 || im < 0) {
		p->reason = fm < 0 ? "monotonic_no_pass_in_range" : "monotonic_no_failure_in_range";
		return;
	}
	gap = im - fm;
	if (gap <= 1 || (double)gap / (double)(im > 1 ? im : 1) < p->cfg->precision) {
		p->reason = "monotonic_precision_reached";
		return;
	}
	mid = fm + gap / 2;
	if (mid <= fm)
		mid = fm + 1;
	if (mid >= im)
		mid = im - 1;
	p->next = mid;
}

static void
probe(struct planner *p, long long v, int ok)
{
	if (!ok) {
		if (p->feasible_max < 0) {
			p->reason = "monotonic_no_pass_in_range";
			return;
		}
		p->phase = PH_BISECT;
		bisect(p);
		return;
	}
	if (v * 2 < p->cfg->hi) {
		p->next = v * 2;
		return;
	}
	if (v >= p->cfg->hi) {
		p->feasible_max = p->cfg->hi;
		p->reason = "monotonic_no_failure_in_range";
		return;
	}
	p->next = p->cfg->hi;
}

/* A value's verdict latches once stability_trials iterations agree on it;
 * until then the same value is asked again. */
void
mono_tell(struct planner *p, long long value, int feasible)
{
	struct point *pt = point_at(p, value);
	int need = p->cfg->stability_trials, verdict = -1;

	if (feasible)
		pt->passes++;
	else
		pt->fails++;
	if (pt->passes >= need)
		verdict = 1;
	else if (pt->fails >= need)
		verdict = 0;
	if (verdict < 0) {
		p->next = value;
		return;
	}
	absorb(p, value, verdict);
	if (p->phase == PH_PROBE)
		probe(p, value, verdict);
	else
		bisect(p);
}
