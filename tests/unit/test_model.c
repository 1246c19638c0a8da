/* Unit tests for model (compiling a catalog) and metrics (evaluating it):
 * tree structure, transitive event sets, evaluation order, every malformed
 * file in tests/data/bad-td/ giving its FILE:LINE message, every shipped
 * events file compiling and encoding, thresholds, the bottleneck walk, CPI
 * stack edge cases and aggregation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/catalog.h"
#include "machine/encode.h"
#include "eval/metrics.h"
#include "model/model.h"

static char tmpdir[64];

struct loaded {
	struct td_catalog *cat;
	struct td_model *m;
	struct td_metrics *mx;
};

static void unload(struct loaded *l)
{
	td_metrics_free(l->mx);
	td_model_free(l->m);
	td_catalog_free(l->cat);
}

static struct loaded load_path(const char *path)
{
	struct loaded l = { 0 };
	td_err err;

	if (td_catalog_load(path, &l.cat, &err) || td_model_compile(l.cat, &l.m, &err))
		fail_msg("%s", err.msg);
	l.mx = td_metrics_new(l.m);
	assert_non_null(l.mx);
	return l;
}

static struct loaded load_text(const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.td", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return load_path(path);
}

static struct loaded load_test_tree(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/data/events/test-engine.td", getenv("TD_SRCDIR"));
	return load_path(path);
}

static bool needs(const struct td_model *m, const struct td_formula *f, const char *alias)
{
	int idx = (int)(td_catalog_event(m->cat, alias) - m->cat->events);

	for (int i = 0; i < f->nevents; i++)
		if (f->events[i] == idx)
			return true;
	return false;
}

static int order_of(const struct td_model *m, const char *name)
{
	int slot = td_model_slot(m, name);

	for (int i = 0; i < m->norder; i++)
		if (m->order[i]->slot == slot)
			return i;
	return -1;
}

static void test_structure(void **state)
{
	struct loaded l = load_test_tree();
	const struct td_model *m = l.m;

	(void)state;
	assert_int_equal(m->nnodes, 10);
	int fe = td_model_node(m, "Frontend_Bound"), fl = td_model_node(m, "Frontend_Bound.Fetch_Latency");
	int mb = td_model_node(m, "Backend_Bound.Memory_Bound");
	assert_true(fe >= 0 && fl >= 0 && mb >= 0);
	assert_int_equal(m->nodes[fe].level, 1);
	assert_int_equal(m->nodes[fe].parent, -1);
	assert_int_equal(m->nodes[fl].level, 2);
	assert_int_equal(m->nodes[fl].parent, fe);
	assert_string_equal(m->nodes[fl].name, "Fetch_Latency");
	assert_string_equal(m->nodes[mb].domain, "Stalls");
	assert_string_equal(m->nodes[fl].threshold, "> 0.10");
	assert_null(m->nodes[fl].desc);
	assert_string_equal(m->nodes[fe].desc, "slots the frontend left empty");
	assert_string_equal(m->nodes[fe].f.text, "FE_NOT / SLOTS");
	int fb = td_model_node(m, "Frontend_Bound.Fetch_Bandwidth");
	assert_string_equal(m->nodes[fb].desc, "bandwidth-limited frontend"); /* from a continued line */
	assert_int_equal(m->ninfos, 3);
	assert_string_equal(m->infos[1].name, "IPC");
	assert_string_equal(m->infos[1].unit, "Metric");
	assert_int_equal(m->ncpis, 5);
	assert_int_equal(m->cpis[4].tag, TD_CPI_ESTIMATED);
	assert_string_equal(td_cpi_tag_name(m->cpis[0].tag), "derived");
	assert_true(m->has_cpi);
	assert_true(td_model_is_param(m, td_model_slot(m, "SMT_on")));
	assert_true(td_model_is_param(m, td_model_slot(m, "DURATION")));
	assert_false(td_model_is_param(m, td_model_slot(m, "W")));
	assert_false(td_model_is_param(m, td_model_slot(m, "CLKS")));
	unload(&l);
}

