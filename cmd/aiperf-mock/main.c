/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-mock: an OpenAI-compatible mock LLM server with a timed token model. */
#include "mock.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "opt.h"
#include "util.h"

static volatile sig_atomic_t stop;

enum {
	K_HOST = 256, K_ITL, K_JITTER, K_SEED, K_ERROR_RATE, K_STATUS, K_OUTPUT,
	K_REASONING, K_FAIL_AFTER, K_STALL, K_FAULT, K_MAX_CONN, K_MODEL,
	K_EMB_DIM, K_EMB_BASE, K_EMB_PER, K_RANK_BASE, K_RANK_PER, K_IMG_BASE, K_IMG_PER,
	K_WORKERS, K_PORTS, K_HELP, K_TTFT_LOAD, K_ITL_LOAD,
	K_VERSION, K_DCGM, K_DCGM_GPUS, K_VTIME, K_VFAIL, K_VBYTES, K_BIGBODY,
	K_ANSWERS,
};

/* In enum fault's order, from FAULT_RESET. */
static const char *const faults[] = {
	"reset", "stall-head", "stall-body", "close", "http10", "big-head",
	"big-body", "bad-chunk", "bad-utf8", "sse-error", NULL,
};

#define MS(lv) OPT_SECONDS, "ms", OPT_TO(lv), .hi = 3600e3, .scale = 1e6
#define COUNT(lv, lo) OPT_INT, "n", OPT_TO(lv), .min = (lo), .max = MOCK_MAX_TOKENS

/* The options in synopsis order. */
#define MOCK_OPTS(o, fast) { \
	{ "fast", 'f', OPT_FLAG, NULL, OPT_TO(fast), .syn = "[-fv]" }, \
	{ "verbose", 'v', OPT_FLAG, NULL, OPT_TO(o->verbose), .flags = OPT_HIDE }, \
	{ "host", K_HOST, OPT_STR, "addr", OPT_TO(o->host) }, \
	{ "port", 'p', OPT_INT, "port", OPT_TO(o->port), .max = 65535, .flags = OPT_SHORT }, \
	{ "ttft-ms", 't', MS(o->ttft_ns) }, \
	{ "ttft", 't', .flags = OPT_ALIAS }, \
	{ "itl-ms", K_ITL, MS(o->itl_ns) }, \
	{ "itl", K_ITL, .flags = OPT_ALIAS }, \
	{ "ttft-per-request-ms", K_TTFT_LOAD, MS(o->ttft_load_ns), .flags = OPT_BR }, \
	{ "itl-per-request-ms", K_ITL_LOAD, MS(o->itl_load_ns) }, \
	{ "jitter-ms", K_JITTER, MS(o->jitter_ns), .flags = OPT_BR }, \
	{ "itl-jitter", K_JITTER, .flags = OPT_ALIAS }, \
	{ "random-seed", K_SEED, OPT_INT, "n", OPT_TO(o->seed), .max = INT64_MAX }, \
	{ "error-rate", K_ERROR_RATE, OPT_DOUBLE, "pct", OPT_TO(o->error_rate), .hi = 100 }, \
	{ "status", K_STATUS, OPT_INT, "code", OPT_TO(o->status), .min = 200, .max = 599 }, \
	{ "output-tokens", K_OUTPUT, COUNT(o->output_tokens, 1), .flags = OPT_BR }, \
	{ "reasoning-tokens", K_REASONING, COUNT(o->reasoning_tokens, 0) }, \
	{ "fail-after", K_FAIL_AFTER, COUNT(o->fail_after, 0) }, \
	{ "stall-ms", K_STALL, MS(o->stall_ns), .flags = OPT_BR }, \
	{ "fault", K_FAULT, OPT_CHOICE, "mode", .choices = faults }, \
	{ "big-body-bytes", K_BIGBODY, OPT_SIZE, "size", OPT_TO(o->big_body), .min = 1, \
	  .max = 4LL << 30, .flags = OPT_BR }, \
	{ "max-connections", K_MAX_CONN, OPT_INT, "n", OPT_TO(o->max_connections), \
	  .max = 100000000 }, \
	{ "model", K_MODEL, OPT_STR, "name", OPT_TO(o->model), .flags = OPT_BR }, \
	{ "answer-key", K_ANSWERS, OPT_STR, "file", OPT_TO(o->answer_key) }, \
	{ "embedding-dim", K_EMB_DIM, OPT_INT, "n", OPT_TO(o->embedding_dim), \
	  .min = 1, .max = 4096, .flags = OPT_BR }, \
	{ "embedding-base-latency", K_EMB_BASE, MS(o->emb_base_ns) }, \
	{ "embedding-per-input-latency", K_EMB_PER, MS(o->emb_per_ns), .flags = OPT_BR }, \
	{ "ranking-base-latency", K_RANK_BASE, MS(o->rank_base_ns) }, \
	{ "ranking-per-passage-latency", K_RANK_PER, MS(o->rank_per_ns), .flags = OPT_BR }, \
	{ "image-retrieval-base-latency", K_IMG_BASE, MS(o->img_base_ns) }, \
	{ "image-retrieval-per-image-latency", K_IMG_PER, MS(o->img_per_ns), .flags = OPT_BR }, \
	{ "video-time-ms", K_VTIME, MS(o->video_ns) }, \
	{ "video-fail-rate", K_VFAIL, OPT_DOUBLE, "pct", OPT_TO(o->video_fail_rate), .hi = 100 }, \
	{ "video-content-bytes", K_VBYTES, OPT_INT, "n", OPT_TO(o->video_bytes), .min = 32, \
	  .max = 1 << 20, .flags = OPT_BR }, \
	{ "workers", K_WORKERS, OPT_INT, "n", OPT_TO(o->workers), .min = 1, .max = 1024 }, \
	{ "ports", K_PORTS, OPT_INT, "n", OPT_TO(o->ports), .min = 1, .max = MOCK_MAX_PORTS }, \
	{ "dcgm", K_DCGM, OPT_FLAG, .flags = OPT_BR }, \
	{ "dcgm-gpus", K_DCGM_GPUS, OPT_INT, "n", OPT_TO(o->dcgm_gpus), .min = 1, .max = 64 }, \
	{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	int fast = 0;
	struct opt tab[] = MOCK_OPTS(o, fast);
	const struct opt_cmd cmd = { "aiperf-mock", tab, NULL, 7, NULL, NULL };
	struct opt_iter it;
	int c;

	*o = (struct options){
		.host = "127.0.0.1", .port = 8000, .ttft_ns = 20000000,
		.itl_ns = 5000000, .emb_base_ns = 10000000,
		.emb_per_ns = 2000000, .rank_base_ns = 10000000,
		.rank_per_ns = 1000000, .img_base_ns = 10000000, .img_per_ns = 5000000,
		.fail_after = -1, .embedding_dim = 16,
		.model = "aiperf-mock", .workers = 1, .ports = 1,
		.video_ns = 500000000, .video_bytes = 65536, .big_body = MOCK_BIG_BODY,
	};
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		if (c == K_FAULT)
			o->fault = (enum fault)(FAULT_RESET + it.i);
		if (c == K_DCGM && !o->dcgm_gpus)
			o->dcgm_gpus = 2;
	}
	if (it.ind < argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	if (fast)
		o->ttft_ns = o->itl_ns = o->jitter_ns = o->emb_base_ns =
			o->emb_per_ns = o->rank_base_ns = o->rank_per_ns =
			o->img_base_ns = o->img_per_ns = o->video_ns = 0;
}

