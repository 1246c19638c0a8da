/* test_counter_packing: the simple packing behind --counters N — each info metric's
 * events kept together when they fit, unread events first-fit, at most N
 * per group, deterministic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/catalog.h"
#include "plan/counter_packing.h"
#include "model/model.h"

static struct td_model *load(const char *path, struct td_catalog **cat)
{
	struct td_model *m;
	td_err err;

	if (td_catalog_load(path, cat, &err))
		fail_msg("%s", err.msg);
	if (td_model_compile(*cat, &m, &err))
		fail_msg("%s", err.msg);
	return m;
}

static void groups_of(const struct td_model *m, const int *group, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < m->cat->nevents; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s=%d", i ? " " : "", m->cat->events[i].alias,
					 group[i]);
}

static void test_software(void **state)
{
	char path[1024], got[512];
	struct td_catalog *cat;
	struct td_model *m;
	int group[16];

	(void)state;
	snprintf(path, sizeof(path), "%s/software.td", getenv("TOPDOWN_EVENTS_DIR"));
	m = load(path, &cat);
	assert_int_equal(td_counter_packing(m, 2, group), 3);
	groups_of(m, group, got, sizeof(got));
	assert_string_equal(got, "TASK_CLOCK=0 CONTEXT_SWITCHES=0 CPU_MIGRATIONS=1 PAGE_FAULTS=1 MINOR_FAULTS=2 "
				 "MAJOR_FAULTS=2");
	assert_int_equal(td_counter_packing(m, 1, group), 6);
	assert_int_equal(td_counter_packing(m, 16, group), 1);
	assert_int_equal(td_counter_packing(m, 0, group), -1);
	td_model_free(m);
	td_catalog_free(cat);
}

static void test_metric_kept_together(void **state)
{
	char path[] = "/tmp/td-counter_packing-XXXXXX", got[512];
	struct td_catalog *cat;
	struct td_model *m;
	int group[16], fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fputs("pmu perf\ntitle t\n"
	      "event A perf::TASK-CLOCK | a\nevent B perf::PAGE-FAULTS | b\nevent C perf::CPU-MIGRATIONS | c\n"
	      "event D perf::MINOR-FAULTS | d\nevent E perf::MAJOR-FAULTS | e\n"
	      "info X Metric = A / B | x\ninfo Y Metric = C / D | y\ninfo Z Metric = (A + C + E) / 3 | z\n",
	      f);
	fclose(f);
	m = load(path, &cat);
	/* X in group 0; Y does not fit group 0 (2 + 2 > 3): together in group 1; Z's only unplaced
	 * event E joins the last group, which has room */
	assert_int_equal(td_counter_packing(m, 3, group), 2);
	groups_of(m, group, got, sizeof(got));
	assert_string_equal(got, "A=0 B=0 C=1 D=1 E=1");
	/* with 2 per group Z's single unplaced event E opens group 2 */
	assert_int_equal(td_counter_packing(m, 2, group), 3);
	groups_of(m, group, got, sizeof(got));
	assert_string_equal(got, "A=0 B=0 C=1 D=1 E=2");
	td_model_free(m);
	td_catalog_free(cat);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_metric_kept_together),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
