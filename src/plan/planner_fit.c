/* planner_fit: (internal to planner) how each event may count — fixed
 * counter, general-purpose counter range, PERF_METRICS, no counter — from
 * the file's counter lines, the budget one group may use, and the test
 * whether a set of events fits one group (the extra registers' values, fixed
 * counters first, then a matching of the remaining events onto the
 * general-purpose counters). */
#include "planner_fit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int popcount(unsigned v)
{
	return __builtin_popcount(v);
}

int td_fit_budget(const struct td_catalog *cat, const struct td_plan_request *rq, struct td_plan_budget *b, td_err *err)
{
	const struct td_cat_counters *c = &cat->counters;

	memset(b, 0, sizeof(*b));
	if (!c->given && rq->counters < 1) {
		td_err_set(err, "%s has no 'counters' line: the planner needs the counter budget (give --counters N)",
			   cat->name);
		return -1;
	}
	int file_gp = rq->smt ? c->gp_smt : c->gp;
	b->gp = rq->counters > 0 ? rq->counters : file_gp;
	b->nfixed = c->given ? c->fixed : 0;
	b->fixed_mask = b->nfixed ? (1u << b->nfixed) - 1 : 0;
	int len = snprintf(b->why, sizeof(b->why), "%d general-purpose (%s%s)", b->gp,
			   rq->counters > 0 ? "--counters" : "file",
			   rq->smt && rq->counters < 1 && c->gp_smt != c->gp ? ", halved with SMT on" : "");
	if (rq->watchdog && c->watchdog_gp && b->gp > 0) {
		b->gp--;
		len += snprintf(b->why + len, sizeof(b->why) - (size_t)len, " - 1 held by the NMI watchdog = %d",
				b->gp);
	}
	len += snprintf(b->why + len, sizeof(b->why) - (size_t)len, ", %d fixed", b->nfixed);
	if (rq->watchdog && c->watchdog_fixed >= 0) {
		b->fixed_mask &= ~(1u << c->watchdog_fixed);
		snprintf(b->why + len, sizeof(b->why) - (size_t)len, " (fixed counter %d held by the NMI watchdog)",
			 c->watchdog_fixed);
	}
	return 0;
}

/* The value an event writes to extra register reg: "reg=V" of its raw form (events of one value
 * share the register: the kernel counts users of a value, __intel_shared_reg_get_constraints()),
 * or, for a libpfm4 string whose value is not in the text, its alias (a value of its own). */
static void reg_value(const struct td_cat_event *e, const char *reg, char *out, size_t len)
{
	size_t n = strlen(reg);

	for (const char *p = strchr(e->spec, '/'); p && *p; p++)
		if ((*p == '/' || *p == ',') && !strncmp(p + 1, reg, n) && p[1 + n] == '=') {
			snprintf(out, len, "%s=%.*s", reg, (int)strcspn(p + 2 + n, ",/"), p + 2 + n);
			return;
		}
	snprintf(out, len, "%s", e->alias);
}

/* Apply one counter line to the classes of the events it names. */
static void apply_limit(const struct td_catalog *cat, const struct td_cat_limit *l, struct td_ev_class *cls)
{
	const struct td_cat_event *e = td_catalog_event(cat, l->name);
	struct td_ev_class *c;

	if (!e)
		return; /* span lines name formulas */
	c = &cls[e - cat->events];
	switch (l->kind) {
	case TD_LIMIT_FIXED:
		c->fixed = l->fixed;
		break;
	case TD_LIMIT_GP:
		c->gp = l->gp_mask;
		break;
	case TD_LIMIT_NOCOUNTER:
		c->nocounter = true;
		break;
	case TD_LIMIT_TD_LEADER:
		c->leader = true;
		break;
	case TD_LIMIT_TD_METRIC:
		c->metric = true;
		break;
	case TD_LIMIT_SPAN:
		break;
	case TD_LIMIT_EXTRA:
		c->reg = l->reg;
		c->reg_values = l->reg_values;
		reg_value(e, l->reg, c->reg_value, sizeof(c->reg_value));
		break;
	}
}

