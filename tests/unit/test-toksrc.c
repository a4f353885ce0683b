/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/toksrc and lib/hfhub: names, paths, the HF cache, downloads from a loopback hub. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tok/hfhub.h"
#include "test.h"
#include "tok/toksrc.h"
#include "util.h"

#define C1 "1111111111111111111111111111111111111111"
#define C2 "2222222222222222222222222222222222222222"
#define C3 "3333333333333333333333333333333333333333"
#define C4 "4444444444444444444444444444444444444444"
#define E1 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define TOKJSON "{\"model\":{\"type\":\"BPE\"}}"
#define CFGJSON "{\"bos_token\":\"<s>\"}"

/* The fake engine: only toksrc.o comes from the archive, never tok.o. */
static char opened[4096];
static int dummy_tok;

struct tok *
tok_open(const char *path, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	snprintf(opened, sizeof(opened), "%s", path);
	return (struct tok *)(void *)&dummy_tok;
}

static int specials_allowed;

void
tok_allow_specials(struct tok *t)
{
	(void)t;
	specials_allowed++;
}

static char tmp[] = "/tmp/test-toksrc-XXXXXX";
static char err[1024];

/* A loopback hub: one thread answering one request per connection. */
static struct {
	int fd, port, nreq;
	pthread_t th;
	pthread_mutex_t mu;
	char path[512], auth[256], log[16384];
} srv = { .mu = PTHREAD_MUTEX_INITIALIZER };

