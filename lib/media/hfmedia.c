/* SPDX-License-Identifier: Apache-2.0 */
/* Hub dataset media: PNG/JPEG decoding (libpng, libjpeg-turbo) to a JPEG data URL, WAV read and written, ffmpeg for other audio. */
#include "media/hfmedia.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jpeglib.h>
#include <png.h>

#include "buf.h"
#include "media/dataurl.h"
#include "media/image.h"
#include "util.h"

char *
hfmedia_image_url(const unsigned char *p, size_t n, int *status, char *err,
		  size_t errlen)
{
	struct image im;
	unsigned char *jpg;
	size_t len;
	char *url;

	if ((*status = image_decode(p, n, &im, err, errlen)) != 0)
		return NULL;
	jpg = image_encode(&im, IMAGE_JPEG, &len);
	image_release(&im);
	url = dataurl_b64("data:image/jpeg;base64,", jpg, len);
	free(jpg);
	return url;
}

/* ---- WAV ---- */

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static unsigned
le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

struct wav_fmt {
	unsigned tag, channels, bits, align;
	uint32_t rate;
};

static int16_t
clip16(double v)
{
	v = nearbyint(v * 32768.0);
	return (int16_t)(v > 32767.0 ? 32767 : v < -32768.0 ? -32768 : v);
}

/* Sample q (bytes per sample: bits / 8) of fmt f as 16-bit. */
static int16_t
sample16(const struct wav_fmt *f, const unsigned char *q)
{
	int32_t i;
	float fl;
	double d;
	uint64_t u;

	switch (f->tag == 3 ? 100 + f->bits : f->bits) {
	case 8:
		return (int16_t)((q[0] - 128) * 256);
	case 16:
		return (int16_t)le16(q);
	case 24:
		i = (int32_t)(le32((const unsigned char[]){ 0, q[0], q[1], q[2] }));
		return clip16(i / 2147483648.0);
	case 32:
		return clip16((int32_t)le32(q) / 2147483648.0);
	case 132:
		i = (int32_t)le32(q);
		memcpy(&fl, &i, 4);
		return clip16(isnan(fl) ? 0.0 : fl);
	default:	/* 164 */
		u = (uint64_t)le32(q) | (uint64_t)le32(q + 4) << 32;
		memcpy(&d, &u, 8);
		return clip16(isnan(d) ? 0.0 : d);
	}
}

/* The fmt chunk c[0..n) into *f: 0, -1 (bad), -2 (a codec not read). */
static int
wav_fmt_of(const unsigned char *c, size_t n, struct wav_fmt *f, char *err,
	   size_t errlen)
{
	if (n < 16)
		return util_seterr(err, errlen, "WAV: fmt chunk too short");
	*f = (struct wav_fmt){ le16(c), le16(c + 2), le16(c + 14), le16(c + 12),
			       le32(c + 4) };
	if (f->tag == 0xFFFE && n >= 26)
		f->tag = le16(c + 24);
	if (f->tag != 1 && f->tag != 3) {
		util_seterr(err, errlen, "WAV: codec 0x%04x is not read here", f->tag);
		return -2;
	}
	if (!f->channels || f->channels > HFMEDIA_MAX_CHANNELS || !f->rate ||
	    f->rate > HFMEDIA_MAX_RATE)
		return util_seterr(err, errlen, "WAV: %u channels at %lu Hz is out "
				   "of bounds", f->channels, (unsigned long)f->rate);
	if (f->tag == 1 ? !(f->bits == 8 || f->bits == 16 || f->bits == 24 ||
			    f->bits == 32) : !(f->bits == 32 || f->bits == 64))
		return util_seterr(err, errlen, "WAV: %u-bit samples are not read "
				   "here", f->bits);
	if (f->align != f->channels * f->bits / 8)
		return util_seterr(err, errlen, "WAV: block align %u does not match "
				   "%u channels of %u bits", f->align, f->channels,
				   f->bits);
	return 0;
}

static void
pcm_fill(struct hfmedia_pcm *pcm, const struct wav_fmt *f,
	 const unsigned char *d, size_t len)
{
	size_t bps = f->bits / 8, ns;

	pcm->rate = (int)f->rate;
	pcm->channels = (int)f->channels;
	pcm->frames = len / f->align;
	ns = pcm->frames * f->channels;
	pcm->s = xcalloc(ns ? ns : 1, sizeof(*pcm->s));
	for (size_t i = 0; i < ns; i++)
		pcm->s[i] = sample16(f, d + i * bps);
}

