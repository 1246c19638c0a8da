/* test_combine: a hybrid CPU's level 1 combined over its core types (eval/combine.h) — each
 * node the slot-weighted share, worked by hand below — and the session's model spec split into
 * one model per core PMU (model/model_spec.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/combine.h"
#include "model/catalog.h"
#include "model/model.h"
#include "model/model_spec.h"

/* Two small trees: the level-1 nodes over SLOTS (B has no Retiring in the second variant). */
static const char tree_a[] = "pmu a\nevent X perf::TASK-CLOCK\ninfo SLOTS Count = X\n"
			     "node Frontend_Bound Slots = X\nnode Bad_Speculation Slots = X\n"
			     "node Backend_Bound Slots = X\nnode Retiring Slots = X\nnode Retiring.Heavy Slots = X\n"
			     "unrelated Retiring | a test tree\n";
static const char tree_b_no_retiring[] = "pmu b\nevent X perf::TASK-CLOCK\ninfo SLOTS Count = X\n"
					 "node Frontend_Bound Slots = X\nnode Backend_Bound Slots = X\n";
static const char tree_no_slots[] =
	"pmu c\nevent X perf::TASK-CLOCK\ninfo CLKS Count = X\nnode Frontend_Bound Slots = X\n";

static struct td_model *compile(const char *text, struct td_catalog **cat)
{
	char *copy = strdup(text);
	struct td_model *m = NULL;
	td_err err = { "" };

	assert_non_null(copy);
	assert_int_equal(td_catalog_parse_text("t.td", copy, cat, &err), 0);
	free(copy);
	if (td_model_compile(*cat, &m, &err))
		fail_msg("%s", err.msg);
	return m;
}

/* e's nodes set to vals in node order (level 1 first as declared), SLOTS to slots */
static void fill(struct td_evaluation *e, const struct td_model *m, const double *vals, double slots)
{
	assert_int_equal(td_evaluation_init(e, m), 0);
	for (int i = 0; i < m->nnodes; i++)
		e->node[i] = vals[i];
	e->info[0] = slots;
}

static double find(const struct td_combined_node *c, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].path, path))
			return c[i].value;
	fail_msg("no combined %s", path);
	return NAN;
}

static void test_weighted_by_slots(void **state)
{
	struct td_catalog *ca, *cb;
	struct td_model *a = compile(tree_a, &ca), *b = compile(tree_a, &cb);
	/* P-cores 6e9 slots: 0.19 0.11 0.30 0.40; E-cores 2.5e9 slots: 0.30 0.10 0.20 0.40 */
	const double va[] = { 0.19, 0.11, 0.30, 0.40, 0.05 }, vb[] = { 0.30, 0.10, 0.20, 0.40, 0.05 };
	struct td_evaluation ea, eb;
	struct td_combined_node c[8];
	double slots;

	(void)state;
	fill(&ea, a, va, 6e9);
	fill(&eb, b, vb, 2.5e9);
	const struct td_model *ms[] = { a, b };
	const struct td_evaluation *es[] = { &ea, &eb };
	assert_int_equal(td_combine_level1(ms, es, 2, c, &slots), 4); /* level 1 only */
	assert_true(slots == 8.5e9);
	/* (0.19 x 6 + 0.30 x 2.5) / 8.5 = 1.89 / 8.5, and so on; they add up to 8.5 / 8.5 */
	assert_true(fabs(find(c, 4, "Frontend_Bound") - 1.89 / 8.5) < 1e-12);
	assert_true(fabs(find(c, 4, "Bad_Speculation") - 0.91 / 8.5) < 1e-12);
	assert_true(fabs(find(c, 4, "Backend_Bound") - 2.3 / 8.5) < 1e-12);
	assert_true(fabs(find(c, 4, "Retiring") - 3.4 / 8.5) < 1e-12);

	/* the thread never ran on the E-cores: SLOTS 0, its nodes 0/0 = NA; the P-cores' values stand */
	const double nan4[] = { NAN, NAN, NAN, NAN, NAN };
	td_evaluation_free(&eb);
	fill(&eb, b, nan4, 0);
	assert_int_equal(td_combine_level1(ms, es, 2, c, &slots), 4);
	assert_true(slots == 6e9 && fabs(find(c, 4, "Frontend_Bound") - 0.19) < 1e-12);

	/* SLOTS not available on a type: nothing can be weighed */
	td_evaluation_free(&eb);
	fill(&eb, b, vb, NAN);
	assert_int_equal(td_combine_level1(ms, es, 2, c, &slots), 4);
	assert_true(isnan(slots) && isnan(find(c, 4, "Retiring")));
	td_evaluation_free(&ea);
	td_evaluation_free(&eb);
	td_model_free(a);
	td_model_free(b);
	td_catalog_free(ca);
	td_catalog_free(cb);
}