static void
send_all(int c, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t k = send(c, s, n, MSG_NOSIGNAL);

		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

static void
reply(int c, int status, const char *headers, const char *body)
{
	char h[1024];
	int n = snprintf(h, sizeof(h), "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n%s\r\n", status, strlen(body),
			 headers);

	send_all(c, h, (size_t)n);
	send_all(c, body, strlen(body));
}

/* Without a length the body runs until the client hangs up (or 1 MiB). */
static void
stream(int c)
{
	static char chunk[16384];
	const char *h = "HTTP/1.1 200 OK\r\nConnection: close\r\n"
			"X-Repo-Commit: " C1 "\r\n\r\n";

	memset(chunk, 'x', sizeof(chunk));
	send_all(c, h, strlen(h));
	for (int i = 0; i < 64; i++)
		if (send(c, chunk, sizeof(chunk), MSG_NOSIGNAL) <= 0)
			break;
}

static int
is(const char *path, const char *repo, const char *file)
{
	size_t n = strlen(repo);

	return !strncmp(path, repo, n) && !strncmp(path + n, "/resolve/", 9) &&
	       strlen(path) > strlen(file) &&
	       !strcmp(path + strlen(path) - strlen(file), file);
}

static void
route(int c, const char *p, const char *auth)
{
	const char *cfg = "tokenizer_config.json", *tok = "tokenizer.json";
	const char *huge = "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n"
			   "X-Repo-Commit: " C1 "\r\n\r\n";

	if (is(p, "/acme/dl", tok))
		reply(c, 200, "X-Repo-Commit: " C1 "\r\nX-Linked-Etag: \"" E1
		      "\"\r\nETag: \"other\"\r\n", TOKJSON);
	else if (is(p, "/acme/dl", cfg))
		reply(c, 200, "ETag: \"cfg1\"\r\n", CFGJSON);
	else if (is(p, "/acme/noconf", tok))
		reply(c, 200, "X-Repo-Commit: " C2 "\r\nETag: W/\"e2\"\r\n", TOKJSON);
	else if (is(p, "/acme/moved", tok))
		reply(c, 302, "Location: /acme/dl/resolve/main/tokenizer.json\r\n"
		      "X-Repo-Commit: " C4 "\r\nX-Linked-Etag: \"e4\"\r\n", "");
	else if (is(p, "/acme/gated", tok) && strcmp(auth, "Bearer sekrit"))
		reply(c, 401, "", "Invalid credentials");
	else if (is(p, "/acme/gated", tok))
		reply(c, 200, "X-Repo-Commit: " C3 "\r\n", TOKJSON);
	else if (is(p, "/acme/nocommit", tok))
		reply(c, 200, "", TOKJSON);
	else if (is(p, "/acme/nocommit", cfg))
		reply(c, 200, "", CFGJSON);
	else if (is(p, "/acme/badcommit", tok))
		reply(c, 200, "X-Repo-Commit: ../../../etc\r\n", TOKJSON);
	else if (is(p, "/acme/huge", tok))
		send_all(c, huge, strlen(huge));
	else if (is(p, "/acme/stream", tok))
		stream(c);
	else
		reply(c, 404, "", "Repository not found");
}

/* Read the request head; return the path, or NULL. */
static char *
read_request(int c, char *req, size_t cap, char *auth, size_t authlen)
{
	size_t n = 0;
	char *p, *sp;

	while (n + 1 < cap && !strstr(req, "\r\n\r\n")) {
		ssize_t k = recv(c, req + n, cap - n - 1, 0);

		if (k <= 0)
			return NULL;
		n += (size_t)k;
		req[n] = '\0';
	}
	auth[0] = '\0';
	for (p = strstr(req, "\r\n"); p; p = strstr(p + 2, "\r\n"))
		if (!strncasecmp(p + 2, "Authorization: ", 15))
			snprintf(auth, authlen, "%.*s", (int)strcspn(p + 17, "\r"),
				 p + 17);
	if (strncmp(req, "GET ", 4) || !(sp = strchr(req + 4, ' ')))
		return NULL;
	*sp = '\0';
	return req + 4;
}

static void *
serve(void *arg)
{
	char req[8192], auth[256];

	(void)arg;
	for (;;) {
		int c = accept(srv.fd, NULL, NULL);
		char *path;

		if (c < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		memset(req, 0, sizeof(req));
		path = read_request(c, req, sizeof(req), auth, sizeof(auth));
		pthread_mutex_lock(&srv.mu);
		srv.nreq++;
		snprintf(srv.path, sizeof(srv.path), "%.511s", path ? path : "");
		snprintf(srv.auth, sizeof(srv.auth), "%s", auth);
		if (strlen(srv.log) + strlen(srv.path) + 2 < sizeof(srv.log))
			snprintf(srv.log + strlen(srv.log),
				 sizeof(srv.log) - strlen(srv.log), "%s\n", srv.path);
		pthread_mutex_unlock(&srv.mu);
		if (path && !strcmp(path, "/quit")) {
			close(c);
			break;
		}
		if (path)
			route(c, path, auth);
		close(c);
	}
	return NULL;
}

static void
start_server(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	srv.fd = socket(AF_INET, SOCK_STREAM, 0);
	if (srv.fd < 0 || bind(srv.fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(srv.fd, 16) < 0 ||
	    getsockname(srv.fd, (struct sockaddr *)&a, &len) < 0)
		abort();
	srv.port = ntohs(a.sin_port);
	if (pthread_create(&srv.th, NULL, serve, NULL))
		abort();
}

static void
stop_server(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int c = socket(AF_INET, SOCK_STREAM, 0);
	const char *q = "GET /quit HTTP/1.1\r\n\r\n";

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)srv.port);
	if (c >= 0 && connect(c, (struct sockaddr *)&a, sizeof(a)) == 0)
		send_all(c, q, strlen(q));
	pthread_join(srv.th, NULL);
	close(c);
	close(srv.fd);
}

static int
nreq(void)
{
	int n;

	pthread_mutex_lock(&srv.mu);
	n = srv.nreq;
	pthread_mutex_unlock(&srv.mu);
	return n;
}

/* The last request's path or Authorization value, copied under the lock. */
static const char *
last(int auth)
{
	static char b[512];

	pthread_mutex_lock(&srv.mu);
	snprintf(b, sizeof(b), "%s", auth ? srv.auth : srv.path);
	pthread_mutex_unlock(&srv.mu);
	return b;
}

static int
requested(const char *path)
{
	int found;

	pthread_mutex_lock(&srv.mu);
	found = strstr(srv.log, path) != NULL;
	pthread_mutex_unlock(&srv.mu);
	return found;
}

/* tmp/dir/rel, in one of a few rotating buffers. */
static const char *
R(const char *dir, const char *rel)
{
	static char b[4][4096];
	static int i;

	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "%s/%s%s%s", tmp, dir, *rel ? "/" : "", rel);
	return b[i];
}

