/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic audio and video inputs (--audio-*, --video-*): the options,
 * each turn's media (generated once, while the dataset is built, before
 * any request goes out) and the chat content parts they become.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "hmap.h"
#include "json/jw.h"
#include "media/audio.h"
#include "media/dataurl.h"
#include "media/video.h"
#include "util.h"

#define AV_MAX_FILE ((size_t)256 << 20)	/* a dataset file's media file */

/*
 * Every media string made (synthetic audio, the synthetic video, dataset
 * files' media as sent) lives here until the process ends; turns borrow
 * them. Files' are keyed by kind and content, so each is read and encoded
 * once however many turns name it.
 */
static struct {
	char **v;
	size_t n, cap;
	struct hmap ix;	/* hash of kind + content -> index + 1 */
} store;

static const char *
keep(char *s)
{
	if (store.n == store.cap) {
		store.cap = store.cap ? store.cap * 2 : 64;
		store.v = xreallocarray(store.v, store.cap, sizeof(*store.v));
	}
	return store.v[store.n++] = s;
}

/* The words of a list option's value: commas, spaces and the brackets of
 * the original's "[16, 24]" form separate them. */
static void
each_word(const char *opt, const char *arg, void (*fn)(struct av_opts *,
	  const char *, const char *), struct av_opts *a)
{
	const char *sep = ", []\t";

	for (const char *p = arg + strspn(arg, sep); *p; p += strspn(p, sep)) {
		size_t n = strcspn(p, sep);
		char *w = xstrndup(p, n);

		fn(a, opt, w);
		free(w);
		p += n;
	}
}

static void
add_depth(struct av_opts *a, const char *opt, const char *w)
{
	long long v;
	const char *why;

	if (util_strtonum(w, 1, 1024, &v, &why) || a->ndepths == AV_MAX_LIST)
		die_usage("invalid value for %s: '%s'", opt, w);
	a->depths[a->ndepths++] = (int)v;
}

static void
add_rate(struct av_opts *a, const char *opt, const char *w)
{
	double v;

	if (util_strtod(w, &v) || !(v > 0 && v <= 768) || a->nrates == AV_MAX_LIST)
		die_usage("invalid value for %s: '%s' (kHz, above 0, at most 768)",
			  opt, w);
	a->rates[a->nrates++] = v;
}

void
av_add_depths(struct gen_opts *o, const char *arg)
{
	each_word("--audio-depths", arg, add_depth, &o->av);
}

void
av_add_rates(struct gen_opts *o, const char *arg)
{
	each_word("--audio-sample-rates", arg, add_rate, &o->av);
}

static void
video_params(const struct gen_opts *o, struct video_params *v)
{
	const struct av_opts *a = &o->av;

	*v = (struct video_params){
		.width = (int)a->video_width, .height = (int)a->video_height,
		.fps = (int)a->video_fps, .seconds = a->video_duration,
		.format = a->video_format, .codec = a->video_codec,
	};
	if (video_synth_of(a->video_synth, &v->synth))
		die_usage("invalid value for --video-synth-type: '%s' (moving_shapes, "
			  "grid_clock or noise)", a->video_synth);
}

int
av_audio_on(const struct gen_opts *o)
{
	return o->av.audio_mean > 0;
}

int
av_video_on(const struct gen_opts *o)
{
	return o->av.video_width > 0 && o->av.video_height > 0;
}

void
av_check_opts(struct gen_opts *o)
{
	struct av_opts *a = &o->av;
	struct audio_params ap = { .channels = (int)a->audio_channels,
				   .seconds = AUDIO_MIN_SECONDS };
	struct video_params vp;
	char err[256];

	if (!a->ndepths)
		a->depths[a->ndepths++] = 16;
	if (!a->nrates)
		a->rates[a->nrates++] = 16.0;
	if (audio_format_of(a->audio_format, &ap.format))
		die_usage("Unsupported audio format: %s. Supported formats are: "
			  "WAV, MP3", a->audio_format);
	if (av_audio_on(o)) {
		if (a->audio_mean < AUDIO_MIN_SECONDS)
			die_usage("Audio length must be greater than 0.01 seconds");
		for (size_t i = 0; i < a->ndepths; i++)
			for (size_t k = 0; k < a->nrates; k++) {
				ap.depth = a->depths[i];
				ap.rate_hz = (int)(a->rates[k] * 1000);
				if (audio_check(&ap, err, sizeof(err)))
					die_usage("%s", err);
			}
	}
	if (!av_video_on(o))
		return;
	video_params(o, &vp);
	if (video_check(&vp, err, sizeof(err)))
		die_usage("%s", err);
}

