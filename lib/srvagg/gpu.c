/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU telemetry (the original's gpu_telemetry/constants.py,
 * dcgm_collector.py and common/models/telemetry_models.py).
 *
 * The DCGM collector drops NaN and infinite values, maps each field to a
 * key and scales it: energy mJ * 1e-9 = MJ, framebuffer MiB * 1.048576e-3
 * = GB (so "GB" means 10^9 bytes), SM activity ratio * 100 = %, power
 * violation ns * 1e-3 = us. JPEG utilization has no DCGM field (NVML only).
 * Gauges report numpy's avg, min, max, sum, std (ddof=1, 0.0 for one
 * sample) and linear p1..p99 over the samples with start <= ts <= end;
 * counters report only max(last - reference, 0.0) as "avg", the reference
 * being the last sample before start (else the first in the window).
 * The original stores all of a GPU's metrics in columns fixed by its first
 * scrape (a metric missing from a later scrape keeps whatever the column
 * held); here each metric is its own series of the samples it has.
 */
#include "srvagg/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const struct srvagg_dcgm_field srvagg_dcgm_fields[SRVAGG_NDCGM] = {
	{ "DCGM_FI_DEV_POWER_USAGE", "gpu_power_usage", 1 },
	{ "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "energy_consumption", 1e-9 },
	{ "DCGM_FI_DEV_GPU_UTIL", "gpu_utilization", 1 },
	{ "DCGM_FI_DEV_MEM_COPY_UTIL", "mem_utilization", 1 },
	{ "DCGM_FI_DEV_FB_USED", "gpu_memory_used", 1.048576e-3 },
	{ "DCGM_FI_DEV_GPU_TEMP", "gpu_temperature", 1 },
	{ "DCGM_FI_DEV_ENC_UTIL", "encoder_utilization", 1 },
	{ "DCGM_FI_DEV_DEC_UTIL", "decoder_utilization", 1 },
	{ "DCGM_FI_PROF_SM_ACTIVE", "sm_utilization", 100 },
	{ "DCGM_FI_DEV_XID_ERRORS", "xid_errors", 1 },
	{ "DCGM_FI_DEV_POWER_VIOLATION", "power_violation", 1e-3 },
};

const struct srvagg_gpu_metric srvagg_gpu_metrics[SRVAGG_NGPU_METRICS] = {
	{ "gpu_power_usage", "GPU Power Usage", "W", 0 },
	{ "energy_consumption", "Energy Consumption", "MJ", 1 },
	{ "gpu_utilization", "GPU Utilization", "%", 0 },
	{ "gpu_memory_used", "GPU Memory Used", "GB", 0 },
	{ "gpu_temperature", "GPU Temperature", "\xc2\xb0" "C", 0 },
	{ "mem_utilization", "Memory Utilization", "%", 0 },
	{ "sm_utilization", "SM Utilization", "%", 0 },
	{ "decoder_utilization", "Decoder Utilization", "%", 0 },
	{ "encoder_utilization", "Encoder Utilization", "%", 0 },
	{ "jpg_utilization", "JPEG Utilization", "%", 0 },
	{ "xid_errors", "XID Errors", "count", 1 },
	{ "power_violation", "Power Violation", "us", 1 },
};

const struct srvagg_dcgm_field *
srvagg_dcgm_lookup(const char *name)
{
	size_t n = strlen(name);

	if (n >= 6 && !strcmp(name + n - 6, "_total"))
		n -= 6;
	for (size_t i = 0; i < SRVAGG_NDCGM; i++)
		if (strlen(srvagg_dcgm_fields[i].dcgm) == n &&
		    !strncmp(srvagg_dcgm_fields[i].dcgm, name, n))
			return &srvagg_dcgm_fields[i];
	return NULL;
}

const struct srvagg_gpu_metric *
srvagg_gpu_metric(const char *key)
{
	for (size_t i = 0; i < SRVAGG_NGPU_METRICS; i++)
		if (!strcmp(srvagg_gpu_metrics[i].key, key))
			return &srvagg_gpu_metrics[i];
	return NULL;
}

int
srvagg_gpu_gauge(const struct srvagg_point *p, size_t n,
		 const struct srvagg_window *w, struct srvagg_dist *d)
{
	size_t first, m;
	double *v;

	if (!srvagg_sorted(p, n, sizeof(*p)))
		return -1;
	m = srvagg_in_window(p, n, w, &first);
	if (!m)
		return 0;
	v = xreallocarray(NULL, m, sizeof(*v));
	for (size_t i = 0; i < m; i++)
		v[i] = p[first + i].v;
	srvagg_dist(v, m, d);
	free(v);
	return 1;
}

int
srvagg_gpu_counter(const struct srvagg_point *p, size_t n,
		   const struct srvagg_window *w, double *delta)
{
	size_t first, m;
	double raw;

	if (!srvagg_sorted(p, n, sizeof(*p)))
		return -1;
	m = srvagg_in_window(p, n, w, &first);
	if (!m)
		return 0;
	raw = p[first + m - 1].v - p[first ? first - 1 : first].v;
	*delta = 0.0 > raw ? 0.0 : raw;
	return 1;
}
