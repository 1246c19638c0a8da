/* catalog: reads events/NAME.td files into aliases, constants and definition
 * lines; finds the file that serves a libpfm4 model. */
#include "catalog.h"
#include "catalog_parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#ifndef TOPDOWN_EVENTS_DIR
#define TOPDOWN_EVENTS_DIR "/usr/local/share/topdown/events"
#endif

#ifdef TOPDOWN_BUILD_DIR
/* Is this program the one built in TOPDOWN_BUILD_DIR (not an installed copy)? */
static bool running_from_build_tree(void)
{
	static int cached = -1;
	char exe[PATH_MAX];
	ssize_t n;

	if (cached < 0) {
		size_t len = strlen(TOPDOWN_BUILD_DIR);
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		cached = n > 0 && (size_t)n < sizeof(exe) - 1 &&
			 (exe[n] = '\0', !strncmp(exe, TOPDOWN_BUILD_DIR, len)) && exe[len] == '/';
	}
	return cached;
}
#endif

const char *td_events_dir(const char *override)
{
	const char *env = getenv("TOPDOWN_EVENTS_DIR");

	if (override && *override)
		return override;
	if (env && *env)
		return env;
#if defined(TOPDOWN_SRC_EVENTS_DIR) && defined(TOPDOWN_BUILD_DIR)
	/* a program run from its build tree (README's first command, the tests)
	 * reads the source tree's files; an installed copy never does */
	if (running_from_build_tree() && access(TOPDOWN_SRC_EVENTS_DIR "/software.td", R_OK) == 0)
		return TOPDOWN_SRC_EVENTS_DIR;
#endif
	return TOPDOWN_EVENTS_DIR;
}

static bool valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int push_str(char ***arr, int *n, const char *s)
{
	char *copy = strdup(s), **slot = copy ? td_array_push(arr, n, sizeof(char *)) : NULL;

	if (!slot) {
		free(copy);
		return -1;
	}
	*slot = copy;
	return 0;
}

/* perf-name ALIAS NAME...: names perf prints for an event declared above. */
static int parse_perf_name(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	char *alias = td_next_word(&rest);
	const struct td_cat_event *e = td_catalog_event(cat, alias);

	if (!*alias || !*rest)
		return td_cat_fail(cat, lineno, err,
				   "'perf-name' needs an event alias and at least one name perf prints for it");
	if (!e)
		return td_cat_fail(cat, lineno, err, "perf-name: '%s' is not an event declared above", alias);
	while (*rest) {
		char *name = td_next_word(&rest);
		const struct td_cat_event *other = td_catalog_perf_name(cat, name);
		if (other)
			return td_cat_fail(cat, lineno, err, "perf-name '%s' already names event %s", name,
					   other->alias);
		if (strlen(name) >= sizeof(cat->perf_names->name))
			return td_cat_fail(cat, lineno, err, "perf-name '%.40s...' is longer than %zu characters", name,
					   sizeof(cat->perf_names->name) - 1);
		if (!td_array_push(&cat->perf_names, &cat->nperf_names, sizeof(*cat->perf_names)))
			return td_cat_fail(cat, lineno, err, "out of memory");
		struct td_cat_perf_name *pn = &cat->perf_names[cat->nperf_names - 1];
		snprintf(pn->name, sizeof(pn->name), "%s", name);
		pn->event = (int)(e - cat->events);
		pn->line = lineno;
	}
	return 0;
}

/* libpfm4-differs ALIAS | REASON: libpfm4 encodes the event declared above
 * differently from the vendor's table, and why ('tdctl events --check'). */
static int parse_pfm_differs(struct td_catalog *cat, char *rest, int lineno, td_err *err)
{
	char *bar = strchr(rest, '|');

	if (bar)
		*bar++ = '\0';
	char *alias = td_next_word(&rest);
	struct td_cat_event *e = (struct td_cat_event *)td_catalog_event(cat, alias);
	const char *why = bar ? td_trim(bar) : "";

	if (!*alias || *rest || !*why)
		return td_cat_fail(cat, lineno, err,
				   "'libpfm4-differs' needs one event alias, then '|' and the reason");
	if (!e)
		return td_cat_fail(cat, lineno, err, "libpfm4-differs: '%s' is not an event declared above", alias);
	if (e->pfm_differs[0])
		return td_cat_fail(cat, lineno, err, "libpfm4-differs: event '%s' already has one", alias);
	if (strlen(why) >= sizeof(e->pfm_differs))
		return td_cat_fail(cat, lineno, err, "libpfm4-differs %s: the reason is longer than %zu characters",
				   alias, sizeof(e->pfm_differs) - 1);
	snprintf(e->pfm_differs, sizeof(e->pfm_differs), "%s", why);
	return 0;
}

