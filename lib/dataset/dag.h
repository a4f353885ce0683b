/* SPDX-License-Identifier: Apache-2.0 */
/* dag_jsonl files: conversations with FORK and SPAWN branches, validated as the original's loader. */
#ifndef AIPERF_DAG_H
#define AIPERF_DAG_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "json/json.h"

/*
 * struct dag owns one JSON arena holding every line read; the turns'
 * json pointers point into it and are valid until dag_release(). Call
 * dag_add_line() for each line of the file (lines counted from 1), then
 * dag_finish() once: it desugars the branches, resolves their targets and
 * runs the original's checks (DagJsonlLoader: _parse_lines,
 * _desugar_forks, _resolve_and_validate, _compute_roots), with its
 * messages.
 *
 * Bounds: a conversation has at most DAG_TURNS_MAX turns, a file at most
 * DAG_CONVS_MAX conversations, a turn at most DAG_CHILDREN_MAX children;
 * the tree a root unfolds to (SPAWN targets may be shared, so a file can
 * describe an exponential tree) has at most DAG_TREE_MAX conversations and
 * DAG_DEPTH_MAX levels. Past them dag_finish() fails with a message naming
 * the bound.
 */
#define DAG_TURNS_MAX 4096
#define DAG_CONVS_MAX 100000
#define DAG_CHILDREN_MAX 1024
#define DAG_TREE_MAX 10000
#define DAG_DEPTH_MAX 32
#define DAG_NONE ((size_t)-1)

enum dag_mode { DAG_FORK, DAG_SPAWN, DAG_PRE };

/* One branch: children dispatched when turn `turn` of conversation
 * `parent` completes (DAG_PRE: before its turn 0 starts). */
struct dag_branch {
	size_t parent, turn;
	enum dag_mode mode;
	int background;		/* FORK: the parent goes on, no join */
	size_t join_at;		/* SPAWN: the turn that waits for the
				 * children; DAG_NONE: none (terminal) */
	size_t child0, nchildren;	/* d->children[child0..+nchildren) */
};

struct dag_turn {
	const struct json *messages;	/* a non-empty array of objects */
	const struct json *tools;	/* an array, or NULL */
	const struct json *extra;	/* an object, or NULL */
	const char *model;	/* NULL: the CLI's */
	size_t model_len;
	int64_t max_tokens;	/* -1: none */
	double delay;		/* ms */
	size_t nwait;		/* SPAWN_JOIN: child conversations it waits for */
	const struct json *forks, *spawns;	/* as written, or NULL */
};

struct dag_conv {
	const char *sid;
	size_t sid_len, lineno;
	struct dag_turn *turns;
	size_t nturns;
	size_t fork_parent;	/* the FORK parent, or DAG_NONE */
	int root;		/* no branch names it */
	size_t depth;		/* agent_depth: FORK levels below its root */
	const struct json *pre;	/* pre_session_spawns, or NULL */
	size_t branch0, nbranch;	/* its branches (dag_finish) */
};

struct dag {
	struct json_doc *doc;
	const char *file;	/* borrowed, for messages */
	struct dag_conv *convs;
	size_t n, cap;
	struct dag_branch *branches;	/* by parent, in the original's order */
	size_t nbranches, capb;
	const struct json **names;	/* children as named, by branch */
	size_t *children;	/* the same, as conversation indices (dag_finish) */
	size_t nchildren, capc;
	size_t nroots;
	struct hmap index;	/* session id hashes to conversation indices */
};

void dag_init(struct dag *d, const char *file);
void dag_release(struct dag *d);

/*
 * Parse line s[0..n) (number lineno) as one DagConversation. Returns 1 when
 * it added one, 0 for a blank line, or -1 with the original's message in
 * err, such as "failed to parse DAG JSONL 'f.jsonl': line 3:
 * turns.0.max_token: Extra inputs are not permitted".
 */
int dag_add_line(struct dag *d, const char *s, size_t n, size_t lineno,
		 char *err, size_t errlen);

/* Desugar, resolve and validate (see above); 0, or -1 with the message. */
int dag_finish(struct dag *d, char *err, size_t errlen);

/* The branch indices of conversation c in order: [*first, *first + *n). */
void dag_branches_of(const struct dag *d, size_t c, size_t *first, size_t *n);

#endif
