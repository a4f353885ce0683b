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
		return HFMEDIA_IMAGE_BAD;
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
	return HFMEDIA_IMAGE_OK;
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
		return HFMEDIA_IMAGE_BAD;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, p, (unsigned long)n);
	jpeg_read_header(&d, TRUE);
	if (d.jpeg_color_space == JCS_CMYK || d.jpeg_color_space == JCS_YCCK) {
		jpeg_destroy_decompress(&d);
		util_seterr(err, errlen, "a CMYK JPEG image is not decoded here");
		return HFMEDIA_IMAGE_UNSUPPORTED;
	}
	if ((why = image_size_check(d.image_width, d.image_height))) {
		jpeg_destroy_decompress(&d);
		util_seterr(err, errlen, "%s", why);
		return HFMEDIA_IMAGE_BAD;
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
	return HFMEDIA_IMAGE_OK;
}

int
hfmedia_image_decode(const unsigned char *p, size_t n, struct image *im,
		     char *err, size_t errlen)
{
	const char *mime = dataurl_image_mime(p, n);

	memset(im, 0, sizeof(*im));
	if (!mime) {
		util_seterr(err, errlen, "not an image (neither PNG, JPEG, GIF, "
			    "WebP, BMP nor TIFF)");
		return HFMEDIA_IMAGE_BAD;
	}
	if (!strcmp(mime, "image/png"))
		return decode_png(p, n, im, err, errlen);
	if (!strcmp(mime, "image/jpeg"))
		return decode_jpeg(p, n, im, err, errlen);
	util_seterr(err, errlen, "a '%s' image is not decoded here (PNG and JPEG are)",
		    mime);
	return HFMEDIA_IMAGE_UNSUPPORTED;
}

char *
hfmedia_image_url(const unsigned char *p, size_t n, int *status, char *err,
		  size_t errlen)
{
	struct image im;
	unsigned char *jpg;
	size_t len;
	char *url;

	if ((*status = hfmedia_image_decode(p, n, &im, err, errlen)) != 0)
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
