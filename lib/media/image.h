/* SPDX-License-Identifier: Apache-2.0 */
/* RGB images: PNG and JPEG decoding, bicubic resampling, PNG (libpng) and JPEG (libjpeg-turbo) encoding. */
#ifndef AIPERF_IMAGE_H
#define AIPERF_IMAGE_H

#include <stddef.h>

/* The largest side and pixel count accepted (a 16384x16384 RGB image is
 * 768 MiB before encoding). */
#define IMAGE_SIDE_MAX 16384
#define IMAGE_PIXELS_MAX ((size_t)64 << 20)

enum image_format { IMAGE_PNG, IMAGE_JPEG };

/* 8-bit RGB, rows top to bottom, 3 * w bytes each. */
struct image {
	int w, h;
	unsigned char *rgb;
};

/* NULL when w x h is within the limits, else the reason. */
const char *image_size_check(long long w, long long h);
/* The largest image file image_read() reads. */
#define IMAGE_FILE_MAX ((size_t)64 << 20)
/* Read the PNG or JPEG file path (told apart by its first bytes) as RGB:
 * it must be a regular file of at most IMAGE_FILE_MAX bytes and its
 * pixels within the limits; 0, or -1 with the reason in err. */
int image_read(const char *path, struct image *im, char *err, size_t errlen);
/* What image_decode() found the bytes to be, when not an image it decoded. */
#define IMAGE_BAD (-1)		/* not an image, truncated, corrupt */
#define IMAGE_UNSUPPORTED (-2)	/* an image format not decoded here (GIF ...) */
/*
 * p[0..n) decoded into *im as PIL's Image.convert("RGB") gives it: a
 * PNG's palette expanded, gray spread to the three channels, alpha (and
 * tRNS) dropped, 16-bit samples cut to their high byte; a JPEG decoded by
 * libjpeg-turbo with its defaults (islow DCT, fancy upsampling), as PIL
 * does. A JPEG that ends early is IMAGE_BAD (PIL: "image file is
 * truncated"). Returns 0, or IMAGE_BAD or IMAGE_UNSUPPORTED with the
 * reason in err.
 */
int image_decode(const unsigned char *p, size_t n, struct image *im, char *err,
		 size_t errlen);
/* dst = src resampled to w x h with a bicubic filter (a = -0.5) widened
 * by the scale factor when shrinking, so it averages the area it covers. */
void image_resize(const struct image *src, struct image *dst, int w, int h);
/* The encoded file, as the original's encode_image saves it: PNG, or JPEG
 * at quality 85 with full-resolution chroma; malloc'd, in *n bytes. */
unsigned char *image_encode(const struct image *im, enum image_format f, size_t *n);
/* The JPEG file of im at quality (1..100), with full-resolution chroma
 * (4:4:4, PIL's subsampling=0) when full_chroma, else libjpeg's 4:2:0;
 * malloc'd, in *n bytes. */
unsigned char *image_jpeg(const struct image *im, int quality, int full_chroma,
			  size_t *n);
/* "image/png" or "image/jpeg". */
const char *image_mime(enum image_format f);
void image_release(struct image *im);

#endif
