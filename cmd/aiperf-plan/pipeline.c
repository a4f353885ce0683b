/* SPDX-License-Identifier: Apache-2.0 */
/* The run's stages as run_pipeline, feed and the scrapers run them: every command line, every file. */
#define _GNU_SOURCE
#include "planner.h"

#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SRV_TIMEOUT 5

static char *
in_run(const struct planner *p, const char *name)
{
	return xstrfmt("%s/%s", p->run, name);
}

static void
add2(struct plan_argv *a, const char *opt, const char *v)
{
	plan_argv_add(a, opt);
	plan_argv_add(a, v);
}

/* add2 with a string we own. */
static void
add2f(struct plan_argv *a, const char *opt, char *v)
{
	add2(a, opt, v);
	free(v);
}

static void
cat(struct plan_argv *to, const struct plan_argv *from)
{
	for (size_t i = 0; i < from->n; i++)
		plan_argv_add(to, from->v[i]);
}

/* The shards of an unseeded run build one dataset all the same. */
static unsigned long long
shard_seed(void)
{
	unsigned char b[8] = { 0 };
	unsigned long long v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, b, 7) != 7)
		die("cannot read /dev/urandom:");
	close(fd);
	for (int i = 6; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* Whether this host lets a process run on idle CPU (SCHED_IDLE). */
static int
idle_ok(void)
{
	pid_t pid = fork();
	struct sched_param sp = { 0 };
	int st;

	if (pid == 0)
		_exit(sched_setscheduler(0, SCHED_IDLE, &sp) == 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
}

/* The view: aiperf-ui on aiperf-metrics' fd 3, a live view; but a lone
 * sender on a terminal draws the simple view's bars itself (all it shows
 * is the sender's: counts, errors, rate, its CPU), so that aiperf-metrics
 * can wait for the end (metrics_gate). */
static void
ui_args(struct planner *p, struct plan *plan)
{
	char *t = xstrdup(val(p, "--ui-type", "dashboard"));
	const char *opts[] = { "--request-count", "--warmup-request-count", "--benchmark-duration",
			       "--warmup-duration" };
	int sender_draws;

	for (char *c = t; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	sender_draws = !strcmp(t, "simple") && isatty(2) && p->workers == 1;

	add2(&p->send, "--ui-type", sender_draws ? "simple" : "none");
	if (sender_draws || !strcmp(t, "none") || (!is_set(p, "--ui-type") && !isatty(2))) {
		free(t);
		return;
	}
	plan_argv_add(&plan->ui, "aiperf-ui");
	add2(&plan->ui, "--ui-type", t);
	if (p->workers == 1)
		add2f(&plan->ui, "--sender-pid-file", in_run(p, "send.pid"));
	for (long k = 1; p->workers > 1 && k <= p->workers; k++)
		add2f(&plan->ui, "--sender-pid-file", xstrfmt("%s/send.%ld.pid", p->run, k));
	if (!strcmp(t, "dashboard") && isatty(2)) {
		plan->notice = in_run(p, "notice");
		add2(&plan->ui, "--notice-file", plan->notice);
	}
	for (size_t i = 0; i < 4; i++)
		if (*val(p, opts[i], ""))
			add2(&plan->ui, opts[i], get(p, opts[i]));
	add2(&plan->metrics, "--status-fd", "3");
	plan->live = 1;
	free(t);
}

/* RUN/NAME.cue, the FIFO the sender cues that scraper on (scrape_cue). */
static char *
scrape_cue(struct planner *p, struct plan *plan, const char *name)
{
	char *cue = xstrfmt("%s/%s.cue", p->run, name);

	if (!plan->scrape_ack) {
		plan->scrape_ack = in_run(p, "scrape.ack");
		add2(&p->send, "--scrape-ack", plan->scrape_ack);
	}
	add2(&p->send, "--scrape-cue", cue);
	return cue;
}

static void
server_scraper(struct planner *p, struct plan *plan)
{
	struct plan_scraper *s;

	if (!p->srv_urls.n)
		return;
	s = plan_add_scraper(plan);
	s->name = xstrdup("server-metrics");
	s->cue = scrape_cue(p, plan, "srv");
	plan_argv_add(&s->argv, "aiperf-scrape");
	add2f(&s->argv, "--timeout", xstrfmt("%d", SRV_TIMEOUT));
	plan_argv_add(&s->argv, "--unbuffered");
	add2(&s->argv, "--control-fifo", plan->scrape_ctl);
	add2(&s->argv, "--cue-fifo", s->cue);
	add2(&s->argv, "--ack-fifo", plan->scrape_ack);
	cat(&s->argv, &p->srv_urls);
	s->out = in_run(p, "samples.part");
	s->err = in_run(p, "scrape.err");
	s->done = in_run(p, "samples");
	s->baseline = 1;
	s->endpoints = p->srv_urls.n;
}

static void
gpu_scraper(struct planner *p, struct plan *plan)
{
	const char *iv = getenv("AIPERF_GPU_COLLECTION_INTERVAL");
	struct plan_scraper *s;

	if (is_set(p, "--no-gpu-telemetry") || !(p->gpu_urls.n || p->gpu_nvml))
		return;
	s = plan_add_scraper(plan);
	s->name = xstrdup("gpu");
	plan_argv_add(&s->argv, "aiperf-scrape");
	add2(&s->argv, "--interval", iv && *iv ? iv : "0.333");
	if (p->gpu_nvml)
		plan_argv_add(&s->argv, "--nvml");
	s->cue = scrape_cue(p, plan, "gpu");
	add2(&s->argv, "--cue-fifo", s->cue);
	add2(&s->argv, "--ack-fifo", plan->scrape_ack);
	plan_argv_add(&s->argv, "--unbuffered");
	add2(&s->argv, "--control-fifo", plan->scrape_ctl);
	cat(&s->argv, &p->gpu_urls);
	s->out = in_run(p, "gpu.samples");
	s->err = in_run(p, "gpu.err");
	s->endpoints = p->gpu_urls.n;
	s->hold_export = 1;
}

static void
export_args(struct planner *p, struct plan *plan)
{
	int gpu = !is_set(p, "--no-gpu-telemetry") && (p->gpu_urls.n || p->gpu_nvml);

	plan_argv_add(&plan->export, "aiperf-export");
	cat(&plan->export, &p->exp);
	if (gpu) {
		add2f(&plan->export, "--gpu-samples", in_run(p, "gpu.samples"));
		if (p->gpu_console)
			plan_argv_add(&plan->export, "--gpu-console");
		if (p->gpu_csv)
			add2(&plan->export, "--gpu-metrics", p->gpu_csv);
	}
	add2(&plan->export, "--artifact-dir", p->dir);
	add2f(&plan->export, "--input-config", in_run(p, "input_config.json"));
	add2f(&plan->export, "--run-info", in_run(p, "run_info.json"));
	add2(&plan->export, "--cli-command", buf_str(&p->cli));
	add2(&plan->export, "--was-cancelled-if", plan->cancelled);
	add2(&plan->export, "--stage-cpu", plan->stage_cpu);
	if (p->srv_urls.n)
		add2f(&plan->export, "--server-samples", in_run(p, "samples"));
}

static void
one_sender(struct planner *p, struct plan *plan, const char *spill)
{
	struct plan_sender *s = plan_add_sender(plan);

	plan_argv_add(&s->gen, "aiperf-gen");
	cat(&s->gen, &p->gen);
	add2f(&s->gen, "--inputs-json", xstrfmt("%s/inputs.json", p->dir));
	plan_argv_add(&s->send, "aiperf-send");
	cat(&s->send, &p->send);
	s->gen_err = in_run(p, "gen.err");
	s->spool = xstrdup(spill);
	s->spool_err = in_run(p, "spool.err");
	s->send_pid = in_run(p, "send.pid");
}

static void
shard_sender(struct planner *p, struct plan *plan, long k, const char *seed)
{
	struct plan_sender *s = plan_add_sender(plan);

	plan_argv_add(&s->gen, "aiperf-gen");
	cat(&s->gen, &p->gen);
	add2f(&s->gen, "--shard", xstrfmt("%ld/%ld", k, p->workers));
	if (!is_set(p, "--random-seed"))
		add2(&s->gen, "--shard-seed", seed);
	if (k == 1)
		add2f(&s->gen, "--inputs-json", xstrfmt("%s/inputs.json", p->dir));
	plan_argv_add(&s->send, "aiperf-send");
	shard_send(p, &p->send, k, p->run, &s->send);
	s->gen_err = xstrfmt("%s/gen.%ld.err", p->run, k);
	s->spool = xstrfmt("%s/" SPILL ".%ld", p->dir, k);
	s->spool_err = xstrfmt("%s/spool.%ld.err", p->run, k);
	s->phase_ack = xstrfmt("%s/phase.%ld.ack", p->run, k);
	s->send_pid = xstrfmt("%s/send.%ld.pid", p->run, k);
}

static void
senders(struct planner *p, struct plan *plan, const char *spill)
{
	char *seed;

	if (p->workers == 1) {
		one_sender(p, plan, spill);
		return;
	}
	seed = xstrfmt("%llu", shard_seed());
	for (long k = 1; k <= p->workers; k++)
		shard_sender(p, plan, k, seed);
	free(seed);
}

static void
metrics_args(struct planner *p, struct plan *plan, const char *spill)
{
	plan_argv_add(&plan->metrics, "aiperf-metrics");
	cat(&plan->metrics, &p->met);
	if (p->workers == 1) {
		add2(&plan->metrics, "--follow", spill);
		return;
	}
	for (long k = 1; k <= p->workers; k++)
		add2f(&plan->metrics, "--follow", xstrfmt("%s/" SPILL ".%ld", p->dir, k));
	if (strcmp(p->raw, "/dev/null"))
		add2(&plan->metrics, "--tee", p->raw);
	plan->phase_cue = in_run(p, "phase.cue");
}

/* No live view, and no file the user reads as the run goes (the merged
 * raw records of several senders): aiperf-metrics waits until the senders
 * end, taking no CPU from them (bench/profile-vs-send.sh case 5: the p99
 * schedule lateness of a run whose metrics waited, 0.29x of one whose
 * metrics followed the spool). */
static void
metrics_gate(struct planner *p, struct plan *plan)
{
	struct plan_argv a = { 0 };

	if (plan->live || (p->workers > 1 && plan->raw))
		return;
	plan->metrics_gate = in_run(p, "metrics.gate");
	plan_argv_add(&a, plan->metrics.v[0]);
	add2(&a, "--start-fifo", plan->metrics_gate);
	for (size_t i = 1; i < plan->metrics.n; i++)
		plan_argv_add(&a, plan->metrics.v[i]);
	plan_argv_release(&plan->metrics);
	plan->metrics = a;
}

static void
plan_files(struct planner *p, struct plan *plan)
{
	const char *margin = getenv("AIPERF_PHASE_MARGIN_US");

	plan_set(&plan->run_dir, p->run);
	plan_set(&plan->artifact_dir, p->dir);
	plan->log_file = xstrfmt("%s/logs/aiperf.log", p->dir);
	plan_set(&plan->log_level, p->loglevel);
	plan_set(&plan->input, !strcmp(val(p, "--input-file", ""), "-") ? "-" : "/dev/null");
	plan->metrics_err = in_run(p, "metrics.err");
	plan->export_err = in_run(p, "export.err");
	plan->cancelled = in_run(p, "cancelled");
	plan->stage_cpu = in_run(p, "stage-cpu");
	if (strcmp(p->raw, "/dev/null"))
		plan_set(&plan->raw, p->raw);
	plan->scrape_timeout_s = SRV_TIMEOUT;
	plan->margin_us = margin && *margin ? strtoll(margin, NULL, 10) : 5000;
	plan->start_ns = p->start_ns;
}

static void
addlog(struct plan *plan, char *line)
{
	plan_argv_add(&plan->log, line);
	free(line);
}

/* The run log's first notes, in the order the script wrote them. */
static void
plan_log(const struct planner *p, struct plan *plan)
{
	if (p->workers > 1)
		addlog(plan, xstrfmt("INFO %ld senders (--workers-max): the request stream "
				     "split by session", p->workers));
	cat(&plan->log, &p->log);
	if (p->srv_urls.n)
		addlog(plan, xstrfmt("INFO server metrics from %zu endpoint(s) "
				     "(aiperf-scrape names them)", p->srv_urls.n));
	if (is_set(p, "--no-gpu-telemetry"))
		plan_argv_add(&plan->log, "INFO GPU telemetry disabled (--no-gpu-telemetry)");
	else if (!(p->gpu_urls.n || p->gpu_nvml))
		plan_argv_add(&plan->log, "INFO GPU telemetry: no DCGM exporter reachable");
	else
		addlog(plan, xstrfmt("INFO GPU telemetry from %zu DCGM exporter(s)%s "
				     "(aiperf-scrape names them)", p->gpu_urls.n,
				     p->gpu_nvml ? " and pynvml" : ""));
}

void
pipeline_plan(struct planner *p, struct plan *plan)
{
	char rest[8192];
	char *spill = strcmp(p->raw, "/dev/null") ? xstrdup(p->raw)
						  : xstrfmt("%s/" SPILL, p->dir);

	plan_files(p, plan);
	cat(&p->send, &p->read);
	metrics_args(p, plan, spill);
	busy_poll(p);
	plan->solo_cpu = cpu_split(p, rest, sizeof(rest));
	if (plan->solo_cpu >= 0)
		plan_set(&plan->rest_cpus, rest);
	plan->idle = idle_ok();
	cat(&p->send, &p->busy);
	ui_args(p, plan);
	metrics_gate(p, plan);
	if (p->srv_urls.n || p->gpu_urls.n || p->gpu_nvml)
		plan->scrape_ctl = in_run(p, "scrape.ctl");
	server_scraper(p, plan);
	gpu_scraper(p, plan);
	export_args(p, plan);
	senders(p, plan, spill);
	plan_log(p, plan);
	free(spill);
}

