/* SPDX-License-Identifier: Apache-2.0 */
/* Where a tokenizer comes from: builtin data, local paths, tiktoken names, the HuggingFace cache and hub. */
#ifndef AIPERF_TOKSRC_H
#define AIPERF_TOKSRC_H

#include <stddef.h>
#include "tok/tok.h"

/*
 * Resolve spec (--tokenizer) and revision (--tokenizer-revision, NULL for
 * "main") to a local file or directory that tok_open() accepts:
 *   "builtin"                      o200k_base shipped with aiperf;
 *   "o200k_base", "cl100k_base"    the shipped tiktoken rank files;
 *   a path                         tokenizer.json[.zst], a folder, NAME.tiktoken;
 *   "ORG/NAME"                     the HF hub cache (HF_HUB_CACHE, HF_HOME,
 *                                  ~/.cache/huggingface/hub), else a download
 *                                  from HF_ENDPOINT with HF_TOKEN into that cache.
 * Returns a malloc'd path, or NULL with a message in err.
 */
char *toksrc_resolve(const char *spec, const char *revision, char *err,
		     size_t errlen);
/* toksrc_resolve() then tok_open(). */
struct tok *tok_load(const char *spec, const char *revision, char *err,
		     size_t errlen);
/* The directory of shipped data files (AIPERF_DATA_DIR, next to the
 * binary, or the install DATADIR). Returns a static string. */
const char *toksrc_datadir(void);

#endif
