/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/runlog: the line form, the level filter, long and hostile messages. */
#include "runlog.h"
#include "test.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char path[] = "/tmp/test-runlog.XXXXXX";

/* The log's lines so far, as one string (static). */
static const char *
logged(void)
{
	static char text[16384];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	return text;
}

/* Whether the log's last line ends in tail ("...\n"). */
static int
last_ends(const char *tail)
{
	const char *s = logged();
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* Whether s starts with the original's time stamp, "YYYY-mm-dd HH:MM:SS.mmm - ". */
static int
stamped(const char *s)
{
	const char *form = "dddd-dd-dd dd:dd:dd.ddd - ";

	for (; *form; form++, s++)
		if (*form == 'd' ? !isdigit((unsigned char)*s) : *s != *form)
			return 0;
	return 1;
}

/* In a child (the log is opened once a process, so before this one's):
 * AIPERF_LOG_FILE=log, one message; whether the log was refused (an open
 * that blocks is ended by the alarm, which is no refusal). */
static int
child_refused(const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		alarm(10);
		setenv("AIPERF_LOG_FILE", log, 1);
		setenv("AIPERF_LOG_LEVEL", "info", 1);
		_exit(runlog_enabled(RUNLOG_ERROR) ? (runlog(RUNLOG_ERROR, "x"), 0) : 3);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 3;
}

/* The log never appends through a link at its name, nor to a FIFO. */
static void
hostile(void)
{
	char victim[] = "/tmp/test-runlog-victim.XXXXXX", *link, *fifo;
	int fd = mkstemp(victim);
	struct stat st;

	if (fd < 0 || write(fd, "victim\n", 7) != 7)
		return;
	close(fd);
	link = xstrfmt("%s.link", victim);
	fifo = xstrfmt("%s.fifo", victim);
	TEST("runlog: plant a link and a FIFO", symlink(victim, link) == 0 &&
	     mkfifo(fifo, 0600) == 0);
	TEST("runlog: a link at the log's name is not followed", child_refused(link) &&
	     stat(victim, &st) == 0 && st.st_size == 7);
	TEST("runlog: a FIFO is no log, and no wait", child_refused(fifo));
	unlink(link);
	unlink(fifo);
	unlink(victim);
	free(link);
	free(fifo);
}

int
main(void)
{
	char big[6000];
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	hostile();	/* first: the children open their own log */
	setenv("AIPERF_LOG_FILE", path, 1);
	setenv("AIPERF_LOG_LEVEL", "warning", 1);
	util_setprogname("/x/aiperf-test");
	TEST("runlog: level names, any case", runlog_parse_level("Debug") == RUNLOG_DEBUG &&
	     runlog_parse_level("CRITICAL") == RUNLOG_CRITICAL);
	TEST("runlog: unknown level", runlog_parse_level("loud") < 0 &&
	     runlog_parse_level(NULL) < 0 && runlog_parse_level("") < 0);
	TEST("runlog: below the level is off", !runlog_enabled(RUNLOG_INFO) &&
	     runlog_enabled(RUNLOG_WARNING) && runlog_enabled(RUNLOG_ERROR));
	runlog(RUNLOG_INFO, "not %s", "kept");
	runlog(RUNLOG_ERROR, "kept %d", 42);
	TEST_STR("runlog: one line, nothing below the level",
		 strchr(logged(), '-') ? strstr(logged(), " - aiperf-test - ERROR - kept 42\n") ? "ok" : logged() : logged(),
		 "ok");
	TEST("runlog: the original's time stamp", stamped(logged()));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	runlog(RUNLOG_WARNING, "%s", big);
	TEST("runlog: a long message is cut, still one line",
	     last_ends("aaaa\n") && strstr(logged(), "WARNING - aaaa") &&
	     !strstr(logged(), "aaaa\naaa") && strlen(logged()) < 4200);
	runlog(RUNLOG_CRITICAL, "%s", "");
	TEST("runlog: an empty message", last_ends(" - CRITICAL - \n"));
	warn("%s", "from warn");
	TEST("runlog: warn() logs at WARNING", last_ends(" - WARNING - from warn\n"));
	errno = ENOENT;
	error("%s:", "gone");
	TEST("runlog: error() logs with strerror",
	     last_ends(" - ERROR - gone: No such file or directory\n"));
	unlink(path);
	return TEST_DONE();
}
