/* SPDX-License-Identifier: Apache-2.0 */
/* Process-level helpers: messages, dying, checked allocation, number parsing. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zstd.h>
#include "runlog.h"

const char *argv0 = "aiperf";

void
util_setprogname(const char *name)
{
	const char *slash = strrchr(name, '/');

	argv0 = slash ? slash + 1 : name;
}

static void __attribute__((format(printf, 2, 0)))
vmsg(enum runlog_level level, const char *fmt, va_list ap)
{
	int saved = errno;
	size_t n = strlen(fmt);
	char text[2048];

	char line[sizeof(text) + 256];
	int len;

	vsnprintf(text, sizeof(text), fmt, ap);
	/* one write: the messages of stages sharing a terminal (several
	 * senders stopping at once) must not cut into one another */
	len = snprintf(line, sizeof(line), "%s: %s%s%s\n", argv0, text,
		       n && fmt[n - 1] == ':' ? " " : "",
		       n && fmt[n - 1] == ':' ? util_strerror(saved) : "");
	if (len < 0 || (size_t)len >= sizeof(line))
		len = (int)sizeof(line) - 1, line[len - 1] = '\n';
	fflush(stderr);
	for (const char *p = line; len > 0;) {
		ssize_t w = write(STDERR_FILENO, p, (size_t)len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		len -= (int)w;
	}
	if (n && fmt[n - 1] == ':')
		runlog(level, "%s %s", text, util_strerror(saved));
	else
		runlog(level, "%s", text);
	errno = saved;
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(RUNLOG_ERROR, fmt, ap);
	va_end(ap);
	exit(1);
}

void
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(RUNLOG_ERROR, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", argv0);
	exit(2);
}

void
die_write(void)
{
	if (errno == EPIPE)
		exit(0);	/* flushing stdout again fails quietly */
	die("write error:");
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(RUNLOG_WARNING, fmt, ap);
	va_end(ap);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(RUNLOG_ERROR, fmt, ap);
	va_end(ap);
	return -1;
}

static _Noreturn void
oom(size_t n)
{
	fprintf(stderr, "%s: out of memory allocating %zu bytes\n", argv0, n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrfmt(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

int
util_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int
util_strtonum(const char *s, long long min, long long max, long long *out,
	      const char **why)
{
	char *end;
	long long v;

	errno = 0;
	if (!*s || (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))) {
		*why = "invalid";
		return -1;
	}
	v = strtoll(s, &end, 10);
	if (*end) {
		*why = "invalid";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MIN) || v < min) {
		*why = "too small";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MAX) || v > max) {
		*why = "too large";
		return -1;
	}
	*out = v;
	return 0;
}

int
util_choice_eq(const char *s, const char *canon)
{
	for (; *s && *canon; s++, canon++)
		if (tolower((unsigned char)*s) != *canon && !(*s == '-' && *canon == '_'))
			return 0;
	return !*s && !*canon;
}

int
util_strtod(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || *s == ' ')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

long long
opt_int(const char *opt, const char *arg, long long min, long long max)
{
	long long v;
	const char *why;

	if (util_strtonum(arg, min, max, &v, &why) < 0)
		die_usage("invalid value for %s: '%s': %s (allowed %lld..%lld)",
			  opt, arg, why, min, max);
	return v;
}

double
opt_double(const char *opt, const char *arg, double min, double max)
{
	double v;

	if (util_strtod(arg, &v) < 0)
		die_usage("invalid value for %s: '%s': not a number", opt, arg);
	if (v < min || v > max)
		die_usage("invalid value for %s: '%s': out of range (%g..%g)",
			  opt, arg, min, max);
	return v;
}

int
util_fshut(FILE *f, const char *name)
{
	int ret = 0;

	if (fflush(f) == EOF && errno != EPIPE)
		ret = error("write error on '%s':", name);
	if (fclose(f) == EOF && errno != EPIPE && !ret)
		ret = error("cannot close '%s':", name);
	return ret;
}

