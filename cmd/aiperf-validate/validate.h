/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-validate internals: one run of checks over an artifact directory. */
#ifndef AIPERF_VALIDATE_H
#define AIPERF_VALIDATE_H

#include <stddef.h>

#include "artifacts.h"
#include "buf.h"
#include "json/json.h"
#include "summary/accuracy.h"
#include "summary/agg.h"
#include "summary/slices.h"
#include "summary/summary.h"

/*
 * struct vrun owns its paths, the parsed summary and the records'
 * aggregate and accuracy sums; vrun_release() (main.c) frees them. Every check prints
 * one line through vrun_report().
 */
#define MAX_TEXT ((size_t)1 << 30)

enum { V_FAIL, V_OK, V_SKIP };

struct vopts {
	const char *prefix, *level, *goodput;
	double slice;
};

struct vrun {
	struct vopts o;
	const char *dir;
	enum level lvl;
	const char *lvl_from;	/* where lvl comes from, for the files line */
	char *path[ART_N], *inputs;
	struct json_doc *doc;
	const struct json *sum;	/* the JSON summary, or NULL */
	const struct json *cfg;	/* its input_config, or NULL */
	struct agg a;
	struct accsum acc;	/* the records' accuracy.* entries */
	struct slices sl;
	int have_records;	/* the records were read whole */
	size_t nchecks, nfailed;
	struct buf failed;
};

/* Print "ok|FAIL|skip name: message"; count it. Returns st. */
__attribute__((format(printf, 4, 5)))
int vrun_report(struct vrun *v, int st, const char *name, const char *fmt, ...);
/* path as messages name it: relative to the directory checked. */
const char *vrun_rel(const struct vrun *v, const char *path);
/* 1 when path is a regular file. */
int vrun_exists(const char *path);
/* A whole file as a JSON value in doc, or NULL with why. */
const struct json *vrun_load_json(struct json_doc *doc, const char *path, char *why,
				  size_t whylen);
/* The "avg" of metric tag in the JSON summary; 0 when absent. */
double vrun_avg(const struct json *sum, const char *tag);
/* checks.c: the files, their syntax and counts (why: the summary's
 * parse error, if any); the records read into v->a and v->sl. */
void vrun_check(struct vrun *v, const char *why);
/* recompute.c: the summary, CSV and timeslice checks. */
void vrun_recompute(struct vrun *v);
/* gpu.c: telemetry_data against gpu_telemetry_export.jsonl; sm: the
 * records' summary, for the profiling window. */
void vrun_gpu(struct vrun *v, const struct summary *sm);

/* cmp.c: reading our CSV back, comparing files with recomputed texts. */
struct csvrow {
	char **f;		/* fields, unquoted, NUL-terminated */
	size_t n;		/* 0 for an empty line */
};

struct csv {
	struct csvrow *rows;
	size_t n;
};

/* Parse s[0..n) as csv.writer writes it (CRLF, minimal quoting): 0, or -1
 * with why naming the line. csv_release() frees c, either way. */
int csv_read(const char *s, size_t n, struct csv *c, char *why, size_t whylen);
void csv_release(struct csv *c);
/* 0 when got has want's lines and texts, numbers within a rounding of
 * %.2f; column skipcol (or -1) is not compared. -1 with why at the first
 * difference, which names want as coming from src ("the records"). */
int csv_compare(const struct csv *got, const struct csv *want, int skipcol, const char *src,
		char *why, size_t whylen);
/* 0 when got equals want (numbers within 1e-9 relative, objects in the
 * same key order), leaving out got's and want's top-level keys in skip
 * (NULL-terminated); else -1 with why naming the first difference. */
int json_compare(const struct json *got, const struct json *want, const char *const *skip,
		 const char *src, char *why, size_t whylen);


#endif
