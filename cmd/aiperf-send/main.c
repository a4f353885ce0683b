/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-send: read request records, send them over HTTP (SSE), write one raw record per request. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "http/redact.h"
#include "opt.h"
#include "send.h"
#include "util.h"

enum {
	K_ENDPOINT = 256, K_CONC, K_TIMEOUT, K_KEY, K_KEYFILE, K_UI, K_UNBUF,
	K_MAXRESP, K_MAXREC, K_REUSE, K_DUR, K_GRACE, K_SHUT,
	K_CAFILE, K_RAMP, K_WCONC, K_WRAMP, K_PRE, K_PRERAMP,
	K_WPRE, K_WPRERAMP, K_BUSY, K_ENGINE, K_VERSION, K_WDUR, K_WGRACE,
	K_RAWFILE, K_FULLMEDIA, K_RAWBUF, K_OUTBUF, K_AHEAD, K_ALL, K_CUE, K_ACK, K_IO,
	K_PCUE, K_PACK, K_WORKER, K_VPOLL, K_VDL, K_START,
};

#define SECS(lv) OPT_SECONDS, "s", OPT_TO(lv), .hi = 9.2e9, .scale = 1e9
#define CONC(lv) OPT_INT, "n", OPT_TO(lv), .min = 1, .max = 1000000
#define SIZE(lv) OPT_SIZE, "size", OPT_TO(lv), .min = 1, .max = 1LL << 40

static const char *const uis[] = { "none", "simple", "dashboard", NULL };
static const char *const reuses[] = { "pooled", "never", "sticky-user-sessions", NULL };
static const char *const engines[] = { "auto", "h1", "curl", NULL };
static const char *const ios[] = { "auto", "epoll", "uring", NULL };

