/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --nvml: GPU telemetry read from NVML (the original's pynvml collector),
 * written as the sample record of a DCGM exporter scrape would be, so
 * that one aggregation serves both (man 1 aiperf-scrape, NVML).
 *
 * libnvidia-ml.so.1 is opened with dlopen at run time (AIPERF_NVML_LIB
 * names another file): nothing of CUDA is needed to build. The few types
 * are NVML's public ABI, declared here. A library that is missing, that
 * lacks a function needed, or that sees no GPU is a warning: the scraper
 * then writes no NVML records.
 */
#include "scrape.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "json/jw.h"
#include "util.h"

#define NVML_URL "pynvml://localhost"

typedef int nvml_ret;		/* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef void *nvml_dev;		/* nvmlDevice_t */

struct nvml_pci {		/* nvmlPciInfo_t (v3) */
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

struct nvml_util {		/* nvmlUtilization_t */
	unsigned gpu, memory;
};

struct nvml_mem {		/* nvmlMemory_t */
	unsigned long long total, free, used;
};

struct nvml_violation {		/* nvmlViolationTime_t */
	unsigned long long reference_time, violation_time;
};

#define NVML_TEMPERATURE_GPU 0
#define NVML_PERF_POLICY_POWER 0

/*
 * GPM (GPU Performance Metrics, Hopper and newer; nvml.h since CUDA 11.8
 * / driver 520), declared as nvml.h does:
 *
 *   typedef struct { struct nvmlGpmSample_st *handle; } nvmlGpmSample_t;
 *     (older headers: typedef struct nvmlGpmSample_st *nvmlGpmSample_t;
 *     either way one pointer, passed and laid out as a void *)
 *   typedef struct {
 *       unsigned int metricId;      IN: NVML_GPM_METRIC_SM_UTIL = 2
 *       nvmlReturn_t nvmlReturn;    OUT: status of this metric
 *       double value;               OUT: valid iff nvmlReturn == 0
 *       struct { char *shortName; char *longName; char *unit; } metricInfo;
 *   } nvmlGpmMetric_t;
 *   typedef struct {
 *       unsigned int version;       IN: NVML_GPM_METRICS_GET_VERSION = 1
 *       unsigned int numMetrics;    IN: entries of metrics[] to fill
 *       nvmlGpmSample_t sample1, sample2;
 *       nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX];
 *   } nvmlGpmMetricsGet_t;
 *   typedef struct {
 *       unsigned int version;       IN: NVML_GPM_SUPPORT_VERSION = 1
 *       unsigned int isSupportedDevice;
 *   } nvmlGpmSupport_t;
 *
 * NVML_GPM_METRIC_MAX grew from 98 (CUDA 12.0) to 333 (driver 550) with
 * the version left at 1: the library reads numMetrics entries, so the
 * array here is larger than any header's and only metrics[0] is used.
 */
#define NVML_GPM_METRIC_SM_UTIL 2
#define NVML_GPM_METRICS_GET_VERSION 1
#define NVML_GPM_SUPPORT_VERSION 1
#define NVML_GPM_METRIC_SLOTS 1024

typedef void *nvml_gpm_sample;	/* nvmlGpmSample_t */

struct nvml_gpm_metric {	/* nvmlGpmMetric_t */
	unsigned metric_id;
	nvml_ret nvml_return;
	double value;
	struct {
		char *short_name, *long_name, *unit;
	} info;
};

struct nvml_gpm_get {		/* nvmlGpmMetricsGet_t */
	unsigned version, num_metrics;
	nvml_gpm_sample sample1, sample2;
	struct nvml_gpm_metric metrics[NVML_GPM_METRIC_SLOTS];
};

struct nvml_gpm_support {	/* nvmlGpmSupport_t */
	unsigned version, is_supported_device;
};

/* The layout nvml.h gives on LP64 (x86-64, aarch64 Linux). */
_Static_assert(sizeof(struct nvml_gpm_metric) == 40, "nvmlGpmMetric_t is 40 bytes");
_Static_assert(offsetof(struct nvml_gpm_metric, value) == 8, "nvmlGpmMetric_t.value at 8");
_Static_assert(offsetof(struct nvml_gpm_get, sample1) == 8, "sample1 at 8");
_Static_assert(offsetof(struct nvml_gpm_get, metrics) == 24, "metrics[] at 24");

struct nvml_api {
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret);
	nvml_ret (*count)(unsigned *);
	nvml_ret (*handle)(unsigned, nvml_dev *);
	nvml_ret (*name)(nvml_dev, char *, unsigned);
	nvml_ret (*uuid)(nvml_dev, char *, unsigned);
	nvml_ret (*pci)(nvml_dev, struct nvml_pci *);
	/* optional: a metric whose function is missing is left out */
	nvml_ret (*power)(nvml_dev, unsigned *);
	nvml_ret (*energy)(nvml_dev, unsigned long long *);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
	nvml_ret (*mem)(nvml_dev, struct nvml_mem *);
	nvml_ret (*temp)(nvml_dev, int, unsigned *);
	nvml_ret (*enc)(nvml_dev, unsigned *, unsigned *);
	nvml_ret (*dec)(nvml_dev, unsigned *, unsigned *);
	nvml_ret (*violation)(nvml_dev, int, struct nvml_violation *);
	/* optional, newer drivers: JPEG (nvmlDeviceGetJpgUtilization, driver
	 * 525+: device, unsigned *utilization, unsigned *samplingPeriodUs)
	 * and GPM for SM utilization */
	nvml_ret (*jpg)(nvml_dev, unsigned *, unsigned *);
	nvml_ret (*gpm_support)(nvml_dev, struct nvml_gpm_support *);
	nvml_ret (*gpm_alloc)(nvml_gpm_sample *);
	nvml_ret (*gpm_free)(nvml_gpm_sample);
	nvml_ret (*gpm_get)(nvml_dev, nvml_gpm_sample);
	nvml_ret (*gpm_metrics)(struct nvml_gpm_get *);
};

struct nvml_gpu {
	nvml_dev h;
	char name[96], uuid[96], bus[32], index[16], device[24];
	nvml_gpm_sample gpm[2];	/* previous, next; NULL without GPM */
};

/* The values of one sample of one GPU, in DCGM's units; have: bit per field. */
enum {
	F_POWER, F_ENERGY, F_GPU_UTIL, F_MEM_UTIL, F_FB_USED, F_TEMP, F_ENC, F_DEC,
	F_VIOLATION, F_SM_UTIL, F_JPG, F_N,
};

static const struct {
	const char *name, *type;
} fields[F_N] = {
	[F_POWER] = { "DCGM_FI_DEV_POWER_USAGE", "gauge" },
	[F_ENERGY] = { "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter" },
	[F_GPU_UTIL] = { "DCGM_FI_DEV_GPU_UTIL", "gauge" },
	[F_MEM_UTIL] = { "DCGM_FI_DEV_MEM_COPY_UTIL", "gauge" },
	[F_FB_USED] = { "DCGM_FI_DEV_FB_USED", "gauge" },
	[F_TEMP] = { "DCGM_FI_DEV_GPU_TEMP", "gauge" },
	[F_ENC] = { "DCGM_FI_DEV_ENC_UTIL", "gauge" },
	[F_DEC] = { "DCGM_FI_DEV_DEC_UTIL", "gauge" },
	[F_VIOLATION] = { "DCGM_FI_DEV_POWER_VIOLATION", "counter" },
	/* no DCGM field has these as NVML gives them (percent; JPEG has none
	 * at all): families of their own, which aiperf-export knows */
	[F_SM_UTIL] = { "aiperf_nvml_sm_utilization", "gauge" },
	[F_JPG] = { "aiperf_nvml_jpg_utilization", "gauge" },
};

struct nvml_sample {
	double v[F_N];
	unsigned have;
};

static struct {
	void *lib;
	struct nvml_api f;
	struct nvml_gpu *gpu;
	unsigned ngpu;
	uint64_t scrapes;
	struct buf out;
	struct nvml_gpm_get *gpm_req;	/* NULL when no GPU has GPM */
} nv;

static const char *
nvml_err(nvml_ret rc)
{
	const char *s = nv.f.error_string ? nv.f.error_string(rc) : NULL;

	return s ? s : "NVML error";
}

/* dlsym into a function pointer without a cast ISO C forbids. */
static int
sym(const char *name, void *fp, int required)
{
	void *p = dlsym(nv.lib, name);

	memcpy(fp, &p, sizeof(p));
	if (!p && required)
		warn("warning: --nvml: '%s' lacks %s; no NVML telemetry",
		     getenv("AIPERF_NVML_LIB") ? getenv("AIPERF_NVML_LIB") :
		     "libnvidia-ml.so.1", name);
	return p || !required ? 0 : -1;
}

static int
resolve(void)
{
	struct nvml_api *f = &nv.f;

	if (sym("nvmlInit_v2", &f->init, 1) || sym("nvmlShutdown", &f->shutdown, 1) ||
	    sym("nvmlDeviceGetCount_v2", &f->count, 1) ||
	    sym("nvmlDeviceGetHandleByIndex_v2", &f->handle, 1))
		return -1;
	sym("nvmlErrorString", &f->error_string, 0);
	sym("nvmlDeviceGetName", &f->name, 0);
	sym("nvmlDeviceGetUUID", &f->uuid, 0);
	sym("nvmlDeviceGetPciInfo_v3", &f->pci, 0);
	sym("nvmlDeviceGetPowerUsage", &f->power, 0);
	sym("nvmlDeviceGetTotalEnergyConsumption", &f->energy, 0);
	sym("nvmlDeviceGetUtilizationRates", &f->util, 0);
	sym("nvmlDeviceGetMemoryInfo", &f->mem, 0);
	sym("nvmlDeviceGetTemperature", &f->temp, 0);
	sym("nvmlDeviceGetEncoderUtilization", &f->enc, 0);
	sym("nvmlDeviceGetDecoderUtilization", &f->dec, 0);
	sym("nvmlDeviceGetViolationStatus", &f->violation, 0);
	sym("nvmlDeviceGetJpgUtilization", &f->jpg, 0);
	sym("nvmlGpmQueryDeviceSupport", &f->gpm_support, 0);
	sym("nvmlGpmSampleAlloc", &f->gpm_alloc, 0);
	sym("nvmlGpmSampleFree", &f->gpm_free, 0);
	sym("nvmlGpmSampleGet", &f->gpm_get, 0);
	sym("nvmlGpmMetricsGet", &f->gpm_metrics, 0);
	if (!f->gpm_support || !f->gpm_alloc || !f->gpm_free || !f->gpm_get ||
	    !f->gpm_metrics)
		f->gpm_support = NULL;	/* all five, or no GPM */
	return 0;
}

/*
 * GPM for one GPU, as the original's collector: when the device says it
 * is supported, two sample buffers and a first sample, so that the first
 * scrape has an interval to measure. Anything failing: no SM utilization.
 */
static void
gpm_init(struct nvml_gpu *g)
{
	const struct nvml_api *f = &nv.f;
	struct nvml_gpm_support sup = { NVML_GPM_SUPPORT_VERSION, 0 };

	if (!f->gpm_support || f->gpm_support(g->h, &sup) != 0 || !sup.is_supported_device)
		return;
	if (f->gpm_alloc(&g->gpm[0]) != 0 || !g->gpm[0])
		goto fail;
	if (f->gpm_alloc(&g->gpm[1]) != 0 || !g->gpm[1])
		goto fail;
	if (f->gpm_get(g->h, g->gpm[0]) != 0)
		goto fail;
	if (!nv.gpm_req)
		nv.gpm_req = xcalloc(1, sizeof(*nv.gpm_req));
	return;
fail:
	for (int i = 0; i < 2; i++)
		if (g->gpm[i])
			f->gpm_free(g->gpm[i]);
	g->gpm[0] = g->gpm[1] = NULL;
}

/* SM utilization (percent, at most 100) over the time since the GPU's
 * last sample; -1 when GPM has none. A new sample becomes the next
 * reference (the original swaps even when taking it failed). */
static double
gpm_sm_util(struct nvml_gpu *g)
{
	struct nvml_gpm_get *r = nv.gpm_req;
	nvml_gpm_sample t;
	double v = -1;

	if (!g->gpm[0])
		return -1;
	if (nv.f.gpm_get(g->h, g->gpm[1]) != 0)
		return -1;	/* the previous sample stays the reference */
	{
		memset(r, 0, offsetof(struct nvml_gpm_get, metrics) + sizeof(r->metrics[0]));
		r->version = NVML_GPM_METRICS_GET_VERSION;
		r->num_metrics = 1;
		r->sample1 = g->gpm[0];
		r->sample2 = g->gpm[1];
		r->metrics[0].metric_id = NVML_GPM_METRIC_SM_UTIL;
		if (nv.f.gpm_metrics(r) == 0 && r->metrics[0].nvml_return == 0 &&
		    r->metrics[0].value >= 0)
			v = r->metrics[0].value > 100 ? 100 : r->metrics[0].value;
	}
	t = g->gpm[0], g->gpm[0] = g->gpm[1], g->gpm[1] = t;
	return v;
}

/* A GPU's identity, as the original's collector takes it. */
static void
identify(struct nvml_gpu *g, unsigned i)
{
	struct nvml_pci pci;

	snprintf(g->index, sizeof(g->index), "%u", i);
	snprintf(g->device, sizeof(g->device), "nvidia%u", i);
	if (!nv.f.uuid || nv.f.uuid(g->h, g->uuid, sizeof(g->uuid)) != 0)
		snprintf(g->uuid, sizeof(g->uuid), "GPU-unknown-%u", i);
	if (!nv.f.name || nv.f.name(g->h, g->name, sizeof(g->name)) != 0)
		snprintf(g->name, sizeof(g->name), "Unknown GPU");
	memset(&pci, 0, sizeof(pci));
	if (nv.f.pci && nv.f.pci(g->h, &pci) == 0)
		snprintf(g->bus, sizeof(g->bus), "%.*s", (int)sizeof(pci.bus_id), pci.bus_id);
	g->uuid[sizeof(g->uuid) - 1] = g->name[sizeof(g->name) - 1] = '\0';
}

int
nvml_open(void)
{
	const char *path = getenv("AIPERF_NVML_LIB");
	unsigned n = 0;
	nvml_ret rc;

	if (!path || !*path)
		path = "libnvidia-ml.so.1";
	if (!(nv.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		warn("warning: --nvml: cannot load %s (%s); no NVML telemetry", path,
		     dlerror());
		return -1;
	}
	if (resolve() < 0)
		goto fail;
	if ((rc = nv.f.init()) != 0) {
		warn("warning: --nvml: nvmlInit failed (%s); no NVML telemetry", nvml_err(rc));
		goto fail;
	}
	if ((rc = nv.f.count(&n)) != 0 || !n) {
		warn("warning: --nvml: %s; no NVML telemetry",
		     rc ? nvml_err(rc) : "no GPU found");
		nv.f.shutdown();
		goto fail;
	}
	if (n > 1024)
		n = 1024;
	nv.gpu = xcalloc(n, sizeof(*nv.gpu));
	for (unsigned i = 0; i < n; i++) {
		struct nvml_gpu *g = &nv.gpu[nv.ngpu];
		if ((rc = nv.f.handle(i, &g->h)) != 0) {
			warn("warning: --nvml: no handle for GPU %u (%s)", i, nvml_err(rc));
			continue;
		}
		identify(g, i);
		gpm_init(g);
		nv.ngpu++;
	}
	buf_init(&nv.out, BUF_NOMAX);
	return 0;
fail:
	dlclose(nv.lib);
	nv.lib = NULL;
	return -1;
}

void
nvml_close(void)
{
	if (!nv.lib)
		return;
	for (unsigned i = 0; i < nv.ngpu; i++)
		for (int k = 0; k < 2; k++)
			if (nv.gpu[i].gpm[k])
				nv.f.gpm_free(nv.gpu[i].gpm[k]);
	nv.f.shutdown();
	dlclose(nv.lib);
	nv.lib = NULL;
	free(nv.gpu);
	nv.gpu = NULL;
	free(nv.gpm_req);
	nv.gpm_req = NULL;
	buf_release(&nv.out);
}

/* Read one GPU: NVML's units converted to the DCGM exporter's. */
static void
read_gpu(struct nvml_gpu *g, struct nvml_sample *s)
{
	const struct nvml_api *f = &nv.f;
	unsigned u, period;
	unsigned long long e;
	double sm;
	struct nvml_util ut;
	struct nvml_mem m;
	struct nvml_violation vt;

	s->have = 0;
#define SET(k, x) (s->v[k] = (double)(x), s->have |= 1u << (k))
	if (f->power && f->power(g->h, &u) == 0)
		SET(F_POWER, u / 1000.0);		/* mW -> W */
	if (f->energy && f->energy(g->h, &e) == 0)
		SET(F_ENERGY, e);			/* mJ, as DCGM */
	if (f->util && f->util(g->h, &ut) == 0) {
		SET(F_GPU_UTIL, ut.gpu);
		SET(F_MEM_UTIL, ut.memory);
	}
	if (f->mem && f->mem(g->h, &m) == 0)
		SET(F_FB_USED, m.used / 1048576.0);	/* bytes -> MiB */
	if (f->temp && f->temp(g->h, NVML_TEMPERATURE_GPU, &u) == 0)
		SET(F_TEMP, u);
	if (f->enc && f->enc(g->h, &u, &period) == 0)
		SET(F_ENC, u);
	if (f->dec && f->dec(g->h, &u, &period) == 0)
		SET(F_DEC, u);
	if (f->violation && f->violation(g->h, NVML_PERF_POLICY_POWER, &vt) == 0)
		SET(F_VIOLATION, vt.violation_time);	/* ns, as DCGM */
	if ((sm = gpm_sm_util(g)) >= 0)
		SET(F_SM_UTIL, sm);
	if (f->jpg && f->jpg(g->h, &u, &period) == 0)
		SET(F_JPG, u);
#undef SET
}

static void
put_labels(struct jw *w, const struct nvml_gpu *g)
{
	/* sorted by name, as a scrape's */
	static const char *const names[] = {
		"Hostname", "UUID", "device", "gpu", "modelName", "pci_bus_id",
	};
	const char *vals[] = { "localhost", g->uuid, g->device, g->index, g->name, g->bus };

	jw_key(w, "labels");
	jw_obj(w);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!*vals[i])
			continue;
		jw_key(w, names[i]);
		jw_str(w, vals[i]);
	}
	jw_obj_end(w);
}

