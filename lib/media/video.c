/* SPDX-License-Identifier: Apache-2.0 */
#include "media/video.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"

#define ERR_CAP ((size_t)64 << 10)	/* ffmpeg's messages kept */
#define OUT_CAP ((size_t)4 << 30)	/* one encoded video */
#define PI 3.14159265358979323846

int
video_synth_of(const char *name, enum video_synth *s)
{
	if (!strcmp(name, "moving_shapes"))
		*s = VIDEO_MOVING_SHAPES;
	else if (!strcmp(name, "grid_clock"))
		*s = VIDEO_GRID_CLOCK;
	else if (!strcmp(name, "noise"))
		*s = VIDEO_NOISE;
	else
		return -1;
	return 0;
}

long
video_frames(const struct video_params *v)
{
	return (long)(v->seconds * v->fps);
}

int
video_check(const struct video_params *v, char *err, size_t errlen)
{
	if (v->width < 1 || v->width > VIDEO_MAX_SIDE || v->height < 1 ||
	    v->height > VIDEO_MAX_SIDE)
		return util_seterr(err, errlen, "video size %dx%d is out of range "
				   "(1 to %d pixels a side)", v->width, v->height,
				   VIDEO_MAX_SIDE);
	if (v->fps < 1 || v->fps > VIDEO_MAX_FPS)
		return util_seterr(err, errlen, "video fps %d is out of range "
				   "(1 to %d)", v->fps, VIDEO_MAX_FPS);
	if (!(v->seconds > 0 && v->seconds <= VIDEO_MAX_SECONDS))
		return util_seterr(err, errlen, "video duration %g s is out of "
				   "range (above 0, at most %g s)", v->seconds,
				   VIDEO_MAX_SECONDS);
	if (video_frames(v) < 1)
		return util_seterr(err, errlen, "video of %g s at %d fps has no "
				   "frame", v->seconds, v->fps);
	if ((double)v->width * v->height * 3 * (double)video_frames(v) >
	    VIDEO_MAX_RAW_BYTES)
		return util_seterr(err, errlen, "video %dx%d, %ld frames is too "
				   "large (more than 16 GiB of frames)", v->width,
				   v->height, video_frames(v));
	if (strcmp(v->format, "mp4") && strcmp(v->format, "webm"))
		return util_seterr(err, errlen, "Unsupported video format: %s. "
				   "Only MP4 and WebM are supported.", v->format);
	return 0;
}

struct canvas {
	unsigned char *px;
	int w, h;
};

static void
plot(const struct canvas *c, int x, int y, const unsigned char rgb[3])
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return;
	memcpy(c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 3, rgb, 3);
}

/* A filled disc (ring: only its outline, width thick) of radius r. */
static void
disc(const struct canvas *c, double cx, double cy, double r, double ring,
     const unsigned char rgb[3])
{
	for (int y = (int)floor(cy - r); y <= (int)ceil(cy + r); y++)
		for (int x = (int)floor(cx - r); x <= (int)ceil(cx + r); x++) {
			double d = hypot(x - cx, y - cy);

			if (d <= r && (ring <= 0 || d > r - ring))
				plot(c, x, y, rgb);
		}
}

static void
rect(const struct canvas *c, double x0, double y0, double x1, double y1,
     const unsigned char rgb[3])
{
	for (int y = (int)ceil(y0); y <= (int)floor(y1); y++)
		for (int x = (int)ceil(x0); x <= (int)floor(x1); x++)
			plot(c, x, y, rgb);
}

/* A segment width thick: the pixels within width/2 of it. */
static void
line(const struct canvas *c, double x0, double y0, double x1, double y1,
     double width, const unsigned char rgb[3])
{
	double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy, h = width / 2;

	for (int y = (int)floor(fmin(y0, y1) - h); y <= (int)ceil(fmax(y0, y1) + h); y++)
		for (int x = (int)floor(fmin(x0, x1) - h); x <= (int)ceil(fmax(x0, x1) + h); x++) {
			double t = len2 > 0 ? ((x - x0) * dx + (y - y0) * dy) / len2 : 0;

			t = t < 0 ? 0 : t > 1 ? 1 : t;
			if (hypot(x - (x0 + t * dx), y - (y0 + t * dy)) <= h)
				plot(c, x, y, rgb);
		}
}

/* Three shapes on black, each crossing the frame at its own speed and
 * wrapping around: a red circle (30 px) left to right, a green square
 * (25 px) top to bottom, a blue circle (20 px) up and left. */
