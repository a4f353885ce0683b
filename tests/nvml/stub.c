/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in for libnvidia-ml.so.1 (aiperf-scrape --nvml tests): the
 * functions aiperf-scrape resolves, over AIPERF_NVML_STUB_GPUS GPUs
 * (default 2) with fixed values and an energy counter that ramps by
 * 1000 mJ a read. AIPERF_NVML_STUB_FAIL=init makes nvmlInit fail.
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
