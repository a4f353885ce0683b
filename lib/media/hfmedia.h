/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A hub dataset's media bytes as the original's HF loaders send them
 * (dataset/loader/base_hf_dataset.py, hf_asr.py): an image decoded (PNG,
 * JPEG) and sent as a JPEG data URL, audio as a 16-bit PCM WAV file at
 * its own rate and channels ("wav,<b64>"), a video as a data URL with the
 * type its path names. Nothing here prints or exits.
 */
#ifndef AIPERF_MEDIA_HFMEDIA_H
#define AIPERF_MEDIA_HFMEDIA_H

#include <stddef.h>
#include <stdint.h>

struct image;

/* p[0..n) as "data:image/jpeg;base64,...": image_decode() then
 * image_encode()'s JPEG (the original's encode_image). NULL with *status
 * (image_decode's) and err set when it cannot be. */
char *hfmedia_image_url(const unsigned char *p, size_t n, int *status,
			char *err, size_t errlen);

/* Audio as 16-bit samples, interleaved. */
struct hfmedia_pcm {
	int rate;		/* samples a second, per channel */
	int channels;
	size_t frames;
	int16_t *s;		/* frames * channels, owned */
};

#define HFMEDIA_MAX_CHANNELS 32
#define HFMEDIA_MAX_RATE 768000

/*
 * A RIFF WAVE file p[0..n) into *pcm: PCM 8, 16, 24 or 32-bit, IEEE float
 * 32 or 64-bit (plain or WAVE_FORMAT_EXTENSIBLE), as libsndfile reads it
 * to doubles and writes PCM_16 again (16-bit kept as is, the others
 * scaled by 0x8000, rounded, clipped). A data chunk longer than the file
 * is cut to what is there. Returns 0, -1 with the reason in err (not
 * RIFF/WAVE, no fmt or data, a format not listed, bounds), or -2 when it
 * is a WAVE file in a codec not read here (ADPCM, A-law ...).
 */
int hfmedia_wav_read(const unsigned char *p, size_t n, struct hfmedia_pcm *pcm,
		     char *err, size_t errlen);

/* pcm as a canonical 44-byte-header PCM 16-bit WAV file, malloc'd. */
unsigned char *hfmedia_wav_write(const struct hfmedia_pcm *pcm, size_t *n);

/*
 * Any audio file p[0..n) into *pcm: a WAV read here; anything else
 * (FLAC, MP3, Ogg, or a WAV codec not read here) decoded to 16-bit PCM
 * at its own rate and channels by the ffmpeg program (ffmpeg: the
 * program's name or path, NULL: "ffmpeg" from PATH), with a message
 * naming its Debian package when it is not installed. Returns 0, or -1
 * with the reason in err.
 */
int hfmedia_audio_decode(const unsigned char *p, size_t n, const char *ffmpeg,
			 struct hfmedia_pcm *pcm, char *err, size_t errlen);

/* Seconds of pcm: frames / rate. */
double hfmedia_pcm_seconds(const struct hfmedia_pcm *pcm);
void hfmedia_pcm_release(struct hfmedia_pcm *pcm);

/* The video media type Python's mimetypes.guess_type() gives path (by
 * its extension), "video/mp4" when none. Static. */
const char *hfmedia_video_mime(const char *path);

#endif
