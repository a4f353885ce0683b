/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-send: read request records, send them over HTTP (SSE), write one raw record per request. */
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "http/redact.h"
#include "send.h"
#include "stats/units.h"
#include "util.h"

static const char usage_text[] =
	"usage: aiperf-send [-u url...] [-H header...] [--endpoint path]\n"
	"                   [--concurrency n] [--request-timeout-seconds s]\n"
	"                   [--api-key key | --api-key-file file]\n"
	"                   [--ui-type none|simple|dashboard]\n"
	"                   [--unbuffered] [--max-response-bytes size]\n"
	"                   [--max-record-bytes size]\n"
	"                   [--connection-reuse-strategy pooled|never|sticky-user-sessions]\n"
	"                   [--benchmark-duration s] [--benchmark-grace-period s]\n"
	"                   [--shutdown-grace-period s]\n"
	"                   [--ssl-ca-file file] [-k | --insecure]\n"
	"                   [--concurrency-ramp-duration s] [--warmup-concurrency n]\n"
	"                   [--warmup-concurrency-ramp-duration s]\n"
	"                   [--prefill-concurrency n] [--prefill-concurrency-ramp-duration s]\n"
	"                   [--warmup-prefill-concurrency n]\n"
	"                   [--warmup-prefill-concurrency-ramp-duration s]\n"
	"                   [--warmup-duration s] [--warmup-grace-period s]\n"
	"                   [--busy-poll] [--http-engine auto|h1|curl]\n";

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(usage_text, f);
	exit(status);
}

enum {
	OPT_ENDPOINT = 256, OPT_CONC, OPT_TIMEOUT, OPT_KEY, OPT_KEYFILE, OPT_UI, OPT_UNBUF,
	OPT_MAXRESP, OPT_MAXREC, OPT_REUSE, OPT_DUR, OPT_GRACE, OPT_SHUT,
	OPT_CAFILE, OPT_RAMP, OPT_WCONC, OPT_WRAMP, OPT_PRE, OPT_PRERAMP,
	OPT_WPRE, OPT_WPRERAMP, OPT_BUSY, OPT_ENGINE, OPT_VERSION, OPT_WDUR, OPT_WGRACE,
};

