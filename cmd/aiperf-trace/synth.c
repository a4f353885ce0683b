/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace synthesize: placeholder. */
#include "tt.h"
#include "util.h"

int cmd_synthesize(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	die("synthesize: not implemented");
}
