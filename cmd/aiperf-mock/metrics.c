/* SPDX-License-Identifier: Apache-2.0 */
/* /metrics as vLLM writes it (driven by the traffic served) and as a DCGM exporter does (--dcgm). */
#include "mock.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* vLLM's bucket bounds (vllm/v1/metrics/loggers.py); TRT-LLM's are the same. */
static const double ttft_le[] = {
	0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
	2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0,
};
static const double e2e_le[] = {
	0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
	50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0,
};
static const double tpot_le[] = {
	0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0,
	2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0,
};
/* SGLang: TTFT bounds, and latency bounds growing by about 1.62. */
static const double sgl_ttft_le[] = {
	0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
	50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0,
};
static const double sgl_e2e_le[] = {
	0.001, 0.00162, 0.002624, 0.004252, 0.006887, 0.011158, 0.018075,
	0.029282, 0.047437, 0.076848, 0.124494, 0.201681, 0.326723, 0.529292,
	0.857453, 1.389073, 2.250299, 3.645484, 5.905685, 9.567209, 15.498879,
	25.108184, 40.675258, 65.893919, 106.748148,
};
/* Dynamo's frontend and component (work handler) bounds. */
static const double dyn_ttft_le[] = {
	0.0022, 0.0047, 0.01, 0.022, 0.047, 0.1, 0.22, 0.47, 1.0, 2.2, 4.7,
	10.0, 22.0, 48.0, 100.0, 220.0, 480.0,
};
static const double dyn_duration_le[] = {
	1.9, 3.4, 6.3, 12.0, 22.0, 40.0, 75.0, 140.0, 260.0, 480.0, 900.0,
};
static const double dyn_component_le[] = {
	0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
};
#define NLE(a) (sizeof(a) / sizeof(a[0]))

static const struct {
	const double *le;
	size_t n;
} bounds[H_N] = {
	[H_VLLM_TTFT] = { ttft_le, NLE(ttft_le) },
	[H_VLLM_E2E] = { e2e_le, NLE(e2e_le) },
	[H_TRT_TPOT] = { tpot_le, NLE(tpot_le) },
	[H_SGL_TTFT] = { sgl_ttft_le, NLE(sgl_ttft_le) },
	[H_SGL_E2E] = { sgl_e2e_le, NLE(sgl_e2e_le) },
	[H_DYN_TTFT] = { dyn_ttft_le, NLE(dyn_ttft_le) },
	[H_DYN_DURATION] = { dyn_duration_le, NLE(dyn_duration_le) },
	[H_DYN_PREFILL] = { dyn_component_le, NLE(dyn_component_le) },
	[H_DYN_DECODE] = { dyn_component_le, NLE(dyn_component_le) },
};

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
observe(struct mock_prom *m, enum mock_hist_id id, double v)
{
	struct mock_hist *h = &m->h[id];
	const double *le = bounds[id].le;
	size_t n = bounds[id].n, i = 0;

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

	double ttft, e2e;

	m->prompt_tokens += (uint64_t)r->prompt_tokens;
	if (aborted) {
		if (r->kind == RESP_SSE)
			m->generation_tokens += (uint64_t)r->next;
		m->finished[2]++;
		return;
	}
	m->generation_tokens += (uint64_t)tokens;
	m->finished[r->finish && !strcmp(r->finish, "length")]++;
	ttft = (double)((r->first_ns ? r->first_ns : now) - r->arrival) / 1e9;
	e2e = (double)(now - r->arrival) / 1e9;
	observe(m, H_VLLM_TTFT, ttft);
	observe(m, H_VLLM_E2E, e2e);
	observe(m, H_SGL_TTFT, ttft);
	observe(m, H_SGL_E2E, e2e);
	observe(m, H_DYN_TTFT, ttft);
	observe(m, H_DYN_DURATION, e2e);
	/* disaggregated serving: prefill ends with the first token */
	observe(m, H_DYN_PREFILL, ttft);
	observe(m, H_DYN_DECODE, e2e - ttft);
	if (tokens > 1)
		observe(m, H_TRT_TPOT, (e2e - ttft) / (double)(tokens - 1));
}

static void
family(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_addf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
hist(struct buf *b, const char *name, const char *help, const char *labels,
     const struct mock_prom *m, enum mock_hist_id id)
{
	const struct mock_hist *h = &m->h[id];
	const double *le = bounds[id].le;
	size_t n = bounds[id].n;
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
	     "Histogram of time to first token in seconds.", lab.s, m, H_VLLM_TTFT);
	hist(b, "vllm:e2e_request_latency_seconds",
	     "Histogram of e2e request latency in seconds.", lab.s, m, H_VLLM_E2E);
	buf_release(&lab);
}

/* One sample line: name{labels} value. */
static void
sample(struct buf *b, const char *name, const char *labels, double v)
{
	buf_addf(b, "%s{%s} %.17g\n", name, labels, v);
}