static void test_event_sets_and_order(void **state)
{
	struct loaded l = load_test_tree();
	const struct td_model *m = l.m;
	const struct td_formula *be = &m->nodes[td_model_node(m, "Backend_Bound")].f;
	const struct td_formula *mb = &m->nodes[td_model_node(m, "Backend_Bound.Memory_Bound")].f;

	(void)state;
	/* Backend_Bound = 1 - FE - BadSpec - Retiring, all over SLOTS = W * CORE_CLKS */
	const char *be_needs[] = { "CLKS", "CLKS_ANY", "FE_NOT", "UOPS_ISSUED", "RET_SLOTS", "RECOVERY" };
	for (size_t i = 0; i < sizeof(be_needs) / sizeof(be_needs[0]); i++)
		assert_true(needs(m, be, be_needs[i]));
	assert_int_equal(be->nevents, 6);
	assert_false(needs(m, be, "STALLS_MEM"));
	assert_false(needs(m, be, "INST"));
	assert_int_equal(mb->nevents, 8);
	assert_true(needs(m, mb, "STALLS_MEM") && needs(m, mb, "STALLS_TOT"));
	const struct td_formula *ipc = &m->infos[1].f;
	assert_int_equal(ipc->nevents, 2);
	assert_true(needs(m, ipc, "INST") && needs(m, ipc, "CLKS"));
	for (int i = 1; i < be->nevents; i++)
		assert_true(be->events[i - 1] < be->events[i]);
	/* dependencies first, even when defined later in the file */
	assert_int_equal(m->norder, 10 + 3 + 1 + 5 + 2);
	assert_true(order_of(m, "Retiring") < order_of(m, "Backend_Bound"));
	assert_true(order_of(m, "CORE_CLKS") < order_of(m, "SLOTS"));
	assert_true(order_of(m, "SLOTS") < order_of(m, "Frontend_Bound"));
	unload(&l);
}

static int read_expectation(const char *path, char *want, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	bool ok = fgets(line, sizeof(line), f) && !strncmp(line, "# expect: ", 10);
	fclose(f);
	if (!ok)
		return -1;
	line[strcspn(line, "\n")] = '\0';
	return snprintf(want, len, "%s", line + 10) < (int)len ? 0 : -1; /* a cut expectation would match less */
}

static void test_bad_td_files(void **state)
{
	char dir[512], **names;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/data/bad-td", getenv("TD_SRCDIR"));
	int n = td_list_dir(dir, ".td", &names);
	assert_true(n >= 10);
	for (int i = 0; i < n; i++) {
		char path[700], want[400];
		struct td_catalog *cat = NULL;
		struct td_model *m = NULL;
		td_err err = { "" };
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (read_expectation(path, want, sizeof(want)))
			fail_msg("%s: first line must be '# expect: MESSAGE'", names[i]);
		int rc = td_catalog_load(path, &cat, &err);
		if (!rc)
			rc = td_model_compile(cat, &m, &err);
		if (rc == 0)
			fail_msg("%s compiled, expected: %s", names[i], want);
		if (!strstr(err.msg, want))
			fail_msg("%s: got '%s', expected '%s'", names[i], err.msg, want);
		assert_null(m);
		td_catalog_free(cat);
	}
	td_free_names(names, n);
}

/* The message compiling text (as t.td) gives; the file must not compile. */
static void expect_compile_error(const char *text, const char *want)
{
	char path[128];
	struct td_catalog *cat = NULL;
	struct td_model *m = NULL;
	td_err err = { "" };
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.td", tmpdir);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	assert_int_equal(td_catalog_load(path, &cat, &err), 0);
	assert_int_equal(td_model_compile(cat, &m, &err), -1);
	assert_null(m);
	assert_string_equal(err.msg, want);
	td_catalog_free(cat);
}

#define HEAD "pmu skl\nevent CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P\nevent INST INST_RETIRED:ANY_P\n"
#define UNDEFINED "is not defined (not an event alias, const, param, let, info, node path, DURATION or NUM_CPUS)"

