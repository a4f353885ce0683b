/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for image_decode(), the reader of --image-source directories' files: any bytes decode to an image within the limits or fail with a message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "media/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image im;
	char err[512];

	err[0] = 0;
	if (image_decode(data, size, &im, err, sizeof(err)) < 0) {
		if (!err[0] || im.rgb)
			abort();
		return 0;
	}
	if (image_size_check(im.w, im.h) || !im.rgb)
		abort();
	/* touch every pixel: the buffer is as large as it says */
	for (size_t i = 0, n = (size_t)im.w * (size_t)im.h * 3; i < n; i += 4096)
		if (im.rgb[i] > 255)
			abort();
	image_release(&im);
	return 0;
}
