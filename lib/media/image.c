/* SPDX-License-Identifier: Apache-2.0 */
/* RGB images: PNG reading (libpng), bicubic resampling, PNG (libpng) and JPEG (libjpeg-turbo) encoding. */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>
#include <png.h>

#include "media/image.h"
#include "util.h"

const char *
image_size_check(long long w, long long h)
{
	if (w < 1 || h < 1)
		return "image width and height must be at least 1 pixel";
	if (w > IMAGE_SIDE_MAX || h > IMAGE_SIDE_MAX ||
	    (size_t)w * (size_t)h > IMAGE_PIXELS_MAX)
		return "image too large (at most 16384 pixels a side and "
		       "67108864 pixels in all)";
	return NULL;
}

int
image_read_png(const char *path, struct image *im, char *err, size_t errlen)
{
	png_image pi;
	const char *why;

	memset(&pi, 0, sizeof(pi));
	memset(im, 0, sizeof(*im));
	pi.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&pi, path)) {
		snprintf(err, errlen, "%s: %s", path, pi.message);
		return -1;
	}
	if ((why = image_size_check(pi.width, pi.height))) {
		png_image_free(&pi);
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	pi.format = PNG_FORMAT_RGB;
	im->w = (int)pi.width;
	im->h = (int)pi.height;
	im->rgb = xmalloc(PNG_IMAGE_SIZE(pi));
	if (!png_image_finish_read(&pi, NULL, im->rgb, 0, NULL)) {
		snprintf(err, errlen, "%s: %s", path, pi.message);
		image_release(im);
		return -1;
	}
	return 0;
}

static int
decode_png(const unsigned char *p, size_t n, const char *name, struct image *im,
	   char *err, size_t errlen)
{
	png_image pi;
	const char *why;

	memset(&pi, 0, sizeof(pi));
	pi.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&pi, p, n))
		return util_seterr(err, errlen, "'%s': %s", name, pi.message);
	if ((why = image_size_check(pi.width, pi.height))) {
		png_image_free(&pi);
		return util_seterr(err, errlen, "'%s': %s", name, why);
	}
	pi.format = PNG_FORMAT_RGB;
	im->w = (int)pi.width;
	im->h = (int)pi.height;
	im->rgb = xmalloc(PNG_IMAGE_SIZE(pi));
	if (!png_image_finish_read(&pi, NULL, im->rgb, 0, NULL)) {
		image_release(im);
		return util_seterr(err, errlen, "'%s': %s", name, pi.message);
	}
	return 0;
}

/* libjpeg's errors return here instead of exiting. */
struct jerr {
	struct jpeg_error_mgr mgr;
	jmp_buf back;
	char msg[JMSG_LENGTH_MAX];
};

static void
jpeg_fail(j_common_ptr c)
{
	struct jerr *e = (struct jerr *)c->err;

	e->mgr.format_message(c, e->msg);
	longjmp(e->back, 1);
}

static void
jpeg_quiet(j_common_ptr c, int level)
{
	(void)c;
	(void)level;
}

static int
decode_jpeg(const unsigned char *p, size_t n, const char *name, struct image *im,
	    char *err, size_t errlen)
{
	struct jpeg_decompress_struct d;
	struct jerr e;
	const char *why;

	d.err = jpeg_std_error(&e.mgr);
	e.mgr.error_exit = jpeg_fail;
	e.mgr.emit_message = jpeg_quiet;
	if (setjmp(e.back)) {
		jpeg_destroy_decompress(&d);
		image_release(im);
		return util_seterr(err, errlen, "'%s': %s", name, e.msg);
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, p, (unsigned long)n);
	jpeg_read_header(&d, TRUE);
	if ((why = image_size_check(d.image_width, d.image_height))) {
		jpeg_destroy_decompress(&d);
		return util_seterr(err, errlen, "'%s': %s", name, why);
	}
	d.out_color_space = JCS_RGB;
	jpeg_start_decompress(&d);
	if (d.output_components != 3) {
		jpeg_destroy_decompress(&d);
		return util_seterr(err, errlen, "'%s': not an RGB image", name);
	}
	im->w = (int)d.output_width;
	im->h = (int)d.output_height;
	im->rgb = xmalloc((size_t)im->w * (size_t)im->h * 3);
	while (d.output_scanline < d.output_height) {
		unsigned char *row = im->rgb + (size_t)d.output_scanline * (size_t)im->w * 3;

		jpeg_read_scanlines(&d, &row, 1);
	}
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	return 0;
}

int
image_decode(const unsigned char *p, size_t n, const char *name,
	     struct image *im, char *err, size_t errlen)
{
	memset(im, 0, sizeof(*im));
	if (n >= 8 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8))
		return decode_png(p, n, name, im, err, errlen);
	if (n >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return decode_jpeg(p, n, name, im, err, errlen);
	return util_seterr(err, errlen, "'%s': not a PNG or JPEG image", name);
}

int
image_read(const char *path, struct image *im, char *err, size_t errlen)
{
	size_t n;
	char *p;
	int rc;

	memset(im, 0, sizeof(*im));
	if (!(p = util_readfile(path, IMAGE_FILE_MAX, &n)))
		return util_seterr(err, errlen, "cannot read '%s': %s", path,
				   util_strerror(errno));
	rc = image_decode((const unsigned char *)p, n, path, im, err, errlen);
	free(p);
	return rc;
}

