/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's cells from its parameters: grid or zip, labels and folder names as the original's. */
#ifndef AIPERF_SWEEP_H
#define AIPERF_SWEEP_H

#include <stddef.h>

/* One swept parameter: the original's dotted path and its values, each
 * the JSON text of a scalar (8, 5.0, "a"). */
struct sweep_dim {
	const char *path;
	char *const *val;
	size_t nval;
};

/* One cell: pick[i] is the index of dimension i's value. */
struct sweep_cell {
	size_t *pick;
	char *label;	/* "path=value, path=value" (the original's) */
	char *dir;	/* dir_name: leaf_value joined by "__", sanitized */
};

enum sweep_type { SWEEP_GRID, SWEEP_ZIP };

/*
 * The cells of n dimensions: grid, the Cartesian product with the first
 * dimension outermost; zip, lockstep (every dimension of one length).
 * Returns the number of cells (*out malloc'd, sweep_cells_free()), or 0
 * with a message in err (no dimension, an empty one, zip lengths that
 * differ, more than max cells).
 */
size_t sweep_cells(const struct sweep_dim *d, size_t n, enum sweep_type type, size_t max,
		   struct sweep_cell **out, char *err, size_t errlen);
void sweep_cells_free(struct sweep_cell *c, size_t n);

/* The original's _sanitize_dir_segment: '/', '\\', "..", and <>:"|?* removed;
 * an empty or all-dots result is "variation_INDEX". Malloc'd. */
char *sweep_dir_segment(const char *s, size_t index);

/* The name the aggregates show for dimension i: its path's last segment,
 * or the whole path when another dimension has the same last segment. */
const char *sweep_display_name(const struct sweep_dim *d, size_t n, size_t i);

/* The path's last segment. */
const char *sweep_leaf(const char *path);

#endif