static void
moving_shapes(const struct canvas *c, long i, long n)
{
	static const unsigned char red[3] = { 255, 0, 0 }, green[3] = { 0, 255, 0 },
		blue[3] = { 0, 0, 255 };
	double w = c->w, h = c->h, x, y;

	memset(c->px, 0, (size_t)c->w * (size_t)c->h * 3);
	x = fmod(0 + w / n * 2 * i, w);
	y = fmod(c->h / 2, h);
	disc(c, x, y, 15, 0, red);
	x = fmod(c->w / 2, w);
	y = fmod(h / n * 2 * i, h);
	rect(c, x - 12, y - 12, x + 12, y + 12, green);
	x = fmod(w - w / n * 1.5 * i, w);
	y = fmod(h - h / n * 1.5 * i, h);
	disc(c, x < 0 ? x + w : x, y < 0 ? y + h : y, 10, 0, blue);
}

/* A dark grey frame with a 32 px grid, a clock face whose minute hand
 * turns once over the video (the hour hand a twelfth of that), a red
 * centre, and the frame number as a bar along the top edge. */
static void
grid_clock(const struct canvas *c, long i, long n)
{
	static const unsigned char bg[3] = { 32, 32, 32 }, grid[3] = { 64, 64, 64 },
		yellow[3] = { 255, 255, 0 }, white[3] = { 255, 255, 255 },
		grey[3] = { 128, 128, 128 }, red[3] = { 255, 0, 0 };
	double cx = c->w / 2, cy = c->h / 2, r = (c->w < c->h ? c->w : c->h) / 4;
	double a = (double)i / (double)n * 2 * PI;

	for (size_t p = 0; p < (size_t)c->w * (size_t)c->h; p++)
		memcpy(c->px + p * 3, bg, 3);
	for (int x = 0; x < c->w; x += 32)
		rect(c, x, 0, x, c->h - 1, grid);
	for (int y = 0; y < c->h; y += 32)
		rect(c, 0, y, c->w - 1, y, grid);
	line(c, cx, cy, cx + r * 0.6 * cos(a / 12 - PI / 2),
	     cy + r * 0.6 * sin(a / 12 - PI / 2), 3, yellow);
	line(c, cx, cy, cx + r * 0.9 * cos(a - PI / 2),
	     cy + r * 0.9 * sin(a - PI / 2), 2, white);
	disc(c, cx, cy, r, 2, grey);
	disc(c, cx, cy, 3, 0, red);
	rect(c, 0, 0, (double)(c->w - 1) * (double)(i + 1) / (double)n, 1, white);
}

void
video_draw(const struct video_params *v, long i, unsigned char *px)
{
	struct canvas c = { px, v->width, v->height };

	if (v->synth == VIDEO_NOISE)
		/* _generate_noise_frames */
		nprand_fill_u8(v->noise, px, (size_t)v->width * (size_t)v->height * 3);
	else if (v->synth == VIDEO_GRID_CLOCK)
		grid_clock(&c, i, video_frames(v));
	else
		moving_shapes(&c, i, video_frames(v));
}

/* Whether name is an executable file in PATH (or, with a '/', itself). */
static int
in_path(const char *name)
{
	const char *path = getenv("PATH");
	struct buf b = BUF_INIT(BUF_NOMAX);
	int found = 0;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	for (const char *p = path ? path : ""; !found && *p;) {
		size_t n = strcspn(p, ":");

		buf_release(&b);
		buf_addf(&b, "%.*s/%s", (int)n, n ? p : ".", name);
		found = access(b.s, X_OK) == 0;
		p += n + (p[n] == ':');
	}
	buf_release(&b);
	return found;
}

/* The whole of file path (at most cap bytes) into b: 0, or -1. */
static int
slurp(const char *path, struct buf *b, size_t cap)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 && b->len < cap)
		buf_add(b, chunk, (size_t)n);
	close(fd);
	return n < 0 || b->len >= cap ? -1 : 0;
}

