/* SPDX-License-Identifier: Apache-2.0 */
/* The original's exact_match grader (HellaSwag, BigBench): stripped reply == stripped gold, byte for byte. */
#include "accuracy/exact_match.h"

#include <stdio.h>
#include <string.h>

#include "pytext.h"

int
exact_match_grade(const char *reply, size_t n, const char *gold,
		  struct grade_result *r)
{
	const char *p = reply, *g = gold;
	size_t gn = strlen(gold);

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	pytext_strip(&p, &n);
	pytext_strip(&g, &gn);
	r->unparsed = n == 0 && gn > 0;
	r->correct = n > 0 && n == gn && !memcmp(p, g, n);
	grade_set_extracted(r, p, n);
	snprintf(r->reason, sizeof(r->reason), "strict equality with gold '%.*s'%s",
		 gn > 48 ? 48 : (int)gn, g, r->unparsed ? " (empty response)" : "");
	return 0;
}
