/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/accuracy/sandbox and code_execution's runs: what a hostile program cannot do, and grading for real. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accuracy/codeexec.h"
#include "accuracy/sandbox.h"
#include "test.h"

static struct sandbox_limits lim;

static int
run(const char *prog, const char *in, struct sandbox_result *r)
{
	char err[256] = "";
	int rc = sandbox_run(&lim, prog, strlen(prog), in, strlen(in), r, err,
			     sizeof(err));

	if (rc < 0)
		printf("#   sandbox: %s\n", err);
	return rc;
}

static int
out_is(const struct sandbox_result *r, const char *want)
{
	if (!strcmp(buf_str(&r->out), want))
		return 1;
	printf("#   stdout '%s'\n#   stderr '%.300s'\n", buf_str(&r->out),
	       buf_str(&r->err));
	return 0;
}

/* Live processes (zombies aside) owned by uid. */
static int
procs_of(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], line[256];
		unsigned long u = (unsigned long)-1;
		char state = '?';
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "State:", 6))
				sscanf(line + 6, " %c", &state);
			if (!strncmp(line, "Uid:", 4))
				sscanf(line + 4, "%lu", &u);
		}
		fclose(f);
		n += u == (unsigned long)uid && state != 'Z';
	}
	if (d)
		closedir(d);
	return n;
}

static void
test_basics(void)
{
	struct sandbox_result r;

	TEST("run: stdin in, stdout out, exit status",
	     run("import sys\nd = sys.stdin.read()\nprint(d.upper(), end='')\n"
		 "sys.exit(3)\n", "hello\n", &r) == 0 &&
	     out_is(&r, "HELLO\n") && r.exit_code == 3 && !r.timed_out);
	sandbox_result_release(&r);
	TEST("run: a clean environment, its own cwd, no host tree",
	     run("import os\n"
		 "print(sorted(os.environ), os.getcwd())\n"
		 "print([p for p in ('/home', '/root', '/etc', '/tmp', '/work', '/var',"
		 " os.environ.get('X', '/opt')) if os.path.exists(p)])\n", "", &r) == 0 &&
	     out_is(&r, "['HOME', 'LANG', 'OMP_NUM_THREADS', 'PATH', 'PWD', 'TMPDIR'] /w\n"
			"[]\n"));
	sandbox_result_release(&r);
	lim.out_max = 1000;
	TEST("run: stdout past its cap is dropped, the run still ends",
	     run("import sys\nsys.stdout.write('x' * 5000000)\n", "", &r) == 0 &&
	     r.out.len == 1000 && r.out_truncated && r.exit_code == 0);
	sandbox_result_release(&r);
	sandbox_limits_default(&lim);
}

