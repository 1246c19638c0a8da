/* catalog: loading events/NAME.td files — the PMU models a file serves, its
 * constants and parameters, its event aliases (alias -> event string), and
 * its metric definitions (node, let, info, cpi lines), kept with their file
 * and line so that every later error can name them. Format: docs/td-format.md. */
#ifndef TD_CATALOG_H
#define TD_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct td_cat_event {
	char alias[64];
	char spec[256];   /* libpfm4 string or perf raw form */
	char desc[256];
	int line;
};

struct td_cat_const {
	char name[64];
	double value;
	bool is_param;    /* may be overridden (SMT_on, ...) */
	int line;
};

/* A definition line the metric engine compiles: keyword is one of node, let,
 * info, partition, cpi, cpi-cycles, cpi-instructions; text is the rest of the line with
 * continuations joined and the comment removed. */
struct td_cat_def {
	char keyword[24];
	char *text;
	int line;
};

struct td_catalog {
	char path[512];
	char name[128];          /* file name, e.g. intel-skl.td */
	char title[128];
	char version[256];
	char **models;           /* libpfm4 PMU models served */
	int nmodels;
	char **notes;
	int nnotes;
	struct td_cat_event *events;
	int nevents;
	struct td_cat_const *consts;
	int nconsts;
	struct td_cat_def *defs;
	int ndefs;
};

/* Load and check one file. On error returns -1 with "FILE:LINE: what" in err. */
int td_catalog_load(const char *path, struct td_catalog **out, td_err *err);
void td_catalog_free(struct td_catalog *cat);

const struct td_cat_event *td_catalog_event(const struct td_catalog *cat, const char *alias);
bool td_catalog_serves(const struct td_catalog *cat, const char *model);

/* Name of the file in dir serving model (e.g. "intel-skl.td"). 0 if found. */
int td_catalog_find(const char *dir, const char *model, char *name, size_t len);

/* The events directory: override (--events-dir) if given, else
 * $TOPDOWN_EVENTS_DIR, else the installed data directory, else the source
 * tree's events/ (running from a build tree). */
const char *td_events_dir(const char *override);

#endif