/* One audio file as the original's "format,b64" string. */
static const char *
audio_item(const struct gen_opts *o, struct rng *r)
{
	const struct av_opts *a = &o->av;
	struct audio_params ap = { .channels = (int)a->audio_channels };
	unsigned char *bytes;
	size_t n;
	char err[256], *s, prefix[8];

	do
		ap.seconds = rng_gauss(r, a->audio_mean, a->audio_stddev);
	while (ap.seconds < AUDIO_MIN_SECONDS);
	if (ap.seconds > AUDIO_MAX_SECONDS)
		ap.seconds = AUDIO_MAX_SECONDS;
	audio_format_of(a->audio_format, &ap.format);
	ap.rate_hz = (int)(a->rates[rng_below(r, a->nrates)] * 1000);
	ap.depth = a->depths[rng_below(r, a->ndepths)];
	if (audio_encode(&ap, r, &bytes, &n, err, sizeof(err)))
		die("cannot generate audio: %s", err);
	snprintf(prefix, sizeof(prefix), "%s,", audio_format_name(ap.format));
	s = dataurl_b64(prefix, bytes, n);
	free(bytes);
	return keep(s);
}

/* The one synthetic video (its parameters are the same for every turn),
 * made on first use as a data: URL and kept; a noise video is made anew
 * for each item, from the next frames of noise, as the original's
 * generate() makes each. */
static const char *
video_item(const struct gen_opts *o, struct nprand *noise)
{
	static const char *cached;
	struct video_params vp;
	unsigned char *bytes;
	size_t n;
	char err[1024], *prefix, *url;

	if (cached)
		return cached;
	video_params(o, &vp);
	vp.noise = noise;
	if (video_encode(&vp, &bytes, &n, err, sizeof(err)))
		die("cannot generate video: %s", err);
	prefix = xstrfmt("data:video/%s;base64,", vp.format);
	url = dataurl_b64(prefix, bytes, n);
	free(prefix);
	free(bytes);
	if (vp.synth == VIDEO_NOISE)
		return keep(url);
	return cached = keep(url);
}

void
av_turn(struct turn *t, const struct gen_opts *o, struct rng *audio,
	struct nprand *video_noise)
{
	if (av_audio_on(o)) {
		t->naudios = (size_t)o->av.audio_batch;
		t->audios = xcalloc(t->naudios, sizeof(*t->audios));
		for (size_t i = 0; i < t->naudios; i++)
			t->audios[i] = audio_item(o, audio);
	}
	if (av_video_on(o)) {
		t->nvideos = (size_t)o->av.video_batch;
		t->videos = xcalloc(t->nvideos, sizeof(*t->videos));
		for (size_t i = 0; i < t->nvideos; i++)
			t->videos[i] = video_item(o, video_noise);
	}
}

void
av_turn_free(struct turn *t)
{
	free(t->audios);	/* the strings are the store's */
	free(t->videos);
	t->audios = NULL;
	t->videos = NULL;
	t->naudios = t->nvideos = 0;
}

/* Whether s names a remote or inline item: "scheme://..." or "data:...". */
static int
is_url(const char *s)
{
	size_t k = 0;

	if (!strncmp(s, "data:", 5))
		return 1;
	while (isalnum((unsigned char)s[k]) || s[k] == '+' || s[k] == '-' || s[k] == '.')
		k++;
	return k > 0 && !strncmp(s + k, "://", 3);
}

/* path's extension, lower case, or "" (at most 15 characters). */
static void
extension(const char *path, char *ext, size_t n)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t i = 0;

	if (dot && (!slash || dot > slash))
		for (dot++; *dot && i + 1 < n; dot++)
			ext[i++] = (char)tolower((unsigned char)*dot);
	ext[i] = '\0';
}

/* Local file path's bytes, or NULL when there is no such file (the
 * content is then a URL or a string); exits when it is one that cannot
 * be read, is too large or is not a regular file (a FIFO would block). */
static unsigned char *
read_media(const char *what, const char *path, size_t *n, const char *where)
{
	unsigned char *p;
	int fd = util_openfile(path, AV_MAX_FILE);
	struct stat st;
	FILE *f;

	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG))
		return NULL;
	if (fd < 0 && errno == EFBIG)
		die("%s%s file '%s' is too large (at most %zu MiB)", where, what,
		    path, AV_MAX_FILE >> 20);
	if (fd < 0 || fstat(fd, &st) < 0 || !(f = fdopen(fd, "rb")))
		die("%scannot open %s file '%s':", where, what, path);
	/* its size was checked; reading one byte more tells a file that grew */
	p = xmalloc((size_t)st.st_size + 1);
	*n = fread(p, 1, (size_t)st.st_size + 1, f);
	if (ferror(f))
		die("%scannot read %s file '%s':", where, what, path);
	if (*n > (size_t)st.st_size)
		die("%s%s file '%s' changed while it was read", where, what, path);
	fclose(f);
	return p;
}