/* One definition as joined from its physical lines (see td_cat_def). */
struct joined {
	const char *text;
	int *starts, nstarts, cap;
};

static int parse_line(struct td_catalog *cat, char *line, int lineno, const struct joined *j, td_err *err)
{
	char *rest = line;
	char *kw = td_next_word(&rest);

	if (!strcmp(kw, "pmu")) {
		if (!*rest)
			return td_cat_fail(cat, lineno, err, "'pmu' needs at least one libpfm4 model name");
		while (*rest)
			if (push_str(&cat->models, &cat->nmodels, td_next_word(&rest)))
				return td_cat_fail(cat, lineno, err, "out of memory");
	} else if (!strcmp(kw, "title")) {
		snprintf(cat->title, sizeof(cat->title), "%s", rest);
	} else if (!strcmp(kw, "version")) {
		snprintf(cat->version, sizeof(cat->version), "%s", rest);
	} else if (!strcmp(kw, "note")) {
		if (push_str(&cat->notes, &cat->nnotes, rest))
			return td_cat_fail(cat, lineno, err, "out of memory");
	} else if (!strcmp(kw, "const") || !strcmp(kw, "param")) {
		char *name = td_next_word(&rest), *val = td_next_word(&rest), *end;
		if (!valid_name(name))
			return td_cat_fail(cat, lineno, err, "'%s' needs a name, got '%s'", kw, name);
		if (strlen(name) >= sizeof(cat->consts->name))
			return td_cat_fail(cat, lineno, err, "'%s %.40s...': a name is at most %zu characters", kw,
					   name, sizeof(cat->consts->name) - 1);
		double v = strtod(val, &end);
		if (!*val || *end || *rest)
			return td_cat_fail(cat, lineno, err, "'%s %s' needs one number, got '%s%s%s'", kw, name, val,
					   *rest ? " " : "", rest);
		if (!td_array_push(&cat->consts, &cat->nconsts, sizeof(*cat->consts)))
			return td_cat_fail(cat, lineno, err, "out of memory");
		struct td_cat_const *c = &cat->consts[cat->nconsts - 1];
		snprintf(c->name, sizeof(c->name), "%s", name);
		c->value = v;
		c->is_param = kw[0] == 'p';
		c->line = lineno;
	} else if (!strcmp(kw, "event")) {
		char *bar = strchr(rest, '|');
		if (bar)
			*bar++ = '\0';
		char *alias = td_next_word(&rest), *spec = td_next_word(&rest);
		if (!valid_name(alias))
			return td_cat_fail(cat, lineno, err, "event alias '%s' is not a name (letters, digits, _)",
					   alias);
		if (!*spec)
			return td_cat_fail(cat, lineno, err, "event '%s' has no event string", alias);
		if (*rest)
			return td_cat_fail(
				cat, lineno, err,
				"event '%s': unexpected '%s' after the event string (descriptions follow '|')", alias,
				rest);
		if (td_catalog_event(cat, alias))
			return td_cat_fail(cat, lineno, err, "event alias '%s' defined twice", alias);
		/* a field cut short would name a different event: refuse instead */
		if (strlen(alias) >= sizeof(cat->events->alias) || strlen(spec) >= sizeof(cat->events->spec) ||
		    (bar && strlen(td_trim(bar)) >= sizeof(cat->events->desc)))
			return td_cat_fail(cat, lineno, err,
					   "event '%.40s': alias, event string or description longer than "
					   "%zu, %zu or %zu characters",
					   alias, sizeof(cat->events->alias) - 1, sizeof(cat->events->spec) - 1,
					   sizeof(cat->events->desc) - 1);
		if (!td_array_push(&cat->events, &cat->nevents, sizeof(*cat->events)))
			return td_cat_fail(cat, lineno, err, "out of memory");
		struct td_cat_event *e = &cat->events[cat->nevents - 1];
		snprintf(e->alias, sizeof(e->alias), "%s", alias);
		snprintf(e->spec, sizeof(e->spec), "%s", spec);
		snprintf(e->desc, sizeof(e->desc), "%s", bar ? td_trim(bar) : "");
		e->pfm_differs[0] = '\0';
		e->line = lineno;
		td_cat_index_event(cat);
	} else if (!strcmp(kw, "perf-name")) {
		return parse_perf_name(cat, rest, lineno, err);
	} else if (!strcmp(kw, "libpfm4-differs")) {
		return parse_pfm_differs(cat, rest, lineno, err);
	} else if (!strcmp(kw, "node") || !strcmp(kw, "let") || !strcmp(kw, "info") || !strcmp(kw, "cpi") ||
		   !strcmp(kw, "cpi-cycles") || !strcmp(kw, "cpi-instructions") || !strcmp(kw, "partition") ||
		   !strcmp(kw, "children-sum") || !strcmp(kw, "bound") || !strcmp(kw, "unrelated")) {
		if (!*rest)
			return td_cat_fail(cat, lineno, err, "'%s' needs a definition", kw);
		if (!td_array_push(&cat->defs, &cat->ndefs, sizeof(*cat->defs)))
			return td_cat_fail(cat, lineno, err, "out of memory");
		struct td_cat_def *d = &cat->defs[cat->ndefs - 1];
		snprintf(d->keyword, sizeof(d->keyword), "%s", kw);
		d->line = lineno;
		d->base = (int)(rest - j->text);
		d->starts = malloc((size_t)j->nstarts * sizeof(*d->starts));
		if (!(d->text = strdup(rest)) || !d->starts)
			return td_cat_fail(cat, lineno, err, "out of memory");
		memcpy(d->starts, j->starts, (size_t)j->nstarts * sizeof(*d->starts));
		d->nstarts = j->nstarts;
	} else {
		int handled = td_catalog_parse_counters(cat, kw, rest, lineno, err);
		if (!handled)
			handled = td_catalog_parse_locate(cat, kw, rest, lineno, err);
		if (handled)
			return handled < 0 ? -1 : 0;
		return td_cat_fail(
			cat, lineno, err,
			"unknown keyword '%s' (expected pmu, title, version, note, const, param, event, perf-name, "
			"let, info, "
			"node, partition, children-sum, bound, unrelated, cpi, cpi-cycles, cpi-instructions, counters, "
			"fixed, limit, nocounter, topdown-group, span, extra, locate)",
			kw);
	}
	return 0;
}

