/* catalog_parse: what the catalog's line parsers share (catalog.c,
 * catalog_counters.c): the error that names file and line, and the index
 * of events by alias (catalog_parse.c, which also defines catalog.h's
 * td_catalog_event).
 * Private. */
#ifndef TD_CATALOG_PARSE_H
#define TD_CATALOG_PARSE_H

#include <stdio.h>

#include "catalog.h"

/* Set err to "FILE:LINE: message" and return -1, for a parser to return. */
int td_cat_fail(const struct td_catalog *cat, int lineno, td_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The event just added (the last of cat->events) into td_catalog_event's
 * index; out of memory, the index is dropped (lookups search in order). */
void td_cat_index_event(struct td_catalog *cat);

#endif