static void
test_network(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int ls = socket(AF_INET, SOCK_STREAM, 0), got;
	struct sandbox_result r;
	char prog[1024];

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(ls, (struct sockaddr *)&a, sizeof(a));
	listen(ls, 4);
	getsockname(ls, (struct sockaddr *)&a, &alen);
	fcntl(ls, F_SETFL, O_NONBLOCK);
	snprintf(prog, sizeof(prog),
		 "import socket\n"
		 "for host in ('127.0.0.1', '10.0.0.1', '1.1.1.1'):\n"
		 "    try:\n"
		 "        socket.create_connection((host, %d), timeout=1)\n"
		 "        print('connected', host)\n"
		 "    except OSError as e:\n"
		 "        print('refused')\n",
		 ntohs(a.sin_port));
	TEST("network: connecting to the host's loopback or out fails",
	     run(prog, "", &r) == 0 && out_is(&r, "refused\nrefused\nrefused\n"));
	got = accept(ls, NULL, NULL);
	TEST("network: the host's listener saw no connection",
	     got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
	if (got >= 0)
		close(got);
	close(ls);
	sandbox_result_release(&r);
}

static void
test_files(void)
{
	struct sandbox_result r;
	char cwd[512], here[700], prog[2048], tmp[64], etc[64];
	struct stat st;

	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	snprintf(here, sizeof(here), "%s/aiperf-sandbox-%d", cwd, (int)getpid());
	snprintf(tmp, sizeof(tmp), "/tmp/aiperf-sandbox-%d", (int)getpid());
	snprintf(etc, sizeof(etc), "/etc/aiperf-sandbox-%d", (int)getpid());
	snprintf(prog, sizeof(prog),
		 "import os\n"
		 "for p in ('%s', '%s', '%s', '/usr/x', '/x', '/dev/shm/x', '/proc/x'):\n"
		 "    try:\n"
		 "        open(p, 'w').write('pwned')\n"
		 "        print('wrote', p)\n"
		 "    except OSError:\n"
		 "        print('no')\n"
		 "open('mine', 'w').write('ok')\n"
		 "print(open('/w/mine').read())\n",
		 tmp, etc, here);
	TEST("files: writes outside the working tmpfs fail, inside work",
	     run(prog, "", &r) == 0 &&
	     out_is(&r, "no\nno\nno\nno\nno\nno\nno\nok\n"));
	TEST("files: nothing appeared on the host",
	     stat(tmp, &st) < 0 && stat(etc, &st) < 0 && stat(here, &st) < 0);
	sandbox_result_release(&r);
	lim.tmpfs_bytes = 1 << 20;
	TEST("files: the tmpfs is size-capped",
	     run("try:\n    open('big', 'w').write('x' * 5000000)\n"
		 "except OSError as e:\n    print(e.errno)\n", "", &r) == 0 &&
	     out_is(&r, "28\n"));
	sandbox_result_release(&r);
	sandbox_limits_default(&lim);
}

static void
test_processes(void)
{
	struct sandbox_result r;
	int left = -1;

	lim.wall_ms = 8000;
	TEST("processes: a 1000-fork loop is stopped by the process limit",
	     run("import os, time\n"
		 "n = 0\n"
		 "try:\n"
		 "    for i in range(1000):\n"
		 "        if os.fork() == 0:\n"
		 "            time.sleep(60)\n"
		 "            os._exit(0)\n"
		 "        n += 1\n"
		 "except OSError as e:\n"
		 "    print('stopped', n < 64, e.errno)\n", "", &r) == 0 &&
	     out_is(&r, "stopped True 11\n") && !r.timed_out);
	sandbox_result_release(&r);
	/* the pid namespace dies with its first process */
	for (int i = 0; i < 100 && (left = procs_of(sandbox_uid())) > 0; i++)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	TEST("processes: none of the sandbox's is left", left == 0);
	lim.wall_ms = 1500;
	TEST("processes: a fork bomb's children cannot outlive the wall clock",
	     run("import os, time\n"
		 "for i in range(20):\n"
		 "    if os.fork() == 0:\n"
		 "        break\n"
		 "time.sleep(60)\n", "", &r) == 0 && r.timed_out);
	sandbox_result_release(&r);
	for (int i = 0; i < 100 && (left = procs_of(sandbox_uid())) > 0; i++)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	TEST("processes: and none is left after the kill", left == 0);
	sandbox_limits_default(&lim);
}

static void
test_time_memory(void)
{
	struct sandbox_result r;

	lim.wall_ms = 1500;
	TEST("time: an infinite loop is killed at the wall clock",
	     run("while True:\n    pass\n", "", &r) == 0 && r.timed_out &&
	     r.exit_code == -1 && r.wall_ns >= 1500000000 && r.wall_ns < 4000000000);
	sandbox_result_release(&r);
	TEST("time: so is a sleeper, that uses no CPU",
	     run("import time\ntime.sleep(100)\n", "", &r) == 0 && r.timed_out);
	sandbox_result_release(&r);
	lim.wall_ms = 20000;
	lim.cpu_s = 1;
	TEST("time: the CPU limit kills a busy loop (SIGXCPU)",
	     run("while True:\n    pass\n", "", &r) == 0 && !r.timed_out &&
	     r.exit_code == 128 + 24 && r.wall_ns < 5000000000);
	sandbox_result_release(&r);
	sandbox_limits_default(&lim);
	TEST("memory: 5 GiB at once is refused under the default limit",
	     run("try:\n    x = bytearray(5 << 30)\n    print('got')\n"
		 "except MemoryError:\n    print('refused')\n", "", &r) == 0 &&
	     out_is(&r, "refused\n"));
	sandbox_result_release(&r);
	lim.mem_bytes = 256u << 20;
	TEST("memory: a growing hog is stopped at the address-space limit",
	     run("x = []\nwhile True:\n    x.append(bytearray(1 << 20))\n", "", &r) == 0 &&
	     r.exit_code != 0 && !r.timed_out && strstr(buf_str(&r.err), "MemoryError"));
	sandbox_result_release(&r);
	sandbox_limits_default(&lim);
}

static void
test_no_bwrap(void)
{
	struct sandbox_result r;
	struct grade_result g;
	char err[256] = "", *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	lim.bwrap = "/nonexistent/bwrap";
	TEST("no bwrap: the run fails, nothing runs",
	     sandbox_run(&lim, "print(1)", 8, "", 0, &r, err, sizeof(err)) < 0 &&
	     strstr(err, "cannot run '/nonexistent/bwrap'"));
	sandbox_limits_default(&lim);
	setenv("PATH", "/nonexistent", 1);
	TEST("no bwrap: the grade fails with code_execution's error",
	     codeexec_grade("```\nprint(2)\n```", 16,
			    "{\"public_test_cases\": [{\"input\": \"\", \"output\": \"2\"}]}",
			    &g) < 0 && errno == ENOEXEC && !g.correct &&
	     !strncmp(g.reason, "code_execution needs bubblewrap: cannot find 'bwrap'", 52));
	if (path)
		setenv("PATH", path, 1);
	free(path);
}

#define STDIN_GOLD \
	"{\"starter_code\": \"\", \"public_test_cases\": \"[{\\\"input\\\": \\\"1 2\\\\n\\\", " \
	"\\\"output\\\": \\\"3\\\\n\\\", \\\"testtype\\\": \\\"stdin\\\"}]\", " \
	"\"private_test_cases\": \"eJxrYJlqzwABPdbR1UqZeQWlJUpWCkqmCuYxeUo6Ckr5pSVQIUMjiEhJ" \
	"anFJSWVBKkisuCQlM0+pNnaKHgDEDxTY\", \"metadata\": \"{}\"}"

#define CALL_GOLD \
	"{\"starter_code\": \"class Solution:\\n    def addAll(self, nums, k):\\n\", " \
	"\"public_test_cases\": \"[{\\\"input\\\": \\\"[1, 2]\\\\n3\\\", " \
	"\\\"output\\\": \\\"[4, 5]\\\", \\\"testtype\\\": \\\"functional\\\"}, " \
	"{\\\"input\\\": \\\"[]\\\\n1\\\", \\\"output\\\": \\\"[]\\\", " \
	"\\\"testtype\\\": \\\"functional\\\"}]\", \"private_test_cases\": \"\", " \
	"\"metadata\": \"{\\\"func_name\\\": \\\"addAll\\\"}\"}"

struct gcase {
	const char *name, *reply, *gold;
	int correct;
	const char *reason;
};

static const struct gcase gcases[] = {
	{ "grade stdin: a correct program passes (public + encoded private)",
	  "Read two numbers:\n```python\nimport sys\n\ndef main():\n"
	  "    a, b = map(int, sys.stdin.readline().split())\n    print(a + b)\n\n"
	  "if __name__ == \"__main__\":\n    main()\n```\n",
	  STDIN_GOLD, 1, "pass@1=1.000 (2 tests)" },
	{ "grade stdin: a wrong one fails at its first wrong test",
	  "```python\na, b = map(int, input().split())\nprint(a * b + 1)\n```",
	  STDIN_GOLD, 0, "test 2 of 2: wrong answer" },
	{ "grade stdin: numbers compare as Decimals ('3.0' is 3)",
	  "```python\na, b = map(int, input().split())\nprint(f'{a + b:.1f}')\n```",
	  STDIN_GOLD, 1, "pass@1=1.000 (2 tests)" },
	{ "grade stdin: math is there without an import (lighteval's block)",
	  "```python\na, b = map(int, input().split())\nprint(floor(sqrt((a + b) ** 2)))\n```",
	  STDIN_GOLD, 1, "pass@1=1.000 (2 tests)" },
	{ "grade stdin: a runtime error fails",
	  "```python\nprint(1 // 0)\n```",
	  STDIN_GOLD, 0, "test 1 of 2: error (ZeroDivisionError)" },
	{ "grade stdin: a syntax error fails",
	  "```python\ndef (:\n```",
	  STDIN_GOLD, 0, "test 1 of 2: error (SyntaxError)" },
	{ "grade call: a correct Solution method passes",
	  "```python\nclass Solution:\n    def addAll(self, nums: List[int], k: int) -> List[int]:\n"
	  "        return [x + k for x in nums]\n```",
	  CALL_GOLD, 1, "pass@1=1.000 (2 tests)" },
	{ "grade call: a tuple counts as the list",
	  "```python\nclass Solution:\n    def addAll(self, nums, k):\n"
	  "        return tuple(x + k for x in nums)\n```",
	  CALL_GOLD, 1, "pass@1=1.000 (2 tests)" },
	{ "grade call: a wrong method fails",
	  "```python\nclass Solution:\n    def addAll(self, nums, k):\n"
	  "        return [x - k for x in nums]\n```",
	  CALL_GOLD, 0, "test 1 of 2: wrong answer" },
	{ "grade call: the method missing fails",
	  "```python\nclass Solution:\n    def other(self, nums, k):\n        return nums\n```",
	  CALL_GOLD, 0, "test 1 of 2: error (AttributeError)" },
	{ "grade: private cases that do not decode are malformed",
	  "```python\nprint(3)\n```",
	  "{\"public_test_cases\": [], \"private_test_cases\": \"eJxrYJnKywABtVN6WFLLMnOmeDMW6wEAP5MF+Q==\"}",
	  0, "LCB grader failed: private test cases: cannot decode" },
};

static void
test_grades(void)
{
	for (size_t i = 0; i < sizeof(gcases) / sizeof(gcases[0]); i++) {
		const struct gcase *c = &gcases[i];
		struct grade_result r;
		int rc = codeexec_grade(c->reply, strlen(c->reply), c->gold, &r);

		TEST(c->name, rc == 0 && r.correct == c->correct &&
			      !strcmp(r.reason, c->reason));
		if (rc != 0 || strcmp(r.reason, c->reason))
			printf("#   rc %d, correct %d, reason '%s'\n", rc, r.correct, r.reason);
	}
}

int
main(void)
{
	struct sandbox_result r;
	char err[256] = "";

	sandbox_limits_default(&lim);
	if (sandbox_run(&lim, "print(1)", 8, "", 0, &r, err, sizeof(err)) < 0) {
		printf("1..0 # SKIP bwrap cannot run here: %s\n", err);
		return 0;
	}
	sandbox_result_release(&r);
	test_basics();
	test_network();
	test_files();
	test_processes();
	test_time_memory();
	test_no_bwrap();
	test_grades();
	return TEST_DONE();
}