int td_fit_classes(const struct td_catalog *cat, struct td_ev_class **out, int *leader, td_err *err)
{
	struct td_ev_class *cls = calloc((size_t)(cat->nevents ? cat->nevents : 1), sizeof(*cls));

	*leader = -1;
	if (!cls) {
		td_err_set(err, "out of memory");
		return -1;
	}
	for (int i = 0; i < cat->nevents; i++) {
		cls[i].fixed = -1;
		cls[i].gp = ~0u;
	}
	for (int i = 0; i < cat->nlimits; i++)
		apply_limit(cat, &cat->limits[i], cls);
	for (int i = 0; i < cat->nevents; i++) {
		if (cls[i].leader)
			*leader = i;
		if (!cls[i].gp && cls[i].fixed < 0 && !cls[i].nocounter && !cls[i].metric) {
			td_err_set(err,
				   "%s:%d: event %s may use no general-purpose counter (counters=fixed) and no "
				   "fixed counter (no 'fixed' line names it)",
				   cat->name, cat->events[i].line, cat->events[i].alias);
			free(cls);
			return -1;
		}
	}
	*out = cls;
	return 0;
}

/* Give each free fixed counter to the event that may use it and has the
 * fewest general-purpose alternatives (fixed-only events first). */
static unsigned assign_fixed(const struct td_fit *ft, const int *ev, int n, bool *on_fixed)
{
	unsigned used = 0, gpmask = ft->b->gp >= 32 ? ~0u : (1u << ft->b->gp) - 1;

	for (int k = 0; k < ft->b->nfixed; k++) {
		int best = -1;
		if (!((ft->b->fixed_mask >> k) & 1))
			continue;
		for (int i = 0; i < n; i++) {
			const struct td_ev_class *c = &ft->cls[ev[i]];
			if (c->fixed != k || on_fixed[i] || c->nocounter || c->metric)
				continue;
			if (best < 0 || popcount(c->gp & gpmask) < popcount(ft->cls[ev[best]].gp & gpmask))
				best = i;
		}
		if (best >= 0) {
			on_fixed[best] = true;
			used |= 1u << k;
		}
	}
	return used;
}

/* Kuhn's augmenting path: can event i take a GP counter (moving others)? */
static bool augment(const unsigned *allowed, int i, int *owner, unsigned *seen, int ngp)
{
	for (int k = 0; k < ngp; k++) {
		if (!((allowed[i] >> k) & 1) || ((*seen >> k) & 1))
			continue;
		*seen |= 1u << k;
		if (owner[k] < 0 || augment(allowed, owner[k], owner, seen, ngp)) {
			owner[k] = i;
			return true;
		}
	}
	return false;
}

static bool has_event(const int *ev, int n, int alias)
{
	for (int i = 0; i < n; i++)
		if (ev[i] == alias)
			return true;
	return false;
}

/* The events that need a GP counter, with the counters each may use. */
static int gp_needs(const struct td_fit *ft, const int *ev, int n, const bool *on_fixed, unsigned *allowed, int *who,
		    struct td_fit_result *r)
{
	unsigned gpmask = ft->b->gp >= 32 ? ~0u : (1u << ft->b->gp) - 1;
	int m = 0;

