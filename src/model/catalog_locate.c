/* catalog_locate: an events file's locate lines (docs/td-format.md,
 * "Locate"): `locate NODE EVENT | where it comes from` — the event whose
 * samples point at the code behind NODE, as toplev's sample events and
 * perfmon's LocateWith name it; checked against the file's node lines. */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "catalog_parse.h"

int td_catalog_parse_locate(struct td_catalog *cat, const char *kw, char *rest, int lineno, td_err *err)
{
	char node[160], spec[300], extra[8];
	char *bar;
	struct td_cat_locate *l;

	if (strcmp(kw, "locate"))
		return 0;
	bar = strchr(rest, '|');
	if (bar)
		*bar = '\0';
	if (sscanf(rest, "%159s %299s %7s", node, spec, extra) != 2)
		return td_cat_fail(cat, lineno, err, "'locate' needs a node and one event: locate NODE EVENT | SOURCE");
	if (strlen(node) >= sizeof(l->node) || strlen(spec) >= sizeof(l->spec))
		return td_cat_fail(cat, lineno, err, "'locate %.40s...': a node or event name too long", node);
	if (!(l = td_array_push(&cat->locates, &cat->nlocates, sizeof(*l))))
		return td_cat_fail(cat, lineno, err, "out of memory");
	snprintf(l->node, sizeof(l->node), "%s", node);
	snprintf(l->spec, sizeof(l->spec), "%s", spec);
	if (bar) {
		bar++;
		bar += strspn(bar, " \t");
		snprintf(l->desc, sizeof(l->desc), "%s", bar);
	}
	l->line = lineno;
	return 1;
}

/* Does a node line define path (its text starts with it, then a blank)? */
static bool defines(const struct td_catalog *cat, const char *path)
{
	size_t n = strlen(path);

	for (int i = 0; i < cat->ndefs; i++)
		if (!strcmp(cat->defs[i].keyword, "node") && !strncmp(cat->defs[i].text, path, n) &&
		    (cat->defs[i].text[n] == ' ' || cat->defs[i].text[n] == '\t'))
			return true;
	return false;
}

int td_catalog_check_locates(const struct td_catalog *cat, td_err *err)
{
	for (int i = 0; i < cat->nlocates; i++) {
		const struct td_cat_locate *l = &cat->locates[i];
		if (!defines(cat, l->node))
			return td_cat_fail(cat, l->line, err,
					   "locate: no node '%s' in this file: give a node's full path", l->node);
		for (int k = 0; k < i; k++)
			if (!strcmp(cat->locates[k].node, l->node))
				return td_cat_fail(
					cat, l->line, err,
					"locate: node '%s' has a locate line already (line %d): one event a node",
					l->node, cat->locates[k].line);
	}
	return 0;
}

const struct td_cat_locate *td_catalog_locate(const struct td_catalog *cat, const char *node)
{
	for (int i = 0; i < cat->nlocates; i++)
		if (!strcmp(cat->locates[i].node, node))
			return &cat->locates[i];
	return NULL;
}
