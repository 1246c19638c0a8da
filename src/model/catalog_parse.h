/* catalog_parse: what the catalog's line parsers share (catalog.c,
 * catalog_counters.c) — the error exit that names file and line. Private. */
#ifndef TD_CATALOG_PARSE_H
#define TD_CATALOG_PARSE_H

#include <stdio.h>

#include "catalog.h"

/* Set err to "FILE:LINE: message" and return -1 from the calling parser,
 * which has `cat`, `lineno` and `err` in scope. */
#define FAIL(...)                                                              \
	do {                                                                   \
		char m_[400];                                                  \
		snprintf(m_, sizeof(m_), __VA_ARGS__);                         \
		td_err_set(err, "%s:%d: %s", cat->name, lineno, m_);           \
		return -1;                                                     \
	} while (0)

#endif
