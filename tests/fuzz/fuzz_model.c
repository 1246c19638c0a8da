/* fuzz_model: a catalog's model compiled and evaluated on counts chosen by
 * the fuzz input (see fuzz_model.h). */
#include "fuzz_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/evaluator.h"
#include "eval/group_counts.h"
#include "model/model.h"

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text) {
		fputs("fuzz: out of memory\n", stderr);
		abort();
	}
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/* One raw count of kind k: the states a perf counter reading can be in. */
static void add_count(struct td_group_counts *c, int group, int alias, unsigned k)
{
	static const struct {
		uint64_t value, enabled, running;
	} kinds[] = {
		{ 1000000, 1000, 1000 }, /* counted all the time */
		{ 250000, 1000, 250 },	 /* multiplexed: scaled by 4 */
		{ 0, 1000, 0 },		 /* enabled, never running: not counted */
		{ 0, 0, 0 },		 /* a thread that did not run: 0 */
		{ 0, 1000, 1000 },	 /* counted, zero */
		{ UINT64_MAX, 1000, 1 }, /* huge after scaling */
		{ 3, 7, 5 },
		{ 123456789, 1000, 999 },
	};
	k %= sizeof(kinds) / sizeof(kinds[0]);
	td_group_counts_add_row(c, group, alias, kinds[k].value, kinds[k].enabled, kinds[k].running);
}

void fuzz_evaluate_catalog(const struct td_catalog *cat, const uint8_t *data, size_t size)
{
	struct td_model *m;
	struct td_group_counts c;
	struct td_evaluation out;
	struct td_evaluator *ev;
	td_err err;
	unsigned h = 2166136261u; /* FNV-1a of the input picks the counts */

	if (td_model_compile(cat, &m, &err))
		return;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	if (td_group_counts_init(&c, cat->nevents, 2) == 0) {
		for (int g = 0; g < 2; g++)
			for (int a = 0; a < cat->nevents; a++)
				add_count(&c, g, a, h >> ((unsigned)(g * cat->nevents + a) % 29));
		/* SMT unknown, off and on; a real duration and none */
		for (int smt = -1; smt <= 1; smt++) {
			if (!(ev = td_evaluator_new(m, smt, smt < 0 ? 0 : 4)))
				continue;
			if (td_evaluation_init(&out, m) == 0)
				td_evaluate(ev, &c, smt == 0 ? 0.0 : 1.5, &out);
			td_evaluation_free(&out);
			td_evaluator_free(ev);
		}
		td_group_counts_free(&c);
	}
	td_model_free(m);
}