	for (int i = 0; i < n; i++) {
		const struct td_ev_class *c = &ft->cls[ev[i]];
		const char *alias = ft->cat->events[ev[i]].alias;
		if (c->metric && (ft->leader < 0 || !has_event(ev, n, ft->leader))) {
			snprintf(r->why, sizeof(r->why), "topdown metric event %s needs its leader in the group",
				 alias);
			return -1;
		}
		if (on_fixed[i] || c->nocounter || c->metric)
			continue;
		if (!(c->gp & gpmask)) {
			if (c->gp) { /* its 'limit' counters lie beyond the budget (e.g. counter 3 with --counters 2) */
				int lo = __builtin_ctz(c->gp), hi = 31 - __builtin_clz(c->gp);
				char range[24];
				if (lo == hi)
					snprintf(range, sizeof(range), "counter %d", lo);
				else
					snprintf(range, sizeof(range), "counters %d-%d", lo, hi);
				snprintf(r->why, sizeof(r->why),
					 "%s counts only on general-purpose %s, beyond the budget of %d", alias, range,
					 ft->b->gp);
			} else {
				snprintf(r->why, sizeof(r->why),
					 "%s counts only on fixed counter %d, which is not free", alias, c->fixed);
			}
			return -1;
		}
		allowed[m] = c->gp & gpmask;
		who[m++] = ev[i];
	}
	return m;
}

/* Each extra register holds at most reg_values distinct values in one group: the kernel gives an
 * event whose value finds no free register an empty constraint, so the group cannot be scheduled
 * (docs/td-format.md "Counters": extra). */
static bool extra_regs_fit(const struct td_fit *ft, const int *ev, int n, struct td_fit_result *r)
{
	for (int i = 0; i < n; i++) {
		const struct td_ev_class *c = &ft->cls[ev[i]];
		int distinct = 0;
		if (!c->reg)
			continue;
		for (int j = 0; j <= i; j++) { /* distinct values of c->reg among ev[0..i] */
			const struct td_ev_class *d = &ft->cls[ev[j]];
			bool seen = false;
			if (!d->reg || strcmp(d->reg, c->reg))
				continue;
			for (int k = 0; k < j && !seen; k++)
				seen = ft->cls[ev[k]].reg && !strcmp(ft->cls[ev[k]].reg, c->reg) &&
				       !strcmp(ft->cls[ev[k]].reg_value, d->reg_value);
			distinct += !seen;
		}
		if (distinct > c->reg_values) {
			snprintf(r->why, sizeof(r->why),
				 "%s would be the %s register's value number %d, and it holds %d "
				 "in one group",
				 ft->cat->events[ev[i]].alias, c->reg, distinct, c->reg_values);
			return false;
		}
	}
	return true;
}

bool td_fit(const struct td_fit *ft, const int *ev, int n, struct td_fit_result *r)
{
	bool *on_fixed = calloc((size_t)(n ? n : 1), sizeof(bool));
	unsigned *allowed = malloc((size_t)(n ? n : 1) * sizeof(unsigned));
	int *who = malloc((size_t)(n ? n : 1) * sizeof(int)), owner[32];

	memset(r, 0, sizeof(*r));
	if (!on_fixed || !allowed || !who) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		goto out;
	}
	r->fixed_used = popcount(assign_fixed(ft, ev, n, on_fixed));
	int m = gp_needs(ft, ev, n, on_fixed, allowed, who, r);
	if (m < 0)
		goto out;
	r->gp_used = m;
	if (!extra_regs_fit(ft, ev, n, r))
		goto out;
	if (m > ft->b->gp) {
		snprintf(r->why, sizeof(r->why), "needs %d general-purpose counters, budget %d", m, ft->b->gp);
		goto out;
	}
	for (int k = 0; k < 32; k++)
		owner[k] = -1;
	for (int i = 0; i < m; i++) {
		unsigned seen = 0;
		if (!augment(allowed, i, owner, &seen, ft->b->gp < 32 ? ft->b->gp : 32)) {
			snprintf(r->why, sizeof(r->why),
				 "needs %d general-purpose counters, budget %d, but %s and the "
				 "events sharing its counter range cannot all be placed",
				 m, ft->b->gp, ft->cat->events[who[i]].alias);
			goto out;
		}
	}
	r->ok = true;
out:
	free(on_fixed);
	free(allowed);
	free(who);
	return r->ok;
}
