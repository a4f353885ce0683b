/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: what a run directory says of its run. */
#include "rundir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"

char *
rundir_path(const char *dir, const char *name)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "%s/%s", dir, name);
	return buf_detach(&b, NULL);
}

/* Whether s[0..len) is short printable ASCII, fit to quote in a message. */
static int
quotable(const char *s, size_t len)
{
	if (len > 20)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

/*
 * Whether DIR's exit_status file says the run failed; why, in why. No
 * file is no verdict; one that cannot be read (not a regular file, over
 * 64 bytes), is empty (what a full disk leaves) or holds anything but a
 * status 0 to 255 on one line is a failed run.
 */
int
rundir_failed(const char *dir, char *why, size_t n)
{
	char *p = rundir_path(dir, "exit_status"), *text;
	const char *e;
	long long st;
	size_t len;
	int failed = 1;

	text = util_readfile(p, 64, &len);
	free(p);
	if (!text) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, n, "cannot read exit_status: %s", util_strerror(errno));
		return 1;
	}
	while (len && text[len - 1] && strchr(" \t\r\n", text[len - 1]))
		text[--len] = '\0';
	if (!len)
		snprintf(why, n, "empty exit_status");
	else if (strlen(text) != len || util_strtonum(text, 0, 255, &st, &e) < 0)
		snprintf(why, n, "exit_status %s%s%s is no exit status (0 to 255)",
			 quotable(text, len) ? "'" : "(", quotable(text, len) ? text :
			 "unprintable", quotable(text, len) ? "'" : ")");
	else if (st == 130 || st == 143)
		snprintf(why, n, "interrupted (exit status %lld)", st);
	else if (st && st != 3)	/* 3: aiperf-export's verdict, a whole run */
		snprintf(why, n, "exit status %lld", st);
	else
		failed = 0;
	free(text);
	return failed;
}
