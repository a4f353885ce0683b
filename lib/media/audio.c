/* SPDX-License-Identifier: Apache-2.0 */
#include "media/audio.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <lame/lame.h>

#include "buf.h"
#include "util.h"

static const int mp3_rates[] = {
	8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000,
};

int
audio_format_of(const char *name, enum audio_format *f)
{
	if (!strcmp(name, "wav"))
		*f = AUDIO_WAV;
	else if (!strcmp(name, "mp3"))
		*f = AUDIO_MP3;
	else
		return -1;
	return 0;
}

const char *
audio_format_name(enum audio_format f)
{
	return f == AUDIO_MP3 ? "mp3" : "wav";
}

static int
mp3_rate(int hz)
{
	for (size_t i = 0; i < sizeof(mp3_rates) / sizeof(*mp3_rates); i++)
		if (mp3_rates[i] == hz)
			return 1;
	return 0;
}

int
audio_check(const struct audio_params *a, char *err, size_t errlen)
{
	if (a->channels != 1 && a->channels != 2)
		return util_seterr(err, errlen,
				   "Only mono (1) and stereo (2) channels are supported");
	if (a->depth != 8 && a->depth != 16 && a->depth != 24 && a->depth != 32)
		return util_seterr(err, errlen, "Unsupported bit depth: %d. "
				   "Supported bit depths are: [8, 16, 24, 32]", a->depth);
	if (a->format == AUDIO_MP3 && !mp3_rate(a->rate_hz))
		return util_seterr(err, errlen, "MP3 format only supports the "
				   "following sample rates (in Hz): [8000, 11025, "
				   "12000, 16000, 22050, 24000, 32000, 44100, 48000]. "
				   "Got %d Hz. Please choose a supported rate from the "
				   "list.", a->rate_hz);
	if (a->rate_hz < 1 || a->rate_hz > 768000)
		return util_seterr(err, errlen, "sample rate %d Hz is out of range "
				   "(1 Hz to 768 kHz)", a->rate_hz);
	if (!(a->seconds >= AUDIO_MIN_SECONDS && a->seconds <= AUDIO_MAX_SECONDS))
		return util_seterr(err, errlen, "audio length %g s is out of range "
				   "(%g s to %g s)", a->seconds, AUDIO_MIN_SECONDS,
				   AUDIO_MAX_SECONDS);
	return 0;
}

size_t
audio_frames(const struct audio_params *a)
{
	return (size_t)(a->seconds * a->rate_hz);
}

/* One sample: N(0, 0.3) clipped to [-1, 1]. */
static double
noise(struct rng *r)
{
	double v = rng_gauss(r, 0, 0.3);

	return v < -1 ? -1 : v > 1 ? 1 : v;
}

