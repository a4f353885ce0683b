/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/bailian (the roots of chat chains). */
#include "test.h"
#include "dataset/bailian.h"

static int roots(const int64_t *chat, const int64_t *parent, size_t n,
		 const int64_t *want)
{
	int64_t got[16];

	if (bailian_roots(chat, parent, n, 1000, got) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			printf("#   record %zu: root %lld, want %lld\n", i,
			       (long long)got[i], (long long)want[i]);
			return 0;
		}
	return 1;
}

int main(void)
{
	/* a chain listed out of order, and a root of its own */
	const int64_t c1[] = { 161, 7, 159, 160 }, p1[] = { 160, -1, -1, 159 };
	const int64_t w1[] = { 159, 7, 159, 159 };
	/* an unknown parent ends the walk at the last known chat */
	const int64_t c2[] = { 5, 6 }, p2[] = { 99, 5 }, w2[] = { 5, 5 };
	/* a cycle: the first search ends where it meets itself; its chats are cached */
	const int64_t c3[] = { 900, 901 }, p3[] = { 901, 900 }, w3[] = { 900, 900 };
	/* a self link */
	const int64_t c4[] = { 3 }, p4[] = { 3 }, w4[] = { 3 };
	/* the last record of a chat id stands for it */
	const int64_t c5[] = { 1, 2, 1 }, p5[] = { -1, 1, 8 }, w5[] = { 1, 1, 1 };
	const int64_t c6[] = { 1, 2, 8, 1 }, p6[] = { -1, 1, -1, 8 }, w6[] = { 8, 8, 8, 8 };
	int64_t r[3];

	TEST("chain out of order", roots(c1, p1, 4, w1));
	TEST("unknown parent", roots(c2, p2, 2, w2));
	TEST("cycle", roots(c3, p3, 2, w3));
	TEST("self link", roots(c4, p4, 1, w4));
	TEST("unknown parent of a chat's last record", roots(c5, p5, 3, w5));
	TEST("a chat's last record moves its chain", roots(c6, p6, 4, w6));
	TEST("no records", bailian_roots(c1, p1, 0, 10, r) == 0);
	TEST("too many chats", bailian_roots(c1, p1, 4, 2, r) < 0);

	/* sessions: roots numbered by first appearance, from 1 */
	const int64_t c7[] = { 5, 9, 6, 7 }, p7[] = { -1, -1, 5, 9 };
	int64_t r7[4];
	size_t g7[4];

	TEST("sessions in order of first appearance",
	     bailian_group(c7, p7, 4, 10, r7, g7) == 0 && g7[0] == 1 && g7[1] == 2 &&
	     g7[2] == 1 && g7[3] == 2 && r7[2] == 5 && r7[3] == 9);
	TEST("too many chats for the sessions", bailian_group(c7, p7, 4, 2, r7, g7) == -1);
	return TEST_DONE();
}
