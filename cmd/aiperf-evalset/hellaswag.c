/* SPDX-License-Identifier: Apache-2.0 */
/* hellaswag: Rowan/hellaswag's validation split, its prompts as DeepEval's HellaSwagTemplate builds them (one few-shot per activity label). */
#include "evalset.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "row.h"
#include "pytext.h"
#include "util.h"

#define HS_DATASET "Rowan/hellaswag"
#define HS_MAX_SHOTS 15
#define HS_GENERATION_SIZE 5
#define HS_CONFINEMENT "Output 'A', 'B', 'C', or 'D'. Full answer not needed."

/* DeepEval's HellaSwagTask, in its order: the enum name and the value
 * (the dataset's activity_label). */
static const struct hs_task {
	const char *name, *value;
} hs_tasks[] = {
	{ "APPLYING_SUNSCREEN", "Applying sunscreen" },
	{ "TRIMMING_BRANCHES_OR_HEDGES", "Trimming branches or hedges" },
	{ "DISC_DOG", "Disc dog" },
	{ "WAKEBOARDING", "Wakeboarding" },
	{ "SKATEBOARDING", "Skateboarding" },
	{ "WATERSKIING", "Waterskiing" },
	{ "WASHING_HANDS", "Washing hands" },
	{ "SAILING", "Sailing" },
	{ "PLAYING_CONGAS", "Playing congas" },
	{ "BALLET", "Ballet" },
	{ "ROOF_SHINGLE_REMOVAL", "Roof shingle removal" },
	{ "HAND_CAR_WASH", "Hand car wash" },
	{ "KITE_FLYING", "Kite flying" },
	{ "PLAYING_POOL", "Playing pool" },
	{ "PLAYING_LACROSSE", "Playing lacrosse" },
	{ "LAYUP_DRILL_IN_BASKETBALL", "Layup drill in basketball" },
	{ "HOME_AND_GARDEN", "Home and Garden" },
	{ "PLAYING_BEACH_VOLLEYBALL", "Playing beach volleyball" },
	{ "CALF_ROPING", "Calf roping" },
	{ "SCUBA_DIVING", "Scuba diving" },
	{ "MIXING_DRINKS", "Mixing drinks" },
	{ "PUTTING_ON_SHOES", "Putting on shoes" },
	{ "MAKING_A_LEMONADE", "Making a lemonade" },
	{ "UNCATEGORIZED", "Uncategorized" },
	{ "ZUMBA", "Zumba" },
	{ "PLAYING_BADMINTON", "Playing badminton" },
	{ "PLAYING_BAGPIPES", "Playing bagpipes" },
	{ "FOOD_AND_ENTERTAINING", "Food and Entertaining" },
	{ "PERSONAL_CARE_AND_STYLE", "Personal Care and Style" },
	{ "CRICKET", "Cricket" },
	{ "SHOVELING_SNOW", "Shoveling snow" },
	{ "PING_PONG", "Ping-pong" },
	{ "HOLIDAYS_AND_TRADITIONS", "Holidays and Traditions" },
	{ "ICE_FISHING", "Ice fishing" },
	{ "BEACH_SOCCER", "Beach soccer" },
	{ "TABLE_SOCCER", "Table soccer" },
	{ "SWIMMING", "Swimming" },
	{ "BATON_TWIRLING", "Baton twirling" },
	{ "JAVELIN_THROW", "Javelin throw" },
	{ "SHOT_PUT", "Shot put" },
	{ "DOING_CRUNCHES", "Doing crunches" },
	{ "POLISHING_SHOES", "Polishing shoes" },
	{ "TRAVEL", "Travel" },
	{ "USING_UNEVEN_BARS", "Using uneven bars" },
	{ "PLAYING_HARMONICA", "Playing harmonica" },
	{ "RELATIONSHIPS", "Relationships" },
	{ "HIGH_JUMP", "High jump" },
	{ "MAKING_A_SANDWICH", "Making a sandwich" },
	{ "POWERBOCKING", "Powerbocking" },
	{ "REMOVING_ICE_FROM_CAR", "Removing ice from car" },
	{ "SHAVING", "Shaving" },
	{ "SHARPENING_KNIVES", "Sharpening knives" },
	{ "WELDING", "Welding" },
	{ "USING_PARALLEL_BARS", "Using parallel bars" },
	{ "HOME_CATEGORIES", "Home,Categories" },
	{ "ROCK_CLIMBING", "Rock climbing" },
	{ "SNOW_TUBING", "Snow tubing" },
	{ "WASHING_FACE", "Washing face" },
	{ "ASSEMBLING_BICYCLE", "Assembling bicycle" },
	{ "TENNIS_SERVE_WITH_BALL_BOUNCING", "Tennis serve with ball bouncing" },
	{ "SHUFFLEBOARD", "Shuffleboard" },
	{ "DODGEBALL", "Dodgeball" },
	{ "CAPOEIRA", "Capoeira" },
	{ "PAINTBALL", "Paintball" },
	{ "DOING_A_POWERBOMB", "Doing a powerbomb" },
	{ "DOING_MOTOCROSS", "Doing motocross" },
	{ "PLAYING_ICE_HOCKEY", "Playing ice hockey" },
	{ "PHILOSOPHY_AND_RELIGION", "Philosophy and Religion" },
	{ "ARCHERY", "Archery" },
	{ "CARS_AND_OTHER_VEHICLES", "Cars & Other Vehicles" },
	{ "RUNNING_A_MARATHON", "Running a marathon" },
	{ "THROWING_DARTS", "Throwing darts" },
	{ "PAINTING_FURNITURE", "Painting furniture" },
	{ "HAVING_AN_ICE_CREAM", "Having an ice cream" },
	{ "SLACKLINING", "Slacklining" },
	{ "CAMEL_RIDE", "Camel ride" },
	{ "ARM_WRESTLING", "Arm wrestling" },
	{ "HULA_HOOP", "Hula hoop" },
	{ "SURFING", "Surfing" },
	{ "PLAYING_PIANO", "Playing piano" },
	{ "GARGLING_MOUTHWASH", "Gargling mouthwash" },
	{ "PLAYING_ACCORDION", "Playing accordion" },
	{ "HORSEBACK_RIDING", "Horseback riding" },
	{ "PUTTING_IN_CONTACT_LENSES", "Putting in contact lenses" },
	{ "PLAYING_SAXOPHONE", "Playing saxophone" },
	{ "FUTSAL", "Futsal" },
	{ "LONG_JUMP", "Long jump" },
	{ "LONGBOARDING", "Longboarding" },
	{ "POLE_VAULT", "Pole vault" },
	{ "BUILDING_SANDCASTLES", "Building sandcastles" },
	{ "PLATFORM_DIVING", "Platform diving" },
	{ "PAINTING", "Painting" },
	{ "SPINNING", "Spinning" },
	{ "CARVING_JACK_O_LANTERNS", "Carving jack-o-lanterns" },
	{ "BRAIDING_HAIR", "Braiding hair" },
	{ "YOUTH", "Youth" },
	{ "PLAYING_VIOLIN", "Playing violin" },
	{ "CANOEING", "Canoeing" },
	{ "CHEERLEADING", "Cheerleading" },
	{ "PETS_AND_ANIMALS", "Pets and Animals" },
	{ "KAYAKING", "Kayaking" },
	{ "CLEANING_SHOES", "Cleaning shoes" },
	{ "KNITTING", "Knitting" },
	{ "BAKING_COOKIES", "Baking cookies" },
	{ "DOING_FENCING", "Doing fencing" },
	{ "PLAYING_GUITARRA", "Playing guitarra" },
	{ "USING_THE_ROWING_MACHINE", "Using the rowing machine" },
	{ "GETTING_A_HAIRCUT", "Getting a haircut" },
	{ "MOOPING_FLOOR", "Mooping floor" },
	{ "RIVER_TUBING", "River tubing" },
	{ "CLEANING_SINK", "Cleaning sink" },
	{ "GROOMING_DOG", "Grooming dog" },
	{ "DISCUS_THROW", "Discus throw" },
	{ "CLEANING_WINDOWS", "Cleaning windows" },
	{ "FINANCE_AND_BUSINESS", "Finance and Business" },
	{ "HANGING_WALLPAPER", "Hanging wallpaper" },
	{ "ROPE_SKIPPING", "Rope skipping" },
	{ "WINDSURFING", "Windsurfing" },
	{ "KNEELING", "Kneeling" },
	{ "GETTING_A_PIERCING", "Getting a piercing" },
	{ "ROCK_PAPER_SCISSORS", "Rock-paper-scissors" },
	{ "SPORTS_AND_FITNESS", "Sports and Fitness" },
	{ "BREAKDANCING", "Breakdancing" },
	{ "WALKING_THE_DOG", "Walking the dog" },
	{ "PLAYING_DRUMS", "Playing drums" },
	{ "PLAYING_WATER_POLO", "Playing water polo" },
	{ "BMX", "BMX" },
	{ "SMOKING_A_CIGARETTE", "Smoking a cigarette" },
	{ "BLOWING_LEAVES", "Blowing leaves" },
	{ "BULLFIGHTING", "Bullfighting" },
	{ "DRINKING_COFFEE", "Drinking coffee" },
	{ "BATHING_DOG", "Bathing dog" },
	{ "TANGO", "Tango" },
	{ "WRAPPING_PRESENTS", "Wrapping presents" },
	{ "PLASTERING", "Plastering" },
	{ "PLAYING_BLACKJACK", "Playing blackjack" },
	{ "FUN_SLIDING_DOWN", "Fun sliding down" },
	{ "WORK_WORLD", "Work World" },
	{ "TRIPLE_JUMP", "Triple jump" },
	{ "TUMBLING", "Tumbling" },
	{ "SKIING", "Skiing" },
	{ "DOING_KICKBOXING", "Doing kickboxing" },
	{ "BLOW_DRYING_HAIR", "Blow-drying hair" },
	{ "DRUM_CORPS", "Drum corps" },
	{ "SMOKING_HOOKAH", "Smoking hookah" },
	{ "MOWING_THE_LAWN", "Mowing the lawn" },
	{ "VOLLEYBALL", "Volleyball" },
	{ "LAYING_TILE", "Laying tile" },
	{ "STARTING_A_CAMPFIRE", "Starting a campfire" },
	{ "SUMO", "Sumo" },
	{ "HURLING", "Hurling" },
	{ "PLAYING_KICKBALL", "Playing kickball" },
	{ "MAKING_A_CAKE", "Making a cake" },
	{ "FIXING_THE_ROOF", "Fixing the roof" },
	{ "PLAYING_POLO", "Playing polo" },
	{ "REMOVING_CURLERS", "Removing curlers" },
	{ "ELLIPTICAL_TRAINER", "Elliptical trainer" },
	{ "HEALTH", "Health" },
	{ "SPREAD_MULCH", "Spread mulch" },
	{ "CHOPPING_WOOD", "Chopping wood" },
	{ "BRUSHING_TEETH", "Brushing teeth" },
	{ "USING_THE_POMMEL_HORSE", "Using the pommel horse" },
	{ "SNATCH", "Snatch" },
	{ "CLIPPING_CAT_CLAWS", "Clipping cat claws" },
	{ "PUTTING_ON_MAKEUP", "Putting on makeup" },
	{ "HAND_WASHING_CLOTHES", "Hand washing clothes" },
	{ "HITTING_A_PINATA", "Hitting a pinata" },
	{ "TAI_CHI", "Tai chi" },
	{ "GETTING_A_TATTOO", "Getting a tattoo" },
	{ "DRINKING_BEER", "Drinking beer" },
	{ "SHAVING_LEGS", "Shaving legs" },
	{ "DOING_KARATE", "Doing karate" },
	{ "PLAYING_RUBIK_CUBE", "Playing rubik cube" },
	{ "FAMILY_LIFE", "Family Life" },
	{ "ROLLERBLADING", "Rollerblading" },
	{ "EDUCATION_AND_COMMUNICATIONS", "Education and Communications" },
	{ "FIXING_BICYCLE", "Fixing bicycle" },
	{ "BEER_PONG", "Beer pong" },
	{ "IRONING_CLOTHES", "Ironing clothes" },
	{ "CUTTING_THE_GRASS", "Cutting the grass" },
	{ "RAKING_LEAVES", "Raking leaves" },
	{ "PLAYING_SQUASH", "Playing squash" },
	{ "HOPSCOTCH", "Hopscotch" },
	{ "INSTALLING_CARPET", "Installing carpet" },
	{ "POLISHING_FURNITURE", "Polishing furniture" },
	{ "DECORATING_THE_CHRISTMAS_TREE", "Decorating the Christmas tree" },
	{ "PREPARING_SALAD", "Preparing salad" },
	{ "PREPARING_PASTA", "Preparing pasta" },
	{ "VACUUMING_FLOOR", "Vacuuming floor" },
	{ "CLEAN_AND_JERK", "Clean and jerk" },
	{ "COMPUTERS_AND_ELECTRONICS", "Computers and Electronics" },
	{ "CROQUET", "Croquet" },
};
#define HS_NTASKS (sizeof(hs_tasks) / sizeof(hs_tasks[0]))

