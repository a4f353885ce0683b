/* SPDX-License-Identifier: Apache-2.0 */
/* The image endpoints' responses (image_generation, image_retrieval) and the image inputs of a request (num_images). */
#include "metrics.h"

#include <string.h>

/* Python's name for a JSON value's type, as its TypeError messages say it. */
static const char *
img_pytype(const struct json *v)
{
	switch (v->type) {
	case JSON_NULL: return "NoneType";
	case JSON_TRUE:
	case JSON_FALSE: return "bool";
	case JSON_NUMBER:
		return memchr(v->str, '.', v->len) || memchr(v->str, 'e', v->len)
		       || memchr(v->str, 'E', v->len) ? "float" : "int";
	default: return NULL;	/* iterable: strings, lists, dicts */
	}
}

/*
 * ImageGenerationEndpoint.parse_response: a top-level "b64_json" is one
 * (partial) image of a stream, else "data" lists the images (non-object
 * items skipped). Every truthy object is a content response, even one
 * with no image at all: its ImageResponseData is always truthy. "data"
 * that cannot be iterated is the TypeError the original's loop raises.
 */
static int
img_generation(struct rec *r, const struct json *v)
{
	const struct json *d;
	char m[96];

	if (json_get(v, "b64_json") || !(d = json_get(v, "data")) || !img_pytype(d))
		return 1;
	snprintf(m, sizeof(m), "'%s' object is not iterable", img_pytype(d));
	rec_throw(r, "TypeError", m);
	return 0;
}

int
parse_image_body(struct rec *r, const struct json *v)
{
	const struct json *d;

	if (!json_truthy(v))
		return 0;	/* "if not json_obj": no data */
	if (v->type != JSON_OBJECT) {
		rec_not_object(r, v);
		return 0;
	}
	if (r->et == ET_IMAGE_GENERATION)
		return img_generation(r, v);
	/* ImageRetrievalEndpoint: any truthy "data" is the data */
	d = json_get(v, "data");
	return d && json_truthy(d);
}

static int
img_part(const struct json *p)
{
	const char *t = p->type == JSON_OBJECT ? json_str_or(json_get(p, "type"), "") : "";

	return !strcmp(t, "image_url") || !strcmp(t, "input_image");
}

/* Items of messages/input: image items themselves (image_retrieval's
 * {"type":"image_url","url":...}), and image parts of their content
 * (chat image_url, Responses input_image). */
static int64_t
img_count_items(const struct json *items)
{
	int64_t n = 0;

	if (!items || items->type != JSON_ARRAY)
		return 0;
	for (const struct json *it = items->child; it; it = it->next) {
		const struct json *c = it->type == JSON_OBJECT ? json_get(it, "content") : NULL;

		n += img_part(it);
		for (const struct json *p = c && c->type == JSON_ARRAY ? c->child : NULL;
		     p; p = p->next)
			n += img_part(p);
	}
	return n;
}

int64_t
rec_count_images(const struct rec *r)
{
	return img_count_items(json_get(r->payload, "messages"))
	       + img_count_items(json_get(r->payload, "input"));
}
