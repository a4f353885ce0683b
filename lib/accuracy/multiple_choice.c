/* SPDX-License-Identifier: Apache-2.0 */
/* The original's multiple_choice grader (MMLU): the first line's A-D letter against the gold letter. */
#include "accuracy/multiple_choice.h"

#include <stdio.h>
#include <string.h>

#include "pytext.h"

bool
multiple_choice_extract(const char *reply, size_t n, const char **a,
			size_t *an)
{
	const char *nl = memchr(reply, '\n', n);
	const char *s = reply;
	size_t len = nl ? (size_t)(nl - reply) : n;

	pytext_strip(&s, &len);
	*a = s;
	*an = len;
	if (len == 1 && s[0] >= 'A' && s[0] <= 'D')
		return false;
	/* (?<!\w)([A-D])(?!\w) */
	for (size_t i = 0; i < len; i++) {
		if (s[i] < 'A' || s[i] > 'D')
			continue;
		if (!pytext_word_before(s, i) && !pytext_word_at(s, len, i + 1)) {
			*a = s + i;
			*an = 1;
			break;
		}
	}
	return true;
}

int
multiple_choice_grade(const char *reply, size_t n, const char *gold,
		      struct grade_result *r)
{
	const char *a, *g = gold;
	size_t an, gn = strlen(gold);

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	r->unparsed = multiple_choice_extract(reply, n, &a, &an);
	pytext_strip(&g, &gn);
	r->correct = an > 0 && an == gn && !memcmp(a, g, an);
	grade_set_extracted(r, a, an);
	snprintf(r->reason, sizeof(r->reason), "first line gave '%.*s'%s; gold '%.*s'",
		 an > 32 ? 32 : (int)an, a, r->unparsed ? " (regex fallback)" : "",
		 gn > 32 ? 32 : (int)gn, g);
	return 0;
}
