/* catalog: loading events/NAME.td files — the PMU models a file serves, its
 * constants and parameters, its event aliases (alias -> event string), and
 * its metric definitions (node, let, info, cpi lines), kept with their file
 * and line so that every later error can name them. Format: docs/td-format.md. */
#ifndef TD_CATALOG_H
#define TD_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

struct td_cat_event {
	char alias[64];
	char spec[256]; /* libpfm4 string or perf raw form */
	char desc[256];
	char pfm_differs[256]; /* a libpfm4-differs line: why libpfm4's encoding is not the vendor's ("" = none) */
	int line;
};

/* A perf-name line: a name Linux perf prints for one of the file's events
 * (its vendor event list, e.g. AMD's ex_ret_ops), matched by 'tdctl import'. */
struct td_cat_perf_name {
	char name[160];
	int event; /* index into the catalog's events */
	int line;
};

struct td_cat_const {
	char name[64];
	double value;
	bool is_param; /* may be overridden (SMT_on, ...) */
	int line;
};

/* A definition line the metric engine compiles: keyword is one of node, let,
 * info, partition, children-sum, bound, unrelated, cpi, cpi-cycles, cpi-instructions; text is the rest of the line with
 * continuations joined and the comment removed. */
struct td_cat_def {
	char keyword[24];
	char *text;
	int line; /* its first physical line */
	/* Where text sits in the file, for messages pointing into it: text[0] is at
	 * offset `base` of the definition joined from its physical lines, and line
	 * k of them (line + k) starts at offset starts[k] of it (starts[0] = 0). */
	int base;
	int *starts, nstarts;
};

/* Counter budget and per-event counter constraints (the planner's vendor
 * knowledge, docs/td-format.md "Counters"): parsed by catalog_counters.c. */
enum td_cat_limit_kind {
	TD_LIMIT_FIXED,	    /* fixed N ALIAS...: may use fixed counter N */
	TD_LIMIT_GP,	    /* limit ALIAS... counters=LO-HI|N|fixed: which GP counters (mask 0 = none) */
	TD_LIMIT_NOCOUNTER, /* nocounter ALIAS...: takes no PMU counter (msr, software) */
	TD_LIMIT_TD_LEADER, /* topdown-group LEADER METRIC...: the leader */
	TD_LIMIT_TD_METRIC, /*   a metric event: no counter, must follow LEADER in its group */
	TD_LIMIT_SPAN,	    /* span NAME...: a formula whose events may spread over groups */
	TD_LIMIT_EXTRA,	    /* extra REG N ALIAS...: the event sets extra register REG, of which
	                      * one group may hold N distinct values */
};

struct td_cat_limit {
	enum td_cat_limit_kind kind;
	char name[128];	  /* event alias (span: node path, info or cpi name) */
	int fixed;	  /* TD_LIMIT_FIXED: counter number */
	unsigned gp_mask; /* TD_LIMIT_GP: bit i = GP counter i allowed */
	char reg[32];	  /* TD_LIMIT_EXTRA: the register's name (offcore_rsp, frontend, ldlat) */
	int reg_values;	  /* TD_LIMIT_EXTRA: distinct values one group may hold */
	int line;
};

struct td_cat_counters {
	bool given;	    /* a 'counters' line was read */
	int gp;		    /* GP counters per logical CPU, SMT off */
	int gp_smt;	    /* with SMT on (= gp unless smt-gp= given) */
	int fixed;	    /* fixed counters */
	int watchdog_fixed; /* fixed counter the NMI watchdog holds, -1 if none */
	bool watchdog_gp;   /* the NMI watchdog holds one GP counter */
	int line;
};

/* A locate line: an event whose samples locate where in the code a node's
 * cause lies (toplev's sample events, perfmon's LocateWith): what
 * `tdctl run --hotspots=NODE` samples. */
struct td_cat_locate {
	char node[128]; /* the node's full path */
	char spec[256]; /* event string, as an event line's */
	char desc[256];
	int line;
};

struct td_catalog {
	char path[512];
	char name[128]; /* file name, e.g. intel-skl.td */
	char title[128];
	char version[256];
	char **models; /* libpfm4 PMU models served */
	int nmodels;
	char **notes;
	int nnotes;
	struct td_cat_event *events;
	int nevents;
	struct td_cat_perf_name *perf_names;
	int nperf_names;
	struct td_cat_const *consts;
	int nconsts;
	struct td_cat_def *defs;
	int ndefs;
	struct td_cat_counters counters;
	struct td_cat_limit *limits;
	int nlimits;
	struct td_cat_locate *locates; /* catalog_locate.c */
	int nlocates;
	/* td_catalog_event's index of events by alias, kept as the parser adds them:
	 * open addressing, event index + 1 (0: empty), cap a power of 2 at least twice
	 * the events; used while it covers every event (indexed == nevents), else
	 * (out of memory, a catalog made by hand) the events are searched in order */
	int *event_index;
	int event_index_cap, indexed;
};

/* catalog_counters.c: parse a counters/fixed/limit/nocounter/topdown-group/
 * span line. 1 = handled, 0 = not such a line, -1 = error in err. */
int td_catalog_parse_counters(struct td_catalog *cat, const char *kw, char *rest, int lineno, td_err *err);
/* After the whole file: every alias those lines name is an event. 0 or -1. */
int td_catalog_check_counters(const struct td_catalog *cat, td_err *err);

/* catalog_locate.c: parse a locate line (1 = handled, 0 = not such a
 * line, -1 = error in err); after the whole file, every locate line names a
 * node the file defines (0 or -1); the events locating node, NULL none. */
int td_catalog_parse_locate(struct td_catalog *cat, const char *kw, char *rest, int lineno, td_err *err);
int td_catalog_check_locates(const struct td_catalog *cat, td_err *err);
const struct td_cat_locate *td_catalog_locate(const struct td_catalog *cat, const char *node);

/* Load and check one file. On error returns -1 with "FILE:LINE: what" in err. */
int td_catalog_load(const char *path, struct td_catalog **out, td_err *err);
/* The same from text in memory (modified while parsed), named path. */
int td_catalog_parse_text(const char *path, char *text, struct td_catalog **out, td_err *err);
void td_catalog_free(struct td_catalog *cat);

const struct td_cat_event *td_catalog_event(const struct td_catalog *cat, const char *alias);
/* The event perf prints as name (a perf-name line, exact match), or NULL. */
const struct td_cat_event *td_catalog_perf_name(const struct td_catalog *cat, const char *name);
/* The physical line and column (from 1) of d->text[off] (off may be
 * strlen(d->text): just after the text). */
void td_cat_def_position(const struct td_cat_def *d, int off, int *line, int *col);
bool td_catalog_serves(const struct td_catalog *cat, const char *model);

/* Name of the file in dir serving model (e.g. "intel-skl.td"). 0 if found. */
int td_catalog_find(const char *dir, const char *model, char *name, size_t len);

/* The events directory: override (--events-dir) if given, else
 * $TOPDOWN_EVENTS_DIR, else the source tree's events/ for a program run from
 * its build tree, else the installed data directory (an installed program
 * never reads the build or source tree). */
const char *td_events_dir(const char *override);

#endif
