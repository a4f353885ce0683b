/* SPDX-License-Identifier: Apache-2.0 */
/* The scrapers' URLs: server metrics from --url and --server-metrics, GPU telemetry's sources. */
#define _GNU_SOURCE /* sigabbrev_np */
#include "planner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBES_AT_ONCE 32

/* TEXT as a Prometheus endpoint's URL: http:// when it names no scheme,
 * /metrics when it names no path (before a query string or fragment). */
char *
metrics_url(const char *text)
{
	char *u = strstr(text, "://") ? xstrdup(text) : xstrfmt("http://%s", text);
	const char *sep = strstr(u, "://"), *auth = sep + 3;
	size_t alen = strcspn(auth, "/?#");
	const char *tail = auth + alen;
	char *r = xstrfmt("%.*s://%.*s%s%s", (int)(sep - u), u, (int)alen, auth,
			  *tail == '/' ? "" : "/metrics", tail);

	free(u);
	return r;
}

static void
add_unique(struct plan_argv *a, char *u)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], u)) {
			free(u);
			return;
		}
	plan_argv_add(a, u);
	free(u);
}

/* Each non-empty line of s to fn. */
static void
each_line(const char *s, void (*fn)(struct plan_argv *, const char *), struct plan_argv *a)
{
	char *copy = xstrdup(s), *line = copy, *nl;

	for (; line; line = nl) {
		if ((nl = strchr(line, '\n')))
			*nl++ = '\0';
		if (*line)
			fn(a, line);
	}
	free(copy);
}

/* A --url's base, scheme://host:port, without its path, query or fragment. */
static void
url_base(struct plan_argv *a, const char *line)
{
	char *u = strstr(line, "://") ? xstrdup(line) : xstrfmt("http://%s", line);
	const char *sep = strstr(u, "://"), *auth = sep + 3;

	add_unique(a, xstrfmt("%.*s://%.*s/metrics", (int)(sep - u), u,
			      (int)strcspn(auth, "/?#"), auth));
	free(u);
}

static void
url_metrics(struct plan_argv *a, const char *line)
{
	add_unique(a, metrics_url(line));
}

void
server_metrics_urls(struct planner *p)
{
	if (is_set(p, "--no-server-metrics"))
		return;
	each_line(val(p, "--url", "localhost:8000"), url_base, &p->srv_urls);
	each_line(val(p, "--server-metrics", ""), url_metrics, &p->srv_urls);
}

void
server_metrics_formats(struct planner *p)
{
	char *f;

	if (!*val(p, "--server-metrics-formats", ""))
		return;
	f = xstrdup(get(p, "--server-metrics-formats"));
	for (char *c = f; *c; c++)
		if (*c == '\n')
			*c = ' ';
	add_stage_arg(p, "e", "--server-metrics-formats", f);
	free(f);
}

