/* catalog_parse: what the catalog's line parsers share (catalog.c,
 * catalog_counters.c): the error that names file and line, and the event
 * an alias declares. Its own file so that catalog.c calls
 * catalog_counters.c and neither calls back. */
#include <stdarg.h>
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

const struct td_cat_event *td_catalog_event(const struct td_catalog *cat, const char *alias)
{
	for (int i = 0; i < cat->nevents; i++)
		if (!strcmp(cat->events[i].alias, alias))
			return &cat->events[i];
	return NULL;
}
