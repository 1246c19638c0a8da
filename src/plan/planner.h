/* planner: packs the events a chosen set of metric-tree nodes needs into
 * perf_event groups that fit the counters of one logical CPU — every
 * formula's events co-scheduled in one group, PERF_METRICS groups led by
 * SLOTS, fixed-counter and counter-range constraints honoured — and says
 * whether the kernel will multiplex. Counter budgets and per-event
 * constraints come from the events file (catalog "counters", "fixed",
 * "limit", "nocounter", "topdown-group", "span", "extra" lines: an extra
 * register holds few distinct values per group). No I/O, no perf_event.
 *
 * What is planned (an "item" is one formula whose value is wanted):
 *   - nodes: with level L, every node of level <= L; with a node list, the
 *     named nodes and all their ancestors;
 *   - "extras": info metrics and CPI components (with cpi-cycles and
 *     cpi-instructions) whose events are all among the events the chosen
 *     nodes need, and that fit into a group the nodes opened (extras never
 *     open a group; the others are left out of the plan).
 * An item's events are the event aliases its formula reads, transitively,
 * with params (SMT_on) at their planning values: `CLKS_ANY/2 if SMT_on else
 * CLKS` needs CLKS_ANY only with SMT on. A PERF_METRICS metric event brings
 * its topdown-group leader.
 *
 * Packing (deterministic): nodes before infos before CPI items; within each
 * kind the item needing most counters first (then file order); each item
 * goes into the first group that can take all its events, else a new group.
 * Then the nodes whose events do not fit one empty group: not collectable, with
 * the reason ("node X needs N general-purpose counters, budget M") — unless
 * the file lists it on a `span` line: then each of its events not yet in a
 * group goes into the first group that takes it, and it is flagged as
 * spanning (its value mixes time windows: the collector lowers confidence).
 * Fixed-counter events are carried by every group whose items need them.
 * With more than one group the kernel multiplexes; each group is expected to
 * run about 1/groups of the time (it rotates the groups). */
#ifndef TD_PLANNER_H
#define TD_PLANNER_H

#include <stdbool.h>

#include "model/model.h"
#include "base/util.h"

/* Counters one group may use. */
struct td_plan_budget {
	int gp;		     /* general-purpose counters */
	unsigned fixed_mask; /* bit k: fixed counter k is free for us */
	int nfixed;	     /* fixed counters of the PMU */
	char why[256];	     /* how it was derived, one line */
};

enum td_plan_kind {
	TD_PLAN_NODE,
	TD_PLAN_INFO,
	TD_PLAN_CPI,
	TD_PLAN_CPI_BASE
};
enum td_plan_status {
	TD_PLAN_OK,
	TD_PLAN_SPANS,
	TD_PLAN_NOT_COLLECTABLE,
	TD_PLAN_OMITTED, /* internal: an extra that fits no group; never in a finished plan */
};

struct td_plan_item {
	enum td_plan_kind kind;
	int index;	  /* node/info/cpi index; CPI_BASE: 0 cycles, 1 instructions */
	const char *name; /* node path, info or cpi name, "cpi-cycles"... (borrowed from the model) */
	int *events;	  /* alias indices, ascending */
	int nevents;
	enum td_plan_status status;
	int group;	  /* TD_PLAN_OK: the group computing it; else -1 */
	char reason[512]; /* NOT_COLLECTABLE / SPANS: why (kind, name, the fit's why) */
};

struct td_plan_group {
	int *events; /* alias indices, leader first */
	int nevents;
	int gp_used, fixed_used; /* counters taken */
	int *items;		 /* indices into plan items it serves (spanning items included) */
	int nitems;
};

struct td_plan {
	const struct td_model *model;
	struct td_plan_budget budget;
	struct td_plan_item *items;
	int nitems;
	struct td_plan_group *groups;
	int ngroups;
	int nnot_collectable, nspans;
	bool multiplex; /* more than one group */
	double share;	/* expected share of time of each group: 1 / ngroups */
};

struct td_plan_request {
	int level;		  /* > 0: nodes of level <= level */
	const char *const *nodes; /* else: these node names (path or unique last component) and their ancestors */
	int nnodes;
	bool smt;      /* SMT on: SMT_on = 1 and the file's smt-gp counters */
	bool watchdog; /* the NMI watchdog holds a counter (as the file says which) */
	int counters;  /* > 0: general-purpose counters, overriding the file (before the watchdog) */
};

/* Budget from the file's counters line and the request. -1 with err when
 * the file has no counters line and no counters override was given. */
int td_plan_budget_for(const struct td_catalog *cat, const struct td_plan_request *rq, struct td_plan_budget *b,
		       td_err *err);

/* Make the plan. -1 with err on a bad request (unknown node: the message
 * lists near matches; level < 1 or beyond the tree) or a bad file (span
 * naming nothing, an event with no counter it may use). */
int td_plan_make(const struct td_model *m, const struct td_plan_request *rq, struct td_plan **out, td_err *err);
void td_plan_free(struct td_plan *p);

/* Node index of name (full path, or a last component that is unique), or -1. */
int td_plan_find_node(const struct td_model *m, const char *name);
/* Up to max node paths like name (same leaf ignoring case, substring, or a
 * few edits away), comma-separated into buf; "" if none. Only whole paths:
 * when the next does not fit, ", ..." ends the list. */
void td_plan_near_nodes(const struct td_model *m, const char *name, char *buf, size_t len, int max);
/* Deepest level of the tree. */
int td_plan_max_level(const struct td_model *m);

/* How an event counts: "fixed N", "gp", "gp 0-3", "topdown metric", "no counter"; then, for an
 * event that sets an extra register, ", REG (N per group)". */
const char *td_plan_event_class(const struct td_plan *p, int alias, char *buf, size_t len);
const char *td_plan_kind_name(enum td_plan_kind k);
const char *td_plan_status_name(enum td_plan_status s);

#endif