int
hfmedia_wav_read(const unsigned char *p, size_t n, struct hfmedia_pcm *pcm,
		 char *err, size_t errlen)
{
	struct wav_fmt f;
	size_t off = 12;
	int have_fmt = 0, rc;

	memset(pcm, 0, sizeof(*pcm));
	if (n < 12 || memcmp(p, "RIFF", 4) || memcmp(p + 8, "WAVE", 4))
		return util_seterr(err, errlen, "not a RIFF WAVE file");
	while (n - off >= 8) {
		size_t len = le32(p + off + 4), left = n - off - 8;

		if (!memcmp(p + off, "data", 4)) {
			if (!have_fmt)
				return util_seterr(err, errlen, "WAV: data before fmt");
			pcm_fill(pcm, &f, p + off + 8, len < left ? len : left);
			return 0;
		}
		if (!memcmp(p + off, "fmt ", 4)) {
			if (len > left)
				return util_seterr(err, errlen, "WAV: fmt chunk is truncated");
			if ((rc = wav_fmt_of(p + off + 8, len, &f, err, errlen)) < 0)
				return rc;
			have_fmt = 1;
		}
		if (len > left)
			break;
		off += 8 + len + (len & 1);
		if (off > n)
			break;
	}
	return util_seterr(err, errlen, "WAV: no data chunk");
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void
put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

unsigned char *
hfmedia_wav_write(const struct hfmedia_pcm *pcm, size_t *n)
{
	size_t data = pcm->frames * (size_t)pcm->channels * 2;
	unsigned char *p = xmalloc(44 + data);

	memcpy(p, "RIFF", 4);
	put32(p + 4, (uint32_t)(36 + data));
	memcpy(p + 8, "WAVEfmt ", 8);
	put32(p + 16, 16);
	put16(p + 20, 1);
	put16(p + 22, (unsigned)pcm->channels);
	put32(p + 24, (uint32_t)pcm->rate);
	put32(p + 28, (uint32_t)pcm->rate * (uint32_t)pcm->channels * 2);
	put16(p + 32, (unsigned)pcm->channels * 2);
	put16(p + 34, 16);
	memcpy(p + 36, "data", 4);
	put32(p + 40, (uint32_t)data);
	for (size_t i = 0; i < pcm->frames * (size_t)pcm->channels; i++)
		put16(p + 44 + 2 * i, (unsigned)(uint16_t)pcm->s[i]);
	*n = 44 + data;
	return p;
}

double
hfmedia_pcm_seconds(const struct hfmedia_pcm *pcm)
{
	return pcm->rate ? (double)pcm->frames / pcm->rate : 0.0;
}

void
hfmedia_pcm_release(struct hfmedia_pcm *pcm)
{
	free(pcm->s);
	memset(pcm, 0, sizeof(*pcm));
}

/* ---- ffmpeg ---- */

#define FFMPEG_OUT_MAX ((size_t)1 << 30)

static int
write_file(const char *path, const unsigned char *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < n) {
		ssize_t w = write(fd, p + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	return close(fd);
}

static int
read_file(const char *path, struct buf *b, size_t cap)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (b->len + (size_t)n > cap || buf_add(b, chunk, (size_t)n) < 0) {
			n = -1;
			break;
		}
	close(fd);
	return n < 0 ? -1 : 0;
}

static _Noreturn void
ffmpeg_child(const char *prog, const char *in, const char *out, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	int nul = open("/dev/null", O_RDWR);

	if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 ||
	    dup2(fd, 2) < 0)
		_exit(127);
	execlp(prog, prog, "-nostdin", "-nostats", "-hide_banner", "-loglevel",
	       "error", "-i", in, "-vn", "-map_metadata", "-1", "-fflags",
	       "+bitexact", "-c:a", "pcm_s16le", "-f", "wav", out, (char *)NULL);
	_exit(127);
}

