/* SPDX-License-Identifier: Apache-2.0 */
/* --extra-inputs: the original's key:value coercion and JSON objects, as an ordered member map. */
#ifndef AIPERF_EXTRAS_H
#define AIPERF_EXTRAS_H

#include <stddef.h>

/*
 * struct extras is an ordered map of JSON object members, each value held
 * as compact JSON text, with Python dict.update() semantics: setting a key
 * again keeps its first position and takes the new value. The map owns
 * keys and values; extras_set() takes ownership of val (malloc'd).
 * extras_release() frees everything and leaves an empty map.
 */
struct extras_kv {
	char *key;
	char *val;
};

struct extras {
	struct extras_kv *v;
	size_t n, cap;
};

void extras_set(struct extras *l, const char *key, size_t klen, char *val);
/* The value text of key, or NULL. */
const char *extras_get(const struct extras *l, const char *key);
void extras_release(struct extras *l);
/*
 * Parse one --extra-inputs argument into l: a JSON object when it starts
 * with '{' (values kept, floats rewritten as orjson writes them), else
 * comma-separated key:value items whose key and value are stripped and
 * whose value is coerced (config_validators.coerce_value): true/false in
 * any case, none/null, ASCII digit strings without a leading zero
 * (optionally after '-') as integers, numerals with one dot as floats,
 * anything else a string. Returns 0, or -1 with a message in err (one
 * that quotes arg quotes at most its first 64 bytes, and says its size).
 */
int extras_parse(struct extras *l, const char *arg, char *err, size_t errlen);

#endif
