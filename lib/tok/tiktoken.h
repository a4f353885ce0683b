/* SPDX-License-Identifier: Apache-2.0 */
/* tiktoken rank files (o200k_base, cl100k_base): ranks, regex and special tokens. */
#ifndef AIPERF_TIKTOKEN_H
#define AIPERF_TIKTOKEN_H

#include <stddef.h>
#include "tok/tokpipe.h"

/*
 * Load a "<base64 token> <rank>" file whose base name (NAME.tiktoken)
 * picks the encoding's regex and special tokens. Fills p (initialised by
 * the caller; the caller releases it on failure too). Returns 0, or -1
 * with a message naming the file in err.
 */
int tiktoken_load(struct tokpipe *p, const char *path, char *err,
		  size_t errlen);
/* Whether name (a base name without ".tiktoken") is a known encoding. */
int tiktoken_known(const char *name);

#endif
