/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-mock: an OpenAI-compatible mock LLM server with a timed token model. */
#include "mock.h"

#include <getopt.h>
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
#include "util.h"

static volatile sig_atomic_t stop;

static const char synopsis[] =
	"usage: aiperf-mock [-fv] [--host addr] [-p port] [--ttft-ms ms] [--itl-ms ms]\n"
	"       [--jitter-ms ms] [--random-seed n] [--error-rate pct] [--status code]\n"
	"       [--output-tokens n] [--reasoning-tokens n] [--fail-after n]\n"
	"       [--stall-ms ms] [--fault mode] [--max-connections n] [--model name]\n"
	"       [--embedding-dim n] [--embedding-base-latency ms]\n"
	"       [--embedding-per-input-latency ms] [--workers n] [--ports n]\n";

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	exit(status);
}

enum {
	OPT_HOST = 256, OPT_ITL, OPT_JITTER, OPT_SEED, OPT_ERROR_RATE,
	OPT_STATUS, OPT_OUTPUT, OPT_REASONING, OPT_FAIL_AFTER, OPT_STALL, OPT_FAULT,
	OPT_MAX_CONN, OPT_MODEL, OPT_EMB_DIM, OPT_EMB_BASE, OPT_EMB_PER, OPT_WORKERS, OPT_PORTS,
	OPT_HELP, OPT_VERSION,
};

static const struct option longopts[] = {
	{ "host", required_argument, NULL, OPT_HOST },
	{ "port", required_argument, NULL, 'p' },
	{ "ttft-ms", required_argument, NULL, 't' },
	{ "ttft", required_argument, NULL, 't' },
	{ "itl-ms", required_argument, NULL, OPT_ITL },
	{ "itl", required_argument, NULL, OPT_ITL },
	{ "jitter-ms", required_argument, NULL, OPT_JITTER },
	{ "itl-jitter", required_argument, NULL, OPT_JITTER },
	{ "random-seed", required_argument, NULL, OPT_SEED },
	{ "error-rate", required_argument, NULL, OPT_ERROR_RATE },
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "output-tokens", required_argument, NULL, OPT_OUTPUT },
	{ "reasoning-tokens", required_argument, NULL, OPT_REASONING },
	{ "fail-after", required_argument, NULL, OPT_FAIL_AFTER },
	{ "stall-ms", required_argument, NULL, OPT_STALL },
	{ "fault", required_argument, NULL, OPT_FAULT },
	{ "max-connections", required_argument, NULL, OPT_MAX_CONN },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "embedding-dim", required_argument, NULL, OPT_EMB_DIM },
	{ "embedding-base-latency", required_argument, NULL, OPT_EMB_BASE },
	{ "embedding-per-input-latency", required_argument, NULL, OPT_EMB_PER },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "ports", required_argument, NULL, OPT_PORTS },
	{ "fast", no_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static int64_t
opt_ms(const char *name, const char *arg)
{
	return llround(opt_double(name, arg, 0, 3600e3) * 1e6);
}

static enum fault
opt_fault(const char *arg)
{
	static const char *const names[] = {
		[FAULT_RESET] = "reset", [FAULT_STALL_HEAD] = "stall-head",
		[FAULT_STALL_BODY] = "stall-body", [FAULT_CLOSE] = "close",
		[FAULT_HTTP10] = "http10", [FAULT_BIG_HEAD] = "big-head",
		[FAULT_BIG_BODY] = "big-body", [FAULT_BAD_CHUNK] = "bad-chunk",
		[FAULT_BAD_UTF8] = "bad-utf8", [FAULT_SSE_ERROR] = "sse-error",
	};
	for (size_t i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i]))
			return (enum fault)i;
	die_usage("invalid value for --fault: '%s'", arg);
}

/* Options with a value; returns 0 when c is not one of them. */
static int
value_opt(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_HOST: o->host = arg; break;
	case 'p': o->port = (int)opt_int("--port", arg, 0, 65535); break;
	case 't': o->ttft_ns = opt_ms("--ttft-ms", arg); break;
	case OPT_ITL: o->itl_ns = opt_ms("--itl-ms", arg); break;
	case OPT_JITTER: o->jitter_ns = opt_ms("--jitter-ms", arg); break;
	case OPT_SEED: o->seed = (uint64_t)opt_int("--random-seed", arg, 0, INT64_MAX); break;
	case OPT_ERROR_RATE: o->error_rate = opt_double("--error-rate", arg, 0, 100); break;
	case OPT_STATUS: o->status = (int)opt_int("--status", arg, 200, 599); break;
	case OPT_OUTPUT: o->output_tokens = (long)opt_int("--output-tokens", arg, 1, MOCK_MAX_TOKENS); break;
	case OPT_REASONING: o->reasoning_tokens = (long)opt_int("--reasoning-tokens", arg, 0, MOCK_MAX_TOKENS); break;
	case OPT_FAIL_AFTER: o->fail_after = (long)opt_int("--fail-after", arg, 0, MOCK_MAX_TOKENS); break;
	case OPT_STALL: o->stall_ns = opt_ms("--stall-ms", arg); break;
	case OPT_FAULT: o->fault = opt_fault(arg); break;
	case OPT_MAX_CONN: o->max_connections = (long)opt_int("--max-connections", arg, 0, 100000000); break;
	case OPT_MODEL: o->model = arg; break;
	case OPT_EMB_DIM: o->embedding_dim = (int)opt_int("--embedding-dim", arg, 1, 4096); break;
	case OPT_EMB_BASE: o->emb_base_ns = opt_ms("--embedding-base-latency", arg); break;
	case OPT_EMB_PER: o->emb_per_ns = opt_ms("--embedding-per-input-latency", arg); break;
	case OPT_WORKERS: o->workers = (int)opt_int("--workers", arg, 1, 1024); break;
	case OPT_PORTS: o->ports = (int)opt_int("--ports", arg, 1, MOCK_MAX_PORTS); break;
	default: return 0;
	}
	return 1;
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	int c, fast = 0;

	*o = (struct options){
		.host = "127.0.0.1", .port = 8000, .ttft_ns = 20000000,
		.itl_ns = 5000000, .emb_base_ns = 10000000,
		.emb_per_ns = 2000000, .fail_after = -1, .embedding_dim = 16,
		.model = "aiperf-mock", .workers = 1, .ports = 1,
	};
	while ((c = getopt_long(argc, argv, "fp:t:v", longopts, NULL)) != -1) {
		if (value_opt(o, c, optarg))
			continue;
		switch (c) {
		case 'f': fast = 1; break;
		case 'v': o->verbose = 1; break;
		case OPT_HELP: usage(stdout, 0);
		case OPT_VERSION:
			printf("aiperf-mock %s\n", AIPERF_VERSION);
			exit(0);
		default: usage(stderr, 2);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (fast)
		o->ttft_ns = o->itl_ns = o->jitter_ns = o->emb_base_ns =
			o->emb_per_ns = 0;
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
	char url[300];
	pid_t *pids;
	int rc;

	util_setprogname(argv[0]);
	parse_args(&o, argc, argv);
	raise_nofile();
	setup_signals();
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);	/* wake on time, not +50 us */
	memset(&s, 0, sizeof(s));
	s.opt = &o;
	s.created = (int64_t)time(NULL);
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
	if (pids)
		reap_workers(pids, o.workers);
	if (util_fshut(stdout, "stdout") < 0)
		rc = -1;
	return rc < 0 ? 1 : 0;
}
