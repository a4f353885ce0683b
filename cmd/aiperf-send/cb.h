/* SPDX-License-Identifier: Apache-2.0 */
/* libcurl callbacks for one transfer: body bytes, header lines and SSE messages. */
#ifndef AIPERF_CB_H
#define AIPERF_CB_H

#include <stddef.h>
#include "http/sse.h"

/* userdata is the struct xfer; they return what libcurl expects. */
size_t cb_write(char *p, size_t size, size_t n, void *userdata);
size_t cb_header(char *p, size_t size, size_t n, void *userdata);
/* CURLOPT_PREREQFUNCTION: the request is about to go out; stamps it. */
int cb_prereq(void *clientp, char *ip, char *local_ip, int port, int local_port);
/* SSE message callback (an sse_fn), with the xfer as ctx. */
int cb_sse(void *ctx, const struct sse_msg *m);
/* Append the first "aiperf_send_ns": N of d[0..n) (a chunk or body the
 * server stamped) to the transfer's server_stamps; 0, or -1 after
 * xfer_nomem(). */
struct xfer;
int cb_stamp(struct xfer *x, const char *d, size_t n);

#endif