/* Expression errors name the physical line and column, also on continuation lines. */
static void test_expression_error_positions(void **state)
{
	(void)state;
	/* on a definition's only line: the column in that line, not in the formula */
	expect_compile_error(HEAD "info  IPC Metric = INST +* CLKS\n",
			     "t.td:4: info IPC: column 26: expected a number, a name, '(' or '-', got '*'");
	expect_compile_error(HEAD "\tnode Retiring Slots = INST / NOPE\n",
			     "t.td:4: node Retiring: column 31: 'NOPE' " UNDEFINED);
	/* on a continuation line: that line, and the column in it */
	expect_compile_error(HEAD "# comment\n\nnode  Retiring Slots = INST / \\\n          NOPE * CLKS\n",
			     "t.td:7: node Retiring: column 11: 'NOPE' " UNDEFINED);
	/* on the third line of a definition */
	expect_compile_error(HEAD "let   X = \\\n  INST + \\\n  CLKS CLKS\n",
			     "t.td:6: let X: column 8: expected an operator or end of expression, got name 'CLKS'");
	/* the end of an expression that ends on a continuation line: just after its last character */
	expect_compile_error(
		HEAD "cpi-cycles \\\n    CLKS /\ncpi-instructions INST\n",
		"t.td:5: cpi-cycles: column 11: expected a number, a name, '(' or '-', got end of expression");
	/* a threshold on a continuation line ("> X" is read as "this > X"; the column is the file's) */
	expect_compile_error(HEAD "node  Retiring Slots = INST / CLKS \\\n      | > BAD | retiring\n",
			     "t.td:5: threshold of node Retiring (read as 'this ...'): column 11: 'BAD' " UNDEFINED);
	expect_compile_error(HEAD "node  Retiring Slots = INST / CLKS \\\n      | this > 0.5 or\n",
			     "t.td:5: threshold of node Retiring: column 22: expected a number, a name, '(' or '-', "
			     "got end of expression");
}

/* Every event of a file encodes for the file's first model; Arm files use
 * raw forms only (libpfm4 may not know the model at all). */
static void check_encodes(const struct td_catalog *cat)
{
	const char *model = cat->models[0];
	bool arm = !strncmp(model, "arm_", 4);

	for (int i = 0; i < cat->nevents; i++) {
		struct td_encoding enc;
		td_err err;
		if (td_encode(cat->events[i].spec, model, false, &enc, &err))
			fail_msg("%s:%d: %s", cat->name, cat->events[i].line, err.msg);
		if (arm && !enc.raw_form)
			fail_msg("%s:%d: Arm files must use raw PMU forms, got '%s'", cat->name, cat->events[i].line,
				 cat->events[i].spec);
	}
}

static int compile_and_encode_dir(const char *dir)
{
	char **names;
	int n = td_list_dir(dir, ".td", &names);

	td_encode_set_sysfs_root("/nonexistent"); /* built-in formats: the same result on every host */
	for (int i = 0; i < n; i++) {
		char path[700];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct loaded l = load_path(path);
		check_encodes(l.cat);
		unload(&l);
	}
	td_encode_set_sysfs_root("/sys/bus/event_source/devices");
	td_free_names(names, n);
	return n;
}