/* Strip a comment that is not inside a quoted string. */
static void strip_comment(char *s)
{
	bool quoted = false;

	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == '#' && !quoted) {
			*s = '\0';
			return;
		}
	}
}

int td_catalog_load(const char *path, struct td_catalog **out, td_err *err)
{
	char *text = NULL;
	int rc = td_slurp(path, &text, NULL);

	if (rc < 0) {
		td_err_set(err, "%s: cannot read: %s", path, strerror(-rc));
		return -1;
	}
	if (memchr(text, '\0', strlen(text) + 1) != text + strlen(text)) {
		td_err_set(err, "%s: not a text file", path);
		free(text);
		return -1;
	}
	rc = td_catalog_parse_text(path, text, out, err);
	free(text);
	return rc;
}

int td_catalog_parse_text(const char *path, char *text, struct td_catalog **out, td_err *err)
{
	char *joined = NULL;
	struct joined j = { 0 };
	size_t joined_len = 0;
	int lineno = 0, start_line = 0, ret = -1;
	struct td_catalog *cat = calloc(1, sizeof(*cat));
	const char *base = strrchr(path, '/');

	if (!cat) {
		td_err_set(err, "out of memory");
		return -1;
	}
	snprintf(cat->path, sizeof(cat->path), "%s", path);
	snprintf(cat->name, sizeof(cat->name), "%s", base ? base + 1 : path);
	/* strtok_r would merge empty lines and lose line numbers: walk by hand */
	for (char *line = text; line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		strip_comment(line);
		size_t len = strlen(line);
		bool cont = len > 0 && line[len - 1] == '\\';
		if (cont)
			line[--len] = '\0';
		char *nj = realloc(joined, joined_len + len + 2);
		if (!nj) {
			td_err_set(err, "out of memory");
			goto out;
		}
		joined = nj;
		if (!joined_len) {
			start_line = lineno;
			j.nstarts = 0;
		}
		if (j.nstarts == j.cap) {
			int *ns = realloc(j.starts, (size_t)(j.cap + 8) * sizeof(*ns));
			if (!ns) {
				td_err_set(err, "out of memory");
				goto out;
			}
			j.starts = ns;
			j.cap += 8;
		}
		j.starts[j.nstarts++] = (int)joined_len; /* the trailing backslash is dropped: no column moves */
		memcpy(joined + joined_len, line, len);
		joined_len += len;
		joined[joined_len++] = ' ';
		joined[joined_len] = '\0';
		if (!cont || !nl) {
			char *t = td_trim(joined);
			j.text = joined;
			if (*t && parse_line(cat, t, start_line, &j, err))
				goto out;
			joined_len = 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (cat->nmodels == 0) {
		lineno = 1;
		td_err_set(err, "%s:1: no 'pmu' line: say which libpfm4 models the file serves", cat->name);
		goto out;
	}
	if (td_catalog_check_counters(cat, err) || td_catalog_check_locates(cat, err))
		goto out;
	ret = 0;
	*out = cat;
	cat = NULL;
out:
	free(j.starts);
	free(joined);
	td_catalog_free(cat);
	return ret;
}

void td_catalog_free(struct td_catalog *cat)
{
	if (!cat)
		return;
	for (int i = 0; i < cat->nmodels; i++)
		free(cat->models[i]);
	for (int i = 0; i < cat->nnotes; i++)
		free(cat->notes[i]);
	for (int i = 0; i < cat->ndefs; i++) {
		free(cat->defs[i].text);
		free(cat->defs[i].starts);
	}
	free(cat->models);
	free(cat->notes);
	free(cat->events);
	free(cat->perf_names);
	free(cat->consts);
	free(cat->defs);
	free(cat->limits);
	free(cat->locates);
	free(cat->event_index);
	free(cat);
}

const struct td_cat_event *td_catalog_perf_name(const struct td_catalog *cat, const char *name)
{
	for (int i = 0; i < cat->nperf_names; i++)
		if (!strcmp(cat->perf_names[i].name, name))
			return &cat->events[cat->perf_names[i].event];
	return NULL;
}

void td_cat_def_position(const struct td_cat_def *d, int off, int *line, int *col)
{
	int at = d->base + off, k = 0;

	while (k + 1 < d->nstarts && d->starts[k + 1] <= at)
		k++;
	*line = d->line + k;
	*col = at - (d->nstarts ? d->starts[k] : 0) + 1;
}

bool td_catalog_serves(const struct td_catalog *cat, const char *model)
{
	for (int i = 0; i < cat->nmodels; i++)
		if (!strcmp(cat->models[i], model))
			return true;
	return false;
}

/* Could the file at path serve model? Its `pmu` words are whitespace-delimited
 * words of its text (td_next_word), so a file whose text holds no such word
 * cannot; one that does (in a comment too) is parsed whole to tell. Spares
 * td_catalog_find a full parse of every file before the one it finds. */
static bool may_serve(const char *path, const char *model)
{
	char *text = NULL;
	size_t n = strlen(model);
	bool found = false;

	if (td_slurp(path, &text, NULL) < 0)
		return true; /* the full load says why it cannot be read */
	for (const char *p = text; !found && (p = strstr(p, model)); p++) {
		char after = p[n];
		found = (p == text || isspace((unsigned char)p[-1])) &&
			(!after || isspace((unsigned char)after) || after == '#' || after == '\\');
	}
	free(text);
	return found;
}

/* td_catalog_find's last answer: asked again for the same model in the same
 * directory (topdownd's downsampling evaluates a watch session's intervals
 * every few minutes), the file it named is loaded alone and taken when it
 * still serves the model, instead of reading every file of the directory
 * again (1.3 MB of text for the shipped ones). */
static struct {
	char dir[1024], model[128], name[256];
} found_last;

static bool still_serves(const char *dir, const char *model)
{
	char path[1400];
	struct td_catalog *cat;
	td_err e;
	bool yes;

	if (strcmp(found_last.dir, dir) || strcmp(found_last.model, model))
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, found_last.name);
	if (td_catalog_load(path, &cat, &e))
		return false;
	yes = td_catalog_serves(cat, model);
	td_catalog_free(cat);
	return yes;
}

int td_catalog_find(const char *dir, const char *model, char *name, size_t len)
{
	char **names;
	int n, found = -1;

	if (!model || !*model)
		return -1;
	if (still_serves(dir, model)) {
		snprintf(name, len, "%s", found_last.name);
		return 0;
	}
	if ((n = td_list_dir(dir, ".td", &names)) < 0)
		return -1;
	for (int i = 0; i < n && found < 0; i++) {
		char path[1024];
		struct td_catalog *cat;
		td_err e;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (may_serve(path, model) && td_catalog_load(path, &cat, &e) == 0) {
			if (td_catalog_serves(cat, model)) {
				snprintf(name, len, "%s", names[i]);
				found = 0;
				if (strlen(dir) < sizeof(found_last.dir) && strlen(model) < sizeof(found_last.model) &&
				    strlen(names[i]) < sizeof(found_last.name)) {
					snprintf(found_last.dir, sizeof(found_last.dir), "%s", dir);
					snprintf(found_last.model, sizeof(found_last.model), "%s", model);
					snprintf(found_last.name, sizeof(found_last.name), "%s", names[i]);
				}
			}
			td_catalog_free(cat);
		}
	}
	td_free_names(names, n);
	return found;
}
