/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: aiperf-ui's status lines (aiperf-metrics --status-fd): a hostile line never crashes, and every view drawn from what it took stays within its buffer and prints no control characters in the plain line. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cmd/aiperf-ui/state.c"
#include "../../cmd/aiperf-ui/text.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int null = -1;
	struct ui_state st;
	char line[512];
	double eta;

	if (null < 0 && (null = open("/dev/null", O_WRONLY)) < 0)
		abort();
	memset(&st, 0, sizeof(st));
	/* the run as the command line may give it: a count, or a duration */
	st.request_count = size & 1 ? 100 : 0;
	st.duration_s = size & 2 ? 1.5 : 0;
	st.warmup_count = size & 4 ? 3 : 0;
	if (ui_parse(&st, (const char *)data, size) < 0)
		return 0;
	if (st.ntypes < 0 || st.ntypes > UI_MAXTYPES || !memchr(st.phase, 0, sizeof(st.phase)))
		abort();
	for (int i = 0; i < st.ntypes; i++)
		if (!memchr(st.types[i].name, 0, sizeof(st.types[i].name)))
			abort();
	(void)ui_fraction(&st, 0, &eta);
	(void)ui_fraction(&st, 1, &eta);
	memset(line, 'x', sizeof(line));
	ui_plain_line(&st, line, sizeof(line));
	if (!memchr(line, 0, sizeof(line)))
		abort();
	for (const char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			abort();
	ui_simple_draw(&st, null);
	ui_simple_end(&st, null);
	return 0;
}
