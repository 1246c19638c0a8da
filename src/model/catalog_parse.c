/* catalog_parse: what the catalog's line parsers share (catalog.c,
 * catalog_counters.c): the error that names file and line, and the event
 * an alias declares (through an index by alias the parser keeps). Its own file so that catalog.c calls
 * catalog_counters.c and neither calls back. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "catalog_parse.h"

int td_cat_fail(const struct td_catalog *cat, int lineno, td_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	td_err_vset_at(err, cat->name, lineno, fmt, ap);
	va_end(ap);
	return -1;
}

/* FNV-1a of an alias. */
static uint32_t alias_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void index_put(int *index, int cap, const struct td_cat_event *events, int i)
{
	uint32_t k = alias_hash(events[i].alias) & (uint32_t)(cap - 1);

	while (index[k])
		k = (k + 1) & (uint32_t)(cap - 1);
	index[k] = i + 1;
}

void td_cat_index_event(struct td_catalog *cat)
{
	int n = cat->nevents;

	if (cat->indexed != n - 1) /* dropped before: stays dropped */
		return;
	if (2 * n > cat->event_index_cap) {
		int cap = cat->event_index_cap ? 2 * cat->event_index_cap : 64;
		int *index = calloc((size_t)cap, sizeof(int));
		if (!index) {
			free(cat->event_index);
			cat->event_index = NULL;
			cat->event_index_cap = 0;
			cat->indexed = -1;
			return;
		}
		for (int i = 0; i < n - 1; i++)
			index_put(index, cap, cat->events, i);
		free(cat->event_index);
		cat->event_index = index;
		cat->event_index_cap = cap;
	}
	index_put(cat->event_index, cat->event_index_cap, cat->events, n - 1);
	cat->indexed = n;
}

const struct td_cat_event *td_catalog_event(const struct td_catalog *cat, const char *alias)
{
	if (cat->event_index && cat->indexed == cat->nevents) {
		uint32_t mask = (uint32_t)cat->event_index_cap - 1;
		for (uint32_t k = alias_hash(alias) & mask; cat->event_index[k]; k = (k + 1) & mask)
			if (!strcmp(cat->events[cat->event_index[k] - 1].alias, alias))
				return &cat->events[cat->event_index[k] - 1];
		return NULL;
	}
	for (int i = 0; i < cat->nevents; i++)
		if (!strcmp(cat->events[i].alias, alias))
			return &cat->events[i];
	return NULL;
}
