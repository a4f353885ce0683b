/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: encode, count and decode any bytes with a byte-level and a SentencePiece-style tokenizer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tok/hftok.h"
#include "tok/tokdec.h"
#include "tok/tokpipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct tokpipe pipes[2];
static int ready;

/* GPT-2 bytes_to_unicode of b, as UTF-8, into s. */
static void
byte_char(int b, struct buf *s)
{
	int c = b, k = 0, i;
	char u[4];

	if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174)) {
		for (i = 0; i < b; i++)
			if (!((i >= 33 && i <= 126) || (i >= 161 && i <= 172) ||
			      i >= 174))
				k++;
		c = 256 + k;
	}
	if (c < 0x80) {
		buf_addch(s, c);
		return;
	}
	u[0] = (char)(0xc0 | c >> 6);
	u[1] = (char)(0x80 | (c & 0x3f));
	buf_add(s, u, 2);
}

static const char bl_tail[] =
	"\"a b\",\"ab c\",\"\xc4\xa0 t\",\"\xc4\xa0t h\"]},"
	"\"added_tokens\":[{\"id\":300,\"content\":\"<s>\",\"special\":true,"
	"\"normalized\":false,\"lstrip\":true,\"rstrip\":false,"
	"\"single_word\":false},{\"id\":301,\"content\":\"xyz\",\"special\":false,"
	"\"normalized\":true,\"lstrip\":false,\"rstrip\":true,\"single_word\":true}],"
	"\"normalizer\":{\"type\":\"NFC\"},\"pre_tokenizer\":{\"type\":\"Sequence\","
	"\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":"
	"\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|"
	"\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|"
	"\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},"
	"{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"use_regex\":false}]},"
	"\"decoder\":{\"type\":\"ByteLevel\"}}";

static void
build_bytelevel(struct buf *j)
{
	int b;

	buf_addstr(j, "{\"model\":{\"type\":\"BPE\",\"vocab\":{");
	for (b = 0; b < 256; b++) {
		buf_addch(j, '"');
		if (b == '"' || b == '\\')
			buf_addch(j, '\\');
		byte_char(b, j);
		buf_addf(j, "\":%d,", b);
	}
	buf_addstr(j, "\"ab\":256,\"abc\":257,\"\xc4\xa0t\":258,"
		   "\"\xc4\xa0th\":259},\"merges\":[");
	buf_addstr(j, bl_tail);
}

static void
build_sentencepiece(struct buf *j)
{
	int b;

	buf_addstr(j, "{\"model\":{\"type\":\"BPE\",\"unk_token\":\"<unk>\","
		   "\"byte_fallback\":true,\"fuse_unk\":true,\"vocab\":"
		   "{\"<unk>\":0,\"<s>\":1,");
	for (b = 0; b < 256; b++)
		buf_addf(j, "\"<0x%02X>\":%d,", b, b + 3);
	buf_addstr(j, "\"\xe2\x96\x81\":259,\"a\":260,\"b\":261,\"ab\":262,"
		   "\"\xe2\x96\x81" "a\":263},\"merges\":[\"a b\",\"\xe2\x96\x81 a\"]},"
		   "\"added_tokens\":[{\"id\":1,\"content\":\"<s>\",\"special\":true}],"
		   "\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":["
		   "{\"type\":\"Prepend\",\"prepend\":\"\xe2\x96\x81\"},"
		   "{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},"
		   "\"content\":\"\xe2\x96\x81\"}]},\"decoder\":{\"type\":\"Sequence\","
		   "\"decoders\":[{\"type\":\"Replace\",\"pattern\":{\"String\":"
		   "\"\xe2\x96\x81\"},\"content\":\" \"},{\"type\":\"ByteFallback\"},"
		   "{\"type\":\"Fuse\"},{\"type\":\"Strip\",\"content\":\" \","
		   "\"start\":1,\"stop\":0}]}}");
}

static void
setup(void)
{
	struct buf j = BUF_INIT(BUF_NOMAX);
	char err[256];
	int i;

	for (i = 0; i < 2; i++) {
		buf_reset(&j);
		if (i == 0)
			build_bytelevel(&j);
		else
			build_sentencepiece(&j);
		tokpipe_init(&pipes[i]);
		if (hftok_parse(&pipes[i], j.s, j.len, "fuzz", err,
				sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			abort();
		}
	}
	buf_release(&j);
	ready = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf out = BUF_INIT(BUF_NOMAX);
	const struct tokpipe *p;
	int32_t *ids = NULL;
	size_t n = 0, cap = 0;

	if (!ready)
		setup();
	if (size == 0)
		return 0;
	p = &pipes[data[0] & 1];
	tokpipe_encode(p, (const char *)data + 1, size - 1, &ids, &n, &cap);
	if (tokpipe_encode(p, (const char *)data + 1, size - 1, NULL, NULL,
			   NULL) != n || (size > 1 && n == 0))
		__builtin_trap();
	tokdec_decode(p, ids, n, data[0] & 2, &out);
	/* decoding any ids, even out-of-range ones, must not crash */
	n = (size - 1) / sizeof(int32_t);
	if (n > 0 && n <= cap) {
		memcpy(ids, data + 1, n * sizeof(int32_t));
		tokdec_decode(p, ids, n, 0, &out);
	}
	free(ids);
	buf_release(&out);
	return 0;
}