static void test_every_events_file(void **state)
{
	char dir[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/events", getenv("TD_SRCDIR"));
	assert_true(compile_and_encode_dir(dir) >= 2);
	snprintf(dir, sizeof(dir), "%s/tests/data/events", getenv("TD_SRCDIR"));
	assert_true(compile_and_encode_dir(dir) >= 1);
}

/* Every event of arm-neoverse-n1.td and -v1.td (generated from Linux perf's pmu-events) against
 * Arm's published PMU event numbers (tests/data/arm-event-numbers.txt): the raw event=0xNN of each
 * alias must be the number of the event its description names, and the description's [0xNNNN]
 * tag (the generator's; [Arm 0xNN] in a hand-written file) must agree. */
static long arm_number(const char *table, const char *name)
{
	char key[80];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	if (!(p = strstr(table, key)))
		return -1;
	return strtol(p + strlen(key), NULL, 16);
}

static void test_arm_event_numbers(void **state)
{
	char path[512], *table = NULL;
	int checked = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/arm-event-numbers.txt", getenv("TD_SRCDIR"));
	assert_int_equal(td_slurp(path, &table, NULL), 0);
	static const char *const files[] = { "arm-neoverse-n1.td", "arm-neoverse-v1.td" };
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		snprintf(path, sizeof(path), "%s/events/%s", getenv("TD_SRCDIR"), files[f]);
		struct loaded l = load_path(path);
		checked = 0;
		for (int i = 0; i < l.cat->nevents; i++) {
			const struct td_cat_event *e = &l.cat->events[i];
			char name[64];
			unsigned raw, tag;
			const char *t = strstr(e->desc, "[Arm 0x");
			const char *g = strstr(e->desc, " [0x");
			/* the description starts with Arm's event name: "CPU_CYCLES, core cycles [Arm 0x11]" */
			size_t n = strcspn(e->desc, ", ");
			snprintf(name, sizeof(name), "%.*s", (int)n, e->desc);
			if (sscanf(e->spec, "armv8_pmuv3/event=0x%x/", &raw) != 1)
				fail_msg("%s: '%s' is not armv8_pmuv3/event=0xNN/", e->alias, e->spec);
			if (!(t && sscanf(t, "[Arm 0x%x]", &tag) == 1) && !(g && sscanf(g, " [0x%x]", &tag) == 1))
				fail_msg("%s: description has no [0xNNNN] tag: %s", e->alias, e->desc);
			long want = arm_number(table, name);
			if (want < 0)
				fail_msg("%s: event '%s' is not in arm-event-numbers.txt", e->alias, name);
			if ((long)raw != want || (long)tag != want)
				fail_msg("%s (%s): event=0x%x, tag 0x%x, Arm publishes 0x%lx", e->alias, name, raw, tag,
					 want);
			checked++;
		}
		assert_int_equal(checked, l.cat->nevents);
		assert_true(checked >= 22);
		unload(&l);
	}
	/* spot checks that the table itself says what the facts sheet cites */
	assert_int_equal(arm_number(table, "CPU_CYCLES"), 0x11);
	assert_int_equal(arm_number(table, "STALL_SLOT"), 0x3F);
	free(table);
}

static const char *tree = "pmu x\n"
			  "const K 2\n"
			  "param P 0\n"
			  "event A a\nevent B b\nevent C c\n"
			  "node  X  Slots = A | > 0.1\n"
			  "node  X.One Slots = B | > 0.1\n"
			  "node  X.Two Slots = C | > 0.1\n"
			  "node  X.Two.Deep Clocks = C / 2 | > 0.1\n"
			  "node  X.Three Slots = B\n" /* no threshold: never flagged */
			  "node  Y  Slots = A | > 0.1\n"
			  "info  Ratio Metric = A / B * K if P else A / B\n";

static void test_flags_and_bottleneck(void **state)
{
	struct loaded l = load_text(tree);
	struct td_metrics *mx = l.mx;
	int x = td_model_node(l.m, "X"), one = td_model_node(l.m, "X.One"), two = td_model_node(l.m, "X.Two");
	int deep = td_model_node(l.m, "X.Two.Deep"), three = td_model_node(l.m, "X.Three");

	(void)state;
	td_metrics_eval(mx, (double[]){ 0.5, 0.3, 0.4 });
	assert_true(mx->flagged[x] && mx->flagged[one] && mx->flagged[two] && mx->flagged[deep]);
	assert_false(mx->flagged[three]);
	assert_int_equal(mx->bottleneck, deep); /* X (tie with Y: first declared), X.Two (0.4 > 0.3), Deep */
	td_metrics_eval(mx, (double[]){ 0.5, 0.3, 0.15 });
	assert_false(mx->flagged[deep]);       /* 0.075 is under 0.1 */
	assert_int_equal(mx->bottleneck, one); /* X.One 0.3 beats X.Two 0.15 */
	td_metrics_eval(mx, (double[]){ 0.05, 0.3, 0.4 });
	assert_false(mx->flagged[one]);	      /* parent X is not flagged */
	assert_int_equal(mx->bottleneck, -1); /* Y = 0.05 too */
	td_metrics_eval(mx, (double[]){ NAN, 0.3, 0.4 });
	assert_true(td_is_na(mx->node[x]));
	assert_false(mx->flagged[x]); /* NA is never flagged */
	assert_false(mx->flagged[two]);
	assert_int_equal(mx->bottleneck, -1);
	unload(&l);
}

/* A default --hotspots samples the locate event of the bottleneck's deepest
 * node with a locate line (session_hotspots.c): the bottleneck's own line,
 * else its nearest ancestor's, else none. The bottlenecks are the ones
 * test_flags_and_bottleneck derives by hand from the same counts. */
