/* catalog_counters: the lines of an events file that describe the counters
 * rather than the metrics — the budget (`counters`), which events may use a
 * fixed counter (`fixed`), which general-purpose counters an event may use
 * (`limit`), events that take no counter (`nocounter`), the PERF_METRICS
 * group (`topdown-group`), formulas allowed to span groups (`span`) and
 * events that set an extra register of which a group holds few values (`extra`).
 * Format: docs/td-format.md, "Counters". The planner reads the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "catalog_parse.h"

#define MAX_COUNTERS 32

static int add_limit(struct td_catalog *cat, enum td_cat_limit_kind kind, const char *name, int lineno,
		     struct td_cat_limit **out)
{
	if (!(*out = td_array_push(&cat->limits, &cat->nlimits, sizeof(*cat->limits))))
		return -1;
	(*out)->kind = kind;
	(*out)->fixed = -1;
	(*out)->line = lineno;
	snprintf((*out)->name, sizeof((*out)->name), "%s", name);
	return 0;
}

/* "N" in [0, max]: 0, or -1 if s is not such a number. */
static int small_number(const char *s, int max, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0 || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_watchdog(struct td_catalog *cat, const char *v, int lineno, td_err *err)
{
	struct td_cat_counters *c = &cat->counters;

	c->watchdog_gp = false;
	c->watchdog_fixed = -1;
	if (!strcmp(v, "gp"))
		c->watchdog_gp = true;
	else if (!strncmp(v, "fixed:", 6) && !small_number(v + 6, MAX_COUNTERS - 1, &c->watchdog_fixed))
		return 0;
	else if (strcmp(v, "none"))
		return td_cat_fail(cat, lineno, err, "counters: watchdog= takes gp, fixed:N or none, got '%s'", v);
	return 0;
}

/* counters gp=N [smt-gp=N] [fixed=N] [watchdog=gp|fixed:N|none] */
static int parse_budget(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	struct td_cat_counters *c = &cat->counters;
	bool gp_seen = false, smt_seen = false;

	if (c->given)
		return td_cat_fail(cat, lineno, err, "'counters' given twice (first at line %d)", c->line);
	*c = (struct td_cat_counters){ .given = true, .watchdog_fixed = -1, .line = lineno };
	while (*rest) {
		char *word = td_next_word(&rest), *eq = strchr(word, '=');
		if (!eq)
			return td_cat_fail(cat, lineno, err,
					   "counters: expected KEY=VALUE (gp, smt-gp, fixed, watchdog), got '%s'",
					   word);
		*eq++ = '\0';
		if (!strcmp(word, "watchdog")) {
			if (parse_watchdog(cat, eq, lineno, err))
				return -1;
			continue;
		}
		int *dst = !strcmp(word, "gp")	     ? &c->gp
			   : !strcmp(word, "smt-gp") ? &c->gp_smt
			   : !strcmp(word, "fixed")  ? &c->fixed
						     : NULL;
		if (!dst)
			return td_cat_fail(cat, lineno, err,
					   "counters: unknown key '%s' (expected gp, smt-gp, fixed, watchdog)", word);
		if (small_number(eq, MAX_COUNTERS, dst))
			return td_cat_fail(cat, lineno, err, "counters: %s= needs a number from 0 to %d, got '%s'",
					   word, MAX_COUNTERS, eq);
		gp_seen |= dst == &c->gp;
		smt_seen |= dst == &c->gp_smt;
	}
	if (!gp_seen || c->gp < 1)
		return td_cat_fail(cat, lineno, err,
				   "counters: gp=N (general-purpose counters per logical CPU, at least 1) is required");
	if (!smt_seen)
		c->gp_smt = c->gp;
	if (c->watchdog_fixed >= c->fixed && c->watchdog_fixed >= 0)
		return td_cat_fail(cat, lineno, err, "counters: watchdog=fixed:%d but only %d fixed counters",
				   c->watchdog_fixed, c->fixed);
	return 0;
}

/* counters=LO-HI | counters=N | counters=fixed -> GP mask */
static int parse_mask(struct td_catalog *cat, const char *word, unsigned *mask, int lineno, td_err *err)
{
	int lo, hi;
	char buf[64];

	if (strncmp(word, "counters=", 9))
		return td_cat_fail(
			cat, lineno, err,
			"limit: the last word must be counters=LO-HI, counters=N or counters=fixed, got '%s'", word);
	snprintf(buf, sizeof(buf), "%s", word + 9);
	if (!strcmp(buf, "fixed")) {
		*mask = 0;
		return 0;
	}
	char *dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (small_number(buf, MAX_COUNTERS - 1, &lo) || small_number(dash ? dash + 1 : buf, MAX_COUNTERS - 1, &hi) ||
	    hi < lo)
		return td_cat_fail(cat, lineno, err,
				   "limit: bad counter range '%s' (e.g. counters=0-3, counters=0, counters=fixed)",
				   word + 9);
	*mask = 0;
	for (int i = lo; i <= hi; i++)
		*mask |= 1u << i;
	return 0;
}

/* Add one entry of kind per remaining word; the first may be marked leader. */
static int add_names(struct td_catalog *cat, const char *kw, enum td_cat_limit_kind kind, char *rest, int fixed,
		     unsigned mask, int lineno, td_err *err)
{
	struct td_cat_limit *l;
	bool first = true;

	if (!*rest)
		return td_cat_fail(cat, lineno, err, "'%s' needs at least one name", kw);
	while (*rest) {
		const char *name = td_next_word(&rest);
		enum td_cat_limit_kind k = kind == TD_LIMIT_TD_LEADER && !first ? TD_LIMIT_TD_METRIC : kind;
		if (add_limit(cat, k, name, lineno, &l))
			return td_cat_fail(cat, lineno, err, "out of memory");
		l->fixed = fixed;
		l->gp_mask = mask;
		first = false;
	}
	return 0;
}

static int parse_fixed(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	const char *num = td_next_word(&rest);
	int n;

	if (!cat->counters.given)
		return td_cat_fail(cat, lineno, err, "'fixed' needs a 'counters' line before it");
	if (small_number(num, MAX_COUNTERS - 1, &n) || n >= cat->counters.fixed)
		return td_cat_fail(cat, lineno, err,
				   "fixed: '%s' is not a fixed counter number (the file has %d: 0 to %d)", num,
				   cat->counters.fixed, cat->counters.fixed - 1);
	return add_names(cat, "fixed", TD_LIMIT_FIXED, rest, n, 0, lineno, err);
}

static int parse_limit(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	char *last = strrchr(rest, ' ');
	unsigned mask = 0;

	if (!last)
		return td_cat_fail(cat, lineno, err, "limit: expected 'limit ALIAS... counters=LO-HI'");
	*last++ = '\0';
	if (parse_mask(cat, last, &mask, lineno, err))
		return -1;
	return add_names(cat, "limit", TD_LIMIT_GP, td_trim(rest), -1, mask, lineno, err);
}

/* extra REG N ALIAS...: REG one of the extra-register terms of perf's cpu format */
static int parse_extra(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	const char *reg = td_next_word(&rest), *num = td_next_word(&rest);
	int n, first = cat->nlimits;

	if (strcmp(reg, "offcore_rsp") && strcmp(reg, "frontend") && strcmp(reg, "ldlat"))
		return td_cat_fail(cat, lineno, err,
				   "extra: expected 'extra offcore_rsp|frontend|ldlat N ALIAS...', got "
				   "register '%s'",
				   reg);
	if (small_number(num, MAX_COUNTERS, &n) || n < 1)
		return td_cat_fail(cat, lineno, err, "extra: '%s' is not a number of values (1 to %d) for %s", num,
				   MAX_COUNTERS, reg);
	for (int i = 0; i < cat->nlimits; i++)
		if (cat->limits[i].kind == TD_LIMIT_EXTRA && !strcmp(cat->limits[i].reg, reg) &&
		    cat->limits[i].reg_values != n)
			return td_cat_fail(cat, lineno, err, "extra: %s gets %d per group here but %d at line %d", reg,
					   n, cat->limits[i].reg_values, cat->limits[i].line);
	if (add_names(cat, "extra", TD_LIMIT_EXTRA, rest, -1, 0, lineno, err))
		return -1;
	for (int i = first; i < cat->nlimits; i++) {
		snprintf(cat->limits[i].reg, sizeof(cat->limits[i].reg), "%s", reg);
		cat->limits[i].reg_values = n;
	}
	return 0;
}

int td_catalog_parse_counters(struct td_catalog *cat, const char *kw, char *rest, int lineno, td_err *err)
{
	int rc;

	if (!strcmp(kw, "counters"))
		rc = parse_budget(cat, rest, lineno, err);
	else if (!strcmp(kw, "fixed"))
		rc = parse_fixed(cat, rest, lineno, err);
	else if (!strcmp(kw, "limit"))
		rc = parse_limit(cat, rest, lineno, err);
	else if (!strcmp(kw, "nocounter"))
		rc = add_names(cat, kw, TD_LIMIT_NOCOUNTER, rest, -1, 0, lineno, err);
	else if (!strcmp(kw, "topdown-group")) {
		if (!*rest || !strchr(rest, ' '))
			return td_cat_fail(cat, lineno, err,
					   "topdown-group: expected 'topdown-group LEADER METRIC...'");
		rc = add_names(cat, kw, TD_LIMIT_TD_LEADER, rest, -1, 0, lineno, err);
	} else if (!strcmp(kw, "span"))
		rc = add_names(cat, kw, TD_LIMIT_SPAN, rest, -1, 0, lineno, err);
	else if (!strcmp(kw, "extra"))
		rc = parse_extra(cat, rest, lineno, err);
	else
		return 0;
	return rc < 0 ? -1 : 1;
}

int td_catalog_check_counters(const struct td_catalog *cat, td_err *err)
{
	int leaders = 0;

	for (int i = 0; i < cat->nlimits; i++) {
		const struct td_cat_limit *l = &cat->limits[i];
		int lineno = l->line;
		leaders += l->kind == TD_LIMIT_TD_LEADER;
		if (leaders > 1)
			return td_cat_fail(cat, lineno, err, "only one 'topdown-group' line per file");
		if (l->kind != TD_LIMIT_SPAN && !td_catalog_event(cat, l->name))
			return td_cat_fail(cat, lineno, err, "'%s' is not an event alias of this file", l->name);
	}
	return 0;
}