/* The options in synopsis order; [0] profiling, [1] warmup (spec 5.3). */
#define SEND_OPTS(o) { \
	{ "url", 'u', OPT_STR, "url...", .flags = OPT_SHORT }, \
	{ "header", 'H', OPT_STR, "header...", .flags = OPT_SHORT }, \
	{ "endpoint", K_ENDPOINT, OPT_STR, "path", OPT_TO(o->endpoint) }, \
	{ "concurrency", K_CONC, CONC(o->concurrency), .flags = OPT_BR }, \
	{ "request-timeout-seconds", K_TIMEOUT, SECS(o->timeout_ns) }, \
	{ "api-key", K_KEY, OPT_STR, "key", OPT_TO(o->api_key), .flags = OPT_BR }, \
	{ "api-key-file", K_KEYFILE, OPT_STR, "file", OPT_TO(o->api_key_file), .flags = OPT_OR }, \
	{ "ui-type", K_UI, OPT_CHOICE, NULL, OPT_TO(o->ui), .choices = uis, .flags = OPT_BR }, \
	{ "unbuffered", K_UNBUF, OPT_FLAG, NULL, OPT_TO(o->unbuffered), .flags = OPT_BR }, \
	{ "raw-file", K_RAWFILE, OPT_STR, "file", OPT_TO(o->raw_file), .flags = OPT_BR }, \
	{ "raw-buffer", K_RAWBUF, SIZE(o->raw_buffer) }, \
	{ "raw-full-media", K_FULLMEDIA, OPT_FLAG, NULL, OPT_TO(o->raw_full_media), \
	  .flags = OPT_BR }, \
	{ "out-buffer", K_OUTBUF, SIZE(o->out_buffer) }, \
	{ "read-ahead", K_AHEAD, OPT_INT, "n", OPT_TO(o->read_ahead), .min = 1, \
	  .max = 1000000000, .flags = OPT_BR }, \
	{ "read-all", K_ALL, OPT_FLAG, NULL, OPT_TO(o->read_all), .flags = OPT_OR }, \
	{ "max-response-bytes", K_MAXRESP, SIZE(o->max_response) }, \
	{ "max-record-bytes", K_MAXREC, SIZE(o->max_line), .flags = OPT_BR }, \
	{ "connection-reuse-strategy", K_REUSE, OPT_CHOICE, NULL, OPT_TO(o->reuse), \
	  .choices = reuses, .flags = OPT_BR }, \
	{ "benchmark-duration", K_DUR, SECS(o->duration_ns), .flags = OPT_BR }, \
	{ "benchmark-grace-period", K_GRACE, SECS(o->grace_ns), .flags = OPT_INF }, \
	{ "shutdown-grace-period", K_SHUT, SECS(o->stop_grace_ns), .flags = OPT_INF | OPT_BR }, \
	{ "ssl-ca-file", K_CAFILE, OPT_STR, "file", OPT_TO(o->ca_file), .flags = OPT_BR }, \
	{ "insecure", 'k', OPT_FLAG, NULL, OPT_TO(o->insecure), .flags = OPT_BOTH }, \
	{ "concurrency-ramp-duration", K_RAMP, SECS(o->ramp_ns[0]), .flags = OPT_BR }, \
	{ "warmup-concurrency", K_WCONC, CONC(o->wconcurrency) }, \
	{ "warmup-concurrency-ramp-duration", K_WRAMP, SECS(o->ramp_ns[1]), .flags = OPT_BR }, \
	{ "prefill-concurrency", K_PRE, CONC(o->prefill[0]), .flags = OPT_BR }, \
	{ "prefill-concurrency-ramp-duration", K_PRERAMP, SECS(o->pramp_ns[0]) }, \
	{ "warmup-prefill-concurrency", K_WPRE, CONC(o->prefill[1]), .flags = OPT_BR }, \
	{ "warmup-prefill-concurrency-ramp-duration", K_WPRERAMP, SECS(o->pramp_ns[1]), \
	  .flags = OPT_BR }, \
	{ "warmup-duration", K_WDUR, SECS(o->warmup_ns), .flags = OPT_BR }, \
	{ "warmup-grace-period", K_WGRACE, SECS(o->wgrace_ns), .flags = OPT_INF }, \
	{ "busy-poll", K_BUSY, OPT_FLAG, NULL, OPT_TO(o->busy_poll), .flags = OPT_BR }, \
	{ "http-engine", K_ENGINE, OPT_CHOICE, NULL, OPT_TO(o->engine), .choices = engines, \
	  .flags = OPT_BR }, \
	{ "io", K_IO, OPT_CHOICE, NULL, OPT_TO(o->io), .choices = ios, .flags = OPT_BR }, \
	{ "scrape-cue", K_CUE, OPT_STR, "fifo...", .flags = OPT_BR | OPT_PRIVATE }, \
	{ "scrape-ack", K_ACK, OPT_STR, "fifo", OPT_TO(o->scrape_ack), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "phase-cue", K_PCUE, OPT_STR, "fifo", OPT_TO(o->phase_cue), .flags = OPT_PRIVATE }, \
	{ "phase-ack", K_PACK, OPT_STR, "fifo", OPT_TO(o->phase_ack), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "worker-id", K_WORKER, OPT_STR, "name", OPT_TO(o->worker_id) }, \
	{ "video-poll-interval", K_VPOLL, SECS(o->video_poll_ns), .flags = OPT_BR }, \
	{ "download-video-content", K_VDL, OPT_FLAG, NULL, OPT_TO(o->download_video) }, \
	{ "start-at", K_START, OPT_STR, "epoch-s", OPT_TO(o->start_at) }, \
	{ "help", 'h', OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
add_str(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (char *)s;
}

/* What the table does not: repeated options, side effects, checks. */
static void
parse_opt(struct options *o, int c, const struct opt_iter *it, int *grace_set,
	  int *vpoll_set)
{
	switch (c) {
	case 'u': add_str(&o->urls, &o->nurls, it->arg); break;
	case 'H': hdr_add(o, it->arg); break;
	case K_CUE: add_str(&o->cues, &o->ncues, it->arg); break;
	case K_GRACE: *grace_set = 1; break;
	case K_RAWBUF: o->raw_buffer_set = 1; break;
	case K_OUTBUF: o->out_buffer_set = 1; break;
	case K_AHEAD: o->read_ahead_set = 1; break;
	case K_WGRACE: o->wgrace_set = 1; break;
	case K_VPOLL: *vpoll_set = 1; break;
	case K_WDUR:
		if (o->warmup_ns <= 0)
			die_usage("invalid value for %s: '%s' (must be > 0)",
				  "--warmup-duration", it->arg);
		break;
	default: break;
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
		if (hdr_name_len(o->headers[i]) == 13 &&
		    !strncasecmp(o->headers[i], "authorization", 13)) {
			free(o->headers[i]);
			dropped++;
		} else {
			o->headers[k++] = o->headers[i];
		}
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

/* $AIPERF_SEND_IO: --io's default (a test suite runs on either path). */
static void
io_env(struct options *o)
{
	const char *v = getenv("AIPERF_SEND_IO");

	if (!v || !*v)
		return;
	for (int i = 0; ios[i]; i++)
		if (!strcmp(v, ios[i])) {
			o->io = (enum io)i;
			return;
		}
	die_usage("invalid value for AIPERF_SEND_IO: '%s' (auto, epoll or uring)", v);
}

/*
 * The video poll interval: --video-poll-interval, else the original's
 * AIPERF_HTTP_VIDEO_POLL_INTERVAL, else its 0.1 s; 0.001 to 10 s as there.
 */
static void
video_poll(struct options *o, int set)
{
	const char *env = getenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL");
	const char *what = "--video-poll-interval";

	if (!set && env && *env) {
		char *end;
		double v = strtod(env, &end);
		what = "AIPERF_HTTP_VIDEO_POLL_INTERVAL";
		if (*end || !(v == v))
			die_usage("invalid value for %s: '%s'", what, env);
		o->video_poll_ns = (int64_t)(v * 1e9 + 0.5);
	}
	if (o->video_poll_ns < 1000000 || o->video_poll_ns > 10000000000LL)
		die_usage("invalid value for %s: must be between 0.001 and 10 seconds", what);
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt o_tab[] = SEND_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-send", o_tab, NULL, 0, NULL, NULL };
	struct opt_iter it;
	int c, grace_set = 0, vpoll_set = 0;

	o->timeout_ns = 21600LL * 1000000000;
	o->ui = UI_DASHBOARD;
	o->max_response = 64 << 20;
	o->max_line = 64 << 20;
	o->grace_ns = 30LL * 1000000000;
	o->stop_grace_ns = 5LL * 1000000000;
	o->wgrace_ns = -1;
	o->raw_buffer = 64 << 20;
	o->out_buffer = (size_t)256 << 20;
	io_env(o);
	o->read_ahead = 256;
	o->video_poll_ns = 100000000;
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1)
		parse_opt(o, c, &it, &grace_set, &vpoll_set);
	if (it.ind < argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	resolve_key(o);
	video_poll(o, vpoll_set);
	if (grace_set && !o->duration_ns)
		die_usage("--benchmark-grace-period can only be used with "
			  "duration-based benchmarking (--benchmark-duration).");
	if (o->wgrace_set && !o->warmup_ns)
		die_usage("--warmup-grace-period can only be used when "
			  "--warmup-duration is set. Set --warmup-duration.");
	if (o->raw_buffer_set && !o->raw_file)
		die_usage("--raw-buffer can only be used with --raw-file");
	if (o->out_buffer_set && o->raw_file)
		die_usage("--out-buffer cannot be used with --raw-file (see --raw-buffer)");
	if (o->read_ahead_set && o->read_all)
		die_usage("--read-ahead and --read-all cannot be used together");
	if (!o->ncues != !o->scrape_ack)
		die_usage("--scrape-cue and --scrape-ack go together");
	if (!o->phase_cue != !o->phase_ack)
		die_usage("--phase-cue and --phase-ack go together");
	if (o->start_at && (o->start_at_ns = start_at_parse(o->start_at)) <= 0)
		die_usage("invalid value for --start-at: '%s' (seconds since the epoch, "
			  "up to 9 decimals)", o->start_at);
	if (o->start_at && o->phase_cue)
		die_usage("--start-at and --phase-cue cannot be used together");
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
	free(o.cues);
	hdr_release(&o);
	if (o.api_key_file)
		free((char *)o.api_key);
	return status;
}
