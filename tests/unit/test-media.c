/* SPDX-License-Identifier: Apache-2.0 */
/* lib/media: base64 (RFC 4648 vectors), the WAV writer's header and
 * samples, the audio and video checks, the drawn frames. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "media/audio.h"
#include "media/dataurl.h"
#include "media/video.h"
#include "test.h"

static unsigned
le(const unsigned char *p, int n)
{
	unsigned v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
test_b64(void)
{
	static const char *const vec[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};

	for (size_t i = 0; i < sizeof(vec) / sizeof(*vec); i++) {
		char *s = dataurl_b64("", vec[i][0], strlen(vec[i][0]));

		TEST_STR("b64 RFC 4648 vector", s, vec[i][1]);
		free(s);
	}
	{
		char *s = dataurl_b64("wav,", "\xff\xfe", 2);

		TEST_STR("b64 with prefix, bytes above 127", s, "wav,//4=");
		free(s);
	}
}

static void
test_wav(void)
{
	struct audio_params a = { AUDIO_WAV, 24, 8000, 2, 0.5 };
	struct rng r, r2;
	unsigned char *p, *p2;
	size_t n, n2;
	char err[256];

	rng_seed(&r, 1);
	TEST("wav encodes", audio_encode(&a, &r, &p, &n, err, sizeof(err)) == 0);
	TEST("wav size: header + 4000 frames x 2 channels x 3 bytes", n == 44 + 24000);
	TEST("RIFF/WAVE", !memcmp(p, "RIFF", 4) && !memcmp(p + 8, "WAVEfmt ", 8));
	TEST("RIFF size", le(p + 4, 4) == n - 8);
	TEST("PCM, 2 channels, 8000 Hz", le(p + 20, 2) == 1 && le(p + 22, 2) == 2 &&
	     le(p + 24, 4) == 8000);
	TEST("byte rate, block align, bits", le(p + 28, 4) == 48000 &&
	     le(p + 32, 2) == 6 && le(p + 34, 2) == 24);
	TEST("data chunk", !memcmp(p + 36, "data", 4) && le(p + 40, 4) == 24000);
	rng_seed(&r2, 1);
	TEST("same seed, same bytes", audio_encode(&a, &r2, &p2, &n2, err, sizeof(err)) == 0 &&
	     n2 == n && !memcmp(p, p2, n));
	free(p);
	free(p2);
	a.depth = 8;
	a.channels = 1;
	rng_seed(&r, 1);
	TEST("8-bit encodes", audio_encode(&a, &r, &p, &n, err, sizeof(err)) == 0);
	{
		/* unsigned around 128: the mean of noise near it */
		double sum = 0;

		for (size_t i = 44; i < n; i++)
			sum += p[i];
		sum /= (double)(n - 44);
		TEST("8-bit samples centred on 128", sum > 124 && sum < 132);
	}
	free(p);
}

