/* planner: chooses the formulas to plan (items), works out the events each
 * needs with params at their planning values, packs items into groups
 * first-fit (planner_fit.c says what fits), and orders each group leader
 * first. Rules: planner.h. */
#include "planner.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner_fit.h"

/* Working state of one planning run. */
struct pl {
	const struct td_model *m;
	const struct td_plan_request *rq;
	struct td_plan *p;
	struct td_fit fit;
	struct td_ev_class *cls;
	int nev;			   /* catalog events */
	double *known;			   /* consts and params at planning values, NaN elsewhere */
	const struct td_formula **by_slot; /* slot -> formula, NULL for inputs */
	unsigned char *live;		   /* per slot: nev flags, filled on demand */
	unsigned char *done;		   /* per slot: live[] filled */
	unsigned char **has;		   /* per group: nev flags */
	int *scratch;
};

const char *td_plan_kind_name(enum td_plan_kind k)
{
	static const char *const n[] = { "node", "info", "cpi", "cpi-base" };
	return n[k];
}

const char *td_plan_status_name(enum td_plan_status s)
{
	return s == TD_PLAN_OK		      ? "ok"
	       : s == TD_PLAN_SPANS	      ? "spans groups"
	       : s == TD_PLAN_NOT_COLLECTABLE ? "not collectable"
					      : "omitted";
}

int td_plan_budget_for(const struct td_catalog *cat, const struct td_plan_request *rq, struct td_plan_budget *b,
		       td_err *err)
{
	return td_fit_budget(cat, rq, b, err);
}

/* ---- node names ------------------------------------------------------------ */

int td_plan_max_level(const struct td_model *m)
{
	int max = 0;

	for (int i = 0; i < m->nnodes; i++)
		if (m->nodes[i].level > max)
			max = m->nodes[i].level;
	return max;
}

int td_plan_find_node(const struct td_model *m, const char *name)
{
	int found = td_model_node(m, name), n = 0;

	if (found >= 0)
		return found;
	for (int i = 0; i < m->nnodes; i++)
		if (!strcmp(m->nodes[i].name, name)) {
			found = i;
			n++;
		}
	return n == 1 ? found : -1;
}

/* Edit distance of a and b ignoring case, capped at 9. */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), row[65], prev;

	if (la > 64 || lb > 64)
		return 9;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			row[j] = sub < row[j] + 1 ? sub : row[j] + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			prev = cur;
		}
	}
	return row[lb] < 9 ? row[lb] : 9;
}

static bool near(const struct td_node *n, const char *name)
{
	const char *leaf = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;

	return strcasestr(n->path, leaf) || (strlen(leaf) >= 3 && strcasestr(leaf, n->name)) ||
	       distance(n->name, leaf) <= 3;
}

void td_plan_near_nodes(const struct td_model *m, const char *name, char *buf, size_t len, int max)
{
	static const char more[] = ", ...";
	size_t used = 0;
	int n = 0;

	/* Whole paths only: level-6 paths are ~100 characters, so a match that does not fit (with room
	 * left for ", ...") is not cut in the middle but replaced by ", ..." once. */
	buf[0] = '\0';
	for (int i = 0; i < m->nnodes && n < max; i++) {
		if (!near(&m->nodes[i], name))
			continue;
		size_t add = strlen(m->nodes[i].path) + (n ? 2 : 0);
		if (used + add + sizeof(more) > len) {
			if (n && used + sizeof(more) <= len)
				memcpy(buf + used, more, sizeof(more));
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "", m->nodes[i].path);
		n++;
	}
}

/* ---- the events a formula needs ---------------------------------------------- */

static void on_live(void *ctx, int slot);

struct live_ctx {
	struct pl *pl;
	unsigned char *into;
};

/* Fill pl->live for the formula at slot (recursing into formulas it reads),
 * and pl->known[slot] with its planning value when it has one (a let that
 * reads only consts, params and available(): conditionals on it take one
 * branch). on_live runs before the walk reads the slot's value. */
