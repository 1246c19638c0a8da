/* catalog_parse: what the catalog's line parsers share (catalog.c,
 * catalog_counters.c): the error that names file and line
 * (catalog_parse.c, which also defines catalog.h's td_catalog_event).
 * Private. */
#ifndef TD_CATALOG_PARSE_H
#define TD_CATALOG_PARSE_H

#include <stdio.h>

#include "catalog.h"

/* Set err to "FILE:LINE: message" and return -1, for a parser to return. */
int td_cat_fail(const struct td_catalog *cat, int lineno, td_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