static int
hs_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
hs_unknown(const char *const *unknown, size_t n, char *err, size_t errlen)
{
	const char *sorted[HS_NTASKS];
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; i < HS_NTASKS; i++)
		sorted[i] = hs_tasks[i].value;
	qsort(sorted, HS_NTASKS, sizeof(*sorted), hs_cmp);
	buf_addstr(&b, "Unknown HellaSwag task(s): ");
	names_pylist(&b, unknown, n);
	buf_addstr(&b, ". Valid task values include ");
	names_pylist(&b, sorted, 5);
	buf_addf(&b, "... (%zu total). Pass space-separated activity_label values "
		 "(e.g. 'Applying sunscreen') or upper-snake-case enum names "
		 "(e.g. 'APPLYING_SUNSCREEN').", HS_NTASKS);
	util_seterr(err, errlen, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

/* A task by its value in any case (str.lower()), then by its enum name
 * (the recipe's getattr(HellaSwagTask, name.upper())); -1: none. */
static int
hs_find(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < HS_NTASKS; i++)
		if (pytext_ieq(s, n, hs_tasks[i].value, strlen(hs_tasks[i].value)))
			return (int)i;
	for (size_t i = 0; i < HS_NTASKS; i++)
		if (names_ieq(s, hs_tasks[i].name))
			return (int)i;
	return -1;
}

