/* SPDX-License-Identifier: Apache-2.0 */
/* Tokenizers: open a tokenizer.json or tiktoken file and run its pipeline. */
#include "tok/tok.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tok/hftok.h"
#include "json/json.h"
#include "tok/tiktoken.h"
#include "tok/tokdec.h"
#include "tok/tokpipe.h"
#include "util.h"

#define MAX_JSON (512u << 20)
#define MAX_CONFIG (16u << 20)

struct tok {
	struct tokpipe p;
	char desc[256];
};

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/* The token id named by a config entry: a string or {"content": ...}. */
static int32_t
config_token(const struct tok *t, const struct json *v)
{
	const struct added *a;
	const char *s;
	size_t n;

	if (v && v->type == JSON_OBJECT)
		v = json_get(v, "content");
	if (!(s = json_str(v, &n)))
		return -1;
	if ((a = tokpipe_find_token(&t->p, s, n)))
		return a->id;
	if (t->p.byte_level) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		int32_t id = -1;
		if (tokpipe_bl_decode(s, n, &b) == 0)
			id = bpe_lookup(t->p.bpe, buf_str(&b), b.len);
		buf_release(&b);
		return id;
	}
	return bpe_lookup(t->p.bpe, s, n);
}

int
tok_set_config(struct tok *t, const char *json, size_t len)
{
	struct json_doc *d = json_doc_new();
	const struct json *root = json_parse(d, json, len, NULL, 0);

	if (root) {
		t->p.bos = config_token(t, json_get(root, "bos_token"));
		t->p.eos = config_token(t, json_get(root, "eos_token"));
	}
	json_doc_free(d);
	return root ? 0 : -1;
}

/* tokenizer_config.json beside the tokenizer: bos_token and eos_token. */
static void
load_config(struct tok *t, const char *dir)
{
	char *path = join(dir, "tokenizer_config.json");
	size_t len;
	char *s = util_readfile(path, MAX_CONFIG, &len);

	free(path);
	if (!s)
		return;
	tok_set_config(t, s, len);
	free(s);
}

static int
open_json(struct tok *t, const char *file, char *err, size_t errlen)
{
	size_t len;
	char *s = util_readfile(file, MAX_JSON, &len);
	int rc;

	if (!s) {
		snprintf(err, errlen, "cannot read '%s': %s", file,
			 errno == EILSEQ ? "corrupt zstd data" : util_strerror(errno));
		return -1;
	}
	rc = hftok_parse(&t->p, s, len, file, err, errlen);
	free(s);
	return rc;
}

static char *
find_json(const char *dir)
{
	char *f = join(dir, "tokenizer.json");

	if (exists(f))
		return f;
	free(f);
	f = join(dir, "tokenizer.json.zst");
	if (exists(f))
		return f;
	free(f);
	return NULL;
}

static void
describe(struct tok *t, const char *path, int tiktoken)
{
	const char *kind = tiktoken ? "tiktoken"
			   : t->p.byte_level ? "hf-bpe byte-level"
					     : "hf-bpe";

	snprintf(t->desc, sizeof(t->desc), "%s (%s)", kind, path);
}

static int
open_any(struct tok *t, const char *path, char *err, size_t errlen)
{
	char *file, *dir;
	int rc;

	if (ends_with(path, ".tiktoken") || ends_with(path, ".tiktoken.zst")) {
		describe(t, path, 1);
		return tiktoken_load(&t->p, path, err, errlen);
	}
	if (is_dir(path)) {
		if (!(file = find_json(path))) {
			snprintf(err, errlen, "'%s': no tokenizer.json or "
				 "tokenizer.json.zst in this folder", path);
			return -1;
		}
		dir = xstrdup(path);
	} else {
		file = xstrdup(path);
		dir = xstrdup(path);
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = '\0';
		else
			memcpy(dir, ".", 2);
	}
	rc = open_json(t, file, err, errlen);
	if (rc == 0) {
		load_config(t, dir);
		describe(t, file, 0);
	}
	free(file);
	free(dir);
	return rc;
}

struct tok *
tok_open(const char *path, char *err, size_t errlen)
{
	struct tok *t = xcalloc(1, sizeof(*t));

	tokpipe_init(&t->p);
	if (open_any(t, path, err, errlen) < 0) {
		tok_free(t);
		return NULL;
	}
	return t;
}

void
tok_free(struct tok *t)
{
	if (!t)
		return;
	tokpipe_release(&t->p);
	free(t);
}

int
tok_encode(const struct tok *t, const char *s, size_t n, struct tok_ids *ids)
{
	tokpipe_encode(&t->p, s, n, &ids->v, &ids->n, &ids->cap);
	return 0;
}

size_t
tok_count(const struct tok *t, const char *s, size_t n)
{
	return tokpipe_encode(&t->p, s, n, NULL, NULL, NULL);
}

int
tok_decode(const struct tok *t, const int32_t *ids, size_t n, int skip_special,
	   struct buf *out)
{
	return tokdec_decode(&t->p, ids, n, skip_special, out);
}

void
tok_allow_specials(struct tok *t)
{
	t->p.match_added = 1;
}

int32_t
tok_bos(const struct tok *t)
{
	return t->p.bos;
}

int32_t
tok_eos(const struct tok *t)
{
	return t->p.eos;
}

size_t
tok_vocab_size(const struct tok *t)
{
	size_t n = (size_t)bpe_max_id(t->p.bpe), i;

	for (i = 0; i < t->p.nadded; i++)
		if ((size_t)t->p.added[i].id + 1 > n)
			n = (size_t)t->p.added[i].id + 1;
	return n;
}

const char *
tok_describe(const struct tok *t)
{
	return t->desc;
}

void
tok_ids_release(struct tok_ids *ids)
{
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->cap = 0;
}
