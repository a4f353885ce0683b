/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-256 (FIPS 180-4), used to derive per-purpose seeds as the original does. */
#ifndef AIPERF_SHA256_H
#define AIPERF_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Caller-owned state; nothing is allocated. */
struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char block[64];
	size_t fill;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *p, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* One-shot digest of p[0..n). */
void sha256(const void *p, size_t n, unsigned char out[32]);

#endif