static void
one(struct buf *b, const char *name, const char *type, const char *help,
    const char *labels, double v)
{
	family(b, name, type, help);
	sample(b, name, labels, v);
}

static void
metrics_sglang(struct buf *b, const struct server *s, const char *lab)
{
	const struct mock_prom *m = &s->prom;
	double secs = (double)(clock_mono_ns() - m->start_ns) / 1e9;

	one(b, "sglang:num_running_reqs", "gauge", "The number of running requests.",
	    lab, (double)s->c.in_flight);
	one(b, "sglang:num_queue_reqs", "gauge",
	    "The number of requests in the waiting queue.", lab, 0);
	one(b, "sglang:gen_throughput", "gauge", "The generation throughput (token/s).",
	    lab, secs > 0 ? (double)m->generation_tokens / secs : 0);
	one(b, "sglang:prompt_tokens_total", "counter",
	    "Number of prefill tokens processed.", lab, (double)m->prompt_tokens);
	one(b, "sglang:generation_tokens_total", "counter",
	    "Number of generation tokens processed.", lab,
	    (double)m->generation_tokens);
	one(b, "sglang:num_requests_total", "counter",
	    "Number of requests processed.", lab,
	    (double)(m->finished[0] + m->finished[1]));
	one(b, "sglang:num_aborted_requests_total", "counter",
	    "Number of requests aborted.", lab, (double)m->finished[2]);
	hist(b, "sglang:time_to_first_token_seconds",
	     "Histogram of time to first token in seconds.", lab, m, H_SGL_TTFT);
	hist(b, "sglang:e2e_request_latency_seconds",
	     "Histogram of End-to-end request latency in seconds", lab, m, H_SGL_E2E);
}

static void
metrics_trtllm(struct buf *b, const struct server *s, const char *lab)
{
	const struct mock_prom *m = &s->prom;

	family(b, "trtllm_request_success_total", "counter",
	       "Count of successfully processed requests.");
	for (int i = 0; i < 2; i++)
		buf_addf(b, "trtllm_request_success_total{%s,finished_reason=\"%s\"} %llu\n",
			 lab, i ? "length" : "stop", (unsigned long long)m->finished[i]);
	hist(b, "trtllm_e2e_request_latency_seconds",
	     "Histogram of end to end request latency in seconds.", lab, m, H_VLLM_E2E);
	hist(b, "trtllm_time_to_first_token_seconds",
	     "Histogram of time to first token in seconds.", lab, m, H_VLLM_TTFT);
	hist(b, "trtllm_time_per_output_token_seconds",
	     "Histogram of time per output token in seconds.", lab, m, H_TRT_TPOT);
}

static void
metrics_dyn_frontend(struct buf *b, const struct server *s, const char *lab)
{
	const struct mock_prom *m = &s->prom;
	double done = (double)(m->finished[0] + m->finished[1]);

	one(b, "dynamo_frontend_requests_total", "counter",
	    "Total number of LLM requests processed", lab, done);
	one(b, "dynamo_frontend_inflight_requests", "gauge",
	    "Number of inflight requests", lab, (double)s->c.in_flight);
	one(b, "dynamo_frontend_queued_requests", "gauge",
	    "Number of requests in HTTP processing queue", lab, 0);
	one(b, "dynamo_frontend_disconnected_clients_total", "counter",
	    "Number of disconnected clients", lab, (double)m->finished[2]);
	one(b, "dynamo_frontend_input_sequence_tokens_total", "counter",
	    "Input sequence length in tokens", lab, (double)m->prompt_tokens);
	one(b, "dynamo_frontend_output_sequence_tokens_total", "counter",
	    "Output sequence length in tokens", lab, (double)m->generation_tokens);
	one(b, "dynamo_frontend_output_tokens_total", "counter",
	    "Total number of output tokens generated", lab,
	    (double)m->generation_tokens);
	hist(b, "dynamo_frontend_time_to_first_token_seconds",
	     "Time to first token in seconds", lab, m, H_DYN_TTFT);
	hist(b, "dynamo_frontend_request_duration_seconds",
	     "Duration of LLM requests", lab, m, H_DYN_DURATION);
}

/*
 * A prefill or decode worker of disaggregated serving: every finished
 * request passes both, the prefill worker until its first token, the
 * decode worker for the rest. KV blocks: 16 per request in flight of 8192.
 */
static void
metrics_dyn_component(struct buf *b, const struct server *s, const char *lab,
		      int decode)
{
	const struct mock_prom *m = &s->prom;
	double blocks = 16 * (double)s->c.in_flight;

	one(b, "dynamo_component_requests_total", "counter",
	    "Total number of requests processed by work handler", lab,
	    (double)(m->finished[0] + m->finished[1]));
	one(b, "dynamo_component_inflight_requests", "gauge",
	    "Number of requests currently being processed by work handler", lab,
	    (double)s->c.in_flight);
	hist(b, "dynamo_component_request_duration_seconds",
	     "Time spent processing requests by work handler", lab, m,
	     decode ? H_DYN_DECODE : H_DYN_PREFILL);
	one(b, "dynamo_component_kvstats_active_blocks", "gauge",
	    "Number of active KV cache blocks currently in use", lab, blocks);
	one(b, "dynamo_component_kvstats_total_blocks", "gauge",
	    "Total number of KV cache blocks available", lab, 8192);
	one(b, "dynamo_component_kvstats_gpu_cache_usage_percent", "gauge",
	    "GPU cache usage as a percentage (0.0-1.0)", lab,
	    blocks > 8192 ? 1 : blocks / 8192);
}