static unsigned char *live_of(struct pl *pl, int slot)
{
	unsigned char *mine = pl->live + (size_t)slot * (size_t)pl->nev;

	if (!pl->done[slot]) {
		struct live_ctx lc = { pl, mine };
		pl->done[slot] = 1;
		pl->known[slot] = td_expr_foreach_live_slot(pl->by_slot[slot]->expr, pl->known, on_live, &lc);
	}
	return mine;
}

static void on_live(void *ctx, int slot)
{
	struct live_ctx *lc = ctx;

	if (slot < lc->pl->nev) {
		lc->into[slot] = 1;
		return;
	}
	if (!lc->pl->by_slot[slot])
		return; /* const, param, built-in */
	const unsigned char *theirs = live_of(lc->pl, slot);
	for (int e = 0; e < lc->pl->nev; e++)
		lc->into[e] |= theirs[e];
}

/* flags (nev) -> ascending list in item; a metric event brings its leader. */
static int set_events(struct pl *pl, struct td_plan_item *it, unsigned char *flags)
{
	int n = 0;

	for (int e = 0; e < pl->nev; e++)
		if (flags[e] && pl->cls[e].metric && pl->fit.leader >= 0)
			flags[pl->fit.leader] = 1;
	for (int e = 0; e < pl->nev; e++)
		n += flags[e] != 0;
	it->events = malloc((size_t)(n ? n : 1) * sizeof(int));
	if (!it->events)
		return -1;
	it->nevents = 0;
	for (int e = 0; e < pl->nev; e++)
		if (flags[e])
			it->events[it->nevents++] = e;
	return 0;
}

/* ---- choosing the items ------------------------------------------------------ */

static int add_item(struct pl *pl, enum td_plan_kind kind, int index, const char *name, unsigned char *flags)
{
	struct td_plan *p = pl->p;
	struct td_plan_item *it = td_array_push(&p->items, &p->nitems, sizeof(*p->items));

	if (!it)
		return -1;
	it->kind = kind;
	it->index = index;
	it->name = name;
	it->group = -1;
	return set_events(pl, it, flags);
}

static int choose_nodes(struct pl *pl, bool *chosen, td_err *err)
{
	const struct td_model *m = pl->m;
	const struct td_plan_request *rq = pl->rq;

	if (rq->nnodes <= 0) {
		int max = td_plan_max_level(m);
		if (rq->level < 1 || rq->level > max) {
			td_err_set(err, "level %d: %s has levels 1 to %d", rq->level, m->cat->name, max);
			return -1;
		}
		for (int i = 0; i < m->nnodes; i++)
			chosen[i] = m->nodes[i].level <= rq->level;
		return 0;
	}
	for (int k = 0; k < rq->nnodes; k++) {
		int i = td_plan_find_node(m, rq->nodes[k]);
		if (i < 0) {
			/* 320: the suggestions fit td_err's 512 with the name and file; whole paths only */
			char nearby[320];
			td_plan_near_nodes(m, rq->nodes[k], nearby, sizeof(nearby), 5);
			td_err_set(err, "unknown node '%s' in %s%s%s", rq->nodes[k], m->cat->name,
				   nearby[0] ? "; near matches: " : " (tdctl events lists the tree)", nearby);
			return -1;
		}
		for (; i >= 0; i = m->nodes[i].parent)
			chosen[i] = true;
	}
	return 0;
}

static bool subset(const unsigned char *a, const unsigned char *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] && !b[i])
			return false;
	return true;
}

static bool any(const unsigned char *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i])
			return true;
	return false;
}

/* Union of two slots' live events into tmp. */
static void merge(struct pl *pl, unsigned char *tmp, int slot)
{
	const unsigned char *l = live_of(pl, slot);

	for (int e = 0; e < pl->nev; e++)
		tmp[e] |= l[e];
}

