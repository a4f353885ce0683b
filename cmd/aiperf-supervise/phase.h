/* SPDX-License-Identifier: Apache-2.0 */
/* The coordinator of several senders' phase barrier and of the scrapers' cue (lib/cue), on the supervisor's loop. */
#ifndef AIPERF_SUPERVISE_PHASE_H
#define AIPERF_SUPERVISE_PHASE_H

struct evloop;
struct plan;
struct phase;

/*
 * The coordinator of plan p's phase barrier (p->nsenders > 1, p->phase_cue
 * set; the FIFOs exist already: the core makes every FIFO of the plan
 * before it starts anything). Opens p->phase_cue and each sender's
 * phase_ack read-write (never blocking), watches them on l. At each
 * barrier (warmup, then profiling) once every sender cued it, it cues the
 * scrapers (before profiling: every p->scrapers[i].cue, acknowledgements
 * on p->scrape_ack, 2 s at most, as scrape_cue_all) and sends each
 * sender its "go". Logs as phase_coordinator does (lib/runlog). NULL, with
 * a warning printed, when a FIFO cannot be opened.
 *
 * Call it before the senders start (it needs nothing of theirs): a
 * sender that cues before p->phase_cue has a reader finds none and
 * starts its phases unsynchronized (aiperf-send(1)). The struct copies
 * what it needs of p; l must outlive it.
 */
struct phase *phase_open(struct evloop *l, const struct plan *p);
/* The senders have ended (or the run is stopping): stop watching, close
 * every descriptor, free. NULL is a no-op. */
void phase_close(struct phase *ph);

#endif