static void
put_metrics(struct jw *w, const struct nvml_sample *smp)
{
	jw_key(w, "metrics");
	jw_obj(w);
	for (int k = 0; k < F_N; k++) {
		unsigned any = 0;
		for (unsigned i = 0; i < nv.ngpu; i++)
			any |= smp[i].have & (1u << k);
		if (!any)
			continue;
		jw_key(w, fields[k].name);
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, fields[k].type);
		jw_key(w, "series");
		jw_arr(w);
		for (unsigned i = 0; i < nv.ngpu; i++) {
			if (!(smp[i].have & (1u << k)))
				continue;
			jw_obj(w);
			put_labels(w, &nv.gpu[i]);
			jw_key(w, "value");
			jw_double(w, smp[i].v[k]);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

void
nvml_scrape(const struct scraper *s, int cue)
{
	struct nvml_sample *smp;
	int64_t c0 = cpu_now_ns(), t0 = clock_now_ns(), t1;
	int64_t wall0;
	struct jw w;

	if (!nv.lib)
		return;
	smp = xcalloc(nv.ngpu, sizeof(*smp));
	for (unsigned i = 0; i < nv.ngpu; i++)
		read_gpu(&nv.gpu[i], &smp[i]);
	t1 = clock_now_ns();
	wall0 = s->wall0 - s->mono0;
	buf_reset(&nv.out);
	jw_init(&w, &nv.out, 0);
	jw_obj(&w);
	jw_key(&w, "schema");
	jw_str(&w, "aiperf.sample/1");
	jw_key(&w, "endpoint_url");
	jw_str(&w, NVML_URL);
	jw_key(&w, "scrape");
	jw_int(&w, (int64_t)++nv.scrapes);
	if (cue) {
		jw_key(&w, "cue");
		jw_bool(&w, 1);
	}
	jw_key(&w, "start_perf_ns");
	jw_int(&w, t0);
	jw_key(&w, "end_perf_ns");
	jw_int(&w, t1);
	jw_key(&w, "request_sent_ns");
	jw_int(&w, wall0 + t0);
	jw_key(&w, "timestamp_ns");
	jw_int(&w, wall0 + t1);
	jw_key(&w, "endpoint_latency_ns");
	jw_int(&w, t1 - t0);
	jw_key(&w, "cpu_ns");
	jw_int(&w, cpu_now_ns() - c0);
	jw_key(&w, "bytes");
	jw_int(&w, 0);
	put_metrics(&w, smp);
	jw_obj_end(&w);
	buf_addch(&nv.out, '\n');
	free(smp);
	if (fwrite(nv.out.s, 1, nv.out.len, stdout) != nv.out.len ||
	    (s->o->unbuffered && fflush(stdout) == EOF))
		die_write();
}