/* Infos and CPI components computable from the nodes' events (union). */
static int choose_extras(struct pl *pl, const unsigned char *uni, unsigned char *tmp)
{
	const struct td_model *m = pl->m;
	bool cpi_any = false;

	for (int i = 0; i < m->ninfos; i++) {
		memcpy(tmp, live_of(pl, m->infos[i].f.slot), (size_t)pl->nev);
		if (any(tmp, pl->nev) && subset(tmp, uni, pl->nev) &&
		    add_item(pl, TD_PLAN_INFO, i, m->infos[i].name, tmp))
			return -1;
	}
	for (int i = 0; m->has_cpi && i < m->ncpis; i++) {
		memset(tmp, 0, (size_t)pl->nev);
		merge(pl, tmp, m->cpis[i].f.slot);
		merge(pl, tmp, m->cpi_cycles.slot);
		merge(pl, tmp, m->cpi_instructions.slot);
		if (subset(tmp, uni, pl->nev)) {
			if (add_item(pl, TD_PLAN_CPI, i, m->cpis[i].name, tmp))
				return -1;
			cpi_any = true;
		}
	}
	if (!cpi_any)
		return 0;
	memset(tmp, 0, (size_t)pl->nev);
	merge(pl, tmp, m->cpi_cycles.slot);
	merge(pl, tmp, m->cpi_instructions.slot);
	return add_item(pl, TD_PLAN_CPI_BASE, 0, "cpi-cycles/cpi-instructions", tmp);
}

static int choose_items(struct pl *pl, td_err *err)
{
	const struct td_model *m = pl->m;
	bool *chosen = calloc((size_t)(m->nnodes ? m->nnodes : 1), sizeof(bool));
	unsigned char *uni = calloc((size_t)pl->nev + 1, 1), *tmp = calloc((size_t)pl->nev + 1, 1);
	int rc = -1;

	if (!chosen || !uni || !tmp) {
		td_err_set(err, "out of memory");
		goto out;
	}
	if (choose_nodes(pl, chosen, err))
		goto out;
	for (int i = 0; i < m->nnodes; i++) {
		if (!chosen[i])
			continue;
		memcpy(tmp, live_of(pl, m->nodes[i].f.slot), (size_t)pl->nev);
		if (add_item(pl, TD_PLAN_NODE, i, m->nodes[i].path, tmp))
			goto oom;
		for (int k = 0; k < pl->p->items[pl->p->nitems - 1].nevents; k++)
			uni[pl->p->items[pl->p->nitems - 1].events[k]] = 1;
	}
	if (choose_extras(pl, uni, tmp))
		goto oom;
	rc = 0;
	goto out;
oom:
	td_err_set(err, "out of memory");
out:
	free(chosen);
	free(uni);
	free(tmp);
	return rc;
}

/* ---- packing --------------------------------------------------------------- */

/* Counters an item's events take when alone (for ordering only). */
static int weight(const struct pl *pl, const struct td_plan_item *it)
{
	int w = 0;

	for (int i = 0; i < it->nevents; i++)
		w += !pl->cls[it->events[i]].nocounter && !pl->cls[it->events[i]].metric;
	return w;
}

static const struct pl *sort_pl;

static int by_packing_order(const void *a, const void *b)
{
	const struct td_plan_item *x = &sort_pl->p->items[*(const int *)a], *y = &sort_pl->p->items[*(const int *)b];
	int wx = weight(sort_pl, x), wy = weight(sort_pl, y);

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	if (wx != wy)
		return wy - wx;
	return x->index - y->index;
}

/* Does group g plus events ev (n) fit? (g < 0: ev alone.) */
static bool fits_with(struct pl *pl, int g, const int *ev, int n, struct td_fit_result *r)
{
	int m = 0;

	for (int e = 0; g >= 0 && e < pl->nev; e++)
		if (pl->has[g][e])
			pl->scratch[m++] = e;
	for (int i = 0; i < n; i++)
		if (g < 0 || !pl->has[g][ev[i]])
			pl->scratch[m++] = ev[i];
	return td_fit(&pl->fit, pl->scratch, m, r);
}

static int new_group(struct pl *pl)
{
	struct td_plan *p = pl->p;
	unsigned char **has = realloc(pl->has, (size_t)(p->ngroups + 1) * sizeof(*has));

	if (!has)
		return -1;
	pl->has = has;
	if (!(has[p->ngroups] = calloc((size_t)pl->nev + 1, 1)))
		return -1;
	return p->ngroups++;
}

