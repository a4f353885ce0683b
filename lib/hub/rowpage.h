/* SPDX-License-Identifier: Apache-2.0 */
/* One page of the hub dataset viewer's /rows answer: its rows' text, checked. */
#ifndef AIPERF_ROWPAGE_H
#define AIPERF_ROWPAGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The dataset viewer answers GET /rows?...&offset=O&length=L with
 *   {"features":[...],"rows":[{"row_idx":O,"row":{...},
 *    "truncated_cells":[]},...],"num_rows_total":N,"partial":false}
 * rowpage_parse() checks all of it and keeps, for each row, the text of
 * its "row" object exactly as served (member order, escapes and number
 * text untouched). The struct borrows that text from the page given, so
 * the page must outlive it; rowpage_release() frees the arrays only.
 */
struct rowpage {
	size_t n;		/* rows on this page */
	const char **row;	/* row i's object text, row[i][0..len[i]) */
	size_t *len;
	int64_t total;		/* num_rows_total */
};

#define ROWPAGE_MAX_ROWS 100	/* the viewer's largest page */

/*
 * Parse the page s[0..n) asked for at offset. Returns 0, or -1 with a
 * message in err (*p then empty): not JSON, not an object, no integer
 * num_rows_total (or a negative or huge one), "rows" not an array of
 * objects, more than ROWPAGE_MAX_ROWS rows, a row_idx that does not
 * follow on from offset, a "row" that is not an object, or a non-empty
 * truncated_cells (naming the column: cut cells are never graded).
 */
int rowpage_parse(const char *s, size_t n, uint64_t offset, struct rowpage *p,
		  char *err, size_t errlen);

void rowpage_release(struct rowpage *p);

#endif
