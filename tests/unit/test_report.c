/* Unit tests for report: the tree order (depth first, every node once,
 * parents before children), which nodes --level and --node show (a path
 * prefix is only a match at a dot), units, and the text of a hand-built
 * evaluation — `<` below threshold, `<==`, `[conf N%]`, `[spans groups]`, n/a
 * never 0, the CPI rows summing to CPI with Other — and of CSV and JSON
 * (the spans column). */
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
#include "model/model.h"
#include "report/report.h"

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

/* A hand-built evaluation of Zen 4's tree: Backend_Bound above its
 * threshold, Memory_Bound the bottleneck at 62.5 % confidence, Core_Bound
 * below threshold and reading events of two perf groups, Frontend_Bound NA. */
struct hand {
	struct td_report_data d;
	double node[32], conf[32], info[16], comp[16];
	bool flagged[32], spans[32];
	int be, mem, core, fe;
};

static void hand_build(struct hand *h, const struct fix *f)
{
	const struct td_model *m = f->m;

	assert_true(m->nnodes <= 32 && m->ninfos <= 16 && m->ncpis <= 16);
	memset(h, 0, sizeof(*h));
	h->be = td_model_node(m, "Backend_Bound");
	h->mem = td_model_node(m, "Backend_Bound.Memory_Bound");
	h->core = td_model_node(m, "Backend_Bound.Core_Bound");
	h->fe = td_model_node(m, "Frontend_Bound");
	h->d.cat = f->cat;
	h->d.model = f->m;
	h->d.selected_targets = 1;
	snprintf(h->d.h.kind, sizeof(h->d.h.kind), "import");
	for (int i = 0; i < 32; i++) {
		h->node[i] = 0.01 * i;
		h->conf[i] = 1;
	}
	h->node[h->fe] = NAN;	/* not available: n/a, never 0 */
	h->spans[h->fe] = true; /* ...and then not marked as spanning either */
	h->node[h->be] = 0.5;
	h->flagged[h->be] = h->flagged[h->mem] = true;
	h->node[h->mem] = 0.3;
	h->conf[h->mem] = 0.625;
	h->node[h->core] = 0.2;
	h->spans[h->core] = true;
	for (int i = 0; i < 16; i++) {
		h->info[i] = NAN;
		h->comp[i] = 0.1;
	}
	h->d.whole = (struct td_report_eval){ .label = "session",
					      .seq = -1,
					      .v = { .node = h->node,
						     .conf = h->conf,
						     .spans = h->spans,
						     .flagged = h->flagged,
						     .info = h->info,
						     .bottleneck = h->mem,
						     .cpi_valid = true,
						     .cpi = 2.0,
						     .other = 2.0 - 0.1 * m->ncpis,
						     .cpi_comp = h->comp,
						     .nvalid = 3 } };
}

static int count(const char *buf, const char *needle)
{
	int n = 0;

	for (const char *p = buf; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static char *write_report(const struct hand *h, const struct td_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	if (o->format == TD_REPORT_TEXT)
		td_report_text(out, &h->d, o);
	else
		td_report_table(out, &h->d, o);
	fclose(out);
	return buf;
}

static void test_text(void **state)
{
	static struct hand h;
	struct td_report_opts o = { .level = 2 };

	hand_build(&h, *state);
	char *buf = write_report(&h, &o);
	assert_non_null(strstr(buf, "  Frontend_Bound                                   n/a % Slots       \n"));
	assert_non_null(strstr(buf, "  Backend_Bound                                   50.0 % Slots       \n"));
	assert_non_null(
		strstr(buf, "    Memory_Bound                                  30.0 % Slots        <== [conf 62%]\n"));
	assert_non_null(
		strstr(buf, "    Core_Bound                                    20.0 % Slots      < [spans groups]\n"));
	assert_int_equal(count(buf, "[spans groups]"), 1);
	assert_non_null(strstr(buf, "  Other                            derived        1.200      60.0\n"));
	assert_non_null(strstr(buf, "  CPI                              measured       2.000     100.0\n"));
	const char *ipc = strstr(buf, "\n  IPC ");
	assert_non_null(ipc);
	assert_true(strncmp(strstr(ipc, "n/a"), "n/a  Metric", 11) == 0 && strchr(ipc + 1, '\n') > strstr(ipc, "n/a"));
	assert_non_null(strstr(buf, "    Fastpath ")); /* level 2: shown with -l 2 */
	free(buf);
}

/* The same evaluation as CSV and JSON: spans is the last column, 1 only on
 * Core_Bound (Frontend_Bound's flag is ignored: it has no value). */
static void test_table_spans(void **state)
{
	static struct hand h;
	struct td_report_opts o = { .format = TD_REPORT_CSV, .level = 2 };

	hand_build(&h, *state);
	char *buf = write_report(&h, &o);
	static const char header[] = "scope,node,level,value,unit,threshold,bottleneck,confidence,spans,kind,start_ns,"
				     "end_ns,seconds,target\n";
	assert_true(strncmp(buf, header, strlen(header)) == 0);
	assert_non_null(strstr(buf, "\nsession,Backend_Bound.Core_Bound,2,20.0000,% Slots,below,0,100.0,1,node,"));
	assert_non_null(strstr(buf, "\nsession,Backend_Bound.Memory_Bound,2,30.0000,% Slots,above,1,62.5,0,node,"));
	assert_non_null(strstr(buf, "\nsession,Frontend_Bound,1,,% Slots,,0,100.0,0,node,"));
	assert_int_equal(count(buf, ",1,node,"), 1);
	assert_int_equal(count(buf, ",all\n"), count(buf, "\n") - 1); /* every row names what it sums */
	free(buf);
	o.format = TD_REPORT_JSON;
	buf = write_report(&h, &o);
	assert_non_null(strstr(buf,
			       "{\"scope\":\"session\",\"node\":\"Backend_Bound.Core_Bound\",\"level\":2,\"value\":20,"
			       "\"unit\":\"% Slots\",\"threshold\":\"below\",\"bottleneck\":false,\"confidence\":100.0,"
			       "\"spans\":true}"));
	assert_non_null(strstr(buf, "\"node\":\"Frontend_Bound\",\"level\":1,\"value\":null,"));
	assert_non_null(strstr(strstr(buf, "\"node\":\"Frontend_Bound\","), "\"spans\":false}"));
	assert_int_equal(count(buf, "\"spans\":true"), 1);
	assert_int_equal(count(buf, "\"spans\":false"), count(buf, "\"node\":") - 1);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_order),
		cmocka_unit_test(test_node_shown),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_table_spans),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