static void test_common_nodes_and_no_slots(void **state)
{
	struct td_catalog *ca, *cb, *cc;
	struct td_model *a = compile(tree_a, &ca), *b = compile(tree_b_no_retiring, &cb),
			*n = compile(tree_no_slots, &cc);
	const double va[] = { 0.2, 0.1, 0.3, 0.4, 0.1 }, vb[] = { 0.5, 0.5 }, vn[] = { 0.5 };
	struct td_evaluation ea, eb, en;
	struct td_combined_node c[8];
	double slots;

	(void)state;
	fill(&ea, a, va, 3);
	fill(&eb, b, vb, 1);
	fill(&en, n, vn, 1);
	const struct td_model *ms[] = { a, b }, *mn[] = { a, n };
	const struct td_evaluation *es[] = { &ea, &eb }, *esn[] = { &ea, &en };
	/* only the nodes both trees have: Frontend_Bound (0.2 x 3 + 0.5) / 4, Backend_Bound (0.9 + 0.5) / 4 */
	assert_int_equal(td_combine_level1(ms, es, 2, c, &slots), 2);
	assert_true(fabs(find(c, 2, "Frontend_Bound") - 1.1 / 4) < 1e-12);
	assert_true(fabs(find(c, 2, "Backend_Bound") - 1.4 / 4) < 1e-12);
	/* a tree without SLOTS cannot be weighed */
	assert_int_equal(td_combine_level1(mn, esn, 2, c, &slots), -1);
	td_evaluation_free(&ea);
	td_evaluation_free(&eb);
	td_evaluation_free(&en);
	td_model_free(a);
	td_model_free(b);
	td_model_free(n);
	td_catalog_free(ca);
	td_catalog_free(cb);
	td_catalog_free(cc);
}

static void test_model_spec(void **state)
{
	char m[TD_MODEL_SPEC_MAX][TD_MODEL_NAME_MAX], long_name[TD_MODEL_NAME_MAX + 8];

	(void)state;
	assert_int_equal(td_model_spec_split("skl", m), 1);
	assert_string_equal(m[0], "skl");
	assert_int_equal(td_model_spec_split("adl_glc+adl_grt", m), 2);
	assert_string_equal(m[0], "adl_glc");
	assert_string_equal(m[1], "adl_grt");
	assert_true(td_model_spec_hybrid("adl_glc+adl_grt") && !td_model_spec_hybrid("skl") &&
		    !td_model_spec_hybrid(NULL));
	assert_int_equal(td_model_spec_split("", m), -1);
	assert_int_equal(td_model_spec_split("a+", m), -1);
	assert_int_equal(td_model_spec_split("+a", m), -1);
	assert_int_equal(td_model_spec_split("a++b", m), -1);
	assert_int_equal(td_model_spec_split("a+b+c", m), -1); /* more core PMUs than any CPU has */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(td_model_spec_split(long_name, m), -1); /* never cut */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weighted_by_slots),
		cmocka_unit_test(test_common_nodes_and_no_slots),
		cmocka_unit_test(test_model_spec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