static void test_locate_of_bottleneck(void **state)
{
	char text[1024];
	struct loaded l;
	const struct td_cat_locate *loc;

	(void)state;
	snprintf(text, sizeof(text), "%slocate X.Two EV_TWO | two\nlocate X EV_X | x\n", tree);
	l = load_text(text);
	td_metrics_eval(l.mx, (double[]){ 0.5, 0.3, 0.4 }); /* bottleneck X.Two.Deep: no line of its own */
	assert_int_equal(l.mx->bottleneck, td_model_node(l.m, "X.Two.Deep"));
	assert_non_null(loc = td_model_locate(l.m, l.mx->bottleneck));
	assert_string_equal(loc->node, "X.Two"); /* its parent's, not X's above it */
	assert_string_equal(loc->spec, "EV_TWO");
	td_metrics_eval(l.mx, (double[]){ 0.5, 0.3, 0.15 }); /* bottleneck X.One: none; X has one */
	assert_int_equal(l.mx->bottleneck, td_model_node(l.m, "X.One"));
	assert_non_null(loc = td_model_locate(l.m, l.mx->bottleneck));
	assert_string_equal(loc->spec, "EV_X");
	assert_string_equal(td_model_locate(l.m, td_model_node(l.m, "X.Two"))->spec, "EV_TWO"); /* its own */
	td_metrics_eval(l.mx, (double[]){ 0.05, 0.3, 0.4 });					/* no bottleneck */
	assert_int_equal(l.mx->bottleneck, -1);
	assert_null(td_model_locate(l.m, l.mx->bottleneck));
	assert_null(td_model_locate(l.m, td_model_node(l.m, "Y"))); /* no line on Y's path */
	unload(&l);
}

static void test_params_and_aggregate(void **state)
{
	struct loaded l = load_text(tree);
	struct td_metrics *mx = l.mx;
	td_err err;

	(void)state;
	td_metrics_eval(mx, (double[]){ 3, 4, 0 });
	assert_float_equal(mx->info[0], 0.75, 1e-15);
	assert_int_equal(td_metrics_set(mx, "P", 1, &err), 0);
	td_metrics_eval(mx, (double[]){ 3, 4, 0 });
	assert_float_equal(mx->info[0], 1.5, 1e-15);
	assert_int_equal(td_metrics_set(mx, "K", 3, &err), -1);
	assert_non_null(
		strstr(err.msg, "'K' is not a param of t.td or a built-in (DURATION, NUM_CPUS); a const cannot"));
	assert_int_equal(td_metrics_set(mx, "X", 3, &err), -1);
	assert_null(strstr(err.msg, "const"));
	assert_int_equal(td_metrics_set(mx, "NOPE", 3, &err), -1);
	assert_int_equal(td_metrics_set(mx, "NUM_CPUS", 8, &err), 0);
	assert_float_equal(td_metrics_value(mx, "NUM_CPUS"), 8, 0);
	assert_true(td_is_na(td_metrics_value(mx, "DURATION")));
	assert_true(td_is_na(td_metrics_value(mx, "NOPE")));

	/* aggregate = ratio of sums, not mean of ratios: (1+9)/(1+1) * 2 = 10 */
	double sum[3];
	td_counts_zero(sum, 3);
	td_counts_add(sum, (double[]){ 1, 1, 0 }, 3);
	td_counts_add(sum, (double[]){ 9, 1, 0 }, 3);
	td_metrics_eval(mx, sum);
	assert_float_equal(mx->info[0], 10, 1e-12);
	td_counts_add(sum, (double[]){ NAN, 1, 0 }, 3);
	td_metrics_eval(mx, sum);
	assert_true(td_is_na(mx->info[0]));
	assert_float_equal(sum[1], 3, 0);
	unload(&l);
}

/* A line of several thousand characters is read whole (the catalog joins
 * and keeps lines of any length): a let of 1,300 terms over 5,000
 * characters evaluates to 1,300 times its event. */
static void test_long_line(void **state)
{
	size_t cap = 16384, len = 0;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len, "pmu x\nevent A a\nevent B b\nlet L = A");
	for (int i = 1; i < 1300; i++)
		len += (size_t)snprintf(text + len, cap - len, " + A");
	snprintf(text + len, cap - len, "\ninfo X Metric = L / B | a long line\n");
	assert_true(strlen(text) > 5000);
	struct loaded l = load_text(text);
	td_metrics_eval(l.mx, (double[]){ 2, 1 });
	assert_float_equal(l.mx->info[0], 2600, 0);
	unload(&l);
	free(text);
}