static int
is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static pid_t
probe_start(const char *url, const char *t, const char *out)
{
	char exe[PATH_MAX];
	char *argv[] = { (char *)"aiperf-scrape", (char *)"--once", (char *)"--timeout", (char *)t,
			 (char *)url, NULL };
	int fd[3], e;
	pid_t pid;

	fd[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fd[1] = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	fd[2] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid = fd[0] < 0 || fd[1] < 0 || fd[2] < 0 ? -1 :
		spawn_tool(tool_path("aiperf-scrape", exe, sizeof(exe)), argv, fd, &e);
	for (int i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return pid < 0 ? 0 : pid;
}

/* Whether the probe's output is an answer: some, and no error record. */
static int
probe_answered(const char *out)
{
	int fd = open(out, O_RDONLY | O_CLOEXEC);
	struct buf b;
	char chunk[65536];
	ssize_t k;
	int ok;

	if (fd < 0)
		return 0;
	buf_init(&b, 16 << 20);
	while ((k = read(fd, chunk, sizeof(chunk))) > 0 && buf_tryadd(&b, chunk, (size_t)k) == 0)
		;
	close(fd);
	buf_addch(&b, '\0');
	ok = b.len > 1 && !strstr(buf_str(&b), "\"error\":{");
	buf_release(&b);
	return ok;
}

static void
probes_kill(pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

static void
probes_remove(const char *dir, size_t n)
{
	char *f;

	for (size_t i = 0; i < n; i++) {
		unlink(f = xstrfmt("%s/%zu", dir, i));
		free(f);
	}
	rmdir(dir);
}

/* Waits for the probes; a signal kills those still running (they count
 * as unanswered) and planning goes on. */
static void
probes_wait(pid_t *pids, size_t n)
{
	size_t left = 0;

	for (size_t i = 0; i < n; i++)
		left += pids[i] > 0;
	while (left) {
		for (size_t i = 0; i < n; i++)
			if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == pids[i]) {
				pids[i] = 0;
				left--;
			}
		if (left && wait_or_signal()) {
			probes_kill(pids, n);
			return;
		}
	}
}

/* Those of urls a scrape answers within AIPERF_GPU_REACHABILITY_TIMEOUT
 * seconds (10 by default), probed together, PROBES_AT_ONCE at a time. */
static void
gpu_reachable(struct plan_argv *urls, struct plan_argv *ok)
{
	const char *t = getenv("AIPERF_GPU_REACHABILITY_TIMEOUT");
	const char *tmp = getenv("TMPDIR");
	char *dir = xstrfmt("%s/aiperf-gpu.XXXXXX", tmp && *tmp ? tmp : "/tmp"), *f;
	pid_t pids[PROBES_AT_ONCE];
	size_t i, k;

	if (!mkdtemp(dir)) {
		free(dir);
		return;
	}
	for (i = 0; i < urls->n && !signal_caught(); i += k) {
		for (k = 0; k < PROBES_AT_ONCE && i + k < urls->n && !signal_caught(); k++) {
			f = xstrfmt("%s/%zu", dir, i + k);
			pids[k] = probe_start(urls->v[i + k], t && *t ? t : "10", f);
			free(f);
		}
		probes_wait(pids, k);
	}
	for (i = 0; i < urls->n; i++) {
		f = xstrfmt("%s/%zu", dir, i);
		if (probe_answered(f))
			plan_argv_add(ok, urls->v[i]);
		free(f);
	}
	probes_remove(dir, urls->n);
	free(dir);
}

static void
gpu_word(struct planner *p, const char *w, struct plan_argv *user)
{
	size_t n = strlen(w);

	if (!strcmp(w, "dashboard"))
		return;
	if (!strcmp(w, "pynvml")) {
		p->gpu_nvml = 1;
	} else if (n >= 4 && !strcmp(w + n - 4, ".csv")) {
		if (access(w, R_OK) != 0 || !is_regular(w))
			usage_error("profile: --gpu-telemetry %s: no such readable custom GPU metrics file", w);
		p->gpu_csv = xstrdup(w);
	} else if (!strncmp(w, "http", 4) || strchr(w, ':')) {
		char *u = metrics_url(w);

		plan_argv_add(user, u);
		free(u);
	} else {
		warn("--gpu-telemetry: '%s' is neither dashboard, pynvml, a URL nor a .csv file: ignored", w);
	}
}

/* Whitespace-separated words of s, each to a. */
static void
split_ws(const char *s, struct plan_argv *a)
{
	const char *ws = " \t\n";
	size_t n;

	for (s += strspn(s, ws); *s; s += strspn(s, ws)) {
		n = strcspn(s, ws);
		char *w = xstrndup(s, n);

		plan_argv_add(a, w);
		free(w);
		s += n;
	}
}

/* The sources from --gpu-telemetry and the default DCGM exporters, which
 * count only when they answer; nothing with --no-gpu-telemetry. pynvml
 * reads NVML instead of any exporter. */
void
gpu_telemetry_setup(struct planner *p)
{
	struct plan_argv words = { 0 }, user = { 0 }, defaults = { 0 };
	const char *env = getenv("AIPERF_GPU_DEFAULT_DCGM_URLS");

	if (is_set(p, "--no-gpu-telemetry"))
		return;
	if (is_set(p, "--gpu-telemetry")) {
		p->gpu_console = 1;
		split_ws(get(p, "--gpu-telemetry"), &words);
		for (size_t i = 0; i < words.n; i++)
			gpu_word(p, words.v[i], &user);
	}
	if (p->gpu_nvml) {
		/* counted, not shown: a URL's credentials are for the C rule to redact */
		if (user.n)
			warn("--gpu-telemetry: the DCGM URLs are not used with pynvml (NVML reads this host's GPUs): %zu ignored",
			     user.n);
	} else {
		split_ws(env ? env : "http://localhost:9400/metrics http://localhost:9401/metrics",
			 &defaults);
		if (defaults.n)
			gpu_reachable(&defaults, &p->gpu_urls);
		if (defaults.n && signal_caught()) {
			char *l = xstrfmt("WARNING SIG%s while planning: the DCGM exporters' probes cut short (those that had not answered count as unreachable)",
					  sigabbrev_np(signal_caught()));

			plan_argv_add(&p->log, l);
			free(l);
		}
		for (size_t i = 0; i < user.n; i++)
			add_unique(&p->gpu_urls, xstrdup(user.v[i]));
	}
	plan_argv_release(&words);
	plan_argv_release(&user);
	plan_argv_release(&defaults);
}