static void
test_checks(void)
{
	struct audio_params a = { AUDIO_MP3, 16, 44000, 1, 1 };
	struct video_params v = { 64, 64, 4, 1, VIDEO_MOVING_SHAPES, "webm", "libvpx-vp9", NULL, NULL };
	enum audio_format f;
	enum video_synth s;
	char err[256];

	TEST("mp3 44 kHz refused", audio_check(&a, err, sizeof(err)) < 0 &&
	     strstr(err, "Got 44000 Hz"));
	a.rate_hz = 44100;
	TEST("mp3 44.1 kHz fine", audio_check(&a, err, sizeof(err)) == 0);
	a.depth = 12;
	TEST("depth 12 refused", audio_check(&a, err, sizeof(err)) < 0 &&
	     strstr(err, "Unsupported bit depth: 12"));
	a.depth = 16;
	a.channels = 3;
	TEST("3 channels refused", audio_check(&a, err, sizeof(err)) < 0);
	a.channels = 1;
	a.seconds = 1e9;
	TEST("a billion seconds refused", audio_check(&a, err, sizeof(err)) < 0);
	TEST("formats", audio_format_of("mp3", &f) == 0 && f == AUDIO_MP3 &&
	     audio_format_of("flac", &f) < 0);
	TEST("synth types", video_synth_of("grid_clock", &s) == 0 &&
	     s == VIDEO_GRID_CLOCK && video_synth_of("noise", &s) == 0 &&
	     s == VIDEO_NOISE && video_synth_of("static", &s) < 0);
	TEST("video fine", video_check(&v, err, sizeof(err)) == 0);
	v.format = "avi";
	TEST("avi refused", video_check(&v, err, sizeof(err)) < 0 &&
	     strstr(err, "Only MP4 and WebM"));
	v.format = "mp4";
	v.width = 8192;
	v.height = 8192;
	v.fps = 240;
	v.seconds = 3600;
	TEST("16 GiB of frames refused", video_check(&v, err, sizeof(err)) < 0);
	v.width = v.height = 64;
	v.fps = 4;
	v.seconds = 0.1;
	TEST("no frame refused", video_check(&v, err, sizeof(err)) < 0);
}

static void
test_frames(void)
{
	struct video_params v = { 64, 48, 4, 2, VIDEO_MOVING_SHAPES, "webm", "libvpx-vp9", NULL, NULL };
	size_t size = 64 * 48 * 3;
	unsigned char *a = malloc(size), *b = malloc(size);
	size_t lit = 0;

	TEST("frames: int(2 s x 4 fps)", video_frames(&v) == 8);
	video_draw(&v, 0, a);
	video_draw(&v, 1, b);
	TEST("moving shapes move", memcmp(a, b, size) != 0);
	for (size_t i = 0; i < size; i++)
		lit += a[i] != 0;
	TEST("moving shapes drawn on black", lit > 100 && lit < size / 2);
	video_draw(&v, 0, b);
	TEST("a frame is the same drawn twice", memcmp(a, b, size) == 0);
	v.synth = VIDEO_GRID_CLOCK;
	video_draw(&v, 0, a);
	video_draw(&v, 4, b);
	TEST("the clock turns", memcmp(a, b, size) != 0);
	TEST("grid clock background (32, 32, 32)", a[3 * (47 * 64 + 63)] == 32);
	free(a);
	free(b);
}

/* inputs.json elision: data: URLs of any type and input_audio's bare
 * base64 ("data" values) longer than min; other strings kept. */
static void
test_elide(void)
{
#define H "sha256 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824>"
	static const char in[] =
		"{\"input_audio\":{\"data\":\"aGVsbG8=\",\"format\":\"wav\"},"
		"\"video_url\":{\"url\":\"data:video/webm;base64,aGVsbG8=\"},"
		"\"text\":\"aGVsbG8=\",\"xdata\":\"aGVsbG8=\",\"data\" : \"aGVsbG8=\","
		"\"data\":\"aGVs\",\"data\":\"a b\"}";
	static const char want[] =
		"{\"input_audio\":{\"data\":\"<elided: 8 base64 chars, " H "\",\"format\":\"wav\"},"
		"\"video_url\":{\"url\":\"data:video/webm;base64,<elided: 8 base64 chars, " H "\"},"
		"\"text\":\"aGVsbG8=\",\"xdata\":\"aGVsbG8=\",\"data\" : \"<elided: 8 base64 chars, " H "\","
		"\"data\":\"aGVs\",\"data\":\"a b\"}";
#undef H
	struct buf b = BUF_INIT(BUF_NOMAX);

	dataurl_elide_json(&b, in, sizeof(in) - 1, 4);
	TEST_STR("elision: audio data, video data: URL; others kept", buf_str(&b), want);
	buf_release(&b);
}

int
main(void)
{
	test_b64();
	test_elide();
	test_wav();
	test_checks();
	test_frames();
	return TEST_DONE();
}