/* TMA level 4's names: a path component after the first may start with a digit
 * (4K_Aliasing) and be named in an expression; the domains Clocks_Calculated and
 * Core_Utilization are kept whole. A = 1, B = 4: L1 = 0.25, L1.4K_Part = 0.125,
 * L1.Other = 0.25 - 0.125 = 0.125. (A first component with a digit: bad-td/path-digit-first.td.) */
static void test_level4_names(void **state)
{
	(void)state;
	struct loaded l = load_text("pmu x\nevent A a\nevent B b\n"
				    "node L1 Slots = A / B\n"
				    "node L1.4K_Part Clocks_Calculated = A / B / 2\n"
				    "node L1.Other Core_Utilization = L1 - L1.4K_Part\n");
	int top = td_model_node(l.m, "L1"), part = td_model_node(l.m, "L1.4K_Part"),
	    other = td_model_node(l.m, "L1.Other");
	assert_true(top >= 0 && part >= 0 && other >= 0);
	assert_string_equal(l.m->nodes[part].name, "4K_Part");
	assert_string_equal(l.m->nodes[part].domain, "Clocks_Calculated");
	assert_string_equal(l.m->nodes[other].domain, "Core_Utilization");
	td_metrics_eval(l.mx, (double[]){ 1, 4 });
	assert_float_equal(l.mx->node[top], 0.25, 1e-15);
	assert_float_equal(l.mx->node[part], 0.125, 1e-15);
	assert_float_equal(l.mx->node[other], 0.125, 1e-15);
	unload(&l);
}

static void test_cpi_edges(void **state)
{
	struct loaded l = load_text("pmu x\nevent CY c\nevent IN i\nevent F f\n"
				    "cpi-cycles CY\ncpi-instructions IN\n"
				    "cpi  A measured = F / CY\ncpi  B estimated = 0.25\n");
	struct td_cpi_stack *s = &l.mx->cpi;

	(void)state;
	td_metrics_eval(l.mx, (double[]){ 100, 50, 20 });
	assert_true(s->valid && !s->scaled);
	assert_float_equal(s->cpi, 2, 0);
	assert_float_equal(s->comp[0], 0.4, 1e-15);
	assert_float_equal(s->comp[1], 0.5, 1e-15);
	assert_float_equal(s->other, 1.1, 1e-15);
	td_metrics_eval(l.mx, (double[]){ 100, 50, 150 }); /* 1.5 + 0.25 = 1.75 of the cycles */
	assert_true(s->scaled);
	assert_float_equal(s->scale, 1 / 1.75, 1e-15);
	assert_float_equal(s->comp[0] + s->comp[1] + s->other, 2, 1e-12);
	assert_float_equal(s->comp[0] / s->comp[1], 6, 1e-12); /* proportions kept */
	assert_true(fabs(s->other) < 1e-12);
	td_metrics_eval(l.mx, (double[]){ 100, 0, 20 }); /* no instructions: no CPI */
	assert_false(s->valid);
	assert_true(td_is_na(s->cpi) && td_is_na(s->other) && td_is_na(s->comp[1]));
	td_metrics_eval(l.mx, (double[]){ 100, 50, NAN }); /* an NA component goes to Other */
	assert_true(s->valid && td_is_na(s->comp[0]));
	assert_float_equal(s->other, 1.5, 1e-15);
	unload(&l);
}

/* Counts from several perf groups (td_metrics_eval_groups), hand-derived:
 * group 0 counted A and B half the time, group 1 A and C a quarter of it. */
