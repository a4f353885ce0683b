/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/media/hfmedia: any bytes as an image (PNG, JPEG) and as a WAV file: an error or a picture and samples within bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "media/hfmedia.h"
#include "media/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *p = malloc(size ? size : 1), *w;
	struct hfmedia_pcm pcm;
	struct image im;
	char err[512];
	size_t n;

	if (!p)
		return 0;
	memcpy(p, data, size);
	if (image_decode(p, size, &im, err, sizeof(err)) == 0) {
		if (im.w < 1 || im.h < 1 || image_size_check(im.w, im.h) || !im.rgb)
			abort();
		if ((size_t)im.w * (size_t)im.h <= 4096)
			free(image_encode(&im, IMAGE_JPEG, &n));
		image_release(&im);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort();
	}
	if (hfmedia_wav_read(p, size, &pcm, err, sizeof(err)) == 0) {
		if (pcm.frames * (size_t)pcm.channels > size || pcm.channels < 1 ||
		    pcm.rate < 1)
			abort();
		w = hfmedia_wav_write(&pcm, &n);
		if (n != 44 + pcm.frames * (size_t)pcm.channels * 2)
			abort();
		free(w);
		hfmedia_pcm_release(&pcm);
	}
	free(p);
	return 0;
}
