/* SPDX-License-Identifier: Apache-2.0 */
/* RGB images: PNG reading (libpng), bicubic resampling, PNG (libpng) and JPEG (libjpeg-turbo) encoding. */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

#include "media/dataurl.h"
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

/* ---- PNG ---- */

struct png_mem {
	const unsigned char *p;
	size_t n, off;
	char msg[200];
};

static void
png_read_mem(png_structp ps, png_bytep out, png_size_t n)
{
	struct png_mem *m = png_get_io_ptr(ps);

	if (n > m->n - m->off)
		png_error(ps, "image file is truncated");
	memcpy(out, m->p + m->off, n);
	m->off += n;
}

static void
png_on_error(png_structp ps, png_const_charp msg)
{
	struct png_mem *m = png_get_error_ptr(ps);

	snprintf(m->msg, sizeof(m->msg), "%s", msg);
	png_longjmp(ps, 1);
}

static void
png_on_warning(png_structp ps, png_const_charp msg)
{
	(void)ps;
	(void)msg;
}

/* The transformations that give PIL's convert("RGB"). */
static void
png_to_rgb(png_structp ps, png_infop pi)
{
	int type = png_get_color_type(ps, pi);

	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(ps);
	if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(ps, pi) < 8)
		png_set_expand_gray_1_2_4_to_8(ps);
	if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(ps);
	/* a palette's tRNS becomes alpha when expanded */
	if ((type & PNG_COLOR_MASK_ALPHA) ||
	    (type == PNG_COLOR_TYPE_PALETTE && png_get_valid(ps, pi, PNG_INFO_tRNS)))
		png_set_strip_alpha(ps);
	png_set_strip_16(ps);
	png_set_interlace_handling(ps);
	png_read_update_info(ps, pi);
}

static int
decode_png(const unsigned char *p, size_t n, struct image *im, char *err,
	   size_t errlen)
{
	struct png_mem m = { p, n, 0, "" };
	png_structp ps = png_create_read_struct(PNG_LIBPNG_VER_STRING, &m,
						png_on_error, png_on_warning);
	png_infop pi = ps ? png_create_info_struct(ps) : NULL;
	png_bytep *volatile rows = NULL;
	const char *why;

	if (!pi) {
		png_destroy_read_struct(&ps, NULL, NULL);
		return util_seterr(err, errlen, "libpng failed to start");
	}
	if (setjmp(png_jmpbuf(ps))) {
		free(rows);
		image_release(im);
		png_destroy_read_struct(&ps, &pi, NULL);
		util_seterr(err, errlen, "not a valid PNG image: %s", m.msg);
		return IMAGE_BAD;
	}
	png_set_read_fn(ps, &m, png_read_mem);
	png_read_info(ps, pi);
	if ((why = image_size_check(png_get_image_width(ps, pi),
				    png_get_image_height(ps, pi))))
		png_error(ps, why);
	png_to_rgb(ps, pi);
	if (png_get_rowbytes(ps, pi) != (size_t)png_get_image_width(ps, pi) * 3)
		png_error(ps, "unexpected row size");
	im->w = (int)png_get_image_width(ps, pi);
	im->h = (int)png_get_image_height(ps, pi);
	im->rgb = xmalloc((size_t)im->w * (size_t)im->h * 3);
	rows = xcalloc((size_t)im->h, sizeof(*rows));
	for (int y = 0; y < im->h; y++)
		rows[y] = im->rgb + (size_t)y * (size_t)im->w * 3;
	png_read_image(ps, rows);
	png_read_end(ps, NULL);
	free(rows);
	png_destroy_read_struct(&ps, &pi, NULL);
	return 0;
}

/* ---- JPEG ---- */

struct jpeg_fail {
	struct jpeg_error_mgr pub;
	jmp_buf jb;
	char msg[JMSG_LENGTH_MAX];
};

static void
jpeg_on_error(j_common_ptr c)
{
	struct jpeg_fail *f = (struct jpeg_fail *)c->err;

	(*c->err->format_message)(c, f->msg);
	longjmp(f->jb, 1);
}

/* A warning (corrupt data, premature end) fails the image, as PIL's
 * load() does for a truncated file. */
static void
jpeg_on_message(j_common_ptr c, int level)
{
	if (level < 0)
		jpeg_on_error(c);
}

static int
decode_jpeg(const unsigned char *p, size_t n, struct image *im, char *err,
	    size_t errlen)
{
	struct jpeg_decompress_struct d;
	struct jpeg_fail f;
	const char *why;

	d.err = jpeg_std_error(&f.pub);
	f.pub.error_exit = jpeg_on_error;
	f.pub.emit_message = jpeg_on_message;
	if (setjmp(f.jb)) {
		jpeg_destroy_decompress(&d);
		image_release(im);
		util_seterr(err, errlen, "not a valid JPEG image: %s", f.msg);
		return IMAGE_BAD;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, p, (unsigned long)n);
	jpeg_read_header(&d, TRUE);
	if (d.jpeg_color_space == JCS_CMYK || d.jpeg_color_space == JCS_YCCK) {
		jpeg_destroy_decompress(&d);
		util_seterr(err, errlen, "a CMYK JPEG image is not decoded here");
		return IMAGE_UNSUPPORTED;
	}
	if ((why = image_size_check(d.image_width, d.image_height))) {
		jpeg_destroy_decompress(&d);
		util_seterr(err, errlen, "%s", why);
		return IMAGE_BAD;
	}
	d.out_color_space = JCS_RGB;
	jpeg_start_decompress(&d);
	im->w = (int)d.output_width;
	im->h = (int)d.output_height;
	im->rgb = xmalloc((size_t)im->w * (size_t)im->h * 3);
	while (d.output_scanline < d.output_height) {
		JSAMPROW row = im->rgb + (size_t)d.output_scanline * (size_t)im->w * 3;

		jpeg_read_scanlines(&d, &row, 1);
	}
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	return 0;
}

int
image_decode(const unsigned char *p, size_t n, struct image *im, char *err,
	     size_t errlen)
{
	const char *mime = dataurl_image_mime(p, n);

	memset(im, 0, sizeof(*im));
	if (!mime) {
		util_seterr(err, errlen, "not an image (neither PNG, JPEG, GIF, "
			    "WebP, BMP nor TIFF)");
		return IMAGE_BAD;
	}
	if (!strcmp(mime, "image/png"))
		return decode_png(p, n, im, err, errlen);
	if (!strcmp(mime, "image/jpeg"))
		return decode_jpeg(p, n, im, err, errlen);
	util_seterr(err, errlen, "a '%s' image is not decoded here (PNG and JPEG are)",
		    mime);
	return IMAGE_UNSUPPORTED;
}

int
image_read(const char *path, struct image *im, char *err, size_t errlen)
{
	char msg[256], *p;
	size_t n;
	int rc;

	memset(im, 0, sizeof(*im));
	if (!(p = util_readfile(path, IMAGE_FILE_MAX, &n)))
		return util_seterr(err, errlen, "cannot read '%s': %s", path,
				   util_strerror(errno));
	if ((rc = image_decode((const unsigned char *)p, n, im, msg, sizeof(msg))) < 0)
		util_seterr(err, errlen, "'%s': %s", path, msg);
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
