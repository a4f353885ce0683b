/* SPDX-License-Identifier: Apache-2.0 */
/* video_generation: one record's job (submit, polls, download) on its struct xfer. */
#ifndef AIPERF_VJOB_H
#define AIPERF_VJOB_H

#include "xfer.h"

/* x is a video_generation record: its payload's fields become the submit's
 * multipart form (x->body for now); -1 with *why set when they cannot. */
int vjob_new(struct xfer *x, const struct json *payload, char *why, size_t whylen);
void vjob_free(struct vjob *j);
/* The request is a GET (poll or download), not the submit. */
int vjob_get(const struct xfer *x);
/* The submit's Content-Type header line, or NULL for a GET. */
const char *vjob_ctype(const struct xfer *x);
/* The record's payload: the JSON the form was made of. */
const char *vjob_json(const struct xfer *x, size_t *n);
/* Content bytes while downloading: counted, not kept (1); else 0. */
int vjob_sink(struct xfer *x, size_t n);
/*
 * One transaction of x ended with rc (sender_finish): 1 when the job goes
 * on (x stays in flight: next poll now or later, or the download), 0 when
 * its record is due, the payload and the submit's stamps given back.
 */
int vjob_step(struct sender *s, struct xfer *x, CURLcode rc);
/* The raw record's aiperf.video object: job id, polls, content bytes. */
void vjob_write(struct jw *w, const struct xfer *x);
void vjob_release(struct sender *s);

#endif