/* The last non-empty line of ffmpeg's messages, or "". */
static void
last_line(const char *path, char *line_out, size_t n)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *e, *s;

	*line_out = '\0';
	slurp(path, &b, ERR_CAP);
	if (!b.len) {
		buf_release(&b);
		return;
	}
	buf_addch(&b, '\0');
	e = b.s + strlen(b.s);
	while (e > b.s && (e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	s = strrchr(b.s, '\n');
	snprintf(line_out, n, "%s", s ? s + 1 : b.s);
	buf_release(&b);
}

static void
child(const struct video_params *v, int in, const char *errpath,
      const char *outpath)
{
	char size[32], fps[16];
	const char *prog = v->ffmpeg ? v->ffmpeg : "ffmpeg";
	const char *argv[40];
	int k = 0, fd = open(errpath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);

	if (fd < 0 || dup2(in, 0) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, 1) < 0)
		_exit(127);
	snprintf(size, sizeof(size), "%dx%d", v->width, v->height);
	snprintf(fps, sizeof(fps), "%d", v->fps);
	argv[k++] = prog;
	argv[k++] = "-nostats";
	argv[k++] = "-hide_banner";
	argv[k++] = "-loglevel";
	argv[k++] = "error";
	argv[k++] = "-y";
	argv[k++] = "-f";
	argv[k++] = "rawvideo";
	argv[k++] = "-pix_fmt";
	argv[k++] = "rgb24";
	argv[k++] = "-s";
	argv[k++] = size;
	argv[k++] = "-r";
	argv[k++] = fps;
	argv[k++] = "-i";
	argv[k++] = "pipe:0";
	argv[k++] = "-an";
	argv[k++] = "-c:v";
	argv[k++] = v->codec;
	argv[k++] = "-pix_fmt";
	argv[k++] = "yuv420p";
	argv[k++] = "-fflags";
	argv[k++] = "+bitexact";
	argv[k++] = "-flags:v";
	argv[k++] = "+bitexact";
	if (!strcmp(v->format, "mp4")) {
		argv[k++] = "-movflags";
		argv[k++] = "+faststart";
	}
	argv[k++] = "-f";
	argv[k++] = v->format;
	argv[k++] = outpath;
	argv[k] = NULL;
	execvp(prog, (char *const *)argv);
	_exit(127);
}

/* Every frame into fd; stops early (not an error here) when ffmpeg
 * closes its end: its exit status tells. The caller ignores SIGPIPE. */
static void
feed(const struct video_params *v, int fd)
{
	size_t size = (size_t)v->width * (size_t)v->height * 3;
	unsigned char *px = xmalloc(size);
	long n = video_frames(v);

	for (long i = 0; i < n; i++) {
		size_t off = 0;

		video_draw(v, i, px);
		while (off < size) {
			ssize_t w = write(fd, px + off, size - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				goto out;
			off += (size_t)w;
		}
	}
out:
	free(px);
}

static int
run_ffmpeg(const struct video_params *v, const char *dir, struct buf *out,
	   char *err, size_t errlen)
{
	char *errpath = xstrfmt("%s/ffmpeg.log", dir);
	char *outpath = xstrfmt("%s/out.%s", dir, v->format);
	char msg[512];
	int p[2], status, rc = -1;
	pid_t pid;

	if (pipe(p) < 0) {
		util_seterr(err, errlen, "pipe: %s", util_strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		util_seterr(err, errlen, "fork: %s", util_strerror(errno));
		close(p[0]);
		close(p[1]);
		goto out;
	}
	if (pid == 0) {
		close(p[1]);
		child(v, p[0], errpath, outpath);
	}
	close(p[0]);
	feed(v, p[1]);
	close(p[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			util_seterr(err, errlen, "waitpid: %s", util_strerror(errno));
			goto out;
		}
	last_line(errpath, msg, sizeof(msg));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		util_seterr(err, errlen, "ffmpeg failed to create the video "
			    "(codec %s, format %s, size %dx%d, fps %d): %s",
			    v->codec, v->format, v->width, v->height, v->fps,
			    *msg ? msg : "no message");
		goto out;
	}
	if (slurp(outpath, out, OUT_CAP) || !out->len) {
		util_seterr(err, errlen, "ffmpeg produced no output");
		goto out;
	}
	rc = 0;
out:
	unlink(errpath);
	unlink(outpath);
	free(errpath);
	free(outpath);
	return rc;
}

int
video_encode(const struct video_params *v, unsigned char **out,
	     size_t *outlen, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *dir;
	int rc;

	if (v->synth == VIDEO_NOISE && !v->noise)
		return util_seterr(err, errlen, "noise video without its generator");
	if (video_check(v, err, errlen))
		return -1;
	if (!in_path(v->ffmpeg ? v->ffmpeg : "ffmpeg"))
		return util_seterr(err, errlen, "FFmpeg binary not found: video "
				   "inputs need the ffmpeg program (Debian package "
				   "ffmpeg: apt-get install ffmpeg)");
	dir = xstrfmt("%s/aiperf-video-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		rc = util_seterr(err, errlen, "cannot create '%s': %s", dir,
				 util_strerror(errno));
		free(dir);
		return rc;
	}
	rc = run_ffmpeg(v, dir, &b, err, errlen);
	rmdir(dir);
	free(dir);
	if (rc) {
		buf_release(&b);
		return -1;
	}
	*out = (unsigned char *)buf_detach(&b, outlen);
	return 0;
}
