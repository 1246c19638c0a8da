/* Unit tests for the exposition (src/topdownd/openmetrics.c and
 * metrics_export.c) on a hand-built snapshot: a two-level tree whose values
 * are written here, an info metric and a CPI stack. The text must hold the
 * exact lines a scraper reads (values with 17 significant digits, so the
 * double read back is the double written), no sample for a value not
 * measured, escaped labels, and the two formats' differences. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topdownd/metrics_export.h"

static struct td_snap_value node(const char *name, const char *parent, int level, double v, double conf)
{
	return (struct td_snap_value){ .name = (char *)name,
				       .parent = (char *)parent,
				       .unit = (char *)"Slots",
				       .level = level,
				       .value = v,
				       .conf = conf };
}

static struct td_snap_value nodes[4], infos[2], cpis[2];
static struct td_snap_file file;
static struct td_snapshot snap;

static void build(void)
{
	nodes[0] = node("Frontend_Bound", "", 1, 0.25, 1);
	nodes[1] = node("Backend_Bound", "", 1, 0.5, 0.5);
	nodes[2] = node("Backend_Bound.Memory_Bound", "Backend_Bound", 2, 0.125, 0.5);
	nodes[3] = node("Bad_Speculation", "", 1, NAN, NAN); /* not counted */
	infos[0] =
		(struct td_snap_value){ .name = (char *)"IPC", .unit = (char *)"Ratio", .value = 1.0 / 3.0, .conf = 1 };
	infos[1] = (struct td_snap_value){ .name = (char *)"CPU_Utilization", .unit = (char *)"CPUs", .value = 0.75 };
	cpis[0] = (struct td_snap_value){ .name = (char *)"Base", .value = 0.5 };
	cpis[1] = (struct td_snap_value){ .name = (char *)"DRAM", .value = 1.25 };
	file = (struct td_snap_file){ .file = (char *)"intel-skl.td",
				      .nodes = nodes,
				      .nnodes = 4,
				      .infos = infos,
				      .ninfos = 2,
				      .cpis = cpis,
				      .ncpis = 2,
				      .cpi = 3.0 };
	snap = (struct td_snapshot){ .seq = 7, .seconds = 0.5, .files = &file, .nfiles = 1 };
}

static char *render_workload(bool openmetrics, const char *comm, const struct td_workload *w)
{
	struct td_export_target t = { .target = "pid:42",
				      .comm = comm,
				      .session = 12,
				      .rung = "full",
				      .model = "skl",
				      .events_file = "intel-skl.td",
				      .snap = &snap,
				      .workload = w };
	struct td_export_health h = { .attach_running = 1,
				      .sessions_started = 3,
				      .intervals_written = 99,
				      .intervals_lost = 1,
				      .runs_missed = 2,
				      .cpu_seconds = 1.5,
				      .store_bytes = 4096,
				      .scrape_seconds = -1,
				      .clients = 0,
				      .watch_changes = 5,
				      .watch_held = 2 };
	struct td_om om;

	build();
	td_om_init(&om, openmetrics);
	td_export_render(&om, &t, 1, &h);
	assert_false(om.failed);
	return om.text; /* the caller frees */
}

static char *render(bool openmetrics, const char *comm)
{
	return render_workload(openmetrics, comm, NULL);
}

static void has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
	fail_msg("no line \"%s\" in:\n%s", line, text);
}

static void test_prometheus_text(void **state)
{
	char *t = render(false, NULL);

	(void)state;
	has_line(t, "# TYPE topdown_node_ratio gauge");
	has_line(t, "topdown_node_ratio{target=\"pid:42\",node=\"Frontend_Bound\",level=\"1\",parent=\"\",domain="
		    "\"Slots\"} 0.25");
	has_line(t, "topdown_node_ratio{target=\"pid:42\",node=\"Backend_Bound.Memory_Bound\",level=\"2\",parent="
		    "\"Backend_Bound\",domain=\"Slots\"} 0.125");
	has_line(t, "topdown_node_confidence_ratio{target=\"pid:42\",node=\"Backend_Bound\",level=\"1\",parent=\"\","
		    "domain=\"Slots\"} 0.5");
	/* not counted: no sample, never 0 */
	assert_null(strstr(t, "node=\"Bad_Speculation\""));
	/* 1/3 with 17 significant digits */
	has_line(t, "topdown_ipc{target=\"pid:42\"} 0.33333333333333331");
	has_line(t, "topdown_metric{target=\"pid:42\",metric=\"IPC\",unit=\"Ratio\",file=\"intel-skl.td\"} "
		    "0.33333333333333331");
	has_line(t, "topdown_cpi{target=\"pid:42\"} 3");
	has_line(t, "topdown_cpi_component{target=\"pid:42\",component=\"DRAM\"} 1.25");
	has_line(t, "topdown_interval_seq{target=\"pid:42\"} 7");
	has_line(t, "topdown_session_id{target=\"pid:42\"} 12");
	/* counters and info in 0.0.4: _total and _info in the TYPE line */
	has_line(t, "# TYPE topdown_intervals_written_total counter");
	has_line(t, "topdown_intervals_written_total 99");
	has_line(t, "topdown_collector_cpu_seconds_total 1.5");
	has_line(t, "# TYPE topdown_info gauge");
	has_line(t, "topdown_info{target=\"pid:42\",rung=\"full\",model=\"skl\",events_file=\"intel-skl.td\"} 1");
	has_line(t, "topdown_store_bytes 4096");
	has_line(t, "# TYPE topdown_watch_changes_total counter");
	has_line(t, "topdown_watch_changes_total 5");
	has_line(t, "topdown_watch_changes_held_total 2");
	assert_null(strstr(t, "# EOF"));
	assert_null(strstr(t, "# UNIT"));
	/* no scrape yet: no scrape-duration sample */
	assert_null(strstr(t, "topdown_scrape_duration_seconds "));
	free(t);
}

