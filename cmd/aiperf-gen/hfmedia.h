/* SPDX-License-Identifier: Apache-2.0 */
/* The hub's media datasets: base_hf_dataset.py's media extraction, and the hf_conversation, mmvu and hf_asr builders (hfpub.h's slots). */
#ifndef AIPERF_GEN_HFMEDIA_H
#define AIPERF_GEN_HFMEDIA_H

#include <stddef.h>

struct dataset;
struct gen_opts;
struct hfpub_ds;
struct json;
struct rows;
struct turn;

/*
 * A row's media column into t (base_hf_dataset.py's _extract_images,
 * _extract_videos, _extract_audio; the instruction/response builder
 * calls them for a dataset that names the column; a cell that holds no
 * media adds nothing; 0, or -1 with a message in err):
 * image: _extract_images: the cell, or each item of a list cell, in turn;
 *   the first that decodes (PNG, JPEG: lib/media/hfmedia.h) is t's one
 *   image, a JPEG data URL; an item that is not an image or is cut short
 *   is passed over (a warning, as the original skips it), a path-only
 *   item too; an image format not decoded here (GIF, WebP ...) fails.
 * video: _extract_videos: a string as a URL (file:// before a bare
 *   path), inline bytes as a data: URL of the type its path names.
 * audio: _extract_audio: {"array", "sampling_rate"} (a decoded cell) or
 *   inline bytes (hf_asr's form) as "wav,<b64>" of a 16-bit PCM WAV.
 * A {"src": URL} cell (the viewer's, in a --public-dataset-dir folder) is
 * fetched, unless the hub is off limits (an error then).
 * The audio and video strings are kept here until the process ends (the
 * turn's arrays point at them, as av.c's do).
 */
int hfmedia_image(struct turn *t, const struct json *row, const char *column,
		  char *err, size_t errlen);
int hfmedia_video(struct turn *t, const struct json *row, const char *column,
		  char *err, size_t errlen);
int hfmedia_audio(struct turn *t, const struct json *row, const char *column,
		  char *err, size_t errlen);

/* hfpub_build_fn's: hf_conversation.py (single turn: the first user
 * message and the image), mmvu.py (question and choices, the video),
 * hf_asr.py (a fixed prompt, clips of at most 30 s). */
int hfmedia_build_conversation(struct dataset *d, const struct gen_opts *o,
			       const struct hfpub_ds *ds, struct rows *rows,
			       char *err, size_t errlen);
int hfmedia_build_mmvu(struct dataset *d, const struct gen_opts *o,
		       const struct hfpub_ds *ds, struct rows *rows, char *err,
		       size_t errlen);
int hfmedia_build_asr(struct dataset *d, const struct gen_opts *o,
		      const struct hfpub_ds *ds, struct rows *rows, char *err,
		      size_t errlen);

/* The media columns of ds (NULL-terminated, static until the next call)
 * for rows_src.media, or NULL when it has none. */
const char *const *hfmedia_columns(const struct hfpub_ds *ds);

#endif
