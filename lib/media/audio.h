/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic audio as the original's AudioGenerator makes it: Gaussian
 * noise (mean 0, stddev 0.3, clipped to [-1, 1]) at a sample rate and bit
 * depth picked per file, written as a PCM WAV file (our own RIFF writer)
 * or an MP3 file (libmp3lame). Nothing here prints or exits.
 */
#ifndef AIPERF_MEDIA_AUDIO_H
#define AIPERF_MEDIA_AUDIO_H

#include <stddef.h>

#include "rand/rng.h"

enum audio_format { AUDIO_WAV, AUDIO_MP3 };

/* The bounds: one file holds at most this many seconds. */
#define AUDIO_MAX_SECONDS 3600.0
#define AUDIO_MIN_SECONDS 0.01

struct audio_params {
	enum audio_format format;
	int depth;		/* bits: 8, 16, 24 or 32 */
	int rate_hz;		/* samples a second (MP3: one of MPEG's rates) */
	int channels;		/* 1 or 2 */
	double seconds;		/* in [AUDIO_MIN_SECONDS, AUDIO_MAX_SECONDS] */
};

/* "wav" or "mp3" into *f: 0, or -1 for anything else. */
int audio_format_of(const char *name, enum audio_format *f);
const char *audio_format_name(enum audio_format f);
/* 0 when a's depth, rate, channels and length can be written, else -1
 * with the original's message (or ours for our bounds) in err. */
int audio_check(const struct audio_params *a, char *err, size_t errlen);
/* The file's bytes, its noise drawn from r: 0 with *out (the caller frees
 * it) and *outlen, or -1 with why in err (a's check, an encoder error). */
int audio_encode(const struct audio_params *a, struct rng *r,
		 unsigned char **out, size_t *outlen, char *err, size_t errlen);
/* The number of sample frames a file of a holds: int(seconds * rate). */
size_t audio_frames(const struct audio_params *a);

#endif