/*
 * int(row["label"]) as an index into "ABCD" (Python's, so -1 is 'D'):
 * *letter set, 1; 0 when the row has no label (missing, null or "": the
 * original skips it); -1 with a message when it is not one.
 */
static int
hs_label(const struct split *e, char *letter, char *err, size_t errlen)
{
	const struct json *v = json_get(e->row, "label");
	struct buf b = BUF_INIT(64);
	long long i = 99;
	const char *why;
	int64_t n;

	if (!v || v->type == JSON_NULL || (v->type == JSON_STRING && !v->len))
		return 0;
	if (v->type == JSON_TRUE || v->type == JSON_FALSE)
		i = v->type == JSON_TRUE;
	else if (v->type == JSON_NUMBER && json_int64(v, &n) == 0)
		i = n;
	else if (v->type == JSON_STRING && pytext_int(v->str, v->len, &b))
		util_strtonum(buf_str(&b), -99, 99, &i, &why);
	else
		i = 100;
	buf_release(&b);
	if (i == 100)
		return split_err(e, err, errlen, "column 'label' is not an integer");
	if (i < -4 || i > 3)
		return split_err(e, err, errlen, "column 'label' is not an index of A, B, C or D");
	*letter = "ABCD"[(i + 4) % 4];
	return 1;
}

