/* Fixture runner: every tests/data/fixtures/NAME.fix (format: docs/td-format.md)
 * becomes one test — load its .td, apply param/builtin/count lines, evaluate,
 * check every expect/expect-cpi/expect-bottleneck line, then the invariants
 * every fixture must keep (level 1 sums to 1, CPI stack sums to CPI). A
 * failure names FILE:LINE. The runner itself is checked on a fixture that is
 * wrong on purpose (tests/data/bad-fix/). Across all fixtures: every parent of
 * every events file declares its relation, every relation is checked, and
 * every node is evaluated against a number by some fixture of its file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "eval/metrics.h"
#include "model/model.h"

struct fixture {
	const char *path;
	const char *name; /* base name, for messages */
	struct td_catalog *cat;
	struct td_model *model;
	struct td_metrics *mx;
	double *counts;
	double tol;	       /* absolute tolerance from `tolerance`, or < 0 */
	int relations_checked; /* checkable relations whose values were all available */
	bool rel_checked[128]; /* per model relation: checked on this fixture */
	char td_name[128];     /* the fixture's td line, as written */
	char report[4096];
	size_t rlen;
	int failures;
};

struct fix_line {
	int line;
	char *kw, *a, *b;
};

static void failf(struct fixture *fx, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void failf(struct fixture *fx, int line, const char *fmt, ...)
{
	va_list ap;

	fx->failures++;
	if (fx->rlen >= sizeof(fx->report) - 1)
		return;
	if (line > 0)
		fx->rlen += (size_t)snprintf(fx->report + fx->rlen, sizeof(fx->report) - fx->rlen, "%s:%d: ", fx->name,
					     line);
	else /* not tied to a line of the fixture (invariants, relations) */
		fx->rlen += (size_t)snprintf(fx->report + fx->rlen, sizeof(fx->report) - fx->rlen, "%s: ", fx->name);
	va_start(ap, fmt);
	if (fx->rlen < sizeof(fx->report))
		fx->rlen += (size_t)vsnprintf(fx->report + fx->rlen, sizeof(fx->report) - fx->rlen, fmt, ap);
	va_end(ap);
	if (fx->rlen < sizeof(fx->report) - 1)
		fx->report[fx->rlen++] = '\n';
	fx->report[fx->rlen < sizeof(fx->report) ? fx->rlen : sizeof(fx->report) - 1] = '\0';
}

/* Split the file into keyword lines (comments and blanks dropped), in place. */
static int split_lines(char *text, struct fix_line *out, int max)
{
	int n = 0, lineno = 0;

	for (char *line = text; line && n < max;) {
		char *nl = strchr(line, '\n'), *hash, *save = NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		char *kw = strtok_r(line, " \t\r", &save);
		if (kw) {
			out[n].line = lineno;
			out[n].kw = kw;
			out[n].a = strtok_r(NULL, " \t\r", &save);
			out[n].b = strtok_r(NULL, " \t\r", &save);
			n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

static bool parse_value(const char *s, double *v)
{
	char *end;

	if (!s)
		return false;
	if (!strcmp(s, "na") || !strcmp(s, "missing")) {
		*v = NAN;
		return true;
	}
	*v = strtod(s, &end);
	return *s && !*end;
}

static bool close_enough(const struct fixture *fx, double got, double want)
{
	double diff = fabs(got - want);

	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (fx->tol >= 0)
		return diff <= fx->tol;
	return diff <= 1e-12 || diff <= 1e-9 * fabs(want);
}

static void td_path(const struct fixture *fx, const char *td, char *out, size_t len)
{
	const char *slash = strrchr(fx->path, '/');

	if (strchr(td, '/')) /* relative to the fixture's directory */
		snprintf(out, len, "%.*s/%s", slash ? (int)(slash - fx->path) : 1, slash ? fx->path : ".", td);
	else
		snprintf(out, len, "%s/events/%s", getenv("TD_SRCDIR") ? getenv("TD_SRCDIR") : ".", td);
}

static int load(struct fixture *fx, const struct fix_line *l, int n)
{
	char path[1024];
	td_err err;
	const struct fix_line *td = NULL;

	fx->tol = -1;
	for (int i = 0; i < n; i++) {
		if (!strcmp(l[i].kw, "td"))
			td = &l[i];
		if (!strcmp(l[i].kw, "tolerance") && !parse_value(l[i].a, &fx->tol))
			failf(fx, l[i].line, "tolerance needs a number");
	}
	if (!td || !td->a) {
		failf(fx, 1, "no 'td FILE' line");
		return -1;
	}
	snprintf(fx->td_name, sizeof(fx->td_name), "%s", td->a);
	td_path(fx, td->a, path, sizeof(path));
	if (td_catalog_load(path, &fx->cat, &err) || td_model_compile(fx->cat, &fx->model, &err)) {
		failf(fx, td->line, "%s", err.msg);
		return -1;
	}
	fx->mx = td_metrics_new(fx->model);
	fx->counts = malloc((size_t)(fx->cat->nevents + 1) * sizeof(double));
	for (int i = 0; i < fx->cat->nevents; i++)
		fx->counts[i] = NAN; /* no count line: not counted */
	return 0;
}

static void apply_inputs(struct fixture *fx, const struct fix_line *l, int n)
{
	for (int i = 0; i < n; i++) {
		bool count = !strcmp(l[i].kw, "count");
		double v;
		td_err err;
		if (!count && strcmp(l[i].kw, "param") && strcmp(l[i].kw, "builtin"))
			continue;
		if (!l[i].a || !parse_value(l[i].b, &v)) {
			failf(fx, l[i].line, "'%s' needs NAME VALUE", l[i].kw);
		} else if (count) {
			const struct td_cat_event *e = td_catalog_event(fx->cat, l[i].a);
			if (!e)
				failf(fx, l[i].line, "'%s' is not an event alias of %s", l[i].a, fx->cat->name);
			else
				fx->counts[e - fx->cat->events] = v;
		} else if (td_metrics_set(fx->mx, l[i].a, v, &err)) {
			failf(fx, l[i].line, "%s", err.msg);
		}
	}
}

static double cpi_value(const struct fixture *fx, const char *name, bool *found)
{
	*found = true;
	if (!strcmp(name, "Other"))
		return fx->mx->cpi.other;
	for (int i = 0; i < fx->model->ncpis; i++)
		if (!strcmp(fx->model->cpis[i].name, name))
			return fx->mx->cpi.comp[i];
	*found = false;
	return NAN;
}

static void check_value(struct fixture *fx, const struct fix_line *l, double got, bool found)
{
	double want;

	if (!found)
		failf(fx, l->line, "%s: '%s' is not defined in %s", l->kw, l->a, fx->cat->name);
	else if (!parse_value(l->b, &want))
		failf(fx, l->line, "%s %s: value must be a number or na", l->kw, l->a);
	else if (!close_enough(fx, got, want))
		failf(fx, l->line, "%s %s: got %.12g, expected %.12g", l->kw, l->a, got, want);
}

static void check_bottleneck(struct fixture *fx, const struct fix_line *l)
{
	int b = fx->mx->bottleneck;
	const char *got = b < 0 ? "none" : fx->model->nodes[b].path;

	if (!l->a)
		failf(fx, l->line, "expect-bottleneck needs a node path or none");
	else if (strcmp(l->a, "none") && td_model_node(fx->model, l->a) < 0)
		failf(fx, l->line, "expect-bottleneck: '%s' is not a node of %s", l->a, fx->cat->name);
	else if (strcmp(got, l->a))
		failf(fx, l->line, "expect-bottleneck: got %s, expected %s", got, l->a);
}

static void check_expects(struct fixture *fx, const struct fix_line *l, int n)
{
	static const char *const known[] = { "td", "source", "tolerance", "param", "builtin", "count" };

	for (int i = 0; i < n; i++) {
		bool found = false, other = false;
		if (!strcmp(l[i].kw, "expect")) {
			int slot = l[i].a ? td_model_slot(fx->model, l[i].a) : -1;
			check_value(fx, &l[i], slot >= 0 ? fx->mx->slots[slot] : NAN, slot >= 0);
		} else if (!strcmp(l[i].kw, "expect-cpi")) {
			double v = l[i].a ? cpi_value(fx, l[i].a, &found) : NAN;
			check_value(fx, &l[i], v, found);
		} else if (!strcmp(l[i].kw, "expect-bottleneck")) {
			check_bottleneck(fx, &l[i]);
		} else {
			for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
				other |= !strcmp(l[i].kw, known[k]);
			if (!other)
				failf(fx, l[i].line, "unknown directive '%s'", l[i].kw);
		}
	}
}

/* Invariants every fixture keeps, whatever its expect lines say: the level-1
 * nodes partition the slots (Intel's four; AMD's five with SMT_Contention;
 * Zen 3's estimates, normalised so that they do), so they sum to 1 when none
 * is NA; the CPI components plus Other equal CPI. */
static void check_invariants(struct fixture *fx)
{
	double sum = 0;
	int n1 = 0;
	bool all = true;

	for (int i = 0; i < fx->model->nnodes; i++) {
		const struct td_node *nd = &fx->model->nodes[i];
		if (nd->level != 1)
			continue;
		n1++;
		all = all && !isnan(fx->mx->node[i]);
		if (all)
			sum += fx->mx->node[i];
	}
	if (n1 >= 4 && all && fabs(sum - 1) > 1e-9)
		failf(fx, 0, "invariant: the %d level-1 nodes sum to %.12g, not 1", n1, sum);
	const struct td_cpi_stack *s = &fx->mx->cpi;
	if (!s->valid)
		return;
	double total = s->other;
	for (int i = 0; i < fx->model->ncpis; i++)
		if (!isnan(s->comp[i]))
			total += s->comp[i];
	if (fabs(total - s->cpi) > 1e-9 * fmax(1, s->cpi))
		failf(fx, 0, "invariant: CPI components + Other = %.12g, CPI = %.12g", total, s->cpi);
}

/* Relations hold to 1e-9 relative (1e-12 absolute near zero). */
static bool rel_equal(double got, double want)
{
	double diff = fabs(got - want);

	return diff <= 1e-12 || diff <= 1e-9 * fabs(want);
}

static bool rel_at_most(double got, double bound)
{
	return got <= bound || rel_equal(got, bound);
}

/* Every relation line of the .td (the vendor's documented relation between a
 * parent and its children, docs/td-format.md) must hold on the fixture's
 * values: partition (the children add up to the parent), children-sum (to
 * the expression), bound (every child <= the parent, or the expression).
 * Skipped only when the parent, a child or the expression is NA; `unrelated`
 * has nothing to check. Counted in fx->relations_checked and marked in
 * fx->rel_checked so a test can tell "held" from "never looked at". */
static void check_relations(struct fixture *fx)
{
	const struct td_model *m = fx->model;

	for (int i = 0; i < m->nrelations; i++) {
		const struct td_relation *p = &m->relations[i];
		const char *path = m->nodes[p->node].path;
		if (p->kind == TD_REL_UNRELATED)
			continue;
		double want = p->expr ? td_expr_eval(p->expr, fx->mx->slots) : fx->mx->node[p->node], sum = 0;
		char terms[512], rhs[600];
		size_t len = 0;
		bool na = isnan(want);
		int over = -1;
		terms[0] = '\0';
		for (int c = 0; c < p->nchildren; c++) {
			double v = fx->mx->node[p->children[c]];
			na |= isnan(v);
			sum += v;
			if (!isnan(v) && over < 0 && !rel_at_most(v, want))
				over = p->children[c];
			if (len < sizeof(terms))
				len += (size_t)snprintf(terms + len, sizeof(terms) - len, "%s%s", c ? " + " : "",
							m->nodes[p->children[c]].name);
		}
		if (na)
			continue;
		fx->relations_checked++;
		if (i < (int)(sizeof(fx->rel_checked) / sizeof(fx->rel_checked[0])))
			fx->rel_checked[i] = true;
		if (p->expr)
			snprintf(rhs, sizeof(rhs), "%s %s = %s = %.12g", td_rel_kind_name(p->kind), path, p->text,
				 want);
		else
			snprintf(rhs, sizeof(rhs), "%s = %.12g", path, want);
		if (p->kind == TD_REL_BOUND) {
			if (over >= 0)
				failf(fx, 0, "relation %s:%d: %s = %.12g, above its bound %s", m->cat->name, p->line,
				      m->nodes[over].name, fx->mx->node[over], rhs);
		} else if (!rel_equal(sum, want)) {
			failf(fx, 0, "relation %s:%d: %s = %.12g, but %s", m->cat->name, p->line, terms, sum, rhs);
		}
	}
}

/* Run one fixture; returns the number of failures (details in fx->report). */
static int run_fixture(struct fixture *fx, const char *path)
{
	struct fix_line lines[512];
	char *text = NULL;
	const char *slash = strrchr(path, '/');

	memset(fx, 0, sizeof(*fx));
	fx->path = path;
	fx->name = slash ? slash + 1 : path;
	if (td_slurp(path, &text, NULL)) {
		failf(fx, 0, "cannot read");
		return fx->failures;
	}
	int n = split_lines(text, lines, 512);
	if (load(fx, lines, n) == 0) {
		apply_inputs(fx, lines, n);
		td_metrics_eval(fx->mx, fx->counts);
		check_expects(fx, lines, n);
		check_invariants(fx);
		check_relations(fx);
	}
	td_metrics_free(fx->mx);
	td_model_free(fx->model);
	td_catalog_free(fx->cat);
	free(fx->counts);
	free(text);
	return fx->failures;
}

static void test_fixture(void **state)
{
	struct fixture fx;

	if (run_fixture(&fx, *state))
		fail_msg("%d failure(s):\n%s", fx.failures, fx.report);
}

/* The runner must catch a wrong expectation and name file and line. */
static void test_runner_reports_file_line(void **state)
{
	struct fixture fx;
	char path[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/bad-fix/wrong-expect.fix", getenv("TD_SRCDIR"));
	assert_int_equal(run_fixture(&fx, path), 2);
	if (!strstr(fx.report, "wrong-expect.fix:7: expect Retiring: got 0.5, expected 0.4") ||
	    !strstr(fx.report, "wrong-expect.fix:8: expect-cpi Other: got 1, expected 9"))
		fail_msg("unexpected report:\n%s", fx.report);
}

/* ... and a declared relation that does not hold on the fixture's values. */
static void test_runner_reports_relation(void **state)
{
	struct fixture fx;
	char path[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/bad-fix/bad-relation.fix", getenv("TD_SRCDIR"));
	assert_int_equal(run_fixture(&fx, path), 1);
	assert_int_equal(fx.relations_checked, 1);
	if (!strstr(fx.report, "bad-relation.fix: relation relation.td:12: Memory_Bound + Core_Bound = 0.3, "
			       "but Backend_Bound = 0.5"))
		fail_msg("unexpected report:\n%s", fx.report);
}

/* ... and each kind of relation: children-sum and bound broken on purpose,
 * unrelated never checked. */
static void test_runner_reports_relation_kinds(void **state)
{
	struct fixture fx;
	char path[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/bad-fix/bad-relation-kinds.fix", getenv("TD_SRCDIR"));
	assert_int_equal(run_fixture(&fx, path), 2);
	assert_int_equal(fx.relations_checked, 3);
	if (!strstr(fx.report, "bad-relation-kinds.fix: relation relation-kinds.td:17: L1_Bound + DRAM_Bound = 0.45, "
			       "but children-sum Backend_Bound.Memory_Bound = (STALLS_MEM + STORES) / CLKS = 0.4\n") ||
	    !strstr(fx.report,
		    "bad-relation-kinds.fix: relation relation-kinds.td:23: Microcode_Sequencer = 0.3, above "
		    "its bound Retiring.Heavy_Operations = 0.2\n"))
		fail_msg("unexpected report:\n%s", fx.report);
}

/* Parents (nodes with children) of m that declare no relation, as a list of
 * paths in out; returns how many. */
static int undeclared_parents(const struct td_model *m, char *out, size_t len)
{
	int n = 0;
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < m->nnodes; i++) {
		bool parent = false;
		for (int c = 0; c < m->nnodes && !parent; c++)
			parent = m->nodes[c].parent == i;
		if (!parent || td_model_relation(m, i) >= 0)
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, " %s", m->nodes[i].path);
	}
	return n;
}

static int load_model(const char *path, struct td_catalog **cat, struct td_model **m)
{
	td_err err;

	if (td_catalog_load(path, cat, &err) || td_model_compile(*cat, m, &err))
		fail_msg("%s", err.msg);
	return 0;
}

/* Every parent of every shipped events file declares its relation to its
 * children (partition, children-sum, bound, or unrelated with the reason):
 * none is left out of the checks by omission. */
static void test_every_parent_declared(void **state)
{
	char dir[1024], **names, list[2048], report[8192] = "";
	int parents = 0, bad = 0;
	size_t used = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/events", getenv("TD_SRCDIR"));
	int n = td_list_dir(dir, ".td", &names);
	assert_true(n > 0);
	for (int t = 0; t < n; t++) {
		char path[1200];
		struct td_catalog *cat;
		struct td_model *m;
		snprintf(path, sizeof(path), "%s/%s", dir, names[t]);
		load_model(path, &cat, &m);
		int missing = undeclared_parents(m, list, sizeof(list));
		parents += m->nrelations;
		td_model_free(m);
		td_catalog_free(cat);
		if (missing && used < sizeof(report)) {
			bad++;
			used += (size_t)snprintf(report + used, sizeof(report) - used,
						 "%s: %d parent(s) with no relation line (partition, children-sum, "
						 "bound or unrelated):%s\n",
						 names[t], missing, list);
		}
	}
	td_free_names(names, n);
	if (bad)
		fail_msg("%s", report);
	assert_true(parents >= 38); /* skl 15, icl 7, spr 8, zen4 4, zen5 4 */
}

/* ... and the check itself finds a parent left out. */
static void test_undeclared_parent_found(void **state)
{
	char path[1024], list[512];
	struct td_catalog *cat;
	struct td_model *m;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/bad-fix/relation-kinds.td", getenv("TD_SRCDIR"));
	load_model(path, &cat, &m);
	assert_int_equal(undeclared_parents(m, list, sizeof(list)), 1);
	assert_string_equal(list, " Frontend_Bound");
	td_model_free(m);
	td_catalog_free(cat);
}

/* Every relation a shipped events file declares (but `unrelated`) is checked
 * by at least one fixture (all its values available), so none passes
 * vacuously. */
static char **all_paths;
static int nall_paths;

static void test_every_relation_exercised(void **state)
{
	char dir[1024], **names;
	const char *src = getenv("TD_SRCDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/events", src);
	int n = td_list_dir(dir, ".td", &names);
	int with_relations = 0;
	assert_true(n > 0);
	for (int t = 0; t < n; t++) {
		char path[1200], unchecked[1024] = "";
		struct td_catalog *cat;
		struct td_model *m;
		bool seen[128] = { false };
		snprintf(path, sizeof(path), "%s/%s", dir, names[t]);
		load_model(path, &cat, &m);
		assert_true(m->nrelations <= (int)(sizeof(seen) / sizeof(seen[0])));
		for (int i = 0; i < nall_paths; i++) {
			struct fixture fx;
			run_fixture(&fx, all_paths[i]);
			if (!strcmp(fx.td_name, names[t]))
				for (int r = 0; r < m->nrelations; r++)
					seen[r] |= fx.rel_checked[r];
		}
		int want = 0, missing = 0;
		size_t used = 0;
		for (int r = 0; r < m->nrelations; r++) {
			const struct td_relation *p = &m->relations[r];
			if (p->kind == TD_REL_UNRELATED)
				continue;
			want++;
			if (!seen[r]) {
				missing++;
				if (used < sizeof(unchecked))
					used += (size_t)snprintf(unchecked + used, sizeof(unchecked) - used,
								 " %s %s (line %d)", td_rel_kind_name(p->kind),
								 m->nodes[p->node].path, p->line);
			}
		}
		td_model_free(m);
		td_catalog_free(cat);
		with_relations += want > 0;
		if (missing)
			fail_msg("%s: %d of %d relation(s) checked by no fixture:%s", names[t], missing, want,
				 unchecked);
	}
	assert_true(with_relations >= 5); /* skl, icl, spr, zen4, zen5 */
	td_free_names(names, n);
}

/* Append text to a growing report (*buf, *len); aborts the test on no memory. */
static void report_add(char **buf, size_t *len, const char *text)
{
	size_t add = strlen(text);
	char *grown = realloc(*buf, *len + add + 1);

	assert_non_null(grown);
	memcpy(grown + *len, text, add + 1);
	*buf = grown;
	*len += add;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Mark in seen[] the nodes of m that fixture path names in an `expect PATH VALUE` line with a number
 * (not na) when its `td` line names the file td_name (compared by base name). The fixture's own test
 * checks that value against the hand computation or the oracle. */
static void mark_expected_nodes(const struct td_model *m, const char *td_name, const char *path, bool *seen)
{
	struct fix_line *lines = calloc(512, sizeof(*lines));
	char *text = NULL;
	double v;

	assert_non_null(lines);
	if (td_slurp(path, &text, NULL)) {
		free(lines);
		fail_msg("%s: cannot read", path);
	}
	int n = split_lines(text, lines, 512);
	bool ours = false;
	for (int i = 0; i < n; i++)
		if (!strcmp(lines[i].kw, "td") && lines[i].a)
			ours = !strcmp(base_name(lines[i].a), td_name);
	for (int i = 0; ours && i < n; i++) {
		if (strcmp(lines[i].kw, "expect") || !lines[i].a || !parse_value(lines[i].b, &v) || isnan(v))
			continue;
		int node = td_model_node(m, lines[i].a);
		if (node >= 0)
			seen[node] = true;
	}
	free(text);
	free(lines);
}

/* The nodes of events file td_dir/td_name that no fixture of paths[0..npaths) evaluates against a
 * number, as " PATH PATH ..." in *out (malloc'd, "" when none); returns how many, of *nnodes. */
static int unevaluated_nodes(const char *td_dir, const char *td_name, char **paths, int npaths, char **out, int *nnodes)
{
	char path[1200];
	struct td_catalog *cat;
	struct td_model *m;
	size_t len = 0;
	int missing = 0;

	snprintf(path, sizeof(path), "%s/%s", td_dir, td_name);
	load_model(path, &cat, &m);
	bool *seen = calloc((size_t)m->nnodes + 1, sizeof(*seen));
	assert_non_null(seen);
	for (int i = 0; i < npaths; i++)
		mark_expected_nodes(m, td_name, paths[i], seen);
	*out = NULL;
	report_add(out, &len, "");
	for (int i = 0; i < m->nnodes; i++) {
		if (seen[i])
			continue;
		missing++;
		report_add(out, &len, " ");
		report_add(out, &len, m->nodes[i].path);
	}
	*nnodes = m->nnodes;
	free(seen);
	td_model_free(m);
	td_catalog_free(cat);
	return missing;
}

/* Every node of every shipped events file is evaluated by some fixture: an `expect` line with a
 * number (a hand computation or the oracle's value) in a fixture of that file. */
static void test_every_node_evaluated(void **state)
{
	char dir[1024], **names;
	char *report = NULL;
	size_t rlen = 0;
	int bad = 0, nodes = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/events", getenv("TD_SRCDIR"));
	int n = td_list_dir(dir, ".td", &names);
	assert_true(n > 0);
	report_add(&report, &rlen, "");
	for (int t = 0; t < n; t++) {
		char *list, head[256];
		int nn, missing = unevaluated_nodes(dir, names[t], all_paths, nall_paths, &list, &nn);
		nodes += nn;
		if (missing) {
			bad++;
			snprintf(head, sizeof(head),
				 "%s: %d of %d node(s) evaluated by no fixture (no expect line with a "
				 "number):",
				 names[t], missing, nn);
			report_add(&report, &rlen, head);
			report_add(&report, &rlen, list);
			report_add(&report, &rlen, "\n");
		}
		free(list);
	}
	td_free_names(names, n);
	if (bad) {
		fprintf(stderr, "%s", report);
		free(report);
		fail_msg("%d events file(s) have nodes no fixture evaluates (listed above)", bad);
	}
	free(report);
	/* skl 100, icl 103, spr 115, gnr 91, adl-glc 12, adl-grt 22, zen3 4, zen4 13, zen5 13, the Arm files 12 */
	assert_true(nodes >= 485);
}

/* ... and the check names the nodes a fixture leaves out: bad-relation.fix expects only
 * Backend_Bound of relation.td's three nodes. */
static void test_unevaluated_node_found(void **state)
{
	char dir[1024], fix[1200], *list;
	char *paths[1] = { fix };
	int nn;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/data/bad-fix", getenv("TD_SRCDIR"));
	snprintf(fix, sizeof(fix), "%s/bad-relation.fix", dir);
	assert_int_equal(unevaluated_nodes(dir, "relation.td", paths, 1, &list, &nn), 2);
	assert_int_equal(nn, 3);
	assert_string_equal(list, " Backend_Bound.Memory_Bound Backend_Bound.Core_Bound");
	free(list);
	/* a fixture of another file marks nothing */
	int missing = unevaluated_nodes(dir, "relation-kinds.td", paths, 1, &list, &nn);
	assert_true(nn > 0);
	assert_int_equal(missing, nn);
	free(list);
}

static void test_no_fixtures(void **state)
{
	(void)state;
	fail_msg("no tests/data/fixtures/*.fix found under $TD_SRCDIR");
}

int main(void)
{
	char dir[1024], **names;
	const char *src = getenv("TD_SRCDIR");

	snprintf(dir, sizeof(dir), "%s/tests/data/fixtures", src ? src : ".");
	int n = td_list_dir(dir, ".fix", &names);
	n = n < 0 ? 0 : n;
	char **paths = calloc((size_t)n + 1, sizeof(*paths));
	for (int i = 0; i < n; i++) {
		paths[i] = malloc(strlen(dir) + strlen(names[i]) + 2);
		sprintf(paths[i], "%s/%s", dir, names[i]);
	}
	struct CMUnitTest *tests = calloc((size_t)n + 9, sizeof(*tests));
	int nt = 0;
	tests[nt++] =
		(struct CMUnitTest){ .name = "runner_reports_file_line", .test_func = test_runner_reports_file_line };
	tests[nt++] =
		(struct CMUnitTest){ .name = "runner_reports_relation", .test_func = test_runner_reports_relation };
	tests[nt++] = (struct CMUnitTest){ .name = "runner_reports_relation_kinds",
					   .test_func = test_runner_reports_relation_kinds };
	tests[nt++] = (struct CMUnitTest){ .name = "every_parent_declared", .test_func = test_every_parent_declared };
	tests[nt++] =
		(struct CMUnitTest){ .name = "undeclared_parent_found", .test_func = test_undeclared_parent_found };
	tests[nt++] =
		(struct CMUnitTest){ .name = "every_relation_exercised", .test_func = test_every_relation_exercised };
	tests[nt++] = (struct CMUnitTest){ .name = "every_node_evaluated", .test_func = test_every_node_evaluated };
	tests[nt++] = (struct CMUnitTest){ .name = "unevaluated_node_found", .test_func = test_unevaluated_node_found };
	all_paths = paths;
	nall_paths = n;
	if (!n)
		tests[nt++] = (struct CMUnitTest){ .name = "no_fixtures", .test_func = test_no_fixtures };
	for (int i = 0; i < n; i++)
		tests[nt++] = (struct CMUnitTest){ .name = strrchr(paths[i], '/') + 1,
						   .test_func = test_fixture,
						   .initial_state = paths[i] };
	int rc = _cmocka_run_group_tests("fixtures", tests, (size_t)nt, NULL, NULL);
	td_free_names(paths, n);
	td_free_names(names, n);
	free(tests);
	return rc;
}
