/* SPDX-License-Identifier: Apache-2.0 */
/* BurstGPT traces: the CSV columns aiperf-gen's burst_gpt_trace and aiperf-trace convert read, and each row's values. */
#include "dataset/burst.h"

#include "dataset/field.h"
#include "util.h"

const char *const burst_columns[3] = {
	"Timestamp", "Request tokens", "Response tokens",
};

int
burst_header(struct burst *b, const struct csv *c, char *err, size_t errlen)
{
	for (int k = 0; k < 3; k++)
		if ((b->col[k] = csv_column(c, burst_columns[k])) < 0)
			return util_seterr(err, errlen, "Missing required column '%s'",
					   burst_columns[k]);
	return 0;
}

int
burst_row(const struct burst *b, const struct csv *c, struct burst_row *r,
	  char *err, size_t errlen)
{
	const char *why;
	int k;

	for (k = 0; k < 3; k++)
		if ((size_t)b->col[k] >= c->nf)
			return 0;
	r->ts_text = c->f[b->col[0]];
	if (field_float(r->ts_text, &r->ts) < 0 ||
	    field_int(c->f[b->col[1]], &r->in) < 0 ||
	    field_int(c->f[b->col[2]], &r->out) < 0)
		return 0;
	if ((why = field_check(FIELD_SECONDS, r->ts)))
		k = 0;
	else if ((why = field_check(FIELD_TOKENS, (double)r->in)))
		k = 1;
	else if ((why = field_check(FIELD_TOKENS, (double)r->out)))
		k = 2;
	else
		return 1;
	return util_seterr(err, errlen, "'%s': %s", burst_columns[k], why);
}
