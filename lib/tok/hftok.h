/* SPDX-License-Identifier: Apache-2.0 */
/* HuggingFace tokenizer.json loader: BPE models with their normalizers, pre-tokenizers and decoders. */
#ifndef AIPERF_HFTOK_H
#define AIPERF_HFTOK_H

#include <stddef.h>
#include "tok/tokpipe.h"

/*
 * Parse tokenizer.json text json[0..n) (name is the file, for messages)
 * into p, which the caller initialised and releases (also on failure).
 * Supported: model BPE (byte-level or SentencePiece-style with
 * byte_fallback/unk, ignore_merges); normalizers NFC, NFD, NFKC, NFKD,
 * Prepend, Replace, Strip, Sequence; pre-tokenizers Split, ByteLevel,
 * Digits, Metaspace, Sequence; decoders ByteLevel, Metaspace, Replace,
 * ByteFallback, Fuse, Strip, Sequence. Anything else fails with a message
 * naming the file, the field and what is supported. Returns 0 or -1.
 */
int hftok_parse(struct tokpipe *p, const char *json, size_t n,
		const char *name, char *err, size_t errlen);

#endif
