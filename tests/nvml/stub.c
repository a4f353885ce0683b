/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in for libnvidia-ml.so.1 (aiperf-scrape --nvml tests): the
 * functions aiperf-scrape resolves, over AIPERF_NVML_STUB_GPUS GPUs
 * (default 2) with fixed values and an energy counter that ramps by
 * 1000 mJ a read. AIPERF_NVML_STUB_FAIL=init makes nvmlInit fail.
 *
 * Newer drivers' functions: JPEG utilization (GPU 0: 12%, others not
 * supported) and GPM, supported on GPU 0 only (or none with
 * AIPERF_NVML_STUB_GPM=none), whose SM utilization is 37.5% of the
 * interval between two samples of the same GPU, checked as a driver
 * would: the request's version, count and metric id, two distinct
 * samples, the second newer. Built with -DSTUB_OLD_DRIVER (the library
 * libnvml-stub-old.so) it has none of them, as a driver before them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pci {
	char legacy[16];
	unsigned domain, bus, device, id, subsys;
	char bus_id[32];
};

struct util {
	unsigned gpu, memory;
};

struct mem {
	unsigned long long total, free, used;
};

struct violation {
	unsigned long long ref, time;
};

typedef void *dev;

static unsigned long long energy[64];

static unsigned
ngpu(void)
{
	const char *s = getenv("AIPERF_NVML_STUB_GPUS");
	unsigned n = s ? (unsigned)atoi(s) : 2;

	return n > 64 ? 64 : n;
}

static unsigned
idx(dev d)
{
	return (unsigned)((char *)d - (char *)energy) / sizeof(energy[0]);
}

int nvmlInit_v2(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int rc);
int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, dev *d);
int nvmlDeviceGetName(dev d, char *s, unsigned n);
int nvmlDeviceGetUUID(dev d, char *s, unsigned n);
int nvmlDeviceGetPciInfo_v3(dev d, struct pci *p);
int nvmlDeviceGetPowerUsage(dev d, unsigned *mw);
int nvmlDeviceGetTotalEnergyConsumption(dev d, unsigned long long *mj);
int nvmlDeviceGetUtilizationRates(dev d, struct util *u);
int nvmlDeviceGetMemoryInfo(dev d, struct mem *m);
int nvmlDeviceGetTemperature(dev d, int sensor, unsigned *t);
int nvmlDeviceGetEncoderUtilization(dev d, unsigned *u, unsigned *p);
int nvmlDeviceGetDecoderUtilization(dev d, unsigned *u, unsigned *p);
int nvmlDeviceGetViolationStatus(dev d, int policy, struct violation *v);

int
nvmlInit_v2(void)
{
	const char *f = getenv("AIPERF_NVML_STUB_FAIL");

	return f && !strcmp(f, "init") ? 9 : 0;	/* NVML_ERROR_DRIVER_NOT_LOADED */
}

int nvmlShutdown(void) { return 0; }

const char *
nvmlErrorString(int rc)
{
	return rc == 9 ? "Driver Not Loaded" : rc ? "Unknown Error" : "Success";
}

int
nvmlDeviceGetCount_v2(unsigned *n)
{
	*n = ngpu();
	return 0;
}

int
nvmlDeviceGetHandleByIndex_v2(unsigned i, dev *d)
{
	if (i >= ngpu())
		return 2;	/* NVML_ERROR_INVALID_ARGUMENT */
	*d = &energy[i];
	return 0;
}

int
nvmlDeviceGetName(dev d, char *s, unsigned n)
{
	snprintf(s, n, "Stub GPU %c100", 'A' + idx(d));
	return 0;
}

int
nvmlDeviceGetUUID(dev d, char *s, unsigned n)
{
	snprintf(s, n, "GPU-57ab0000-0000-4000-8000-%012u", idx(d));
	return 0;
}

int
nvmlDeviceGetPciInfo_v3(dev d, struct pci *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->bus_id, sizeof(p->bus_id), "00000000:%02X:00.0", 0x3b + idx(d));
	return 0;
}

int
nvmlDeviceGetPowerUsage(dev d, unsigned *mw)
{
	*mw = 150000 + 50000 * idx(d);	/* 150 W, 200 W */
	return 0;
}

int
nvmlDeviceGetTotalEnergyConsumption(dev d, unsigned long long *mj)
{
	energy[idx(d)] += 1000;
	*mj = energy[idx(d)];
	return 0;
}

int
nvmlDeviceGetUtilizationRates(dev d, struct util *u)
{
	u->gpu = 40 + 10 * idx(d);
	u->memory = 20;
	return 0;
}

