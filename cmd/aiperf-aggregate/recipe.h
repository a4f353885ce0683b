/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: a grid recipe's post-processing (the original's search_recipes handlers). */
#ifndef AIPERF_AGG_RECIPE_H
#define AIPERF_AGG_RECIPE_H

#include "sweep.h"

/*
 * When s's plan names a grid recipe, write its artifact into DIR (the
 * sweep aggregate's folder): degradation_knee.json (concurrency-ramp),
 * prefill_curve.json (prefill-ttft-curve), decode_itl_surface.json
 * (decode-itl-curve), pareto_sweep.json (pareto-sweep), sla_breach.json
 * (max-concurrency-under-sla, search_style grid). A handler that fails writes
 * DIR/post_process_errors.json {handler, output_filename, error, type}
 * instead and says so on stderr; it never fails the sweep. Other recipe
 * names have no post-processing.
 */
void recipe_post_process(const struct sweep *s, const char *dir);

/* The SLA filters of max-concurrency-under-sla with search_style grid
 * into s (ttft_sla_ms, tpot_sla_ms or itl_sla_ms, e2e_sla_ms,
 * error_rate_sla: the original's metrics, stats and "lt"). */
void recipe_sla(struct sweep *s);

/* Variation var's value of parameter PATH (its display name, or its
 * leaf's), as a number: 0, or -1 when it has none. */
int recipe_param_value(const struct sweep *s, size_t var, const char *path,
		       double *x);

/* decode-itl-curve: decode_itl_surface.json into out (itlsurf.c); 0, or
 * -1 with why in err. */
int recipe_itl_surface(const struct sweep *s, struct buf *out, char *err,
		       size_t n);

#endif