/* Many thousands of connections need as many descriptors as allowed. */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Fork workers 1..n-1, each with its own listener on the same port; the
 * caller stays worker 0. Children die with the parent. */
static pid_t *
spawn_workers(struct server *s, int n)
{
	pid_t *pids = xcalloc((size_t)n, sizeof(*pids));

	s->nworkers = (unsigned)n;
	for (int i = 1; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork:");
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGTERM, 0UL, 0UL, 0UL);
			s->worker = (unsigned)i;
			if (server_rebind(s) < 0)
				exit(1);
			free(pids);
			return NULL;
		}
	}
	return pids;
}

static void
reap_workers(pid_t *pids, int n)
{
	for (int i = 1; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (int i = 1; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	free(pids);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct server s;
	char url[300], why[256];
	pid_t *pids;
	int rc;

	util_setprogname(argv[0]);
	parse_args(&o, argc, argv);
	if (o.answer_key && answers_load(&o.answers, o.answer_key, why, sizeof(why)) < 0)
		die("--answer-key '%s': %s", o.answer_key, why);
	raise_nofile();
	setup_signals();
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);	/* wake on time, not +50 us */
	memset(&s, 0, sizeof(s));
	s.opt = &o;
	s.created = (int64_t)time(NULL);
	s.prom.start_ns = clock_mono_ns();
	if (o.port && o.port + o.ports - 1 > 65535)
		die_usage("invalid value for --ports: past port 65535");
	for (int i = 0; i < o.ports; i++) {
		if (server_listen(&s, o.host, o.port ? o.port + i : 0,
				  o.workers > 1, url, sizeof(url)) < 0)
			return 1;
		printf("%s\n", url);
	}
	fflush(stdout);
	pids = spawn_workers(&s, o.workers);
	s.doc = json_doc_new();
	buf_init(&s.scratch, BUF_NOMAX);
	s.rbuf = xmalloc(MOCK_READ_SIZE);
	rc = server_init(&s);
	if (rc == 0)
		rc = server_run(&s, &stop);
	server_release(&s);
	answers_release(&o.answers);
	if (pids)
		reap_workers(pids, o.workers);
	if (util_fshut(stdout, "stdout") < 0)
		rc = -1;
	return rc < 0 ? 1 : 0;
}