int
nvmlDeviceGetMemoryInfo(dev d, struct mem *m)
{
	m->total = 80000000000ULL;
	m->used = 8000000000ULL * (idx(d) + 1);	/* 8 GB, 16 GB */
	m->free = m->total - m->used;
	return 0;
}

int
nvmlDeviceGetTemperature(dev d, int sensor, unsigned *t)
{
	*t = sensor ? 0 : 50 + idx(d);
	return 0;
}

int
nvmlDeviceGetEncoderUtilization(dev d, unsigned *u, unsigned *p)
{
	(void)d;
	*u = 0;
	*p = 1000;
	return 0;
}

int
nvmlDeviceGetDecoderUtilization(dev d, unsigned *u, unsigned *p)
{
	(void)d;
	*u = 0;
	*p = 1000;
	return 0;
}

int
nvmlDeviceGetViolationStatus(dev d, int policy, struct violation *v)
{
	(void)d, (void)policy;
	v->ref = 0;
	v->time = 0;
	return 3;	/* NVML_ERROR_NOT_SUPPORTED: left out */
}

#ifndef STUB_OLD_DRIVER
/* nvml.h's GPM types (see cmd/aiperf-scrape/nvml.c), at their CUDA 12.0
 * size (NVML_GPM_METRIC_MAX 98): a caller's larger array is fine. */
struct gpm_sample {
	dev d;
	unsigned long long when;	/* 0: never taken */
	unsigned magic;
};

struct gpm_metric {
	unsigned id;
	int ret;
	double value;
	struct {
		char *short_name, *long_name, *unit;
	} info;
};

struct gpm_get {
	unsigned version, num;
	struct gpm_sample *s1, *s2;
	struct gpm_metric m[98];
};

struct gpm_support {
	unsigned version, supported;
};

#define MAGIC 0x67706d73u

static unsigned long long reads;	/* GPM samples taken, in order */

static char sm_util_name[] = "SM_UTIL";

int nvmlDeviceGetJpgUtilization(dev d, unsigned *u, unsigned *p);
int nvmlGpmQueryDeviceSupport(dev d, struct gpm_support *s);
int nvmlGpmSampleAlloc(struct gpm_sample **s);
int nvmlGpmSampleFree(struct gpm_sample *s);
int nvmlGpmSampleGet(dev d, struct gpm_sample *s);
int nvmlGpmMetricsGet(struct gpm_get *g);

int
nvmlDeviceGetJpgUtilization(dev d, unsigned *u, unsigned *p)
{
	if (!u || !p)
		return 2;
	if (idx(d) != 0)
		return 3;	/* NVML_ERROR_NOT_SUPPORTED */
	*u = 12;
	*p = 1000;
	return 0;
}

int
nvmlGpmQueryDeviceSupport(dev d, struct gpm_support *s)
{
	const char *g = getenv("AIPERF_NVML_STUB_GPM");

	if (!s || s->version != 1)
		return 25;	/* NVML_ERROR_ARGUMENT_VERSION_MISMATCH */
	s->supported = idx(d) == 0 && !(g && !strcmp(g, "none"));
	return 0;
}

int
nvmlGpmSampleAlloc(struct gpm_sample **s)
{
	if (!s || !(*s = calloc(1, sizeof(**s))))
		return 2;
	(*s)->magic = MAGIC;
	return 0;
}

int
nvmlGpmSampleFree(struct gpm_sample *s)
{
	if (!s || s->magic != MAGIC)
		return 2;
	s->magic = 0;
	free(s);
	return 0;
}

int
nvmlGpmSampleGet(dev d, struct gpm_sample *s)
{
	if (!s || s->magic != MAGIC)
		return 2;
	s->d = d;
	s->when = ++reads;
	return 0;
}

int
nvmlGpmMetricsGet(struct gpm_get *g)
{
	if (!g || g->version != 1)
		return 25;
	if (g->num != 1 || !g->s1 || !g->s2 || g->s1 == g->s2 ||
	    g->s1->magic != MAGIC || g->s2->magic != MAGIC || !g->s1->when ||
	    g->s1->when >= g->s2->when || g->s1->d != g->s2->d)
		return 2;
	g->m[0].ret = g->m[0].id == 2 ? 0 : 2;	/* NVML_GPM_METRIC_SM_UTIL */
	g->m[0].value = g->m[0].id == 2 ? 37.5 : 0;
	g->m[0].info.short_name = sm_util_name;
	return 0;
}
#endif
