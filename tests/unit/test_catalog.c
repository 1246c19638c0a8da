/* Unit tests for catalog: loading .td files, continuation lines, comments,
 * file:line errors, finding the file that serves a model, and the shipped
 * files loading cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "model/catalog.h"

static char dir[64];

static const char *write_td(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static int setup(void **state)
{
	(void)state;
	return tmp_dir_make(dir, sizeof(dir), "cat");
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

static void test_load_good(void **state)
{
	struct td_catalog *cat = NULL;
	td_err err;
	const char *p = write_td("good.td", "# a comment\n"
					    "pmu  skl skx   clx\n"
					    "title  Test file\n"
					    "const W 4\n"
					    "param SMT_on 0   # overridable\n"
					    "\n"
					    "event CLKS CPU_CLK_THREAD_UNHALTED:THREAD_P | unhalted cycles\n"
					    "event RAW  cpu/event=0x9c,umask=0x1,cmask=4/\n"
					    "info SLOTS Count = W * \\\n"
					    "     CLKS | slots\n"
					    "node Frontend_Bound Slots = RAW / SLOTS | > 0.15 | empty slots\n");

	(void)state;
	assert_int_equal(td_catalog_load(p, &cat, &err), 0);
	assert_int_equal(cat->nmodels, 3);
	assert_string_equal(cat->models[2], "clx");
	assert_true(td_catalog_serves(cat, "skx"));
	assert_false(td_catalog_serves(cat, "icl"));
	assert_string_equal(cat->title, "Test file");
	assert_int_equal(cat->nconsts, 2);
	assert_string_equal(cat->consts[1].name, "SMT_on");
	assert_true(cat->consts[1].is_param);
	assert_false(cat->consts[0].is_param);
	assert_true(cat->consts[0].value == 4.0);
	assert_int_equal(cat->nevents, 2);
	const struct td_cat_event *e = td_catalog_event(cat, "CLKS");
	assert_non_null(e);
	assert_string_equal(e->spec, "CPU_CLK_THREAD_UNHALTED:THREAD_P");
	assert_string_equal(e->desc, "unhalted cycles");
	assert_int_equal(e->line, 7);
	assert_string_equal(td_catalog_event(cat, "RAW")->spec, "cpu/event=0x9c,umask=0x1,cmask=4/");
	assert_int_equal(cat->ndefs, 2);
	assert_string_equal(cat->defs[0].keyword, "info");
	assert_int_equal(cat->defs[0].line, 9); /* a continued line keeps its first line number */
	assert_non_null(strstr(cat->defs[0].text, "W *"));
	assert_non_null(strstr(cat->defs[0].text, "CLKS | slots"));
	assert_int_equal(cat->defs[1].line, 11);
	td_catalog_free(cat);
}

