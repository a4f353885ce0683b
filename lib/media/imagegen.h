/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic images as the original's ImageGenerator: source pictures (shipped, or a directory's) resized to sampled sizes, or noise, as data: URLs. */
#ifndef AIPERF_IMAGEGEN_H
#define AIPERF_IMAGEGEN_H

#include <stdint.h>

#include "rand/nprand.h"
#include "rand/rng.h"

/* --image-format: png, jpeg, random (a draw per image). */
enum imagegen_format { IMAGEGEN_PNG, IMAGEGEN_JPEG, IMAGEGEN_RANDOM };

/* --image-source-sampling: how a finite source pool is drawn from. */
enum imagegen_sampling {
	IMAGEGEN_RANDOM_WITH_REPLACEMENT, IMAGEGEN_SHUFFLE_CYCLE,
	IMAGEGEN_SEQUENTIAL_CYCLE
};

/* The most files a source directory may hold that are indexed. */
#define IMAGEGEN_DIR_MAX 100000
/* The decoded source pictures kept in memory, in bytes. */
#define IMAGEGEN_CACHE_MAX ((size_t)256 << 20)

struct imagegen_opts {
	double width_mean, width_stddev, height_mean, height_stddev;
	int format;		/* enum imagegen_format */
	/* --image-source: NULL or "assets" (the shipped pictures), "noise",
	 * or a directory */
	const char *source;
	int sampling;		/* enum imagegen_sampling */
};

struct image;
struct imagegen {
	struct imagegen_opts o;
	struct rng dims;	/* dataset.image.dimensions: width, then height */
	struct rng format;	/* dataset.image.format */
	struct rng source;	/* dataset.image.source: which source picture */
	struct nprand shuffle;	/* its numpy half: shuffle-cycle */
	struct nprand noise;	/* dataset.image.noise */
	int is_noise;
	char **paths;		/* the source pictures, sorted, nsrc */
	struct image *src;	/* each decoded when first drawn (kept while
				 * they fit IMAGEGEN_CACHE_MAX bytes) */
	size_t nsrc, cached;
	const char *dir;
	size_t *avail, navail;	/* indexes not retired as unreadable */
	size_t *cycle, ncycle;	/* shuffle-cycle: what this cycle has left */
	size_t next;		/* sequential-cycle: the next index */
	unsigned long long skipped;	/* unreadable files retired */
	char skip_why[512];		/* the last one's reason */
	unsigned long long made;
	unsigned long long bytes;	/* encoded bytes, before base64 */
};

/* The format named s, or -1. */
int imagegen_format_of(const char *s);
/* The sampling named s (random-with-replacement, shuffle-cycle,
 * sequential-cycle; '_' for '-' too), or -1. */
int imagegen_sampling_of(const char *s);
/* The original's checks of o's source and sampling: 0, or -1 with its
 * message in err (a directory that does not exist or is not one, one
 * without images, sampling other than random-with-replacement for noise). */
int imagegen_check(const struct imagegen_opts *o, char *err, size_t errlen);
/* Ready g for o: with the shipped pictures, load datadir/images/source-*.png
 * (sorted); with a directory, index its regular files named *.png, *.jpg,
 * *.jpeg, *.jpe or *.jfif (sorted, read when drawn); exits with a clear
 * message when there are none or the size options are out of bounds. */
void imagegen_init(struct imagegen *g, const struct imagegen_opts *o,
		   const char *dir, uint64_t root);
/* The next image as "data:image/<fmt>;base64,...", malloc'd; *w and *h
 * (may be NULL) get its size. A directory's file that cannot be read or
 * decoded is retired and another drawn (the original's
 * _retire_unreadable_source_image); exits when none is left. */
char *imagegen_next(struct imagegen *g, int *w, int *h);
void imagegen_release(struct imagegen *g);

#endif
