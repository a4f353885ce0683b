/* SPDX-License-Identifier: Apache-2.0 */
/* --accuracy-problems: an accuracy benchmark's problems as the conversations, one turn each, in order. */
#include "gen.h"

#include "accuracy/problems.h"
#include "util.h"

/*
 * The original's AccuracyDatasetLoader: problem i is conversation i, its
 * one turn the problem's chat messages (sent as they are by the chat
 * endpoint) and its flat prompt (the text of every other endpoint), with
 * the problem's max_tokens; then _finalize_turn picks each turn's model.
 * Session ids come from the generator every dataset uses.
 */
void
accuracy_dataset_build(struct dataset *d, const struct gen_opts *o, uint64_t root)
{
	struct problem_list ps;
	struct rng ids, model;
	char err[512];
	size_t rr = 0;

	if (problem_list_load(&ps, o->accuracy_problems, err, sizeof(err)))
		die("%s: %s", o->accuracy_problems, err);
	rng_derive(&ids, root, "aiperf.gen.session_id");
	rng_derive(&model, root, "composer.turn.model_selection");
	d->convs = xcalloc(ps.n, sizeof(*d->convs));
	for (size_t i = 0; i < ps.n; i++) {
		struct problem_rec *pr = &ps.p[i];
		struct conv *c = &d->convs[d->n++];
		struct turn *u;

		c->session_id = gen_session_id(o, i, &ids);
		c->nturns = 1;
		c->turns = u = xcalloc(1, sizeof(*u));
		*u = (struct turn){ .ntexts = 1, .max_tokens = pr->max_tokens,
				    .delay_ms = -1, .at_ns = -1, .no_history = 1 };
		u->texts = xcalloc(1, sizeof(*u->texts));
		u->texts[0] = pr->prompt;
		pr->prompt = NULL;
		if (o->ep == ENDPOINT_CHAT) {
			u->raw_messages = pr->messages;
			pr->messages = NULL;
		}
		u->model = o->model_random ? gen_model_draw(o, &model) :
					     rr++ % o->nmodels;
		payload_render(o, u, 0);
		turn_free_texts(u);
	}
	d->lines = d->n;
	problem_list_release(&ps);
}
