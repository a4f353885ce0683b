/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/media/hfmedia: PNG and JPEG decoded as PIL's convert("RGB"), the JPEG sent, WAV read and written, hostile bytes. */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "media/hfmedia.h"
#include "media/image.h"
#include "test.h"
#include "util.h"

static char err[1024];

struct mem {
	unsigned char *p;
	size_t n;
};

static void
mem_write(png_structp ps, png_bytep d, png_size_t n)
{
	struct mem *m = png_get_io_ptr(ps);

	m->p = xrealloc(m->p, m->n + n);
	memcpy(m->p + m->n, d, n);
	m->n += n;
}

static void
mem_flush(png_structp ps)
{
	(void)ps;
}

/* A w x h PNG of the color type and depth, its samples px (rows packed
 * as libpng takes them), with a palette and tRNS when given. */
static struct mem
png_make(int w, int h, int type, int depth, const unsigned char *px, size_t rowbytes,
	 const png_color *pal, int npal, const unsigned char *trns, int ntrns)
{
	struct mem m = { NULL, 0 };
	png_structp ps = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop pi = png_create_info_struct(ps);

	png_set_write_fn(ps, &m, mem_write, mem_flush);
	png_set_IHDR(ps, pi, (png_uint_32)w, (png_uint_32)h, depth, type,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	if (pal)
		png_set_PLTE(ps, pi, pal, npal);
	if (trns)
		png_set_tRNS(ps, pi, trns, ntrns, NULL);
	png_write_info(ps, pi);
	for (int y = 0; y < h; y++)
		png_write_row(ps, px + (size_t)y * rowbytes);
	png_write_end(ps, pi);
	png_destroy_write_struct(&ps, &pi);
	return m;
}

static int
pixels_are(const struct image *im, int w, int h, const unsigned char *rgb)
{
	return im->w == w && im->h == h && !memcmp(im->rgb, rgb, (size_t)w * h * 3);
}

static void
test_png(void)
{
	const unsigned char rgba[] = { 10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255 };
	const unsigned char want_rgba[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90 };
	const png_color pal[] = { { 255, 0, 0 }, { 0, 0, 255 } };
	const unsigned char idx[] = { 1, 0, 1 }, trns[] = { 0 };
	const unsigned char want_pal[] = { 0, 0, 255, 255, 0, 0, 0, 0, 255 };
	const unsigned char gray[] = { 0, 128, 255 }, want_gray[] = { 0, 0, 0, 128, 128, 128,
								    255, 255, 255 };
	const unsigned char ga[] = { 7, 0, 9, 99 }, want_ga[] = { 7, 7, 7, 9, 9, 9 };
	const unsigned char rgb16[] = { 0x12, 0x34, 0xAB, 0xCD, 0xFF, 0x01 };
	const unsigned char want16[] = { 0x12, 0xAB, 0xFF };
	const unsigned char bits1[] = { 0xA0 }, want1[] = { 255, 255, 255, 0, 0, 0,
							   255, 255, 255 };
	struct image im;
	struct mem m;

	m = png_make(3, 1, PNG_COLOR_TYPE_RGBA, 8, rgba, 12, NULL, 0, NULL, 0);
	TEST("png: RGBA: alpha dropped, not composited (PIL's convert)",
	     image_decode(m.p, m.n, &im, err, sizeof(err)) == 0 &&
	     pixels_are(&im, 3, 1, want_rgba));
	image_release(&im);
	m.n -= 20;
	TEST("png: truncated is BAD", image_decode(m.p, m.n, &im, err, sizeof(err)) ==
	     IMAGE_BAD && strstr(err, "PNG") && !im.rgb);
	free(m.p);
	m = png_make(3, 1, PNG_COLOR_TYPE_PALETTE, 8, idx, 3, pal, 2, trns, 1);
	TEST("png: palette with tRNS: the palette's colors",
	     image_decode(m.p, m.n, &im, err, sizeof(err)) == 0 &&
	     pixels_are(&im, 3, 1, want_pal));
	image_release(&im);
	free(m.p);
	m = png_make(3, 1, PNG_COLOR_TYPE_GRAY, 8, gray, 3, NULL, 0, NULL, 0);
	TEST("png: gray spread to RGB", image_decode(m.p, m.n, &im, err,
							   sizeof(err)) == 0 &&
	     pixels_are(&im, 3, 1, want_gray));
	image_release(&im);
	free(m.p);
	m = png_make(2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 8, ga, 4, NULL, 0, NULL, 0);
	TEST("png: gray+alpha", image_decode(m.p, m.n, &im, err, sizeof(err)) == 0 &&
	     pixels_are(&im, 2, 1, want_ga));
	image_release(&im);
	free(m.p);
	m = png_make(1, 1, PNG_COLOR_TYPE_RGB, 16, rgb16, 6, NULL, 0, NULL, 0);
	TEST("png: 16-bit: the high bytes", image_decode(m.p, m.n, &im, err,
							       sizeof(err)) == 0 &&
	     pixels_are(&im, 1, 1, want16));
	image_release(&im);
	free(m.p);
	m = png_make(3, 1, PNG_COLOR_TYPE_GRAY, 1, bits1, 1, NULL, 0, NULL, 0);
	TEST("png: 1-bit gray", image_decode(m.p, m.n, &im, err, sizeof(err)) == 0 &&
	     pixels_are(&im, 3, 1, want1));
	image_release(&im);
	/* IHDR says 100000 x 1: the size check before any pixel */
	m.p[16] = 0;
	m.p[17] = 1;
	m.p[18] = 0x86;
	m.p[19] = 0xA0;
	TEST("png: too wide (a bad CRC or the size check)",
	     image_decode(m.p, m.n, &im, err, sizeof(err)) == IMAGE_BAD);
	free(m.p);
}

/* The quality of the first DQT table entry and SOF0's sampling factors. */
static int
jpeg_shape(const unsigned char *p, size_t n, int *q0, int *sampling)
{
	*q0 = *sampling = -1;
	for (size_t i = 2; i + 4 < n;) {
		unsigned marker = p[i + 1], len = (unsigned)p[i + 2] << 8 | p[i + 3];

		if (marker == 0xDB && *q0 < 0)
			*q0 = p[i + 5];
		if (marker == 0xC0) {
			*sampling = p[i + 11] << 16 | p[i + 14] << 8 | p[i + 17];
			return 0;
		}
		i += 2 + len;
	}
	return -1;
}

static void
test_jpeg(void)
{
	struct image src = { 16, 8, NULL }, back;
	unsigned char *jpg;
	size_t n;
	int q0, sampling, worst = 0, status;
	char *url;

	src.rgb = xmalloc(16 * 8 * 3);
	for (int i = 0; i < 16 * 8 * 3; i++)
		src.rgb[i] = (unsigned char)(i % 3 == 0 ? 200 : i % 3 == 1 ? 100 : 30);
	jpg = image_encode(&src, IMAGE_JPEG, &n);
	TEST("jpeg: baseline, quality 85 (DQT[0] 5), 4:4:4",
	     jpeg_shape(jpg, n, &q0, &sampling) == 0 && q0 == 5 && sampling == 0x111111);
	TEST("jpeg: decodes", image_decode(jpg, n, &back, err, sizeof(err)) == 0 &&
	     back.w == 16 && back.h == 8);
	for (int i = 0; back.rgb && i < 16 * 8 * 3; i++) {
		int d = abs(back.rgb[i] - src.rgb[i]);

		worst = d > worst ? d : worst;
	}
	TEST("jpeg: a flat color comes back within 2", worst <= 2);
	image_release(&back);
	TEST("jpeg: truncated is BAD (PIL: image file is truncated)",
	     image_decode(jpg, n / 2, &back, err, sizeof(err)) == IMAGE_BAD &&
	     !back.rgb);
	TEST("jpeg: header only is BAD", image_decode(jpg, 4, &back, err,
							     sizeof(err)) == IMAGE_BAD);
	url = hfmedia_image_url(jpg, n, &status, err, sizeof(err));
	TEST("url: a JPEG data URL", url && status == 0 &&
	     !strncmp(url, "data:image/jpeg;base64,/9j/", 27));
	free(url);
	url = hfmedia_image_url((const unsigned char *)"GIF89a\1\0\1\0", 10, &status, err,
				sizeof(err));
	TEST("url: GIF is UNSUPPORTED", !url && status == IMAGE_UNSUPPORTED &&
	     strstr(err, "image/gif"));
	url = hfmedia_image_url((const unsigned char *)"hello", 5, &status, err, sizeof(err));
	TEST("url: text is BAD", !url && status == IMAGE_BAD && strstr(err, "not an image"));
	url = hfmedia_image_url(NULL, 0, &status, err, sizeof(err));
	TEST("url: nothing is BAD", !url && status == IMAGE_BAD);
	free(jpg);
	image_release(&src);
}

static void
put(unsigned char *p, unsigned v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A WAV of the tag, channels, rate, bits, with data d[0..n) (the data
 * chunk's size field says sz). */
static size_t
wav_make(unsigned char *out, unsigned tag, unsigned ch, unsigned rate, unsigned bits,
	 const void *d, size_t n, unsigned sz)
{
	memcpy(out, "RIFF\0\0\0\0WAVEfmt ", 16);
	put(out + 16, 16, 4);
	put(out + 20, tag, 2);
	put(out + 22, ch, 2);
	put(out + 24, rate, 4);
	put(out + 28, rate * ch * bits / 8, 4);
	put(out + 32, ch * bits / 8, 2);
	put(out + 34, bits, 2);
	memcpy(out + 36, "data", 4);
	put(out + 40, sz, 4);
	memcpy(out + 44, d, n);
	put(out + 4, (unsigned)(36 + n), 4);
	return 44 + n;
}

static void
test_wav(void)
{
	unsigned char w[256], *back;
	const unsigned char s24[] = { 0, 0, 0x80, 0xFF, 0xFF, 0x7F, 0x80, 0, 0, 0, 0x80, 0 };
	const unsigned char s8[] = { 0, 128, 255 };
	const float f[] = { 0.5f, -1.0f, 2.0f, -0.25f };
	const int16_t s16[] = { 1, -2, 32767, -32768 };
	struct hfmedia_pcm pcm;
	size_t n;

	n = wav_make(w, 1, 2, 8000, 24, s24, sizeof(s24), sizeof(s24));
	TEST("wav: 24-bit stereo: scaled by 0x8000, rounded half to even",
	     hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == 0 && pcm.channels == 2 &&
	     pcm.rate == 8000 && pcm.frames == 2 && pcm.s[0] == -32768 &&
	     pcm.s[1] == 32767 && pcm.s[2] == 0 && pcm.s[3] == 128);
	hfmedia_pcm_release(&pcm);
	n = wav_make(w, 1, 1, 1000, 8, s8, 3, 3);
	TEST("wav: 8-bit unsigned", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == 0 &&
	     pcm.frames == 3 && pcm.s[0] == -32768 && pcm.s[1] == 0 && pcm.s[2] == 32512);
	hfmedia_pcm_release(&pcm);
	n = wav_make(w, 3, 1, 16000, 32, f, sizeof(f), sizeof(f));
	TEST("wav: float, clipped", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == 0 &&
	     pcm.s[0] == 16384 && pcm.s[1] == -32768 && pcm.s[2] == 32767 &&
	     pcm.s[3] == -8192);
	hfmedia_pcm_release(&pcm);
	n = wav_make(w, 1, 1, 16000, 16, s16, sizeof(s16), 0xFFFFFFFF);
	TEST("wav: a data size past the end: what is there",
	     hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == 0 && pcm.frames == 4 &&
	     pcm.s[2] == 32767);
	back = hfmedia_wav_write(&pcm, &n);
	TEST("wav: written as a 44-byte header and PCM 16",
	     n == 52 && !memcmp(back, "RIFF", 4) && back[4] == 44 && back[20] == 1 &&
	     back[34] == 16 && !memcmp(back + 36, "data", 4) && back[40] == 8 &&
	     !memcmp(back + 44, s16, 8));
	hfmedia_pcm_release(&pcm);
	TEST("wav: read back", hfmedia_wav_read(back, n, &pcm, err, sizeof(err)) == 0 &&
	     pcm.frames == 4 && hfmedia_pcm_seconds(&pcm) == 4.0 / 16000);
	hfmedia_pcm_release(&pcm);
	free(back);
	n = wav_make(w, 1, 1, 16000, 16, s16, 3, 3);
	TEST("wav: an odd byte of data: whole frames only",
	     hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == 0 && pcm.frames == 1);
	hfmedia_pcm_release(&pcm);
	n = wav_make(w, 2, 1, 16000, 4, s16, 8, 8);
	TEST("wav: ADPCM: not read here (-2)", hfmedia_wav_read(w, n, &pcm, err,
							      sizeof(err)) == -2 &&
	     strstr(err, "0x0002"));
	n = wav_make(w, 1, 0, 16000, 16, s16, 8, 8);
	TEST("wav: no channels", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "out of bounds"));
	n = wav_make(w, 1, 1, 16000, 12, s16, 8, 8);
	TEST("wav: 12-bit", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == -1);
	n = wav_make(w, 1, 1, 16000, 16, s16, 8, 8);
	put(w + 32, 4, 2);
	TEST("wav: block align wrong", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "block align"));
	n = wav_make(w, 1, 1, 16000, 16, s16, 8, 8);
	TEST("wav: cut in fmt", hfmedia_wav_read(w, 30, &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "truncated"));
	TEST("wav: cut before data", hfmedia_wav_read(w, 38, &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "no data"));
	TEST("wav: not RIFF", hfmedia_wav_read((const unsigned char *)"RIFX", 4, &pcm, err,
					       sizeof(err)) == -1);
	memcpy(w + 12, "data", 4);
	TEST("wav: data before fmt", hfmedia_wav_read(w, n, &pcm, err, sizeof(err)) == -1);
}

static void
test_audio_decode(void)
{
	struct hfmedia_pcm pcm;

	TEST("audio: not WAV, no ffmpeg: the package named",
	     hfmedia_audio_decode((const unsigned char *)"fLaC\0\0\0\0", 8,
				  "/nonexistent/ffmpeg", &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "Debian package ffmpeg"));
	TEST("audio: a bad WAV is not given to ffmpeg",
	     hfmedia_audio_decode((const unsigned char *)"RIFF\4\0\0\0WAVE", 12,
				  "/nonexistent/ffmpeg", &pcm, err, sizeof(err)) == -1 &&
	     strstr(err, "no data"));
}

static void
test_video_mime(void)
{
	TEST_STR("mime: webm", hfmedia_video_mime("a/b.webm"), "video/webm");
	TEST_STR("mime: upper case", hfmedia_video_mime("B.MOV"), "video/quicktime");
	TEST_STR("mime: none", hfmedia_video_mime("noext"), "video/mp4");
	TEST_STR("mime: a dot in a folder", hfmedia_video_mime("a.webm/x"), "video/mp4");
	TEST_STR("mime: NULL", hfmedia_video_mime(NULL), "video/mp4");
	TEST_STR("mime: unknown", hfmedia_video_mime("x.abc"), "video/mp4");
}

int
main(void)
{
	test_png();
	test_jpeg();
	test_wav();
	test_audio_decode();
	test_video_mime();
	return TEST_DONE();
}
