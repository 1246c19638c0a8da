/* planner_fit: (internal to planner) event counting classes, the budget of
 * one group, and whether a set of events fits one group. */
#ifndef TD_PLANNER_FIT_H
#define TD_PLANNER_FIT_H

#include <stdbool.h>

#include "model/catalog.h"
#include "planner.h"

struct td_ev_class {
	int fixed;	    /* fixed counter it may use, -1 none */
	unsigned gp;	    /* GP counters it may use (bit i = counter i); 0 = none */
	bool nocounter;	    /* takes no counter (msr, software) */
	bool leader;	    /* the topdown-group leader (SLOTS) */
	bool metric;	    /* a PERF_METRICS event: no counter, needs the leader */
	const char *reg;    /* the extra register it sets ('extra' line), NULL none */
	int reg_values;	    /* distinct values of reg one group may hold */
	char reg_value[96]; /* its value: the term's text in a raw form (frontend=0x8), else the alias */
};

struct td_fit {
	const struct td_catalog *cat;
	const struct td_ev_class *cls;
	const struct td_plan_budget *b;
	int leader; /* alias index of the topdown-group leader, -1 none */
};

struct td_fit_result {
	bool ok;
	int gp_used, fixed_used;
	char why[256]; /* when not ok */
};

int td_fit_budget(const struct td_catalog *cat, const struct td_plan_request *rq, struct td_plan_budget *b,
		  td_err *err);
/* Classes of every event of cat (malloc'd), and the topdown leader. */
int td_fit_classes(const struct td_catalog *cat, struct td_ev_class **out, int *leader, td_err *err);
/* Do the n distinct events ev fit one group? */
bool td_fit(const struct td_fit *ft, const int *ev, int n, struct td_fit_result *r);

#endif
