/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic video as the original's VideoGenerator makes it: frames drawn
 * here (raw RGB24: moving_shapes or grid_clock), encoded by the ffmpeg
 * program run as a subprocess with the asked codec, container, size and
 * frame rate (pix_fmt yuv420p; mp4 with +faststart). Nothing here prints
 * or exits; the frames are the same for the same parameters.
 */
#ifndef AIPERF_MEDIA_VIDEO_H
#define AIPERF_MEDIA_VIDEO_H

#include <stddef.h>

#include "rand/nprand.h"

enum video_synth { VIDEO_MOVING_SHAPES, VIDEO_GRID_CLOCK, VIDEO_NOISE };

/* The bounds on what one video may ask for. */
#define VIDEO_MAX_SIDE 8192
#define VIDEO_MAX_FPS 240
#define VIDEO_MAX_SECONDS 3600.0
#define VIDEO_MAX_RAW_BYTES ((double)(16LL << 30))	/* all frames, RGB24 */

struct video_params {
	int width, height;	/* pixels, 1 .. VIDEO_MAX_SIDE */
	int fps;		/* 1 .. VIDEO_MAX_FPS */
	double seconds;		/* frames: int(seconds * fps), at least 1 */
	enum video_synth synth;
	const char *format;	/* "mp4" or "webm" */
	const char *codec;	/* an ffmpeg encoder name: "libvpx-vp9" */
	const char *ffmpeg;	/* the program; NULL: "ffmpeg" from PATH */
	/* noise: the generator its frames are drawn from, in frame order
	 * (the original's dataset.video.noise; borrowed, advanced) */
	struct nprand *noise;
};

/* "moving_shapes", "grid_clock" or "noise" into *s: 0, or -1. */
int video_synth_of(const char *name, enum video_synth *s);
/* The number of frames: int(seconds * fps). */
long video_frames(const struct video_params *v);
/* 0 when v is within the bounds and its format is mp4 or webm, else -1
 * with why in err. */
int video_check(const struct video_params *v, char *err, size_t errlen);
/* Frame i of v (width * height * 3 bytes, RGB) into px; noise frames are
 * the next draws of v->noise (numpy's integers(0, 256, (h, w, 3), uint8):
 * each frame fresh 32-bit draws, their bytes low first). */
void video_draw(const struct video_params *v, long i, unsigned char *px);
/* The encoded file: 0 with *out (the caller frees it) and *outlen, or -1
 * with why in err (v's check, ffmpeg missing (naming its Debian package),
 * ffmpeg failing (its last message line)). */
int video_encode(const struct video_params *v, unsigned char **out,
		 size_t *outlen, char *err, size_t errlen);

#endif