static void test_openmetrics_text(void **state)
{
	char *t = render(true, "my \"app\"\\x\n");
	size_t len = strlen(t);

	(void)state;
	has_line(t, "# TYPE topdown_intervals_written counter");
	has_line(t, "topdown_intervals_written_total 99");
	has_line(t, "# TYPE topdown info");
	has_line(t, "# UNIT topdown_node_ratio ratio");
	has_line(t, "# UNIT topdown_collector_cpu_seconds seconds");
	/* label values escaped: \\ \" \n */
	has_line(t, "topdown_ipc{target=\"pid:42\",comm=\"my \\\"app\\\"\\\\x\\n\"} 0.33333333333333331");
	assert_true(len > 6 && !strcmp(t + len - 6, "# EOF\n"));
	free(t);
}

/* Every sample line's family was announced by HELP and TYPE before it. */
static void test_families_announced(void **state)
{
	char *t = render(true, NULL), *save = NULL, *typed = calloc(1, strlen(t) + 1);

	(void)state;
	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		if (!strncmp(line, "# TYPE ", 7)) {
			sscanf(line + 7, "%127s", name);
			strcat(typed, " ");
			strcat(typed, name);
			strcat(typed, " ");
			continue;
		}
		if (line[0] == '#')
			continue;
		sscanf(line, "%127[^{ ]", name);
		char *suffix = strstr(name, "_total");
		if (!suffix)
			suffix = strstr(name, "_info");
		if (suffix && suffix[strlen(suffix) == 6 ? 6 : 5] == '\0')
			*suffix = '\0';
		char key[132];
		snprintf(key, sizeof(key), " %s ", name);
		if (!strstr(typed, key))
			fail_msg("sample '%s' before its TYPE", line);
	}
	free(typed);
	free(t);
}

/* A watched group's workload labels (workload.c) follow target and comm on
 * every series, every one of them beside the most labels a family adds
 * (topdown_node_ratio's four): none is dropped. */
static void test_workload_labels(void **state)
{
	struct td_workload w;
	char *t;

	(void)state;
	td_workload_of(
		"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f5c3c9e_0d6e_4c1a_9d7f_"
		"2b8a1d0e6f4a.slice/cri-containerd-4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"
		".scope",
		&w);
	t = render_workload(false, "app", &w);
	has_line(t, "topdown_node_ratio{target=\"pid:42\",comm=\"app\",systemd_unit=\"cri-containerd-"
		    "4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605.scope\",systemd_slice=\"kubepods-"
		    "burstable-pod0f5c3c9e_0d6e_4c1a_9d7f_2b8a1d0e6f4a.slice\",pod_uid=\"0f5c3c9e-0d6e-4c1a-9d7f-"
		    "2b8a1d0e6f4a\",qos_class=\"burstable\",container_runtime=\"containerd\",container_id=\""
		    "4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605\",node=\"Frontend_Bound\",level="
		    "\"1\",parent=\"\",domain=\"Slots\"} 0.25");
	has_line(t, "topdown_session_id{target=\"pid:42\",comm=\"app\",systemd_unit=\"cri-containerd-"
		    "4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605.scope\",systemd_slice=\"kubepods-"
		    "burstable-pod0f5c3c9e_0d6e_4c1a_9d7f_2b8a1d0e6f4a.slice\",pod_uid=\"0f5c3c9e-0d6e-4c1a-9d7f-"
		    "2b8a1d0e6f4a\",qos_class=\"burstable\",container_runtime=\"containerd\",container_id=\""
		    "4d1f0c8b9e2a7f6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605\"} 12");
	free(t);
	/* a path that says nothing: target alone, as before */
	td_workload_of("/td-watch/steady", &w);
	t = render_workload(false, NULL, &w);
	has_line(t, "topdown_cpi{target=\"pid:42\"} 3");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prometheus_text),
		cmocka_unit_test(test_workload_labels),
		cmocka_unit_test(test_openmetrics_text),
		cmocka_unit_test(test_families_announced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
