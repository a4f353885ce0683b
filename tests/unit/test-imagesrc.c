/* SPDX-License-Identifier: Apache-2.0 */
/* --image-source and noise media: image_read() of PNG and JPEG files and
 * of hostile ones (not regular, too big, truncated, huge dimensions,
 * garbage), imagegen's source checks, the three samplings over a
 * directory with unreadable files retired, noise images and noise video
 * frames as numpy's uint8 draws. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "media/image.h"
#include "media/imagegen.h"
#include "media/video.h"
#include "rand/nprand.h"
#include "util.h"
#include "test.h"

static char dir[64];

static char *
at(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void
put(const char *name, const void *p, size_t n)
{
	FILE *f = fopen(at(name), "wb");

	fwrite(p, 1, n, f);
	fclose(f);
}

/* A w x h picture of one colour, encoded as f, written as name. */
static void
picture(const char *name, int w, int h, unsigned char v, enum image_format f)
{
	struct image im = { w, h, malloc((size_t)w * h * 3) };
	unsigned char *file;
	size_t n;

	memset(im.rgb, v, (size_t)w * h * 3);
	file = image_encode(&im, f, &n);
	put(name, file, n);
	free(file);
	image_release(&im);
}

static void
test_read(void)
{
	static const unsigned char huge_png[] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
		0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 2, 0, 0, 0, 0x27, 0x30, 0x9c, 0x9f,
		0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e
	};
	static const unsigned char bad_jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 2, 0xff, 0xd9 };
	struct image im;
	char err[4200];
	int fd;

	picture("a.png", 7, 5, 200, IMAGE_PNG);
	picture("b.jpg", 9, 4, 100, IMAGE_JPEG);
	TEST("png read", image_read(at("a.png"), &im, err, sizeof(err)) == 0 &&
	     im.w == 7 && im.h == 5 && im.rgb[0] == 200);
	image_release(&im);
	TEST("jpeg read (by its bytes, not its name)",
	     image_read(at("b.jpg"), &im, err, sizeof(err)) == 0 && im.w == 9 &&
	     im.h == 4 && im.rgb[0] > 90 && im.rgb[0] < 110);
	image_release(&im);
	TEST("a directory is not read", mkdir(at("d.png"), 0700) == 0 &&
	     image_read(at("d.png"), &im, err, sizeof(err)) < 0 && !im.rgb);
	TEST("a fifo is not read (nor waited on)", mkfifo(at("f.png"), 0600) == 0 &&
	     image_read(at("f.png"), &im, err, sizeof(err)) < 0 &&
	     strstr(err, "regular"));
	fd = open(at("big.png"), O_WRONLY | O_CREAT, 0600);
	TEST("a file over 64 MiB is not read", fd >= 0 &&
	     ftruncate(fd, (off_t)IMAGE_FILE_MAX + 1) == 0 && close(fd) == 0 &&
	     image_read(at("big.png"), &im, err, sizeof(err)) < 0);
	put("huge.png", huge_png, sizeof(huge_png));
	TEST("100000 x 100000 pixels refused before decoding",
	     image_read(at("huge.png"), &im, err, sizeof(err)) < 0 &&
	     strstr(err, "too large"));
	put("bad.jpeg", bad_jpeg, sizeof(bad_jpeg));
	TEST("a broken jpeg is an error, not an exit",
	     image_read(at("bad.jpeg"), &im, err, sizeof(err)) < 0 && !im.rgb);
	put("text.png", "hello", 5);
	TEST("neither png nor jpeg",
	     image_read(at("text.png"), &im, err, sizeof(err)) < 0 &&
	     strstr(err, "text.png': not an image"));
	TEST("truncated png", image_decode(huge_png, 20, &im, err, sizeof(err)) < 0);
	TEST("nothing", image_decode((const unsigned char *)"", 0, &im, err, sizeof(err)) < 0);
	TEST("missing file", image_read(at("none.png"), &im, err, sizeof(err)) < 0 &&
	     strstr(err, "none.png"));
}

static void
test_names(void)
{
	TEST("samplings", imagegen_sampling_of("random-with-replacement") ==
	     IMAGEGEN_RANDOM_WITH_REPLACEMENT &&
	     imagegen_sampling_of("shuffle_cycle") == IMAGEGEN_SHUFFLE_CYCLE &&
	     imagegen_sampling_of("sequential-cycle") == IMAGEGEN_SEQUENTIAL_CYCLE &&
	     imagegen_sampling_of("sequential") < 0 &&
	     imagegen_sampling_of("") < 0 &&
	     imagegen_sampling_of("shuffle-cycle-") < 0);
}