#define T(rel) R(rel, "")

static void
put(const char *path, const char *data)
{
	char dir[4096], *s, cmd[4200];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((s = strrchr(dir, '/')))
		*s = '\0';
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	if (system(cmd) != 0 || !(f = fopen(path, "w")))
		abort();
	fputs(data, f);
	fclose(f);
}

static int
same_text(const char *path, const char *want)
{
	size_t len;
	char *s = util_readfile(path, 1 << 20, &len);
	int ok = s && !strcmp(s, want);

	free(s);
	return ok;
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Resolve, keeping the message; returns the path or "ERR". */
static const char *
res(const char *spec, const char *rev)
{
	static char out[4096];
	char *p = toksrc_resolve(spec, rev, err, sizeof(err));

	snprintf(out, sizeof(out), "%s", p ? p : "ERR");
	if (!p)
		printf("# %s\n", err);
	free(p);
	return out;
}

static void
test_names(void)
{
	setenv("AIPERF_DATA_DIR", T("data"), 1);
	put(T("data/o200k_base.tiktoken.zst"), "x");
	put(T("data/cl100k_base.tiktoken"), "x");
	TEST_STR("datadir: AIPERF_DATA_DIR", toksrc_datadir(), T("data"));
	TEST_STR("builtin is shipped o200k_base", res("builtin", NULL),
		 T("data/o200k_base.tiktoken.zst"));
	TEST_STR("o200k_base", res("o200k_base", "v1"),
		 T("data/o200k_base.tiktoken.zst"));
	TEST_STR("cl100k_base, uncompressed", res("cl100k_base", NULL),
		 T("data/cl100k_base.tiktoken"));
	TEST("unshipped tiktoken names: a clear error",
	     !strcmp(res("p50k_base", NULL), "ERR") && strstr(err, "not shipped"));
	TEST("tok_load hands the path to tok_open",
	     tok_load("builtin", NULL, err, sizeof(err)) &&
	     !strcmp(opened, T("data/o200k_base.tiktoken.zst")));
	TEST("builtin matches specials in text, as the original's adapter",
	     specials_allowed == 1);
	TEST("o200k_base by name keeps encode_ordinary",
	     tok_load("o200k_base", NULL, err, sizeof(err)) && specials_allowed == 1);
	setenv("AIPERF_DATA_DIR", T("nodata"), 1);
	TEST("missing data: error names AIPERF_DATA_DIR",
	     !strcmp(res("builtin", NULL), "ERR") && strstr(err, "AIPERF_DATA_DIR"));
	TEST("tok_load fails without calling tok_open",
	     (opened[0] = '\0', !tok_load("builtin", NULL, err, sizeof(err))) &&
	     !opened[0]);
	unsetenv("AIPERF_DATA_DIR");
	TEST("datadir: without AIPERF_DATA_DIR, beside the binary or DATADIR",
	     toksrc_datadir()[0] == '/');
}

static void
test_paths(void)
{
	put(T("m/tokenizer.json"), "{}");
	put(T("z/tokenizer.json.zst"), "x");
	put(T("e/other.txt"), "x");
	put(T("local/org/name/tokenizer.json"), "{}");
	TEST_STR("a file", res(T("m/tokenizer.json"), NULL), T("m/tokenizer.json"));
	TEST_STR("a folder with tokenizer.json", res(T("m"), NULL), T("m"));
	TEST_STR("a folder with tokenizer.json.zst", res(T("z"), NULL), T("z"));
	TEST("a folder without one", !strcmp(res(T("e"), NULL), "ERR") &&
	     strstr(err, "holds no tokenizer.json"));
	TEST("a missing file", !strcmp(res(T("m/nope.json"), NULL), "ERR") &&
	     strstr(err, "No such file"));
	TEST("a missing relative .tiktoken", !strcmp(res("x.tiktoken", NULL), "ERR"));
	TEST("empty name", !strcmp(res("", NULL), "ERR"));
	if (chdir(T("local")) == 0)
		TEST_STR("a local folder wins over a hub id", res("org/name", NULL),
			 "org/name");
	if (chdir(tmp) != 0)
		abort();
}

static void
test_hostile(void)
{
	static const char *bad[] = {
		"../etc/passwd", "org/../x", "a/b/c", "org--x/name", "-org/x",
		"org/x-", "org/x.git", "/abs/x", "org/na me", "org/", "/",
		"org/n\xc3\xa9", "org/..", "~/x",
	};
	static const char *badrev[] = {
		"../x", "a/../b", "/main", "main/", "a//b", ".hidden", "refs/.x",
		"a b", "a\tb", "",
	};
	char name[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(name, sizeof(name), "rejected id '%s'", bad[i]);
		TEST(name, !hfhub_valid_id(bad[i]) &&
		     !strcmp(res(bad[i], NULL), "ERR"));
	}
	for (size_t i = 0; i < sizeof(badrev) / sizeof(*badrev); i++) {
		snprintf(name, sizeof(name), "rejected revision '%s'", badrev[i]);
		TEST(name, !hfhub_valid_revision(badrev[i]));
	}
	TEST("revision '../x' rejected by resolve",
	     !strcmp(res("acme/x", "../x"), "ERR") && strstr(err, "invalid revision"));
	TEST("valid ids", hfhub_valid_id("Qwen/Qwen2.5-7B_x") &&
	     hfhub_valid_id("gpt2"));
	TEST("valid revisions", hfhub_valid_revision("main") &&
	     hfhub_valid_revision("refs/pr/1") && hfhub_valid_revision("v1.0+x"));
}

static void
test_cache(void)
{
	const char *repo = "hub/models--acme--tiny";
	char p[256];

	setenv("HF_HUB_CACHE", T("hub"), 1);
	setenv("HF_HUB_OFFLINE", "1", 1);
	snprintf(p, sizeof(p), "%s/refs/main", repo);
	put(T(p), C1);
	snprintf(p, sizeof(p), "%s/refs/v2", repo);
	put(T(p), C2 "\n");
	snprintf(p, sizeof(p), "%s/refs/refs/pr/1", repo);
	put(T(p), C3);
	snprintf(p, sizeof(p), "%s/refs/bad", repo);
	put(T(p), "../../x");
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/snapshots/%s/tokenizer.json", repo,
			 (const char *[]){ C1, C2, C3 }[i]);
		put(T(p), "{}");
	}
	TEST_STR("cache: refs/main", res("acme/tiny", NULL),
		 T("hub/models--acme--tiny/snapshots/" C1));
	TEST_STR("cache: refs/v2 with a newline", res("acme/tiny", "v2"),
		 T("hub/models--acme--tiny/snapshots/" C2));
	TEST_STR("cache: refs/pr/1", res("acme/tiny", "refs/pr/1"),
		 T("hub/models--acme--tiny/snapshots/" C3));
	TEST_STR("cache: a commit hash", res("acme/tiny", C2),
		 T("hub/models--acme--tiny/snapshots/" C2));
	TEST("offline, not cached: suggests builtin",
	     !strcmp(res("acme/absent", NULL), "ERR") &&
	     strstr(err, "HF_HUB_OFFLINE") && strstr(err, "--tokenizer builtin"));
	TEST("offline, a corrupt ref is not a hit",
	     !strcmp(res("acme/tiny", "bad"), "ERR"));
	put(T("hub/models--openai-community--gpt9/snapshots/" C1 "/tokenizer.json"), "{}");
	put(T("hub/models--openai-community--gpt9/refs/main"), C1);
	TEST_STR("cache: an id without ORG found under its ORG",
		 res("GPT9", NULL), T("hub/models--openai-community--gpt9/snapshots/" C1));
	put(T("hub/models--other--gpt9/refs/main"), C1);
	TEST("cache: two candidates for an id without ORG: none",
	     !strcmp(res("gpt9", NULL), "ERR"));
	unsetenv("HF_HUB_OFFLINE");
	setenv("TRANSFORMERS_OFFLINE", "1", 1);
	TEST("TRANSFORMERS_OFFLINE counts as offline",
	     !strcmp(res("acme/absent", NULL), "ERR") && strstr(err, "off limits"));
	unsetenv("TRANSFORMERS_OFFLINE");
	setenv("HF_HUB_OFFLINE", "1", 1);
	unsetenv("HF_HUB_CACHE");
	setenv("HF_HOME", T("hfhome"), 1);
	put(T("hfhome/hub/models--gpt2/refs/main"), C1);
	put(T("hfhome/hub/models--gpt2/snapshots/" C1 "/tokenizer.json"), "{}");
	TEST_STR("cache: $HF_HOME/hub, a name without org", res("gpt2", NULL),
		 T("hfhome/hub/models--gpt2/snapshots/" C1));
	unsetenv("HF_HOME");
	setenv("XDG_CACHE_HOME", T("xdg"), 1);
	put(T("xdg/huggingface/hub/models--gpt2/snapshots/" C1 "/tokenizer.json"), "{}");
	TEST_STR("cache: $XDG_CACHE_HOME/huggingface/hub", res("gpt2", C1),
		 T("xdg/huggingface/hub/models--gpt2/snapshots/" C1));
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HF_HUB_OFFLINE");
}