/* The last line ffmpeg wrote to log, or "". */
static void
ffmpeg_message(const char *log, char *out, size_t cap)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *s, *e;

	*out = '\0';
	if (read_file(log, &b, 1 << 16) < 0 || !b.len) {
		buf_release(&b);
		return;
	}
	for (e = b.s + b.len; e > b.s && (e[-1] == '\n' || e[-1] == '\r');)
		*--e = '\0';
	s = strrchr(b.s, '\n');
	snprintf(out, cap, "%s", s ? s + 1 : b.s);
	buf_release(&b);
}

static int
ffmpeg_run(const char *prog, const char *dir, struct buf *out, char *err,
	   size_t errlen)
{
	char *in = xstrfmt("%s/in", dir), *wav = xstrfmt("%s/out.wav", dir);
	char *log = xstrfmt("%s/ffmpeg.log", dir), msg[300];
	int status = -1, rc = -1;
	pid_t pid = fork();

	if (pid == 0)
		ffmpeg_child(prog, in, wav, log);
	if (pid < 0)
		util_seterr(err, errlen, "fork: %s", util_strerror(errno));
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	ffmpeg_message(log, msg, sizeof(msg));
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127 && !*msg)
		util_seterr(err, errlen, "cannot run '%s': audio that is not WAV needs "
			    "the ffmpeg program (Debian package ffmpeg: apt-get install "
			    "ffmpeg)", prog);
	else if (pid > 0 && (!WIFEXITED(status) || WEXITSTATUS(status)))
		util_seterr(err, errlen, "ffmpeg cannot decode the audio: %s",
			    *msg ? msg : "no message");
	else if (pid > 0 && read_file(wav, out, FFMPEG_OUT_MAX) < 0)
		util_seterr(err, errlen, "ffmpeg's output is missing or too large");
	else if (pid > 0)
		rc = 0;
	unlink(in);
	unlink(wav);
	unlink(log);
	free(in);
	free(wav);
	free(log);
	return rc;
}

int
hfmedia_audio_decode(const unsigned char *p, size_t n, const char *ffmpeg,
		     struct hfmedia_pcm *pcm, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct buf out = BUF_INIT(BUF_NOMAX);
	char *dir, *in;
	int rc;

	if ((rc = hfmedia_wav_read(p, n, pcm, err, errlen)) != -2 &&
	    (rc == 0 || (n >= 12 && !memcmp(p, "RIFF", 4) && !memcmp(p + 8, "WAVE", 4))))
		return rc;
	dir = xstrfmt("%s/aiperf-audio-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		rc = util_seterr(err, errlen, "cannot create '%s': %s", dir,
				 util_strerror(errno));
		free(dir);
		return rc;
	}
	in = xstrfmt("%s/in", dir);
	if (write_file(in, p, n) < 0)
		rc = util_seterr(err, errlen, "cannot write '%s': %s", in,
				 util_strerror(errno));
	else
		rc = ffmpeg_run(ffmpeg ? ffmpeg : "ffmpeg", dir, &out, err, errlen);
	unlink(in);
	rmdir(dir);
	free(in);
	free(dir);
	if (rc == 0)
		rc = hfmedia_wav_read((const unsigned char *)out.s, out.len, pcm,
				      err, errlen) ? -1 : 0;
	buf_release(&out);
	return rc;
}

const char *
hfmedia_video_mime(const char *path)
{
	static const char *const map[][2] = {
		{ "mp4", "video/mp4" }, { "m4v", "video/mp4" },
		{ "webm", "video/webm" }, { "mkv", "video/x-matroska" },
		{ "avi", "video/x-msvideo" }, { "mov", "video/quicktime" },
		{ "qt", "video/quicktime" }, { "mpeg", "video/mpeg" },
		{ "mpg", "video/mpeg" }, { "ogv", "video/ogg" },
		{ "flv", "video/x-flv" }, { "wmv", "video/x-ms-wmv" },
	};
	const char *slash = path ? strrchr(path, '/') : NULL;
	const char *dot = path ? strrchr(slash ? slash : path, '.') : NULL;
	char ext[8];
	size_t k = 0;

	if (!dot || strlen(dot + 1) >= sizeof(ext))
		return "video/mp4";
	for (dot++; *dot; dot++)
		ext[k++] = (char)(*dot >= 'A' && *dot <= 'Z' ? *dot + 32 : *dot);
	ext[k] = '\0';
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(ext, map[i][0]))
			return map[i][1];
	return "video/mp4";
}
