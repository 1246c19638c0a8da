/* model_order: depth-first walk over the formulas' slot references — gives
 * the evaluation order (dependencies first), names any cycle, and unions the
 * event aliases each formula needs through the formulas it reads. */
#include "model_order.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	WHITE,
	GREY,
	BLACK
};

struct walk {
	struct td_model *m;
	struct td_formula **all; /* every formula, by index */
	int nall;
	int *owner; /* slot -> formula index, -1 for inputs */
	char *color;
	int *stack, depth; /* the path being walked, for cycle messages */
	uint64_t *bits;	   /* nall x words: events needed */
	int words;
	td_err *err;
	bool failed;
};

static void collect_all(struct walk *w)
{
	struct td_model *m = w->m;

	for (int i = 0; i < m->nnodes; i++)
		w->all[w->nall++] = &m->nodes[i].f;
	for (int i = 0; i < m->ninfos; i++)
		w->all[w->nall++] = &m->infos[i].f;
	for (int i = 0; i < m->nlets; i++)
		w->all[w->nall++] = &m->lets[i].f;
	for (int i = 0; i < m->ncpis; i++)
		w->all[w->nall++] = &m->cpis[i].f;
	if (m->cpi_cycles.expr)
		w->all[w->nall++] = &m->cpi_cycles;
	if (m->cpi_instructions.expr)
		w->all[w->nall++] = &m->cpi_instructions;
}

static void cycle_error(struct walk *w, int from)
{
	char path[400] = "";
	size_t len = 0;
	int start = w->depth - 1;

	while (start > 0 && w->stack[start] != from)
		start--;
	for (int i = start; i < w->depth && len < sizeof(path); i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%s -> ",
					w->m->slot_names[w->all[w->stack[i]]->slot]);
	if (len < sizeof(path))
		snprintf(path + len, sizeof(path) - len, "%s", w->m->slot_names[w->all[from]->slot]);
	td_err_set(w->err, "%s:%d: cycle: %s", w->m->cat->name, w->all[from]->line, path);
	w->failed = true;
}

static void visit(struct walk *w, int i);

struct ref_ctx {
	struct walk *w;
	int i;
};

static void on_ref(void *ctx, int slot)
{
	struct ref_ctx *rc = ctx;
	struct walk *w = rc->w;
	uint64_t *mine = w->bits + (size_t)rc->i * (size_t)w->words;
	int j = w->owner[slot];

	if (w->failed)
		return;
	if (slot < w->m->cat->nevents) {
		mine[slot / 64] |= 1ull << (slot % 64);
		return;
	}
	if (j < 0)
		return;
	if (w->color[j] == GREY) {
		cycle_error(w, j);
		return;
	}
	if (w->color[j] == WHITE)
		visit(w, j);
	const uint64_t *theirs = w->bits + (size_t)j * (size_t)w->words;
	for (int k = 0; k < w->words; k++)
		mine[k] |= theirs[k];
}

static void visit(struct walk *w, int i)
{
	struct ref_ctx rc = { w, i };

	w->color[i] = GREY;
	w->stack[w->depth++] = i;
	td_expr_foreach_slot(w->all[i]->expr, on_ref, &rc);
	w->depth--;
	w->color[i] = BLACK;
	if (!w->failed)
		w->m->order[w->m->norder++] = w->all[i];
}

static int fill_events(struct walk *w, struct td_formula *f, const uint64_t *bits)
{
	int n = 0;

	for (int e = 0; e < w->m->cat->nevents; e++)
		n += (bits[e / 64] >> (e % 64)) & 1;
	f->events = malloc((size_t)(n ? n : 1) * sizeof(int));
	if (!f->events)
		return -1;
	f->nevents = 0;
	for (int e = 0; e < w->m->cat->nevents; e++)
		if ((bits[e / 64] >> (e % 64)) & 1)
			f->events[f->nevents++] = e;
	return 0;
}

int td_model_order(struct td_model *m, td_err *err)
{
	int total = m->nnodes + m->ninfos + m->nlets + m->ncpis + 2;
	struct walk w = { .m = m, .err = err };
	int rc = -1;

	w.words = m->cat->nevents / 64 + 1;
	w.all = calloc((size_t)total, sizeof(*w.all));
	w.owner = malloc((size_t)m->nslots * sizeof(int));
	w.color = calloc((size_t)total, 1);
	w.stack = calloc((size_t)total, sizeof(int));
	w.bits = calloc((size_t)total * (size_t)w.words, sizeof(uint64_t));
	m->order = calloc((size_t)total, sizeof(*m->order));
	if (!w.all || !w.owner || !w.color || !w.stack || !w.bits || !m->order) {
		td_err_set(err, "out of memory");
		goto out;
	}
	collect_all(&w);
	for (int s = 0; s < m->nslots; s++)
		w.owner[s] = -1;
	for (int i = 0; i < w.nall; i++)
		w.owner[w.all[i]->slot] = i;
	for (int i = 0; i < w.nall && !w.failed; i++)
		if (w.color[i] == WHITE)
			visit(&w, i);
	if (w.failed)
		goto out;
	for (int i = 0; i < w.nall; i++)
		if (fill_events(&w, w.all[i], w.bits + (size_t)i * (size_t)w.words)) {
			td_err_set(err, "out of memory");
			goto out;
		}
	rc = 0;
out:
	free(w.all);
	free(w.owner);
	free(w.color);
	free(w.stack);
	free(w.bits);
	return rc;
}
