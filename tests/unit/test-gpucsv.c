/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/gpucsv: the custom GPU metrics CSV, hostile lines included. */
#include <stdio.h>
#include <string.h>

#include "gpucsv.h"
#include "test.h"

static char warned[4096];

static void
w(void *ctx, size_t lineno, const char *why)
{
	(void)ctx;
	snprintf(warned + strlen(warned), sizeof(warned) - strlen(warned), "%zu:%s;",
		 lineno, why);
}

static void
parse(struct gpucsv *c, const char *s)
{
	warned[0] = '\0';
	gpucsv_parse(c, s, strlen(s), w, NULL);
}

int
main(void)
{
	struct gpucsv c;

	parse(&c, "# Format\n# DCGM FIELD, Prometheus metric type, help message\n\n"
		  "DCGM_FI_DEV_SM_CLOCK,  gauge, SM clock frequency (in MHz).\r\n"
		  "  DCGM_FI_DEV_MEMORY_TEMP , gauge , Memory temperature (in C).  \n"
		  "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE, gauge, Ratio of cycles, the tensor pipe is active (in %).\r"
		  "DCGM_FI_DEV_PCIE_REPLAY_COUNTER, counter, Total number of PCIe retries.\n"
		  "DCGM_FI_DEV_NVLINK_X, gauge, (in W)\n"
		  "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL, counter, ecc  sbe   errors (in s)");
	TEST("six metrics", c.n == 6);
	TEST_STR("no warning", warned, "");
	TEST_STR("key", c.m[0].key, "sm_clock");
	TEST_STR("display", c.m[0].display, "SM Clock Frequency");
	TEST_STR("unit MHz", c.m[0].unit, "MHz");
	TEST_STR("strip", c.m[1].dcgm, "DCGM_FI_DEV_MEMORY_TEMP");
	TEST_STR("unit C", c.m[1].unit, "\xc2\xb0" "C");
	TEST_STR("prof key", c.m[2].key, "dcgm_fi_prof_pipe_tensor_active");
	TEST_STR("help with commas", c.m[2].display, "Ratio Of Cycles, The Tensor Pipe Is Active");
	TEST_STR("unit %", c.m[2].unit, "%");
	TEST("counter", c.m[3].counter && !c.m[0].counter);
	TEST_STR("no unit: count", c.m[3].unit, "count");
	TEST_STR("PCIe", c.m[3].display, "Total Number Of PCIE Retries.");
	TEST_STR("empty display: from the key", c.m[4].display, "NVLINK X");
	TEST_STR("words joined by one space, acronyms", c.m[5].display, "ECC Sbe Errors");
	TEST_STR("unit s is sec", c.m[5].unit, "sec");
	gpucsv_release(&c);

	parse(&c, "DCGM_FI_DEV_A, gauge\n"
		  "NOT_DCGM, gauge, x\n"
		  "DCGM_FI_DEV_B, histogram, x\n"
		  "DCGM_FI_DEV_B, Gauge, x\n"
		  "DCGM_FI_DEV_C{x}, gauge, x\n"
		  "DCGM_FI_DEV_D, gauge, x (in W)\n"
		  "DCGM_FI_DEV_D, counter, twice\n"
		  "DCGM_FI_DEV_E, gauge, \xff\xfe (in W)\n"
		  ",,\n"
		  "DCGM_FI_DEV_DCGM_FI_DEV_, gauge, x\n"
		  "DCGM_FI_DEV_F,gauge,");
	TEST("two taken", c.n == 2);
	TEST_STR("every bad line warned with its number", warned,
		 "1:expected 3 comma-separated values;"
		 "2:the DCGM field should start with 'DCGM_FI_';"
		 "3:the metric type should be 'gauge' or 'counter';"
		 "4:the metric type should be 'gauge' or 'counter';"
		 "5:the DCGM field is not a metric name;"
		 "7:the DCGM field is named twice;"
		 "8:not UTF-8;"
		 "9:the DCGM field should start with 'DCGM_FI_';"
		 "10:the DCGM field names no metric;");
	TEST_STR("empty help: key as display", c.m[1].display, "F");
	gpucsv_release(&c);

	TEST_STR("(IN w) any case", gpucsv_unit("x (IN w)", 8), "W");
	TEST_STR("first full match wins", gpucsv_unit("(in)(in  mj)", 12), "MJ");
	TEST_STR("unknown unit", gpucsv_unit("(in MiB)", 8), "count");
	TEST_STR("no space", gpucsv_unit("(inW)", 5), "count");
	TEST_STR("unclosed", gpucsv_unit("(in W", 5), "count");
	TEST_STR("space inside", gpucsv_unit("(in W )", 7), "count");

	/* limits: GPUCSV_MAX metrics, long lines, NUL bytes, no newline at all */
	{
		static char big[GPUCSV_MAX * 40 + 8192];
		size_t n = 0;
		for (int i = 0; i < GPUCSV_MAX + 3; i++)
			n += (size_t)snprintf(big + n, sizeof(big) - n,
					      "DCGM_FI_DEV_X%d, gauge, h\n", i);
		memset(big + n, 'a', GPUCSV_MAX_LINE + 1);
		n += GPUCSV_MAX_LINE + 1;
		warned[0] = '\0';
		gpucsv_parse(&c, big, n, w, NULL);
		TEST("at most GPUCSV_MAX", c.n == GPUCSV_MAX);
		TEST("the rest warned", strstr(warned, "too many metrics") &&
		     strstr(warned, "line too long"));
		gpucsv_release(&c);
		gpucsv_parse(&c, "DCGM_FI_DEV_\0X, gauge, h", 24, NULL, NULL);
		TEST("a NUL byte is no metric name", c.n == 0);
		gpucsv_release(&c);
		gpucsv_parse(&c, "", 0, NULL, NULL);
		TEST("empty", c.n == 0 && c.m == NULL);
		gpucsv_release(&c);
	}
	return TEST_DONE();
}
