/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: a grid recipe's post-processing (the original's search_recipes handlers). */
#ifndef AIPERF_AGG_RECIPE_H
#define AIPERF_AGG_RECIPE_H

#include "sweep.h"

/*
 * When s's plan names a grid recipe, write its artifact into DIR (the
 * sweep aggregate's folder): concurrency-ramp's degradation_knee.json.
 * A handler that fails (or is not implemented) writes
 * DIR/post_process_errors.json {handler, output_filename, error, type}
 * instead and says so on stderr; it never fails the sweep. Other recipe
 * names have no post-processing.
 */
void recipe_post_process(const struct sweep *s, const char *dir);

/* The SLA filters of max-concurrency-under-sla with search_style grid
 * into s (ttft_sla_ms, tpot_sla_ms or itl_sla_ms, e2e_sla_ms,
 * error_rate_sla: the original's metrics, stats and "lt"). */
void recipe_sla(struct sweep *s);

#endif