static void
test_download(void)
{
	const char *dl = "hub/models--acme--dl";
	char link[256] = "", url[128];
	ssize_t n;
	int before;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", srv.port);
	setenv("HF_ENDPOINT", url, 1);
	setenv("HF_HUB_CACHE", T("hub"), 1);
	setenv("HF_HOME", T("hfhome"), 1);
	TEST_STR("download: snapshot of X-Repo-Commit", res("acme/dl", NULL),
		 T("hub/models--acme--dl/snapshots/" C1));
	TEST("download: tokenizer.json content",
	     same_text(R(dl, "snapshots/" C1 "/tokenizer.json"), TOKJSON));
	n = readlink(R(dl, "snapshots/" C1 "/tokenizer.json"), link,
		     sizeof(link) - 1);
	TEST_STR("download: linked to blobs/<X-Linked-Etag>",
		 n > 0 ? link : "", "../../blobs/" E1);
	TEST("download: tokenizer_config.json",
	     same_text(R(dl, "snapshots/" C1 "/tokenizer_config.json"),
		       CFGJSON) && exists(R(dl, "blobs/cfg1")));
	TEST("download: refs/main holds the commit, no newline",
	     same_text(R(dl, "refs/main"), C1));
	TEST("download: no request without Authorization", !last(1)[0]);
	before = nreq();
	TEST_STR("download: second time from the cache", res("acme/dl", NULL),
		 T("hub/models--acme--dl/snapshots/" C1));
	TEST("download: no request the second time", nreq() == before);

	TEST_STR("download: refs/pr/7", res("acme/dl", "refs/pr/7"),
		 T("hub/models--acme--dl/snapshots/" C1));
	TEST("download: '/' in the revision quoted in the URL",
	     requested("/acme/dl/resolve/refs%2Fpr%2F7/tokenizer.json\n"));
	TEST_STR("download: the config from the commit", last(0),
		 "/acme/dl/resolve/" C1 "/tokenizer_config.json");
	TEST("download: refs/refs/pr/7", same_text(R(dl, "refs/refs/pr/7"), C1));

	TEST_STR("download: config 404 is fine", res("acme/noconf", NULL),
		 T("hub/models--acme--noconf/snapshots/" C2));
	TEST("download: .no_exist marks the missing config",
	     exists(T("hub/models--acme--noconf/.no_exist/" C2 "/tokenizer_config.json")) &&
	     !exists(T("hub/models--acme--noconf/snapshots/" C2 "/tokenizer_config.json")));
	TEST("download: weak ETag stripped",
	     exists(T("hub/models--acme--noconf/blobs/e2")));

	TEST_STR("download: redirect keeps the hub's commit", res("acme/moved", NULL),
		 T("hub/models--acme--moved/snapshots/" C4));
	TEST("download: redirect keeps the hub's linked ETag",
	     same_text(T("hub/models--acme--moved/blobs/e4"), TOKJSON));

	TEST_STR("download: no X-Repo-Commit: named by the revision",
		 res("acme/nocommit", "v1"), T("hub/models--acme--nocommit/snapshots/v1"));
	TEST("download: no ETag: a plain file, no ref",
	     same_text(T("hub/models--acme--nocommit/snapshots/v1/tokenizer.json"), TOKJSON) &&
	     !exists(T("hub/models--acme--nocommit/refs/v1")));
	before = nreq();
	TEST_STR("download: a snapshot named by the revision is a cache hit",
		 res("acme/nocommit", "v1"), T("hub/models--acme--nocommit/snapshots/v1"));
	TEST("download: no request for it", nreq() == before);
}