/* Keys' cubic convolution kernel, a = -0.5. */
static double
cubic(double x)
{
	const double a = -0.5;

	x = fabs(x);
	if (x < 1)
		return ((a + 2) * x - (a + 3)) * x * x + 1;
	if (x < 2)
		return (((x - 5) * x + 8) * x - 4) * a;
	return 0;
}

struct taps {
	int *first, *count;
	double *w;	/* count weights of output i at w[i * max] */
	int max;
};

/* The weights mapping in samples onto out samples. */
static void
taps_init(struct taps *t, int in, int out)
{
	double scale = (double)in / out, fs = scale < 1 ? 1 : scale;
	double support = 2 * fs;

	t->max = (int)ceil(support) * 2 + 1;
	t->first = xcalloc((size_t)out, sizeof(int));
	t->count = xcalloc((size_t)out, sizeof(int));
	t->w = xcalloc((size_t)out * (size_t)t->max, sizeof(double));
	for (int i = 0; i < out; i++) {
		double c = (i + 0.5) * scale, sum = 0;
		int lo = (int)floor(c - support + 0.5), hi = (int)floor(c + support + 0.5);
		double *w = t->w + (size_t)i * (size_t)t->max;

		if (lo < 0)
			lo = 0;
		if (hi > in)
			hi = in;
		if (hi - lo > t->max)
			hi = lo + t->max;
		for (int k = lo; k < hi; k++)
			sum += w[k - lo] = cubic((k - c + 0.5) / fs);
		if (sum != 0)
			for (int k = 0; k < hi - lo; k++)
				w[k] /= sum;
		t->first[i] = lo;
		t->count[i] = hi - lo;
	}
}

static void
taps_release(struct taps *t)
{
	free(t->first);
	free(t->count);
	free(t->w);
}

static unsigned char
clip8(double v)
{
	long r = lround(v);

	return (unsigned char)(r < 0 ? 0 : r > 255 ? 255 : r);
}

void
image_resize(const struct image *src, struct image *dst, int w, int h)
{
	struct taps tx, ty;
	unsigned char *mid = xmalloc((size_t)w * (size_t)src->h * 3);

	taps_init(&tx, src->w, w);
	taps_init(&ty, src->h, h);
	for (int y = 0; y < src->h; y++) {
		const unsigned char *row = src->rgb + (size_t)y * (size_t)src->w * 3;

		for (int x = 0; x < w; x++) {
			const double *wt = tx.w + (size_t)x * (size_t)tx.max;
			double acc[3] = { 0, 0, 0 };

			for (int k = 0; k < tx.count[x]; k++)
				for (int c = 0; c < 3; c++)
					acc[c] += wt[k] * row[(size_t)(tx.first[x] + k) * 3 + (size_t)c];
			for (int c = 0; c < 3; c++)
				mid[((size_t)y * (size_t)w + (size_t)x) * 3 + (size_t)c] = clip8(acc[c]);
		}
	}
	dst->w = w;
	dst->h = h;
	dst->rgb = xmalloc((size_t)w * (size_t)h * 3);
	for (int y = 0; y < h; y++) {
		const double *wt = ty.w + (size_t)y * (size_t)ty.max;

		for (size_t x = 0; x < (size_t)w * 3; x++) {
			double acc = 0;

			for (int k = 0; k < ty.count[y]; k++)
				acc += wt[k] * mid[(size_t)(ty.first[y] + k) * (size_t)w * 3 + x];
			dst->rgb[(size_t)y * (size_t)w * 3 + x] = clip8(acc);
		}
	}
	taps_release(&tx);
	taps_release(&ty);
	free(mid);
}

static unsigned char *
encode_png(const struct image *im, size_t *n)
{
	png_image pi;
	png_alloc_size_t size = 0;
	unsigned char *out;

	memset(&pi, 0, sizeof(pi));
	pi.version = PNG_IMAGE_VERSION;
	pi.width = (png_uint_32)im->w;
	pi.height = (png_uint_32)im->h;
	pi.format = PNG_FORMAT_RGB;
	if (!png_image_write_get_memory_size(pi, size, 0, im->rgb, 0, NULL))
		die("PNG encoding failed: %s", pi.message);
	out = xmalloc(size);
	if (!png_image_write_to_memory(&pi, out, &size, 0, im->rgb, 0, NULL))
		die("PNG encoding failed: %s", pi.message);
	*n = size;
	return out;
}

unsigned char *
image_jpeg(const struct image *im, int quality, int full_chroma, size_t *n)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	unsigned char *mem = NULL;
	unsigned long size = 0;

	c.err = jpeg_std_error(&e);	/* errors exit: only out of memory */
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &mem, &size);
	c.image_width = (JDIMENSION)im->w;
	c.image_height = (JDIMENSION)im->h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	for (int i = 0; full_chroma && i < c.num_components; i++)
		c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		JSAMPROW row = im->rgb + (size_t)c.next_scanline * (size_t)im->w * 3;

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	*n = size;
	return mem;
}

unsigned char *
image_encode(const struct image *im, enum image_format f, size_t *n)
{
	return f == IMAGE_JPEG ? image_jpeg(im, 85, 1, n) : encode_png(im, n);
}

const char *
image_mime(enum image_format f)
{
	return f == IMAGE_JPEG ? "image/jpeg" : "image/png";
}

void
image_release(struct image *im)
{
	free(im->rgb);
	memset(im, 0, sizeof(*im));
}