/* HellaSwagTemplate.format_question(): ctx, the four endings as A. to
 * D. lines, "Answer:" and, for a few-shot example, " X\n\n". */
static int
hs_question(const struct split *e, int with_answer, struct buf *b, char *err,
	    size_t errlen)
{
	const char *ctx = split_str(e, "ctx", err, errlen);
	const struct json *ends = json_get(e->row, "endings"), *x;
	char letter;
	int rc;

	if (!ctx)
		return -1;
	if (!ends)
		return split_err(e, err, errlen, "no column 'endings'");
	if (ends->type != JSON_ARRAY || ends->len < 4)
		return split_err(e, err, errlen, "column 'endings' is not a list of four endings");
	rc = buf_addstr(b, ctx);
	x = ends->child;
	for (int j = 0; j < 4; j++, x = x->next) {
		if (x->type != JSON_STRING || memchr(x->str, '\0', x->len))
			return split_err(e, err, errlen, "column 'endings' holds an ending that is not a string");
		rc |= buf_addf(b, "\n%c. %s", "ABCD"[j], x->str);
	}
	rc |= buf_addstr(b, "\nAnswer:");
	if (with_answer) {
		int l = hs_label(e, &letter, err, errlen);

		if (l <= 0)
			return l ? -1 : split_err(e, err, errlen, "column 'label' is empty");
		rc |= buf_addf(b, " %c\n\n", letter);
	}
	if (rc)
		return split_err(e, err, errlen, "the prompt is longer than %zu bytes", EVALSET_TEXT_MAX);
	return 0;
}