/* First group that takes ev (a new one if none); -1 on out of memory. */
static int place(struct pl *pl, const int *ev, int n)
{
	struct td_fit_result r;
	int g;

	for (g = 0; g < pl->p->ngroups; g++)
		if (fits_with(pl, g, ev, n, &r))
			break;
	if (g == pl->p->ngroups && new_group(pl) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		pl->has[g][ev[i]] = 1;
	return g;
}

static bool spannable(const struct pl *pl, const struct td_plan_item *it)
{
	const struct td_catalog *cat = pl->m->cat;

	for (int i = 0; i < cat->nlimits; i++)
		if (cat->limits[i].kind == TD_LIMIT_SPAN && !strcmp(cat->limits[i].name, it->name))
			return true;
	return false;
}

/* Spread a spanning item's events: each (with its leader) where it already
 * is, else into the first group that takes it. */
static int spread(struct pl *pl, struct td_plan_item *it, const char *why)
{
	struct td_fit_result r;

	/* Two passes: every event must fit a group of its own before any is placed, so that a node
	 * found not collectable leaves no group (or event) behind that serves nothing. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < it->nevents; i++) {
			int e = it->events[i], unit[2] = { e, pl->fit.leader }, n = pl->cls[e].metric ? 2 : 1, g;
			for (g = 0; g < pl->p->ngroups && !pl->has[g][e]; g++)
				;
			if (g < pl->p->ngroups)
				continue;
			if (pass == 0 && !fits_with(pl, -1, unit, n, &r)) {
				it->status = TD_PLAN_NOT_COLLECTABLE;
				snprintf(it->reason, sizeof(it->reason), "%s %s: %s", td_plan_kind_name(it->kind),
					 it->name, r.why);
				return 0;
			}
			if (pass == 1 && place(pl, unit, n) < 0)
				return -1;
		}
	it->status = TD_PLAN_SPANS;
	snprintf(it->reason, sizeof(it->reason), "%s %s %s: spread over groups (the file allows it)",
		 td_plan_kind_name(it->kind), it->name, why);
	return 0;
}

/* First group that takes ev without opening a new one, or -1. */
static int existing_group(struct pl *pl, const int *ev, int n)
{
	struct td_fit_result r;

	for (int g = 0; g < pl->p->ngroups; g++)
		if (fits_with(pl, g, ev, n, &r)) {
			for (int i = 0; i < n; i++)
				pl->has[g][ev[i]] = 1;
			return g;
		}
	return -1;
}

/* Pass 1 places the items that fit one group alone (an info or CPI item
 * only into a group the nodes opened: extras never add a group); pass 2
 * spreads the spanning ones or marks them not collectable. */
static int pack_one(struct pl *pl, struct td_plan_item *it, int pass)
{
	struct td_fit_result r;
	bool alone = fits_with(pl, -1, it->events, it->nevents, &r);

	if (pass == 1) {
		if (!alone)
			return 0;
		it->status = TD_PLAN_OK;
		it->group = it->kind == TD_PLAN_NODE ? place(pl, it->events, it->nevents)
						     : existing_group(pl, it->events, it->nevents);
		if (it->group < 0 && it->kind == TD_PLAN_NODE)
			return -1;
		it->status = it->group < 0 ? TD_PLAN_OMITTED : TD_PLAN_OK;
		return 0;
	}
	if (alone)
		return 0;
	if (it->kind != TD_PLAN_NODE) {
		it->status = TD_PLAN_OMITTED;
		return 0;
	}
	if (spannable(pl, it))
		return spread(pl, it, r.why);
	it->status = TD_PLAN_NOT_COLLECTABLE;
	snprintf(it->reason, sizeof(it->reason), "%s %s %s", td_plan_kind_name(it->kind), it->name, r.why);
	return 0;
}

static int pack(struct pl *pl)
{
	struct td_plan *p = pl->p;
	int *order = malloc((size_t)(p->nitems ? p->nitems : 1) * sizeof(int)), rc = 0;

	if (!order)
		return -1;
	for (int i = 0; i < p->nitems; i++)
		order[i] = i;
	sort_pl = pl;
	qsort(order, (size_t)p->nitems, sizeof(int), by_packing_order);
	for (int pass = 1; pass <= 2; pass++)
		for (int i = 0; i < p->nitems && !rc; i++)
			rc = pack_one(pl, &p->items[order[i]], pass);
	free(order);
	return rc;
}

/* Drop the omitted extras from the item list. */
static void drop_omitted(struct td_plan *p)
{
	int n = 0;

	for (int i = 0; i < p->nitems; i++) {
		if (p->items[i].status == TD_PLAN_OMITTED)
			free(p->items[i].events);
		else
			p->items[n++] = p->items[i];
	}
	p->nitems = n;
}

/* ---- the groups as lists ------------------------------------------------------- */

static int rank(const struct pl *pl, int e)
{
	const struct td_ev_class *c = &pl->cls[e];
	return c->leader ? 0 : c->metric ? 1 : c->nocounter ? 3 : 2;
}

static int push_int(int **arr, int *n, int v)
{
	int *a = td_array_push(arr, n, sizeof(int));

	if (!a)
		return -1;
	*a = v;
	return 0;
}

static bool item_in_group(const struct pl *pl, const struct td_plan_item *it, int g)
{
	if (it->status == TD_PLAN_OK)
		return it->group == g;
	if (it->status != TD_PLAN_SPANS)
		return false;
	for (int i = 0; i < it->nevents; i++)
		if (pl->has[g][it->events[i]])
			return true;
	return false;
}

static int finish_group(struct pl *pl, int g)
{
	struct td_plan_group *grp = &pl->p->groups[g];
	struct td_fit_result r;

	for (int k = 0; k < 4; k++)
		for (int e = 0; e < pl->nev; e++)
			if (pl->has[g][e] && rank(pl, e) == k && push_int(&grp->events, &grp->nevents, e))
				return -1;
	td_fit(&pl->fit, grp->events, grp->nevents, &r);
	grp->gp_used = r.gp_used;
	grp->fixed_used = r.fixed_used;
	for (int i = 0; i < pl->p->nitems; i++)
		if (item_in_group(pl, &pl->p->items[i], g) && push_int(&grp->items, &grp->nitems, i))
			return -1;
	return 0;
}

static int finish(struct pl *pl)
{
	struct td_plan *p = pl->p;

	drop_omitted(p);
	p->groups = calloc((size_t)(p->ngroups ? p->ngroups : 1), sizeof(*p->groups));
	if (!p->groups)
		return -1;
	for (int g = 0; g < p->ngroups; g++)
		if (finish_group(pl, g))
			return -1;
	for (int i = 0; i < p->nitems; i++) {
		p->nnot_collectable += p->items[i].status == TD_PLAN_NOT_COLLECTABLE;
		p->nspans += p->items[i].status == TD_PLAN_SPANS;
	}
	p->multiplex = p->ngroups > 1;
	p->share = p->ngroups ? 1.0 / p->ngroups : 0;
	return 0;
}

/* ---- setting up ---------------------------------------------------------------- */

static int setup(struct pl *pl, td_err *err)
{
	const struct td_model *m = pl->m;
	int smt = td_model_slot(m, "SMT_on");

	pl->nev = m->cat->nevents;
	if (td_fit_budget(m->cat, pl->rq, &pl->p->budget, err) ||
	    td_fit_classes(m->cat, &pl->cls, &pl->fit.leader, err))
		return -1;
	pl->fit.cat = m->cat;
	pl->fit.cls = pl->cls;
	pl->fit.b = &pl->p->budget;
	pl->known = malloc((size_t)m->nslots * sizeof(double));
	pl->by_slot = calloc((size_t)m->nslots, sizeof(*pl->by_slot));
	pl->live = calloc((size_t)m->nslots * (size_t)(pl->nev + 1), 1);
	pl->done = calloc((size_t)m->nslots, 1);
	pl->scratch = malloc((size_t)(2 * pl->nev + 2) * sizeof(int));
	if (!pl->known || !pl->by_slot || !pl->live || !pl->done || !pl->scratch) {
		td_err_set(err, "out of memory");
		return -1;
	}
	memcpy(pl->known, m->defaults, (size_t)m->nslots * sizeof(double));
	if (smt >= 0 && td_model_is_param(m, smt))
		pl->known[smt] = pl->rq->smt ? 1 : 0;
	for (int i = 0; i < m->norder; i++)
		pl->by_slot[m->order[i]->slot] = m->order[i];
	return 0;
}

/* span lines must name a node path, info or cpi component of the model. */
static int check_spans(const struct td_model *m, td_err *err)
{
	for (int i = 0; i < m->cat->nlimits; i++) {
		const struct td_cat_limit *l = &m->cat->limits[i];
		bool ok = l->kind != TD_LIMIT_SPAN || td_model_node(m, l->name) >= 0;
		for (int k = 0; !ok && k < m->ninfos; k++)
			ok = !strcmp(m->infos[k].name, l->name);
		for (int k = 0; !ok && k < m->ncpis; k++)
			ok = !strcmp(m->cpis[k].name, l->name);
		if (!ok) {
			td_err_set(err, "%s:%d: span: '%s' is not a node path, info metric or cpi component",
				   m->cat->name, l->line, l->name);
			return -1;
		}
	}
	return 0;
}

static void teardown(struct pl *pl)
{
	for (int g = 0; pl->has && g < pl->p->ngroups; g++)
		free(pl->has[g]);
	free(pl->has);
	free(pl->cls);
	free(pl->known);
	free(pl->by_slot);
	free(pl->live);
	free(pl->done);
	free(pl->scratch);
}

int td_plan_make(const struct td_model *m, const struct td_plan_request *rq, struct td_plan **out, td_err *err)
{
	struct pl pl = { .m = m, .rq = rq };
	int rc = -1;

	*out = NULL;
	if (!(pl.p = calloc(1, sizeof(*pl.p)))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	pl.p->model = m;
	if (check_spans(m, err) || setup(&pl, err) || choose_items(&pl, err))
		goto out;
	if (pack(&pl) || finish(&pl)) {
		td_err_set(err, "out of memory");
		goto out;
	}
	rc = 0;
out:
	teardown(&pl);
	if (rc)
		td_plan_free(pl.p);
	else
		*out = pl.p;
	return rc;
}

void td_plan_free(struct td_plan *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nitems; i++)
		free(p->items[i].events);
	for (int g = 0; p->groups && g < p->ngroups; g++) {
		free(p->groups[g].events);
		free(p->groups[g].items);
	}
	free(p->items);
	free(p->groups);
	free(p);
}

const char *td_plan_event_class(const struct td_plan *p, int alias, char *buf, size_t len)
{
	struct td_ev_class *cls;
	int leader;
	td_err err;

	if (td_fit_classes(p->model->cat, &cls, &leader, &err)) {
		snprintf(buf, len, "?");
		return buf;
	}
	const struct td_ev_class *c = &cls[alias];
	char range[32] = "";
	if (c->gp && c->gp != ~0u) {
		int lo = __builtin_ctz(c->gp), hi = 31 - __builtin_clz(c->gp);
		snprintf(range, sizeof(range), lo == hi ? " %d" : " %d-%d", lo, hi);
	}
	if (c->metric || c->nocounter)
		snprintf(buf, len, "%s", c->metric ? "topdown metric" : "no counter");
	else if (c->fixed >= 0)
		snprintf(buf, len, "fixed %d%s%s%s", c->fixed, c->gp ? " or gp" : " only", range,
			 c->leader ? ", leader" : "");
	else
		snprintf(buf, len, "gp%s", range);
	if (c->reg) { /* an extra register it sets, and how many values a group may hold */
		size_t used = strlen(buf);
		snprintf(buf + used, len > used ? len - used : 0, ", %s (%d per group)", c->reg, c->reg_values);
	}
	free(cls);
	return buf;
}
