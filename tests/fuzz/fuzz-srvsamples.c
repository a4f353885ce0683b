/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: aiperf-scrape sample records through aiperf-export --server-samples: the reader, the window, the statistics, the JSON and CSV writers, and the scraper's client health. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../cmd/aiperf-export/srvmetrics.h"
#include "../../cmd/aiperf-export/accuracy.c"
#include "../../cmd/aiperf-export/srvcsv.c"
#include "../../cmd/aiperf-export/srvmetrics.c"
#include "../../cmd/aiperf-export/table.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exportopts eo = { .benchmark_id = "id", .version = "0.7.0" };
	struct summary sm = { .have_start = 1, .have_end = 1, .start_ns = 1000, .end_ns = INT64_MAX / 2 };
	struct client cl;
	struct srv s;
	char path[64];
	int fd = memfd_create("samples", 0);
	FILE *out;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	srv_init(&s);
	if (srv_read(&s, path, NULL) == 0) {
		srv_window(&s, sm.start_ns, sm.end_ns, 0.5);
		srv_compute(&s);
		if ((out = fopen("/dev/null", "w"))) {
			srv_json(out, &s, &eo);
			srv_csv(out, &s, &eo);
			fclose(out);
		}
		client_init(&cl);
		stats_vec_push(&cl.lateness, 5);
		stats_vec_push(&cl.late_at, 2000);
		client_scraper(&cl, &sm, s.spans, s.nspans, &eo.cs);
		client_release(&cl);
	}
	srv_release(&s);
	close(fd);
	return 0;
}
