/* SPDX-License-Identifier: Apache-2.0 */
/* The rows layout on disk, read and written without following links below its root. */
#ifndef AIPERF_ROWCACHE_H
#define AIPERF_ROWCACHE_H

#include <stddef.h>

struct rows;

/*
 * ROOT/<id>/<config>/<split>.jsonl, the parts checked by the caller
 * (rows_valid_part). ROOT itself may be a link (a cache moved to a bigger
 * disk); every folder below it and the file must be what they seem: a
 * link, a FIFO or a device there is never followed, opened or replaced,
 * but reported, so that a planted file cannot redirect the read or the
 * write. Messages name the path.
 */

/*
 * Open the split's file for reading: returns its descriptor (the caller
 * closes it), -2 when it is not there (ENOENT on the way), or -1 with a
 * message in err.
 */
int rowcache_open(const char *root, const char *id, const char *config,
		  const char *split, char *err, size_t errlen);

/*
 * Write r's rows, one a line, as the split's file: the folders made as
 * needed, the rows into a new hidden file beside it, renamed into place
 * (a reader sees the old file or the whole new one). Returns 0, or -1
 * with a message in err (nothing left behind).
 */
int rowcache_store(const char *root, const char *id, const char *config,
		   const char *split, const struct rows *r, char *err,
		   size_t errlen);

#endif