static void expect_error(const char *text, const char *msg)
{
	struct td_catalog *cat = NULL;
	td_err err;
	const char *p = write_td("bad.td", text);

	assert_int_equal(td_catalog_load(p, &cat, &err), -1);
	assert_null(cat);
	if (!strstr(err.msg, msg))
		fail_msg("error '%s' does not contain '%s'", err.msg, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("pmu skl\nevent 9X FOO\n", "bad.td:2: event alias '9X' is not a name");
	expect_error("pmu skl\n\n\nfrobnicate x\n", "bad.td:4: unknown keyword 'frobnicate'");
	expect_error("pmu skl\nconst W four\n", "bad.td:2: 'const W' needs one number");
	expect_error("pmu skl\nevent A X\nevent A Y\n", "bad.td:3: event alias 'A' defined twice");
	expect_error("const W 4\n", "bad.td:1: no 'pmu' line");
	expect_error("pmu skl\nevent A\n", "bad.td:2: event 'A' has no event string");
	expect_error("pmu skl\nnode\n", "bad.td:2: 'node' needs a definition");
}

/* perf-name lines: the names perf prints for an event, looked up exactly. */
static void test_perf_names(void **state)
{
	struct td_catalog *cat = NULL;
	td_err err;
	const char *p = write_td(
		"names.td", "pmu amd64_fam1ah_zen5\n"
			    "event CYC cpu/event=0x76/\n"
			    "event LAT cpu/event=0x1a0,umask=0x1,cmask=0x8/\n"
			    "perf-name CYC ls_not_halted_cyc\n"
			    "perf-name LAT cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/ other_name\n");

	(void)state;
	assert_int_equal(td_catalog_load(p, &cat, &err), 0);
	assert_int_equal(cat->nperf_names, 3);
	assert_string_equal(td_catalog_perf_name(cat, "ls_not_halted_cyc")->alias, "CYC");
	assert_string_equal(
		td_catalog_perf_name(cat, "cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/")->alias, "LAT");
	assert_string_equal(td_catalog_perf_name(cat, "other_name")->alias, "LAT");
	assert_int_equal(cat->perf_names[2].line, 5);
	assert_null(td_catalog_perf_name(cat, "ls_not_halted")); /* exact names only */
	assert_null(td_catalog_perf_name(cat, "CYC"));		 /* an alias is not a perf name */
	td_catalog_free(cat);

	expect_error("pmu x\nperf-name A a_name\nevent A cpu/event=0x1/\n",
		     "bad.td:2: perf-name: 'A' is not an event declared above");
	expect_error("pmu x\nevent A cpu/event=0x1/\nperf-name A\n",
		     "bad.td:3: 'perf-name' needs an event alias and at least one name");
	expect_error("pmu x\nevent A cpu/event=0x1/\nevent B cpu/event=0x2/\nperf-name A n\nperf-name B n\n",
		     "bad.td:5: perf-name 'n' already names event A");
	char long_name[400];
	snprintf(long_name, sizeof(long_name), "pmu x\nevent A cpu/event=0x1/\nperf-name A %0200d\n", 7);
	expect_error(long_name,
		     "bad.td:3: perf-name '0000000000000000000000000000000000000000...' is longer than 159 characters");
}

static void test_missing_file(void **state)
{
	struct td_catalog *cat = NULL;
	td_err err;

	(void)state;
	assert_int_equal(td_catalog_load("/nonexistent/x.td", &cat, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.td: cannot read"));
}

static void test_find(void **state)
{
	char name[64];

	(void)state;
	write_td("a.td", "pmu icl icx\n");
	write_td("b.td", "pmu skl\n");
	assert_int_equal(td_catalog_find(dir, "icx", name, sizeof(name)), 0);
	assert_string_equal(name, "a.td");
	assert_int_equal(td_catalog_find(dir, "skl", name, sizeof(name)), 0);
	assert_string_equal(name, "b.td");
	assert_int_equal(td_catalog_find(dir, "amd64_fam19h_zen4", name, sizeof(name)), -1);
	assert_int_equal(td_catalog_find(dir, "", name, sizeof(name)), -1);
	/* a word that only contains the model, or a comment naming it, is no pmu line */
	write_td("c.td", "pmu sklx # serves skl2 as well\n");
	assert_int_equal(td_catalog_find(dir, "skl2", name, sizeof(name)), -1);
	assert_int_equal(td_catalog_find(dir, "kl", name, sizeof(name)), -1);
	/* a pmu line continued onto the next, and a comment right after the word */
	write_td("d.td", "pmu spr \\\n    emr# Emerald Rapids\n");
	assert_int_equal(td_catalog_find(dir, "emr", name, sizeof(name)), 0);
	assert_string_equal(name, "d.td");
	/* a file that names the model but does not parse is passed over for the next that serves it */
	write_td("e0.td", "pmu zen9\nevent A\n");
	write_td("e1.td", "pmu zen9\n");
	assert_int_equal(td_catalog_find(dir, "zen9", name, sizeof(name)), 0);
	assert_string_equal(name, "e1.td");
}

static void test_shipped_files_load(void **state)
{
	const char *src = getenv("TD_SRCDIR");
	const char *files[] = { "software.td", "generic.td" };

	(void)state;
	assert_non_null(src);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		struct td_catalog *cat = NULL;
		td_err err;
		snprintf(path, sizeof(path), "%s/events/%s", src, files[i]);
		if (td_catalog_load(path, &cat, &err))
			fail_msg("%s", err.msg);
		assert_true(cat->nevents > 0);
		td_catalog_free(cat);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_good),  cmocka_unit_test(test_errors),
		cmocka_unit_test(test_perf_names), cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_find),	   cmocka_unit_test(test_shipped_files_load),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
