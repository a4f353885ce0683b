/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/bailian (the roots of chat chains). */
#include "test.h"
#include "dataset/bailian.h"

#include <stdint.h>
#include <stdlib.h>

/* The original's find_root() as it reads, quadratic: the last record of
 * a chat (-1: none). */
static long last_of(const int64_t *chat, size_t n, int64_t c)
{
	for (size_t i = n; i-- > 0;)
		if (chat[i] == c)
			return (long)i;
	return -1;
}

static void ref_roots(const int64_t *chat, const int64_t *parent, size_t n,
		      int64_t *root)
{
	int64_t *cc = calloc(n + 1, sizeof(*cc)), *cv = calloc(n + 1, sizeof(*cv));
	int64_t *path = calloc(n + 1, sizeof(*path));
	size_t nc = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t cur = chat[i];
		size_t np = 0, k;
		long p;

		for (k = 0; k < nc && cc[k] != cur; k++)
			;
		if (k < nc) {
			root[i] = cv[k];
			continue;
		}
		while ((p = last_of(chat, n, cur)) >= 0 && parent[p] != -1) {
			int64_t up = parent[p];
			size_t j;

			for (j = 0; j < np && path[j] != cur; j++)
				;
			if (j < np || up == cur || last_of(chat, n, up) < 0)
				break;
			path[np++] = cur;
			cur = up;
		}
		path[np++] = chat[i];
		for (size_t j = 0; j < np; j++) {
			for (k = 0; k < nc && cc[k] != path[j]; k++)
				;
			if (k == nc)
				cc[nc++] = path[j];
			cv[k] = cur;
		}
		root[i] = cur;
	}
	free(cc);
	free(cv);
	free(path);
}

/* Random small graphs, full of rings, shared tails, self links, unknown
 * parents and repeated chats: the same roots as the original. */
static int same_as_original(unsigned seed, size_t n)
{
	int64_t chat[64], parent[64], got[64], want[64];
	int ok = 1;

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		chat[i] = rand() % 24;
		parent[i] = rand() % 5 == 0 ? -1 : rand() % 28;
	}
	ref_roots(chat, parent, n, want);
	if (bailian_roots(chat, parent, n, 1000, got) < 0)
		return 0;
	for (size_t i = 0; i < n && ok; i++)
		if (got[i] != want[i]) {
			printf("#   seed %u record %zu: root %lld, want %lld\n", seed,
			       i, (long long)got[i], (long long)want[i]);
			ok = 0;
		}
	return ok;
}

/* One session of n chained turns, listed leaf first or root first, with
 * maps of at most n entries: the original held a walk's every chat per
 * search, n^2/2 entries. */
static int long_chain(size_t n, int leaf_first)
{
	int64_t *chat = calloc(n, sizeof(*chat)), *parent = calloc(n, sizeof(*parent));
	int64_t *root = calloc(n, sizeof(*root));
	int ok;

	for (size_t i = 0; i < n; i++) {
		size_t c = leaf_first ? n - 1 - i : i;

		chat[i] = (int64_t)c;
		parent[i] = (int64_t)c - 1;
	}
	ok = bailian_roots(chat, parent, n, n, root) == 0;
	for (size_t i = 0; i < n && ok; i++)
		ok = root[i] == 0;
	free(chat);
	free(parent);
	free(root);
	return ok;
}

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

	/* a ring entered from outside: the walk ends at the entry, and the
	 * ring's chats answer with the last entry a walk came in by */
	const int64_t c8[] = { 10, 11, 12, 20, 30, 11, 12, 10 };
	const int64_t p8[] = { 11, 12, 10, 11, 12, 12, 10, 11 };
	const int64_t w8[] = { 10, 10, 10, 11, 12, 12, 12, 12 };

	TEST("a ring entered twice", roots(c8, p8, 8, w8));
	unsigned seed = 1;

	while (seed <= 2000 && same_as_original(seed, 1 + seed % 64))
		seed++;
	TEST("random graphs: the original's roots", seed > 2000);
	TEST("100000 chained turns, root first, n map entries", long_chain(100000, 0));
	TEST("100000 chained turns, leaf first, n map entries", long_chain(100000, 1));

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
