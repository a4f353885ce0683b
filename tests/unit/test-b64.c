/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/b64: RFC 4648's vectors, optional padding, white space, hostile text. */
#include "b64.h"

#include <string.h>

#include "test.h"

static char err[128];

/* The decoding of s as a string, or "<-1>". */
static const char *
dec(const char *s, unsigned flags)
{
	static unsigned char out[256];
	size_t n;

	if (strlen(s) > 160 || b64_decode(s, strlen(s), flags, out, &n, err, sizeof(err)) < 0)
		return "<-1>";
	out[n] = '\0';
	return (const char *)out;
}

int
main(void)
{
	static const char *const rfc[][2] = {
		{ "", "" }, { "Zg==", "f" }, { "Zm8=", "fo" }, { "Zm9v", "foo" },
		{ "Zm9vYg==", "foob" }, { "Zm9vYmE=", "fooba" }, { "Zm9vYmFy", "foobar" },
	};
	unsigned char bin[8];
	size_t n;

	for (size_t i = 0; i < sizeof(rfc) / sizeof(*rfc); i++)
		TEST_STR(rfc[i][0], dec(rfc[i][0], 0), rfc[i][1]);
	TEST_STR("padding optional: Zg", dec("Zg", 0), "f");
	TEST_STR("padding optional: Zm8", dec("Zm8", 0), "fo");
	TEST_STR("+ and /", dec("+/+/", 0), "\xfb\xff\xbf");
	TEST_STR("a bad character", dec("Zm9*", 0), "<-1>");
	TEST("its offset named", strstr(err, "offset 3") != NULL);
	TEST_STR("URL-safe - is not standard", dec("-_8=", 0), "<-1>");
	TEST_STR("4k + 1 characters", dec("Zm9vY", 0), "<-1>");
	TEST_STR("text after padding", dec("Zg==Zg==", 0), "<-1>");
	TEST_STR("three padding", dec("Zg===", 0), "<-1>");
	TEST_STR("one = after three characters", dec("Zm9=", 0), "fo");
	TEST_STR("padding that breaks the length", dec("Zg=", 0), "<-1>");
	TEST_STR("white space refused without B64_SPACE", dec("Zm9v\nYmFy", 0), "<-1>");
	TEST_STR("white space skipped with it", dec(" Zm9v\r\n\tYmFy ", B64_SPACE), "foobar");
	TEST_STR("space inside padding", dec("Zg= =", B64_SPACE), "f");
	TEST("a NUL byte is not base64",
	     b64_decode("Zg\0=", 4, B64_SPACE, bin, &n, err, sizeof(err)) < 0);
	TEST("binary out, NUL bytes kept",
	     b64_decode("AAEA", 4, 0, bin, &n, NULL, 0) == 0 && n == 3 &&
	     bin[0] == 0 && bin[1] == 1 && bin[2] == 0);
	TEST("B64_ROOM is enough for a length of 4k + 3",
	     b64_decode("Zm9vYmE", 7, 0, bin, &n, NULL, 0) == 0 && n == 5 &&
	     n <= B64_ROOM(7));
	return TEST_DONE();
}