static void
test_check(void)
{
	struct imagegen_opts o = { 8, 0, 8, 0, IMAGEGEN_PNG, NULL, 0 };
	char err[4200];

	TEST("assets by default", imagegen_check(&o, err, sizeof(err)) == 0);
	o.source = "noise";
	o.sampling = IMAGEGEN_SHUFFLE_CYCLE;
	TEST("noise has no pool to cycle", imagegen_check(&o, err, sizeof(err)) < 0 &&
	     strstr(err, "noise has no finite source pool"));
	o.sampling = IMAGEGEN_RANDOM_WITH_REPLACEMENT;
	TEST("noise", imagegen_check(&o, err, sizeof(err)) == 0);
	o.source = at("nothere");
	TEST("no such directory", imagegen_check(&o, err, sizeof(err)) < 0 &&
	     strstr(err, "does not exist."));
	o.source = at("a.png");
	TEST("not a directory", imagegen_check(&o, err, sizeof(err)) < 0 &&
	     strstr(err, "is not a directory."));
	mkdir(at("empty"), 0700);
	put("empty/notes.txt", "x", 1);
	put("empty/.hidden.png", "x", 1);
	o.source = at("empty");
	TEST("no image names", imagegen_check(&o, err, sizeof(err)) < 0 &&
	     strstr(err, "No source images found in"));
	o.source = dir;
	TEST("a directory of images", imagegen_check(&o, err, sizeof(err)) == 0);
}

static void
test_pool(void)
{
	struct imagegen_opts o = { 3, 0, 2, 0, IMAGEGEN_PNG, NULL, 0 };
	struct imagegen g;
	size_t seen[8] = { 0 };

	mkdir(at("pool"), 0700);
	picture("pool/1.png", 4, 4, 10, IMAGE_PNG);
	picture("pool/2.JPG", 4, 4, 20, IMAGE_JPEG);
	picture("pool/3.png", 4, 4, 30, IMAGE_PNG);
	put("pool/4.png", "broken", 6);
	mkdir(at("pool/5.png"), 0700);
	o.source = at("pool");
	o.sampling = IMAGEGEN_SEQUENTIAL_CYCLE;
	imagegen_init(&g, &o, ".", 1);
	TEST("five names indexed, sorted", g.nsrc == 5 &&
	     strstr(g.paths[0], "/1.png") && strstr(g.paths[1], "/2.JPG") &&
	     strstr(g.paths[4], "/5.png"));
	for (int i = 0; i < 8; i++)
		free(imagegen_next(&g, NULL, NULL));
	TEST("sequential: the unreadable two retired, the rest in turn",
	     g.skipped == 2 && g.navail == 3 && g.src[0].rgb && g.src[1].rgb && g.src[2].rgb);
	imagegen_release(&g);
	o.sampling = IMAGEGEN_SHUFFLE_CYCLE;
	imagegen_init(&g, &o, ".", 1);
	for (int i = 0; i < 5; i++)
		free(imagegen_next(&g, NULL, NULL));
	/* the first cycle: five draws, two of them retired and redrawn */
	TEST("shuffle: every readable picture in the first cycle",
	     g.src[0].rgb && g.src[1].rgb && g.src[2].rgb && g.navail == 3);
	imagegen_release(&g);
	o.sampling = IMAGEGEN_RANDOM_WITH_REPLACEMENT;
	imagegen_init(&g, &o, ".", 1);
	for (int i = 0; i < 40; i++)
		free(imagegen_next(&g, NULL, NULL));
	for (size_t i = 0; i < g.navail; i++)
		seen[g.avail[i]]++;
	TEST("random: only readable pictures left", g.navail == 3 && seen[0] &&
	     seen[1] && seen[2] && g.skipped == 2);
	TEST("made as asked", g.made == 40);
	imagegen_release(&g);
}

static void
test_noise(void)
{
	struct imagegen_opts o = { 5, 0, 3, 0, IMAGEGEN_PNG, "noise", 0 };
	struct video_params v = { 5, 3, 2, 1, VIDEO_NOISE, "webm", "libvpx-vp9", NULL, NULL };
	struct nprand a, b;
	unsigned char px[45], want[45], f0[45], f1[45];
	struct imagegen g;
	char *u1, *u2;
	uint32_t w;

	nprand_seed(&a, 9);
	nprand_seed(&b, 9);
	nprand_fill_u8(&a, px, 45);
	for (int i = 0; i < 45; i += 4) {
		w = nprand_next32(&b);
		for (int k = 0; k < 4 && i + k < 45; k++)
			want[i + k] = (unsigned char)(w >> (8 * k));
	}
	TEST("uint8 fill: 32-bit draws, low byte first, the last one's rest dropped",
	     !memcmp(px, want, 45) && nprand_next32(&a) == nprand_next32(&b));
	nprand_seed(&a, 9);
	v.noise = &a;
	video_draw(&v, 0, f0);
	video_draw(&v, 1, f1);
	TEST("noise frames: the draws in frame order", !memcmp(f0, want, 45) &&
	     memcmp(f0, f1, 45) != 0);
	imagegen_init(&g, &o, ".", 5);
	u1 = imagegen_next(&g, NULL, NULL);
	u2 = imagegen_next(&g, NULL, NULL);
	TEST("noise images differ", strcmp(u1, u2) != 0 && g.nsrc == 0);
	free(u1);
	free(u2);
	imagegen_release(&g);
}

int
main(void)
{
	snprintf(dir, sizeof(dir), "%s", "/tmp/test-imagesrc.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_read();
	test_names();
	test_check();
	test_pool();
	test_noise();
	if (system(NULL)) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return TEST_DONE();
}