static void test_eval_groups(void **state)
{
	struct loaded l = load_text("pmu x\nevent A a\nevent B b\nevent C c\nevent D d\n"
				    "node  X  Slots = A / B | > 0.4\n"
				    "node  X.Y Slots = X * D / A | > 0.1\n"
				    "info  AC Metric = A / C\n"
				    "info  BC Metric = B / C\n");
	struct td_metrics *mx = l.mx;
	const struct td_model *m = l.m;
	int x = td_model_node(m, "X"), y = td_model_node(m, "X.Y");
	int sx = m->nodes[x].f.slot, sy = m->nodes[y].f.slot, sac = m->infos[0].f.slot, sbc = m->infos[1].f.slot;
	double counts[2][4] = { { 10, 20, NAN, NAN }, { 30, NAN, 60, NAN } };
	double cov[2][4] = { { 0.5, 0.5, NAN, NAN }, { 0.25, NAN, 0.25, NAN } };

	(void)state;
	assert_int_equal(td_metrics_eval_groups(mx, &counts[0][0], &cov[0][0], 2), 0);
	/* X = A/B from group 0 alone: 10/20, not the mean A (20) over B */
	assert_float_equal(mx->node[x], 0.5, 1e-15);
	assert_float_equal(mx->conf[sx], 0.5, 1e-15);
	assert_false(mx->spans[sx]);
	assert_true(mx->flagged[x]);
	/* AC = A/C from group 1: 30/60 */
	assert_float_equal(mx->info[0], 0.5, 1e-15);
	assert_float_equal(mx->conf[sac], 0.25, 1e-15);
	assert_false(mx->spans[sac]);
	/* BC: no group holds B and C: the means, 20/60, spanning, 0.5 * 0.25 */
	assert_float_equal(mx->info[1], 20.0 / 60.0, 1e-15);
	assert_true(mx->spans[sbc]);
	assert_float_equal(mx->conf[sbc], 0.125, 1e-15);
	/* D counted nowhere: X.Y not available, no confidence, not spanning */
	assert_true(td_is_na(mx->node[y]) && isnan(mx->conf[sy]) && !mx->spans[sy]);
	assert_int_equal(mx->bottleneck, x);

	/* both groups can compute X: the one counted longer wins */
	double both[2][4] = { { 10, 20, NAN, NAN }, { 12, 20, NAN, NAN } };
	double bcov[2][4] = { { 0.5, 0.5, NAN, NAN }, { 0.8, 0.9, NAN, NAN } };
	assert_int_equal(td_metrics_eval_groups(mx, &both[0][0], &bcov[0][0], 2), 0);
	assert_float_equal(mx->node[x], 0.6, 1e-15);
	assert_float_equal(mx->conf[sx], 0.8, 1e-15);
	/* a tie keeps the first group */
	bcov[1][0] = bcov[1][1] = 0.5;
	assert_int_equal(td_metrics_eval_groups(mx, &both[0][0], &bcov[0][0], 2), 0);
	assert_float_equal(mx->node[x], 0.5, 1e-15);

	/* X's own window (group 0 holds A and B) has B = 0: not available, not
	 * made up from group 1's B */
	double zero[2][4] = { { 10, 0, NAN, NAN }, { NAN, 10, 5, NAN } };
	assert_int_equal(td_metrics_eval_groups(mx, &zero[0][0], &cov[0][0], 2), 0);
	assert_true(td_is_na(mx->node[x]) && isnan(mx->conf[sx]) && !mx->spans[sx]);
	/* but BC reads B and C, which group 1 holds: 10 / 5 */
	assert_float_equal(mx->info[1], 2, 1e-15);
	assert_false(mx->spans[sbc]);

	/* one group, no coverage: td_metrics_eval's values, confidence unknown */
	double one[4] = { 3, 4, 6, 1.5 };
	assert_int_equal(td_metrics_eval_groups(mx, one, NULL, 1), 0);
	assert_float_equal(mx->node[x], 0.75, 1e-15);
	assert_float_equal(mx->node[y], 0.375, 1e-15);
	assert_true(isnan(mx->conf[sx]) && !mx->spans[sx]);
	td_metrics_eval(mx, one);
	assert_float_equal(mx->node[y], 0.375, 1e-15);
	assert_true(isnan(mx->conf[sy]));
	unload(&l);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/td-model-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/t.td", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_event_sets_and_order),
		cmocka_unit_test(test_bad_td_files),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_expression_error_positions),
		cmocka_unit_test(test_every_events_file),
		cmocka_unit_test(test_flags_and_bottleneck),
		cmocka_unit_test(test_locate_of_bottleneck),
		cmocka_unit_test(test_params_and_aggregate),
		cmocka_unit_test(test_cpi_edges),
		cmocka_unit_test(test_arm_event_numbers),
		cmocka_unit_test(test_level4_names),
		cmocka_unit_test(test_eval_groups),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