/*
 * DeepEval's shots_dataset: the first train row of each activity label,
 * in order; only the first n are used, so only they are kept (every row
 * must still have an activity_label, as DeepEval indexes it). Row indexes
 * into shot[], the count into *nshot.
 */
static int
hs_shots(struct split *train, int n, size_t *shot, size_t *nshot, char *err,
	 size_t errlen)
{
	const char *seen[HS_MAX_SHOTS];
	char *copy[HS_MAX_SHOTS];
	int rc = 0;

	*nshot = 0;
	for (size_t i = 0; i < train->rows.n && rc == 0; i++) {
		const char *label;
		size_t k;

		if (split_row(train, i, err, errlen) < 0 ||
		    !(label = split_str(train, "activity_label", err, errlen))) {
			rc = -1;
			break;
		}
		for (k = 0; k < *nshot && strcmp(seen[k], label); k++)
			;
		if (k == *nshot && *nshot < (size_t)n) {
			seen[k] = copy[k] = xstrdup(label);
			shot[(*nshot)++] = i;
		}
	}
	for (size_t k = 0; k < *nshot; k++)
		free(copy[k]);
	return rc;
}

/* The few-shot block: format_question(shot[i]) for the first n shots. */
static int
hs_shot_text(struct split *train, const size_t *shot, int n, struct buf *b,
	     char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		if (split_row(train, shot[i], err, errlen) < 0 ||
		    hs_question(train, 1, b, err, errlen) < 0)
			return -1;
	return 0;
}

/* Each validation row's task (an index into hs_tasks, -1: none). */
static int *
hs_val_tasks(struct split *val, char *err, size_t errlen)
{
	int *t = xreallocarray(NULL, val->rows.n ? val->rows.n : 1, sizeof(*t));

	for (size_t i = 0; i < val->rows.n; i++) {
		const struct json *l;

		if (split_row(val, i, err, errlen) < 0) {
			free(t);
			return NULL;
		}
		l = json_get(val->row, "activity_label");
		t[i] = -1;
		for (size_t k = 0; l && l->type == JSON_STRING && k < HS_NTASKS; k++)
			if (l->len == strlen(hs_tasks[k].value) &&
			    !memcmp(l->str, hs_tasks[k].value, l->len)) {
				t[i] = (int)k;
				break;
			}
	}
	return t;
}

struct hs_load {
	const struct bench_opts *o;
	struct split train, val;
	size_t shot[HS_MAX_SHOTS], nshot;
	struct buf shots;	/* the few-shot block, once built */
	int have_shots;
	struct buf p;
};