static const struct option longopts[] = {
	{ "url", required_argument, NULL, 'u' },
	{ "header", required_argument, NULL, 'H' },
	{ "endpoint", required_argument, NULL, OPT_ENDPOINT },
	{ "concurrency", required_argument, NULL, OPT_CONC },
	{ "request-timeout-seconds", required_argument, NULL, OPT_TIMEOUT },
	{ "api-key", required_argument, NULL, OPT_KEY },
	{ "api-key-file", required_argument, NULL, OPT_KEYFILE },
	{ "ui-type", required_argument, NULL, OPT_UI },
	{ "unbuffered", no_argument, NULL, OPT_UNBUF },
	{ "max-response-bytes", required_argument, NULL, OPT_MAXRESP },
	{ "max-record-bytes", required_argument, NULL, OPT_MAXREC },
	{ "connection-reuse-strategy", required_argument, NULL, OPT_REUSE },
	{ "benchmark-duration", required_argument, NULL, OPT_DUR },
	{ "benchmark-grace-period", required_argument, NULL, OPT_GRACE },
	{ "shutdown-grace-period", required_argument, NULL, OPT_SHUT },
	{ "ssl-ca-file", required_argument, NULL, OPT_CAFILE },
	{ "insecure", no_argument, NULL, 'k' },
	{ "concurrency-ramp-duration", required_argument, NULL, OPT_RAMP },
	{ "warmup-concurrency", required_argument, NULL, OPT_WCONC },
	{ "warmup-concurrency-ramp-duration", required_argument, NULL, OPT_WRAMP },
	{ "prefill-concurrency", required_argument, NULL, OPT_PRE },
	{ "prefill-concurrency-ramp-duration", required_argument, NULL, OPT_PRERAMP },
	{ "warmup-prefill-concurrency", required_argument, NULL, OPT_WPRE },
	{ "warmup-prefill-concurrency-ramp-duration", required_argument, NULL, OPT_WPRERAMP },
	{ "warmup-duration", required_argument, NULL, OPT_WDUR },
	{ "warmup-grace-period", required_argument, NULL, OPT_WGRACE },
	{ "busy-poll", no_argument, NULL, OPT_BUSY },
	{ "http-engine", required_argument, NULL, OPT_ENGINE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Seconds as a float ("inf" allowed when inf_ok), as ns. */
static int64_t
opt_seconds(const char *opt, const char *arg, int inf_ok)
{
	if (inf_ok && !strcmp(arg, "inf"))
		return -1;
	double v = opt_double(opt, arg, 0, 9.2e9);
	return (int64_t)llround(v * 1e9);
}

static size_t
opt_bytes(const char *opt, const char *arg)
{
	uint64_t v;
	const char *why;
	if (units_bytes(arg, (uint64_t)1 << 40, &v, &why) < 0 || v == 0)
		die_usage("invalid value for %s: '%s'", opt, arg);
	return (size_t)v;
}

static void
add_str(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (char *)s;
}

static void
check_header(const char *h)
{
	const char *c = strchr(h, ':');
	if (!c || c == h || strchr(h, '\n') || strchr(h, '\r'))
		die_usage("invalid header '%s': expected 'Name: value'", h);
}

static int
parse_choice(const char *opt, const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	die_usage("invalid value for %s: '%s'", opt, arg);
}

static void parse_limit(struct options *o, int c, const char *arg);

static void
check_positive(const char *opt, const char *arg, int64_t ns)
{
	if (ns <= 0)
		die_usage("invalid value for %s: '%s' (must be > 0)", opt, arg);
}

static void
parse_opt(struct options *o, int c, const char *arg, int *grace_set)
{
	static const char *const uis[] = { "none", "simple", "dashboard", NULL };
	static const char *const reuses[] = { "pooled", "never", "sticky-user-sessions", NULL };
	static const char *const engines[] = { "auto", "h1", "curl", NULL };

	switch (c) {
	case 'u': add_str(&o->urls, &o->nurls, arg); break;
	case 'H': check_header(arg); add_str(&o->headers, &o->nheaders, arg); break;
	case OPT_ENDPOINT: o->endpoint = arg; break;
	case OPT_CONC: o->concurrency = (long)opt_int("--concurrency", arg, 1, 1000000); break;
	case OPT_TIMEOUT: o->timeout_ns = opt_seconds("--request-timeout-seconds", arg, 0); break;
	case OPT_KEY: o->api_key = arg; break;
	case OPT_KEYFILE: o->api_key_file = arg; break;
	case OPT_UI: o->ui = (enum ui_type)parse_choice("--ui-type", arg, uis); break;
	case OPT_UNBUF: o->unbuffered = 1; break;
	case OPT_MAXRESP: o->max_response = opt_bytes("--max-response-bytes", arg); break;
	case OPT_MAXREC: o->max_line = opt_bytes("--max-record-bytes", arg); break;
	case OPT_REUSE: o->reuse = (enum reuse)parse_choice("--connection-reuse-strategy", arg, reuses); break;
	case OPT_DUR: o->duration_ns = opt_seconds("--benchmark-duration", arg, 0); break;
	case OPT_GRACE: o->grace_ns = opt_seconds("--benchmark-grace-period", arg, 1); *grace_set = 1; break;
	case OPT_SHUT: o->stop_grace_ns = opt_seconds("--shutdown-grace-period", arg, 1); break;
	case OPT_CAFILE: o->ca_file = arg; break;
	case 'k': o->insecure = 1; break;
	case OPT_BUSY: o->busy_poll = 1; break;
	case OPT_ENGINE: o->engine = (enum engine)parse_choice("--http-engine", arg, engines); break;
	case 'h': usage(stdout, 0);
	case OPT_VERSION: printf("aiperf-send %s\n", AIPERF_VERSION); exit(0);
	default: parse_limit(o, c, arg); break;
	}
}

/* The concurrency limits and their ramps (spec 5.3); [0] profiling, [1] warmup. */
static void
parse_limit(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_RAMP: o->ramp_ns[0] = opt_seconds("--concurrency-ramp-duration", arg, 0); break;
	case OPT_WCONC: o->wconcurrency = (long)opt_int("--warmup-concurrency", arg, 1, 1000000); break;
	case OPT_WRAMP: o->ramp_ns[1] = opt_seconds("--warmup-concurrency-ramp-duration", arg, 0); break;
	case OPT_PRE: o->prefill[0] = (long)opt_int("--prefill-concurrency", arg, 1, 1000000); break;
	case OPT_PRERAMP: o->pramp_ns[0] = opt_seconds("--prefill-concurrency-ramp-duration", arg, 0); break;
	case OPT_WPRE: o->prefill[1] = (long)opt_int("--warmup-prefill-concurrency", arg, 1, 1000000); break;
	case OPT_WPRERAMP: o->pramp_ns[1] = opt_seconds("--warmup-prefill-concurrency-ramp-duration", arg, 0); break;
	case OPT_WDUR: o->warmup_ns = opt_seconds("--warmup-duration", arg, 0); check_positive("--warmup-duration", arg, o->warmup_ns); break;
	case OPT_WGRACE: o->wgrace_ns = opt_seconds("--warmup-grace-period", arg, 1); o->wgrace_set = 1; break;
	default: usage(stderr, 2);
	}
}

/* The first line of path, without its line end and trailing blanks. */
static char *
read_key(const char *path)
{
	size_t n;
	char *k = util_readfile(path, 64 << 10, &n);

	if (!k)
		die("cannot read '%s':", path);
	/* cppcheck-suppress nullPointerRedundantCheck ; die() does not return */
	k[strcspn(k, "\r\n")] = '\0';
	/* cppcheck-suppress nullPointerRedundantCheck */
	n = strlen(k);
	while (n && (k[n - 1] == ' ' || k[n - 1] == '\t'))
		k[--n] = '\0';
	if (!n)
		die("'%s' holds no API key", path);
	return k;
}

/*
 * The key: --api-key, else --api-key-file, else $AIPERF_API_KEY (the last
 * two keep it out of ps). As in the original it is the one Authorization
 * header: any given with -H goes.
 */
static void
resolve_key(struct options *o)
{
	const char *env = getenv("AIPERF_API_KEY");
	size_t k = 0, dropped = 0;

	if (o->api_key && o->api_key_file)
		die_usage("--api-key and --api-key-file cannot be used together");
	if (o->api_key_file)
		o->api_key = read_key(o->api_key_file);
	else if (!o->api_key && env && *env)
		o->api_key = env;
	if (!o->api_key)
		return;
	if (strpbrk(o->api_key, "\r\n"))
		die_usage("invalid API key: it must be one line");
	for (size_t i = 0; i < o->nheaders; i++) {
		size_t n = strcspn(o->headers[i], ":");
		while (n && o->headers[i][n - 1] == ' ')
			n--;
		if (n == 13 && !strncasecmp(o->headers[i], "authorization", 13))
			dropped++;
		else
			o->headers[k++] = o->headers[i];
	}
	o->nheaders = k;
	if (dropped)
		warn("the API key replaces the Authorization header given with -H");
}

/* Whether libcurl would send through a proxy from the environment. */
static int
proxy_env(void)
{
	static const char *const vars[] = { "http_proxy", "all_proxy", "ALL_PROXY" };
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return 1;
	}
	return 0;
}