static void
put_le(unsigned char *p, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* RIFF/WAVE, one fmt chunk (PCM), one data chunk; 8-bit PCM is unsigned
 * (offset 128) as WAV has it, wider depths signed little-endian. */
static int
wav_encode(const struct audio_params *a, struct rng *r, unsigned char **out,
	   size_t *outlen, char *err, size_t errlen)
{
	size_t frames = audio_frames(a), bps = (size_t)a->depth / 8;
	size_t data = frames * (size_t)a->channels * bps;
	double max = ldexp(1, a->depth - 1) - 1;
	unsigned char *p;

	if (data > UINT32_MAX - 36)
		return util_seterr(err, errlen, "audio of %g s at %d Hz is too "
				   "large for a WAV file", a->seconds, a->rate_hz);
	p = xmalloc(44 + data);
	memcpy(p, "RIFF", 4);
	put_le(p + 4, (uint32_t)(36 + data), 4);
	memcpy(p + 8, "WAVEfmt ", 8);
	put_le(p + 16, 16, 4);
	put_le(p + 20, 1, 2);	/* PCM */
	put_le(p + 22, (uint32_t)a->channels, 2);
	put_le(p + 24, (uint32_t)a->rate_hz, 4);
	put_le(p + 28, (uint32_t)((size_t)a->rate_hz * a->channels * bps), 4);
	put_le(p + 32, (uint32_t)(a->channels * bps), 2);
	put_le(p + 34, (uint32_t)a->depth, 2);
	memcpy(p + 36, "data", 4);
	put_le(p + 40, (uint32_t)data, 4);
	for (size_t i = 0; i < frames * (size_t)a->channels; i++) {
		long v = (long)(noise(r) * max);	/* truncates as astype() */

		if (a->depth == 8)
			v += 128;
		put_le(p + 44 + i * bps, (uint32_t)v, (int)bps);
	}
	*out = p;
	*outlen = 44 + data;
	return 0;
}

/* The noise as 16-bit PCM (interleaved), through LAME at the file's own
 * rate, without ID3 tags (the same seed gives the same bytes), with the
 * LAME tag that lets decoders trim the encoder's delay and padding. */
static int
mp3_encode(const struct audio_params *a, struct rng *r, unsigned char **out,
	   size_t *outlen, char *err, size_t errlen)
{
	enum { CHUNK = 4096 };
	size_t frames = audio_frames(a);
	short pcm[CHUNK * 2];
	unsigned char mp3[CHUNK * 5 / 4 + 7200];
	struct buf b = BUF_INIT(BUF_NOMAX);
	lame_global_flags *gf = lame_init();
	int n, rc = -1;

	if (!gf)
		return util_seterr(err, errlen, "lame_init failed");
	lame_set_in_samplerate(gf, a->rate_hz);
	lame_set_out_samplerate(gf, a->rate_hz);
	lame_set_num_channels(gf, a->channels);
	lame_set_mode(gf, a->channels == 1 ? MONO : JOINT_STEREO);
	lame_set_write_id3tag_automatic(gf, 0);
	lame_set_bWriteVbrTag(gf, 1);	/* the gapless length, for decoders */
	lame_set_quality(gf, 5);
	/* CBR wide enough at every rate for the LAME tag to fit a frame */
	lame_set_brate(gf, a->rate_hz >= 32000 ? 128 : 64);
	if (lame_init_params(gf) < 0) {
		util_seterr(err, errlen, "LAME refused %d Hz, %d channel(s)",
			    a->rate_hz, a->channels);
		goto out;
	}
	for (size_t done = 0; done < frames;) {
		size_t k = frames - done < CHUNK ? frames - done : CHUNK;

		for (size_t i = 0; i < k * (size_t)a->channels; i++)
			pcm[i] = (short)(noise(r) * 32767);
		n = a->channels == 1 ?
			lame_encode_buffer(gf, pcm, pcm, (int)k, mp3, sizeof(mp3)) :
			lame_encode_buffer_interleaved(gf, pcm, (int)k, mp3, sizeof(mp3));
		if (n < 0) {
			util_seterr(err, errlen, "LAME encoding failed (%d)", n);
			goto out;
		}
		buf_add(&b, mp3, (size_t)n);
		done += k;
	}
	n = lame_encode_flush(gf, mp3, sizeof(mp3));
	if (n < 0) {
		util_seterr(err, errlen, "LAME flush failed (%d)", n);
		goto out;
	}
	buf_add(&b, mp3, (size_t)n);
	/* the LAME tag frame (frames, encoder delay, padding) over the
	 * placeholder LAME wrote first */
	n = (int)lame_get_lametag_frame(gf, mp3, sizeof(mp3));
	if (n > 0 && (size_t)n <= b.len)
		memcpy(b.s, mp3, (size_t)n);
	*out = (unsigned char *)buf_detach(&b, outlen);
	rc = 0;
out:
	if (rc)
		buf_release(&b);
	lame_close(gf);
	return rc;
}

int
audio_encode(const struct audio_params *a, struct rng *r, unsigned char **out,
	     size_t *outlen, char *err, size_t errlen)
{
	if (audio_check(a, err, errlen))
		return -1;
	if (a->format == AUDIO_MP3)
		return mp3_encode(a, r, out, outlen, err, errlen);
	return wav_encode(a, r, out, outlen, err, errlen);
}