void
metrics_style(struct buf *b, const struct server *s, enum mock_style style)
{
	struct buf lab = BUF_INIT(BUF_NOMAX);

	switch (style) {
	case STYLE_SGLANG:
		buf_addstr(&lab, "model_name=");
		label_quote(&lab, s->opt->model);
		metrics_sglang(b, s, lab.s);
		break;
	case STYLE_TRTLLM:
		buf_addstr(&lab, "model_name=");
		label_quote(&lab, s->opt->model);
		buf_addstr(&lab, ",engine_type=\"trtllm\"");
		metrics_trtllm(b, s, lab.s);
		break;
	case STYLE_DYN_FRONTEND:
		buf_addstr(&lab, "model=");
		label_quote(&lab, s->opt->model);
		metrics_dyn_frontend(b, s, lab.s);
		break;
	case STYLE_DYN_PREFILL:
	case STYLE_DYN_DECODE:
		buf_addf(&lab, "dynamo_namespace=\"dynamo\",dynamo_component=\"%s\","
			 "dynamo_endpoint=\"generate\",model=",
			 style == STYLE_DYN_DECODE ? "decode" : "prefill");
		label_quote(&lab, s->opt->model);
		metrics_dyn_component(b, s, lab.s, style == STYLE_DYN_DECODE);
		break;
	default:
		metrics_vllm(b, s);
		break;
	}
	buf_release(&lab);
}

/* One DCGM field for every GPU, with dcgm-exporter's identity labels. */
static void
dcgm_field(struct buf *b, const struct server *s, int set, const char *name,
	   const char *type, const char *help, double v, int integer)
{
	int n = s->opt->dcgm_gpus ? s->opt->dcgm_gpus : 2;

	family(b, name, type, help);
	for (int g = 0; g < n; g++) {
		buf_addf(b, "%s{gpu=\"%d\",UUID=\"GPU-a1b2c3d4-%04d-4000-8000-%012d\","
			 "pci_bus_id=\"%08X:%02X:00.0\",device=\"nvidia%d\","
			 "modelName=\"NVIDIA H200\",Hostname=\"localhost\"} ",
			 name, g, set, g, set, (0x18 + 16 * g) & 0xff, g);
		if (integer)
			buf_addf(b, "%.0f\n", v);
		else
			buf_addf(b, "%f\n", v);
	}
}

/*
 * Every GPU reports the same traffic-driven values (each set has its own
 * UUIDs and PCI domain, set 0 being --dcgm's /metrics): utilization 10% per
 * response in flight (at most 100), power 70 W plus 3 W per percent, memory
 * 20000 MiB plus 64 per response in flight, SM clock 345 MHz plus 16.35
 * per percent, and an energy counter of
 * 70 W since startup plus 10 mJ per generated token.
 */
void
metrics_dcgm(struct buf *b, const struct server *s, int set)
{
	double util = (double)(s->c.in_flight > 10 ? 100 : 10 * s->c.in_flight);
	double used = 20000 + 64 * (double)s->c.in_flight;
	double secs = (double)(clock_mono_ns() - s->prom.start_ns) / 1e9;
	double energy = 1e8 + 70e3 * secs + 10 * (double)s->prom.generation_tokens;

	dcgm_field(b, s, set, "DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
		   40 + util / 5, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).",
		   70 + 3 * util, 0);
	dcgm_field(b, s, set, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
		   "Total energy consumption since boot (in mJ).", energy, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
		   util, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_MEM_COPY_UTIL", "gauge",
		   "Memory utilization (in %).", util / 2, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_FB_FREE", "gauge",
		   "Framebuffer memory free (in MiB).", 143771 - used, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_FB_USED", "gauge",
		   "Framebuffer memory used (in MiB).", used, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_XID_ERRORS", "gauge",
		   "Value of the last XID error encountered.", 0, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_POWER_VIOLATION", "counter",
		   "Throttling duration due to power constraints (in us).", 0, 1);
	dcgm_field(b, s, set, "DCGM_FI_DEV_SM_CLOCK", "gauge",
		   "SM clock frequency (in MHz).", 345 + 16.35 * util, 1);
	dcgm_field(b, s, set, "DCGM_FI_PROF_SM_ACTIVE", "gauge",
		   "The ratio of cycles an SM has at least 1 warp assigned (in %).",
		   util / 100, 0);
}