static _Noreturn void
h1_https(const char *url)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	redact_url(&b, url, strlen(url));
	die_usage("--http-engine h1 cannot send to '%s': https needs curl", buf_str(&b));
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	int c, grace_set = 0;

	o->timeout_ns = 21600LL * 1000000000;
	o->ui = UI_DASHBOARD;
	o->max_response = 64 << 20;
	o->max_line = 64 << 20;
	o->grace_ns = 30LL * 1000000000;
	o->stop_grace_ns = 5LL * 1000000000;
	o->wgrace_ns = -1;
	while ((c = getopt_long(argc, argv, "u:H:hk", longopts, NULL)) != -1)
		parse_opt(o, c, optarg, &grace_set);
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	resolve_key(o);
	if (grace_set && !o->duration_ns)
		die_usage("--benchmark-grace-period can only be used with "
			  "duration-based benchmarking (--benchmark-duration).");
	if (o->wgrace_set && !o->warmup_ns)
		die_usage("--warmup-grace-period can only be used when "
			  "--warmup-duration is set. Set --warmup-duration.");
	if (o->timeout_ns < 1000000)
		die_usage("invalid value for --request-timeout-seconds: must be at least 0.001");
	if (o->prefill[0] && o->concurrency && o->prefill[0] > o->concurrency)
		die_usage("--prefill-concurrency (%ld) must be less than or equal to "
			  "--concurrency (%ld)", o->prefill[0], o->concurrency);
	if (!o->prefill[1])
		o->prefill[1] = o->prefill[0];
	if (o->ca_file && access(o->ca_file, R_OK) < 0)
		die("cannot read '%s':", o->ca_file);
	if (!o->nurls)
		add_str(&o->urls, &o->nurls, "localhost:8000");
	/* The native engine knows no proxies: leave them to libcurl. */
	if (o->engine == ENGINE_AUTO && proxy_env())
		o->engine = ENGINE_CURL;
	for (size_t i = 0; i < o->nurls && o->engine == ENGINE_H1; i++)
		if (!strncasecmp(o->urls[i], "https://", 8))
			h1_https(o->urls[i]);
	if (!isatty(2))
		o->ui = UI_NONE;
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct sender s = { 0 };
	int status;

	util_setprogname(argv[0]);
#ifdef __GLIBC__
	/*
	 * No fastbins: every request frees a few small blocks and allocates a
	 * few large ones, and each large one made glibc consolidate the
	 * fastbins first (tcache still serves the small ones).
	 */
	mallopt(M_MXFAST, 0);
#endif
	parse_args(&o, argc, argv);
	s.o = &o;
	s.bases = xcalloc(o.nurls, sizeof(*s.bases));
	for (size_t i = 0; i < o.nurls; i++)
		s.bases[i] = url_base(o.urls[i]);
	status = sender_run(&s);
	for (size_t i = 0; i < o.nurls; i++)
		free(s.bases[i]);
	free(s.bases);
	free(o.urls);
	free(o.headers);
	if (o.api_key_file)
		free((char *)o.api_key);
	return status;
}