static void
test_download_errors(void)
{
	char want[256];
	struct hfhub h;
	const char *files[] = { "tokenizer.json" };
	char *p;
	int leftover = 0;

	snprintf(want, sizeof(want), "'http://127.0.0.1:%d/acme/missing/resolve/"
		 "main/tokenizer.json': HTTP 404", srv.port);
	TEST("404: URL and status", !strcmp(res("acme/missing", NULL), "ERR") &&
	     strstr(err, want));
	TEST("401 without a token: says HF_TOKEN",
	     !strcmp(res("acme/gated", NULL), "ERR") && strstr(err, "HTTP 401") &&
	     strstr(err, "HF_TOKEN") && !strstr(err, "sekrit"));
	put(T("hfhome/token"), "sekrit\n");
	TEST_STR("gated: token from $HF_HOME/token", res("acme/gated", NULL),
		 T("hub/models--acme--gated/snapshots/" C3));
	TEST_STR("gated: Authorization header sent", last(1), "Bearer sekrit");
	unlink(T("hfhome/token"));
	setenv("HF_TOKEN", "sekrit", 1);
	TEST_STR("gated: HF_TOKEN", res("acme/gated", "v9"),
		 T("hub/models--acme--gated/snapshots/" C3));
	unsetenv("HF_TOKEN");
	TEST("invalid X-Repo-Commit rejected",
	     !strcmp(res("acme/badcommit", NULL), "ERR") &&
	     strstr(err, "X-Repo-Commit") && !exists(T("etc")));
	TEST("huge Content-Length capped", !strcmp(res("acme/huge", NULL), "ERR") &&
	     strstr(err, "larger than"));
	setenv("HF_ENDPOINT", "http://127.0.0.1:1", 1);
	TEST("connection refused: suggests builtin",
	     !strcmp(res("acme/dl2", NULL), "ERR") && strstr(err, "--tokenizer builtin"));
	unsetenv("HF_ENDPOINT");

	hfhub_init(&h);
	snprintf(h.endpoint, sizeof(h.endpoint), "http://127.0.0.1:%d", srv.port);
	h.max_bytes = 65536;
	p = hfhub_resolve(&h, "acme/stream", NULL, files, 1, err, sizeof(err));
	TEST("unbounded body capped", !p && strstr(err, "larger than 65536 bytes"));
	free(p);
	snprintf(want, sizeof(want), "ls -a '%s' | grep -q aiperf",
		 T("hub/models--acme--stream/blobs"));
	leftover = system(want) == 0;
	TEST("no temporary file left behind", !leftover);
}

int
main(void)
{
	char cmd[128];

	if (!mkdtemp(tmp))
		return 1;
	unsetenv("HF_TOKEN");
	unsetenv("HF_TOKEN_PATH");
	unsetenv("HF_HUB_OFFLINE");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HF_HUB_CACHE");
	setenv("HF_HOME", T("hfhome"), 1);
	test_names();
	test_paths();
	test_hostile();
	test_cache();
	start_server();
	test_download();
	test_download_errors();
	stop_server();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		return 1;
	return TEST_DONE();
}