static char *
zstd_inflate(char *src, size_t n, size_t max, size_t *len)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	size_t cap = 1 << 20, used = 0, r = 1;
	char *dst = xmalloc(cap);
	ZSTD_inBuffer in = { src, n, 0 };

	ZSTD_initDStream(z);
	while (in.pos < in.size || r != 0) {
		if (used + 1 >= cap) {
			if (cap >= max + 1)
				goto toobig;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			dst = xrealloc(dst, cap);
		}
		ZSTD_outBuffer out = { dst, cap - 1, used };
		size_t before = in.pos;
		r = ZSTD_decompressStream(z, &out, &in);
		if (ZSTD_isError(r) || (r && in.pos == before && out.pos == used
					&& in.pos == in.size)) {
			errno = EILSEQ;
			goto fail;
		}
		used = out.pos;
	}
	ZSTD_freeDStream(z);
	dst[used] = '\0';
	*len = used;
	return dst;
toobig:
	errno = EFBIG;
fail:
	ZSTD_freeDStream(z);
	free(dst);
	return NULL;
}

#undef strerror
const char *
util_strerror(int err)
{
	return err == EFTYPE ? "Not a regular file" : strerror(err);
}

int
util_openfile(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int e = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (S_ISDIR(st.st_mode))
		e = EISDIR;
	else if (!S_ISREG(st.st_mode))
		e = EFTYPE;
	else if (max && (uintmax_t)st.st_size > max)
		e = EFBIG;
	else if (fcntl(fd, F_SETFL, O_RDONLY) < 0)
		e = errno;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

char *
util_readfile(const char *path, size_t max, size_t *len)
{
	size_t plen = strlen(path), cap = 1 << 16, used = 0;
	int zst = plen > 4 && !strcmp(path + plen - 4, ".zst");
	int fd = util_openfile(path, max);
	char *buf, *out;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (used + 1 == cap) {
			if (cap > max + 1) {
				close(fd);
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	if (n < 0) {
		int e = errno;
		close(fd);
		free(buf);
		errno = e;
		return NULL;
	}
	close(fd);
	buf[used] = '\0';
	if (zst) {
		out = zstd_inflate(buf, used, max, len);
		free(buf);
		return out;
	}
	if (used > max) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	*len = used;
	return buf;
}

int
util_fastpath(void)
{
	static _Atomic int on = -1;
	int v = atomic_load_explicit(&on, memory_order_relaxed);

	if (v < 0) {
		const char *e = getenv("AIPERF_NO_FASTPATH");

		v = !(e && *e && strcmp(e, "0"));
		atomic_store_explicit(&on, v, memory_order_relaxed);
	}
	return v;
}

/* Random (version 4) UUID text from /dev/urandom. */
void
util_uuid4(char out[37])
{
	unsigned char r[16];
	FILE *f = fopen("/dev/urandom", "rb");

	size_t got = f ? fread(r, 1, sizeof(r), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(r))
		die("cannot read /dev/urandom");
	r[6] = (unsigned char)((r[6] & 0x0F) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3F) | 0x80);
	for (int i = 0, k = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		snprintf(out + k, 3, "%02x", r[i]);
		k += 2;
	}
	out[36] = '\0';
}

const char *
util_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int
util_env_true(const char *name)
{
	const char *v = getenv(name);

	return v && (!strcmp(v, "1") || !strcasecmp(v, "on") ||
		     !strcasecmp(v, "yes") || !strcasecmp(v, "true"));
}

int
util_mkdirs(const char *path)
{
	char *p = xstrdup(path);
	struct stat st;
	int rc = 0;

	for (char *s = p + 1; *s && rc == 0; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (rc == 0 && mkdir(p, 0777) < 0 && errno != EEXIST)
		rc = -1;
	if (rc == 0 && stat(p, &st) == 0 && !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		rc = -1;
	}
	free(p);
	return rc;
}
