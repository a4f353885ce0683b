/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace convert: placeholder. */
#include "tt.h"
#include "util.h"

int cmd_convert(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	die("convert: not implemented");
}
