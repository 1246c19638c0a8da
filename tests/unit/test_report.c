/* Unit tests for report: the tree order (depth first, every node once,
 * parents before children), which nodes --level and --node show (a path
 * prefix is only a match at a dot), units, and the text of a hand-built
 * evaluation — `<` below threshold, `<==`, `[conf N%]`, n/a never 0, the CPI
 * rows summing to CPI with Other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "model.h"
#include "report.h"

struct fix {
	struct td_catalog *cat;
	struct td_model *m;
};

static int setup(void **state)
{
	static struct fix f;
	char path[1024];
	td_err err;

	snprintf(path, sizeof(path), "%s/amd-zen4.td", td_events_dir(NULL));
	if (td_catalog_load(path, &f.cat, &err) || td_model_compile(f.cat, &f.m, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	td_model_free(f->m);
	td_catalog_free(f->cat);
	return 0;
}

static void test_tree_order(void **state)
{
	struct fix *f = *state;
	int n = f->m->nnodes, *order = calloc((size_t)n, sizeof(int)), *seen = calloc((size_t)n, sizeof(int));

	assert_non_null(order);
	assert_non_null(seen);
	td_report_tree_order(f->m, order);
	assert_string_equal(f->m->nodes[order[0]].path, "Frontend_Bound");
	assert_string_equal(f->m->nodes[order[1]].path, "Frontend_Bound.Fetch_Latency");
	assert_string_equal(f->m->nodes[order[2]].path, "Frontend_Bound.Fetch_Bandwidth");
	assert_string_equal(f->m->nodes[order[3]].path, "Bad_Speculation");
	for (int k = 0; k < n; k++) {
		int p = f->m->nodes[order[k]].parent;
		assert_int_equal(seen[order[k]], 0);
		seen[order[k]] = 1;
		if (p >= 0)
			assert_int_equal(seen[p], 1); /* parent came first */
	}
	free(order);
	free(seen);
}

static void test_node_shown(void **state)
{
	struct fix *f = *state;
	const struct td_model *m = f->m;
	struct td_report_opts o = { .level = 1 };
	int be = td_model_node(m, "Backend_Bound"), mem = td_model_node(m, "Backend_Bound.Memory_Bound");

	assert_true(be >= 0 && mem >= 0);
	assert_true(td_report_node_shown(m, be, &o));
	assert_false(td_report_node_shown(m, mem, &o));
	o.level = 0;
	o.node = "Backend_Bound.Memory_Bound";
	assert_true(td_report_node_shown(m, mem, &o));
	assert_false(td_report_node_shown(m, be, &o));
	o.node = "Backend_Bound.Memory"; /* a prefix, not a path */
	assert_false(td_report_node_shown(m, mem, &o));
	o.node = "Backend_Bound";
	assert_true(td_report_node_shown(m, mem, &o));
	char unit[24];
	td_report_unit(&m->nodes[be], unit, sizeof(unit));
	assert_string_equal(unit, "% Slots");
}

/* A hand-built evaluation of Zen 4's tree through the text writer. */
static void test_text(void **state)
{
	struct fix *f = *state;
	const struct td_model *m = f->m;
	struct td_report_data d;
	struct td_report_opts o = { .level = 2 };
	double node[32], conf[32], info[16], comp[16];
	bool flagged[32];
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int be = td_model_node(m, "Backend_Bound"), mem = td_model_node(m, "Backend_Bound.Memory_Bound");
	int core = td_model_node(m, "Backend_Bound.Core_Bound"), fe = td_model_node(m, "Frontend_Bound");

	assert_true(m->nnodes <= 32 && m->ninfos <= 16 && m->ncpis <= 16);
	memset(&d, 0, sizeof(d));
	d.cat = f->cat;
	d.model = f->m;
	d.selected_targets = 1;
	snprintf(d.h.kind, sizeof(d.h.kind), "import");
	for (int i = 0; i < 32; i++) {
		node[i] = 0.01 * i;
		conf[i] = 1;
		flagged[i] = false;
	}
	node[fe] = NAN;             /* not available: n/a, never 0 */
	node[be] = 0.5;
	flagged[be] = flagged[mem] = true;
	node[mem] = 0.3;
	conf[mem] = 0.625;
	node[core] = 0.2;
	for (int i = 0; i < 16; i++) {
		info[i] = NAN;
		comp[i] = 0.1;
	}
	d.whole = (struct td_report_eval){ .node = node, .conf = conf, .flagged = flagged, .info = info,
					   .bottleneck = mem, .cpi_valid = true, .cpi = 2.0, .other = 2.0 - 0.1 * m->ncpis,
					   .cpi_comp = comp, .nvalid = 3 };
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	td_report_text(out, &d, &o);
	fclose(out);
	assert_non_null(strstr(buf, "  Frontend_Bound                                   n/a % Slots"));
	assert_non_null(strstr(buf, "  Backend_Bound                                   50.0 % Slots       \n"));
	assert_non_null(strstr(buf, "    Memory_Bound                                  30.0 % Slots        <== [conf 62%]\n"));
	assert_non_null(strstr(buf, "    Core_Bound                                    20.0 % Slots      <\n"));
	assert_non_null(strstr(buf, "  Other                            derived        1.200      60.0\n"));
	assert_non_null(strstr(buf, "  CPI                              measured       2.000     100.0\n"));
	const char *ipc = strstr(buf, "\n  IPC ");
	assert_non_null(ipc);
	assert_true(strncmp(strstr(ipc, "n/a"), "n/a  Metric", 11) == 0 && strchr(ipc + 1, '\n') > strstr(ipc, "n/a"));
	assert_non_null(strstr(buf, "    Fastpath ")); /* level 2: shown with -l 2 */
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_order),
		cmocka_unit_test(test_node_shown),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
