/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-jqrun: run a user's jq program under limits, for aiperf-gen and aiperf-metrics. */
#include <sys/socket.h>
#include <sys/stat.h>

#include "json/jqexec.h"
#include "opt.h"
#include "util.h"

enum { K_HELP = 256, K_VERSION };

int
main(int argc, char **argv)
{
	const struct opt tab[] = {
		{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE },
		{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE },
		{ 0 },
	};
	const struct opt_cmd cmd = { "aiperf-jqrun", tab, NULL, 0, NULL, NULL };
	struct opt_iter it;
	struct stat st;

	util_setprogname(argv[0]);
	opt_init(&it, &cmd, argc, argv);
	while (opt_next(&it) != -1)
		;
	if (it.ind != argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	/* started by hand: there is nobody to answer */
	if (fstat(JQEXEC_FD, &st) < 0 || !S_ISSOCK(st.st_mode))
		die_usage("descriptor %d is no socket: aiperf-gen and aiperf-metrics start "
			  "this helper, with their end of a socket pair there", JQEXEC_FD);
	return jqexec_serve();
}
