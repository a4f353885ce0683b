/* SPDX-License-Identifier: Apache-2.0 */
/* Decoding: ids to token strings, then the decoder chain (ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip). */
#ifndef AIPERF_TOKDEC_H
#define AIPERF_TOKDEC_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "tok/tokpipe.h"

/*
 * Decode ids with p's decoder steps as HF tokenizers' decode() does,
 * appending the text to out: ids that are neither added tokens nor in the
 * vocabulary are skipped, and so are special tokens when skip_special.
 * Without a decoder the tokens are joined with spaces. Reads p only.
 * Returns 0, or -1 when out's cap is reached.
 */
int tokdec_decode(const struct tokpipe *p, const int32_t *ids, size_t n,
		  int skip_special, struct buf *out);

#endif
