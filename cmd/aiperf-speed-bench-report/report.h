/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-speed-bench-report internals: what a run folder says (extract.c) and the matrix (main.c). */
#ifndef AIPERF_SPEEDREPORT_H
#define AIPERF_SPEEDREPORT_H

#include "json/json.h"

enum metric { M_ACCEPT_LENGTH, M_ACCEPT_RATE, M_THROUGHPUT };

/*
 * extract_category: the first dataset selector of input_config that
 * starts with "speed_bench_" or "spec_al_", without it: the original's
 * input_config.datasets[].format (or .dataset), then ours,
 * input_config.input.custom_dataset_type (or .public_dataset). Borrowed
 * from the profile's JSON (its length in *n), or NULL.
 */
const char *report_category(const struct json *profile, size_t *n);

/* extract_model: input_config.models.items[].name, the first non-empty
 * one, else ours, input_config.endpoint.model_names[0]; else "unknown". */
const char *report_model(const struct json *profile, size_t *n);

/*
 * The metric's value into *v: acceptance length or rate from the server
 * metrics export (its "metrics" object), throughput from the profile
 * (output_token_throughput.avg). Returns 1, or 0 when there is none.
 */
int report_accept_length(const struct json *server, double *v);
int report_accept_rate(const struct json *server, double *v);
int report_throughput(const struct json *profile, double *v);

#endif
