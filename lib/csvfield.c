/* SPDX-License-Identifier: Apache-2.0 */
/* One CSV field as Python's csv writer (QUOTE_MINIMAL) writes it. */
#include "csvfield.h"

#include <string.h>

void
csv_field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
