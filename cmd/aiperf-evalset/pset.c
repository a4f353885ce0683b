/* SPDX-License-Identifier: Apache-2.0 */
/* The problems a benchmark loads, in order. */
#include "evalset.h"

#include "util.h"

void
pset_add(struct problem_set *p, const char *task, const char *gold,
	     const char *prompt, const char *messages, long long max_tokens)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	p->v[p->n++] = (struct problem){
		.task = xstrdup(task),
		.gold = xstrdup(gold),
		.prompt = xstrdup(prompt),
		.messages = messages ? xstrdup(messages) : NULL,
		.max_tokens = max_tokens,
	};
}

void
pset_release(struct problem_set *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].task);
		free(p->v[i].gold);
		free(p->v[i].prompt);
		free(p->v[i].messages);
	}
	free(p->v);
	*p = (struct problem_set){ 0 };
}
