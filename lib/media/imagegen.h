/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic images as the original's ImageGenerator: shipped source pictures resized to sampled sizes, as data: URLs. */
#ifndef AIPERF_IMAGEGEN_H
#define AIPERF_IMAGEGEN_H

#include <stdint.h>

#include "rand/rng.h"

/* --image-format: png, jpeg, random (a draw per image). */
enum imagegen_format { IMAGEGEN_PNG, IMAGEGEN_JPEG, IMAGEGEN_RANDOM };

struct imagegen_opts {
	double width_mean, width_stddev, height_mean, height_stddev;
	int format;		/* enum imagegen_format */
};

struct image;
struct imagegen {
	struct imagegen_opts o;
	struct rng dims;	/* dataset.image.dimensions: width, then height */
	struct rng format;	/* dataset.image.format */
	struct rng source;	/* dataset.image.source: which source picture */
	struct image *src;
	size_t nsrc;
	unsigned long long made;
	unsigned long long bytes;	/* encoded bytes, before base64 */
};

/* The format named s, or -1. */
int imagegen_format_of(const char *s);
/* Load the source pictures dir/source-*.png (sorted); exits with a clear
 * message when there are none or the size options are out of bounds. */
void imagegen_init(struct imagegen *g, const struct imagegen_opts *o,
		   const char *dir, uint64_t root);
/* The next image as "data:image/<fmt>;base64,...", malloc'd; *w and *h
 * (may be NULL) get its size. */
char *imagegen_next(struct imagegen *g, int *w, int *h);
void imagegen_release(struct imagegen *g);

#endif
