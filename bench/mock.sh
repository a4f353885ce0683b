#!/bin/sh
# bench/mock.sh: aiperf-mock's cost and timing under many concurrent streams.
# Builds a minimal epoll SSE client (below) and, per scenario, reports the
# mock's CPU time beside that client's (the ratio shows whether the mock
# could be a benchmark's bottleneck), the mock's late chunks (> 1 ms behind
# schedule) and the client's observation delay (arrival - aiperf_send_ns).
# With wrk installed it also compares non-streaming completions with /health
# on the same mock. Usage: bench/mock.sh [streams tokens itl_ms [mock args]]
set -eu
cd "$(dirname "$0")/.."
MOCK=$PWD/bin/aiperf-mock
[ -x "$MOCK" ] || { echo "bench/mock.sh: run make first" >&2; exit 1; }
tmp=$(mktemp -d)
mock_pid=
cleanup() {
	[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

cat >"$tmp/client.c" <<'C'
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
struct c { int fd, done; long chunks; size_t sent; char win[8]; int wl; };
static int64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
static int cmp(const void *a, const void *b) { int64_t x = *(const int64_t *)a, y = *(const int64_t *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
	int port = atoi(argv[1]), n = atoi(argv[2]), toks = atoi(argv[3]);
	struct rlimit rl; getrlimit(RLIMIT_NOFILE, &rl); rl.rlim_cur = rl.rlim_max; setrlimit(RLIMIT_NOFILE, &rl);
	char body[256], req[512];
	int bl = snprintf(body, sizeof body, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"max_tokens\":%d}", toks);
	int rlen = snprintf(req, sizeof req, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", bl, body);
	int ep = epoll_create1(0), left = n, errors = 0, one = 1;
	struct c *cs = calloc(n, sizeof *cs);
	size_t maxl = (size_t)n * toks + 16, nl = 0;
	int64_t *lag = malloc(maxl * 8);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	for (int i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		struct sockaddr_in src = { .sin_family = AF_INET };
		src.sin_addr.s_addr = htonl(0x7f000001u + (unsigned)(i % 8));
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, 4);
		setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, 4);
		if (fd < 0 || bind(fd, (void *)&src, sizeof src) < 0) { perror("socket"); return 1; }
		connect(fd, (void *)&a, sizeof a);
		cs[i].fd = fd;
		struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN, .data.ptr = &cs[i] };
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	}
	static char buf[1 << 16];
	struct epoll_event evs[1024];
	while (left > 0) {
		int k = epoll_wait(ep, evs, 1024, 30000);
		if (k <= 0) break;
		int64_t t = now();
		for (int i = 0; i < k; i++) {
			struct c *c = evs[i].data.ptr;
			if (c->done) continue;
			if ((evs[i].events & EPOLLOUT) && c->sent < (size_t)rlen) {
				ssize_t w = write(c->fd, req + c->sent, rlen - c->sent);
				if (w > 0) c->sent += w;
				if (c->sent == (size_t)rlen) { struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c }; epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev); }
				continue;
			}
			ssize_t r = read(c->fd, buf, sizeof buf - 1);
			if (r < 0 && errno == EAGAIN) continue;
			if (r <= 0) { c->done = 1; errors++; left--; close(c->fd); continue; }
			buf[r] = 0;
			for (char *p = buf; (p = strstr(p, "\"aiperf_send_ns\":")); ) {
				p += 17;
				int64_t s = strtoll(p, &p, 10);
				if (nl < maxl) lag[nl++] = t - s;
				c->chunks++;
			}
			int take = r < 8 ? (int)r : 8;
			if (c->wl + take > 8) { int d = c->wl + take - 8; memmove(c->win, c->win + d, c->wl - d); c->wl -= d; }
			memcpy(c->win + c->wl, buf + r - take, take); c->wl += take;
			if (c->wl >= 5 && !memcmp(c->win + c->wl - 5, "0\r\n\r\n", 5)) { c->done = 1; left--; close(c->fd); }
		}
	}
	long bad = 0;
	for (int i = 0; i < n; i++) bad += cs[i].chunks != toks;
	qsort(lag, nl, 8, cmp);
	struct rusage ru; getrusage(RUSAGE_SELF, &ru);
	printf("%d %d %ld %zu %.0f %.1f %.1f\n", errors + left, 0, bad, nl,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
	       nl ? lag[nl / 2] / 1e3 : 0, nl ? lag[nl * 99 / 100] / 1e3 : 0);
	return 0;
}
C
${CC:-cc} -O2 -o "$tmp/client" "$tmp/client.c"

start_mock() {
	rm -f "$tmp/url"
	"$MOCK" --port 0 "$@" >"$tmp/url" 2>/dev/null &
	mock_pid=$!
	i=0
	while [ ! -s "$tmp/url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	url=$(cat "$tmp/url")
	port=${url##*:}
}

stop_mock() {
	kill "$mock_pid"
	wait "$mock_pid" 2>/dev/null || true
	mock_pid=
}

cpu_ms() {
	awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$1/stat"
}

metric() {
	curl -s "$url/metrics" | awk -v m="aiperf_mock_$1" '$1 == m { print $2 }'
}

# scenario streams tokens itl_ms [mock args]
scenario() {
	n=$1 t=$2 itl=$3
	shift 3
	start_mock --ttft-ms 20 --itl-ms "$itl" "$@"
	c0=$(cpu_ms "$mock_pid")
	# shellcheck disable=SC2046 # the client prints one line of fields
	set -- $("$tmp/client" "$port" "$n" "$t")
	c1=$(cpu_ms "$mock_pid")
	late=$(metric late_chunks_total)
	lag=$(metric chunk_lag_max_seconds)
	stop_mock
	printf '%7s %6s %6s | %6s %7s | %8s %9s %6s | %7s %8s | %8s %8s\n' \
		"$n" "$t" "$itl" "$1" "$4" "$((c1 - c0))" "$5" \
		"$(awk -v a="$((c1 - c0))" -v b="$5" 'BEGIN { printf "%.2f", b ? a / b : 0 }')" \
		"$late" "$(awk -v l="$lag" 'BEGIN { printf "%.2f", l * 1000 }')" "$6" "$7"
}

echo "host: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%7s %6s %6s | %6s %7s | %8s %9s %6s | %7s %8s | %8s %8s\n' streams tokens itl_ms \
	errors chunks mock_ms client_ms ratio late lag_ms delay_p50 delay_p99
if [ $# -ge 3 ]; then
	scenario "$@"
else
	scenario 100 200 5 --jitter-ms 2
	scenario 1000 100 5
	scenario 1000 100 5 --jitter-ms 2
	scenario 5000 20 50
fi

command -v wrk >/dev/null || exit 0
cat >"$tmp/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"m","prompt":"hello world","max_tokens":16}'
wrk.headers["Content-Type"] = "application/json"
LUA
start_mock --fast
health=$(wrk -t1 -c64 -d3s "$url/health" | awk '/Requests\/sec/ { print $2 }')
compl=$(wrk -t1 -c64 -d3s -s "$tmp/post.lua" "$url/v1/completions" | awk '/Requests\/sec/ { print $2 }')
stop_mock
echo "wrk -t1 -c64 -d3s, --fast: /health $health req/s, /v1/completions (16 tokens) $compl req/s, ratio $(awk -v a="$compl" -v b="$health" 'BEGIN { printf "%.2f", a / b }')"
