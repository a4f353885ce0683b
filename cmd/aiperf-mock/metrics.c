/* SPDX-License-Identifier: Apache-2.0 */
/* /metrics as vLLM writes it (driven by the traffic served) and as a DCGM exporter does (--dcgm). */
#include "mock.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* vLLM's bucket bounds (vllm/v1/metrics/loggers.py). */
static const double ttft_le[] = {
	0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
	2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0,
};
static const double e2e_le[] = {
	0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
	50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0,
};
#define NLE(a) (sizeof(a) / sizeof(a[0]))

/* A label value in the exposition's escapes (\\, \" and \n). */
static void
label_quote(struct buf *b, const char *s)
{
	buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			buf_addch(b, '\\');
		if (*s == '\n')
			buf_addstr(b, "\\n");
		else
			buf_addch(b, *s);
	}
	buf_addch(b, '"');
}

/* A float as Python's repr writes a round one: "0.005", "10.0". */
static void
py_float(char *out, size_t n, double v)
{
	snprintf(out, n, "%.15g", v);
	if (!strpbrk(out, ".en"))
		strncat(out, ".0", n - strlen(out) - 1);
}

static void
observe(struct mock_hist *h, const double *le, size_t n, double v)
{
	size_t i = 0;

	while (i < n && v > le[i])
		i++;
	h->le[i]++;	/* i == n: only the +Inf bucket */
	h->count++;
	h->sum += v;
}

void
metrics_finish(struct server *s, const struct resp *r, int aborted)
{
	struct mock_prom *m = &s->prom;
	int64_t now = clock_mono_ns();
	long tokens = r->kind == RESP_SSE ? r->next : r->n_reason + r->n_content;

	m->prompt_tokens += (uint64_t)r->prompt_tokens;
	if (aborted) {
		if (r->kind == RESP_SSE)
			m->generation_tokens += (uint64_t)r->next;
		return;
	}
	m->generation_tokens += (uint64_t)tokens;
	m->finished[r->finish && !strcmp(r->finish, "length")]++;
	observe(&m->ttft, ttft_le, NLE(ttft_le),
		(double)((r->first_ns ? r->first_ns : now) - r->arrival) / 1e9);
	observe(&m->e2e, e2e_le, NLE(e2e_le), (double)(now - r->arrival) / 1e9);
}

static void
family(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_addf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
hist(struct buf *b, const char *name, const char *help, const char *labels,
     const struct mock_hist *h, const double *le, size_t n)
{
	uint64_t cum = 0;
	char v[40];

	family(b, name, "histogram", help);
	for (size_t i = 0; i < n; i++) {
		cum += h->le[i];
		py_float(v, sizeof(v), le[i]);
		buf_addf(b, "%s_bucket{le=\"%s\",%s} %llu\n", name, v, labels,
			 (unsigned long long)cum);
	}
	buf_addf(b, "%s_bucket{le=\"+Inf\",%s} %llu\n", name, labels,
		 (unsigned long long)h->count);
	buf_addf(b, "%s_count{%s} %llu\n", name, labels, (unsigned long long)h->count);
	buf_addf(b, "%s_sum{%s} %.17g\n", name, labels, h->sum);
}

void
metrics_vllm(struct buf *b, const struct server *s)
{
	const struct mock_prom *m = &s->prom;
	struct buf lab = BUF_INIT(BUF_NOMAX);

	buf_addstr(&lab, "model_name=");
	label_quote(&lab, s->opt->model);
	buf_addstr(&lab, ",engine=\"0\"");
	family(b, "vllm:num_requests_running", "gauge",
	       "Number of requests in model execution batches.");
	buf_addf(b, "vllm:num_requests_running{%s} %lld\n", lab.s,
		 (long long)s->c.in_flight);
	family(b, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.");
	buf_addf(b, "vllm:prompt_tokens_total{%s} %llu\n", lab.s,
		 (unsigned long long)m->prompt_tokens);
	family(b, "vllm:generation_tokens_total", "counter",
	       "Number of generation tokens processed.");
	buf_addf(b, "vllm:generation_tokens_total{%s} %llu\n", lab.s,
		 (unsigned long long)m->generation_tokens);
	family(b, "vllm:request_success_total", "counter",
	       "Count of successfully processed requests.");
	for (int i = 0; i < 2; i++)
		buf_addf(b, "vllm:request_success_total{%s,finished_reason=\"%s\"} %llu\n",
			 lab.s, i ? "length" : "stop", (unsigned long long)m->finished[i]);
	hist(b, "vllm:time_to_first_token_seconds",
	     "Histogram of time to first token in seconds.", lab.s, &m->ttft,
	     ttft_le, NLE(ttft_le));
	hist(b, "vllm:e2e_request_latency_seconds",
	     "Histogram of e2e request latency in seconds.", lab.s, &m->e2e,
	     e2e_le, NLE(e2e_le));
	buf_release(&lab);
}

/* One DCGM field for every GPU, with dcgm-exporter's identity labels. */
static void
dcgm_field(struct buf *b, const struct server *s, const char *name,
	   const char *type, const char *help, double v, int integer)
{
	family(b, name, type, help);
	for (int g = 0; g < s->opt->dcgm_gpus; g++) {
		buf_addf(b, "%s{gpu=\"%d\",UUID=\"GPU-a1b2c3d4-0000-4000-8000-%012d\","
			 "pci_bus_id=\"00000000:%02X:00.0\",device=\"nvidia%d\","
			 "modelName=\"NVIDIA H200\",Hostname=\"localhost\"} ",
			 name, g, g, 0x18 + 16 * g, g);
		if (integer)
			buf_addf(b, "%.0f\n", v);
		else
			buf_addf(b, "%f\n", v);
	}
}

/*
 * Every GPU reports the same traffic-driven values: utilization 10% per
 * response in flight (at most 100), power 70 W plus 3 W per percent, memory
 * 20000 MiB plus 64 per response in flight, and an energy counter of
 * 70 W since startup plus 10 mJ per generated token.
 */
void
metrics_dcgm(struct buf *b, const struct server *s)
{
	double util = (double)(s->c.in_flight > 10 ? 100 : 10 * s->c.in_flight);
	double used = 20000 + 64 * (double)s->c.in_flight;
	double secs = (double)(clock_mono_ns() - s->prom.start_ns) / 1e9;
	double energy = 1e8 + 70e3 * secs + 10 * (double)s->prom.generation_tokens;

	dcgm_field(b, s, "DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
		   40 + util / 5, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).",
		   70 + 3 * util, 0);
	dcgm_field(b, s, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
		   "Total energy consumption since boot (in mJ).", energy, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
		   util, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_MEM_COPY_UTIL", "gauge",
		   "Memory utilization (in %).", util / 2, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_FB_FREE", "gauge",
		   "Framebuffer memory free (in MiB).", 143771 - used, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_FB_USED", "gauge",
		   "Framebuffer memory used (in MiB).", used, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_XID_ERRORS", "gauge",
		   "Value of the last XID error encountered.", 0, 1);
	dcgm_field(b, s, "DCGM_FI_DEV_POWER_VIOLATION", "counter",
		   "Throttling duration due to power constraints (in us).", 0, 1);
	dcgm_field(b, s, "DCGM_FI_PROF_SM_ACTIVE", "gauge",
		   "The ratio of cycles an SM has at least 1 warp assigned (in %).",
		   util / 100, 0);
}