/* One validation row of task t: its problem, or nothing when unlabeled. */
static int
hs_problem(struct hs_load *l, size_t row, int t, struct problem_set *out,
	   char *err, size_t errlen)
{
	const char *value = hs_tasks[t].value;
	char letter;
	int lab;

	if (split_row(&l->val, row, err, errlen) < 0 ||
	    (lab = hs_label(&l->val, &letter, err, errlen)) < 0)
		return -1;
	if (!lab)
		return 0;
	buf_reset(&l->p);
	buf_addf(&l->p, "The following are multiple choice questions (with answers) "
		 "are sentence completion problems about %s.\n\n", value);
	if (!l->have_shots) {
		if ((size_t)l->o->n_shots > l->nshot)
			return util_seterr(err, errlen, "hellaswag: n-shots %d is more "
					   "than the %zu few-shot examples (one per "
					   "activity label) in '%s' train",
					   l->o->n_shots, l->nshot, HS_DATASET);
		if (hs_shot_text(&l->train, l->shot, l->o->n_shots, &l->shots, err,
				 errlen) < 0)
			return -1;
		l->have_shots = 1;
	}
	if (buf_add(&l->p, l->shots.s, l->shots.len) < 0 ||
	    hs_question(&l->val, 0, &l->p, err, errlen) < 0)
		return -1;
	if (buf_addstr(&l->p, "\n\n" HS_CONFINEMENT) < 0)
		return split_err(&l->val, err, errlen, "the prompt is longer than %zu bytes",
				 EVALSET_TEXT_MAX);
	pset_add(out, value, (char[]){ letter, '\0' }, l->p.s, NULL,
		     HS_GENERATION_SIZE);
	return 0;
}

static int
hs_build(struct hs_load *l, const int *sel, size_t nsel, struct problem_set *out,
	 char *err, size_t errlen)
{
	int *vt;
	int rc = 0;

	if (hs_shots(&l->train, l->o->n_shots, l->shot, &l->nshot, err, errlen) < 0)
		return -1;
	if (!(vt = hs_val_tasks(&l->val, err, errlen)))
		return -1;
	for (size_t k = 0; k < nsel && rc == 0; k++)
		for (size_t i = 0; i < l->val.rows.n && rc == 0; i++)
			if (vt[i] == sel[k])
				rc = hs_problem(l, i, sel[k], out, err, errlen);
	free(vt);
	return rc;
}

static int
hs_load(const struct bench_opts *o, struct problem_set *out, char *err,
	size_t errlen)
{
	struct hs_load l = { .o = o };
	int *sel = NULL;
	size_t nsel;
	int rc = -1;

	if (o->n_shots > HS_MAX_SHOTS || o->n_shots < 0)
		return util_seterr(err, errlen, "HellaSwag supports at most %d few-shot "
				   "examples (got %d); DeepEval asserts n_shots <= %d",
				   HS_MAX_SHOTS, o->n_shots, HS_MAX_SHOTS);
	if (names_tasks(o, HS_NTASKS, hs_find, hs_unknown,
		       "every task, or list specific activity labels", &sel, &nsel, err,
		       errlen) < 0)
		return -1;
	buf_init(&l.shots, EVALSET_TEXT_MAX);
	buf_init(&l.p, EVALSET_TEXT_MAX);
	if (split_load(&l.train, o, HS_DATASET, "default", "train", err, errlen) == 0 &&
	    split_load(&l.val, o, HS_DATASET, "default", "validation", err, errlen) == 0)
		rc = hs_build(&l, sel, nsel, out, err, errlen);
	split_release(&l.train);
	split_release(&l.val);
	buf_release(&l.shots);
	buf_release(&l.p);
	free(sel);
	return rc;
}

const struct bench bench_hellaswag = {
	.name = "hellaswag",
	.n_shots = 10,
	.max_shots = HS_MAX_SHOTS,
	.cot = false,
	.system_prompt = NULL,
	.load = hs_load,
};