/* A dataset file's audio content as sent: a local WAV or MP3 file as
 * "format,b64"; a URL or a "format,b64" string as it is. */
static char *
file_audio(const char *s, const char *where)
{
	char ext[16], prefix[20], *out;
	unsigned char *bytes;
	size_t n;

	if (is_url(s) || !(bytes = read_media("audio", s, &n, where))) {
		if (!is_url(s) && *s && !strchr(s, ','))
			die("%saudio '%s': no such file, and not a URL or a "
			    "\"format,base64\" string", where, s);
		return xstrdup(s);
	}
	extension(s, ext, sizeof(ext));
	if (strcmp(ext, "wav") && strcmp(ext, "mp3"))
		die("%saudio file '%s': unsupported format '%s' (wav or mp3)", where,
		    s, ext);
	snprintf(prefix, sizeof(prefix), "%s,", ext);
	out = dataurl_b64(prefix, bytes, n);
	free(bytes);
	return out;
}

/* A dataset file's video content as sent: a local file as a data: URL
 * (video/ its extension); a URL as it is. */
static char *
file_video(const char *s, const char *where)
{
	char ext[16], *prefix, *out;
	unsigned char *bytes;
	size_t n;

	if (is_url(s) || !(bytes = read_media("video", s, &n, where))) {
		if (!is_url(s) && *s)
			die("%svideo '%s': no such file, and not a URL", where, s);
		return xstrdup(s);
	}
	extension(s, ext, sizeof(ext));
	if (!*ext)
		die("%svideo file '%s': no extension to name its format (mp4, webm)",
		    where, s);
	prefix = xstrfmt("data:video/%s;base64,", ext);
	out = dataurl_b64(prefix, bytes, n);
	free(prefix);
	free(bytes);
	return out;
}

/* The stored form of content s[0..n) of kind 'a' or 'v', made once. */
static const char *
from_file(int kind, const char *s, size_t n, const char *where)
{
	char *str = xstrndup(s, n), *key = xstrfmt("%c%s", kind, str);
	uint64_t h[2], *slot;
	int created;

	if (!store.ix.max)
		hmap_init(&store.ix, (size_t)1 << 26);
	gen_str_hash(key, strlen(key), h);
	free(key);
	if (!(slot = hmap_put(&store.ix, h[0], h[1], &created)))
		die("too many distinct media items");
	if (created) {
		keep(kind == 'a' ? file_audio(str, where) : file_video(str, where));
		*slot = store.n;
	}
	free(str);
	return store.v[*slot - 1];
}

void
av_add_file_media(struct turn *t, int kind, const char *s, size_t n,
		  const char *where)
{
	const char *v = from_file(kind, s, n, where);

	if (kind == 'a') {
		t->audios = xreallocarray(t->audios, t->naudios + 1, sizeof(*t->audios));
		t->audios[t->naudios++] = v;
	} else {
		t->videos = xreallocarray(t->videos, t->nvideos + 1, sizeof(*t->videos));
		t->videos[t->nvideos++] = v;
	}
}

void
av_copy_media(struct turn *u, const struct turn *from)
{
	for (size_t i = 0; i < from->naudios; i++) {
		u->audios = xreallocarray(u->audios, u->naudios + 1, sizeof(*u->audios));
		u->audios[u->naudios++] = from->audios[i];
	}
	for (size_t i = 0; i < from->nvideos; i++) {
		u->videos = xreallocarray(u->videos, u->nvideos + 1, sizeof(*u->videos));
		u->videos[u->nvideos++] = from->videos[i];
	}
}

void
av_content(struct jw *w, const struct turn *t)
{
	for (size_t i = 0; i < t->naudios; i++) {
		const char *s = t->audios[i], *comma = strchr(s, ',');

		if (!*s)
			continue;
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, "input_audio");
		jw_key(w, "input_audio");
		jw_obj(w);
		jw_key(w, "data");
		jw_str(w, comma ? comma + 1 : s);
		jw_key(w, "format");
		if (comma) {
			jw_strn(w, s, (size_t)(comma - s));
		} else {	/* a URL: its extension */
			char ext[16];

			extension(s, ext, sizeof(ext));
			jw_str(w, ext);
		}
		jw_obj_end(w);
		jw_obj_end(w);
	}
	for (size_t i = 0; i < t->nvideos; i++) {
		if (!*t->videos[i])
			continue;
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, "video_url");
		jw_key(w, "video_url");
		jw_obj(w);
		jw_key(w, "url");
		jw_str(w, t->videos[i]);
		jw_obj_end(w);
		jw_obj_end(w);
	}
}
