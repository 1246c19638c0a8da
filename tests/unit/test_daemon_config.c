/* Unit tests for topdownd.conf (src/topdownd/daemon_config.c): every key
 * reaches its field with its unit converted by hand here; every kind of
 * mistake is an error "NAME:LINE: ..." on the line that holds it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topdownd/daemon_config.h"

static void test_defaults(void **state)
{
	struct td_config c;

	(void)state;
	td_config_defaults(&c);
	assert_string_equal(c.socket_path, "/run/topdown/topdownd.sock");
	assert_string_equal(c.db_path, "/var/lib/topdown/topdown.db");
	assert_null(c.admin_group);
	assert_int_equal(c.interval_ms, 1000);
	assert_int_equal(c.max_clients, 256);
	assert_int_equal(c.max_request, 65536);
	assert_int_equal(c.nschedule, 0);
	assert_null(c.export_listen); /* the exporter is off unless configured */
	assert_false(c.watch.enable); /* watch mode is off unless configured */
	assert_null(c.watch.root);
	assert_true(c.watch.threshold_for_ns == 0); /* the threshold rule is off unless configured */
	assert_true(c.watch.full_resolution_ns == 3600ull * 1000000000ull); /* an hour as read ... */
	assert_true(c.watch.downsample_ns == 60ull * 1000000000ull);	    /* ... then a minute an interval */
	assert_true(c.watch.drill_hotspots); /* a drill-down samples where its workload spends its time */
	assert_int_equal(c.export_top, 10);
	assert_false(c.export_comm);
	td_config_free(&c);
}

static void test_every_key(void **state)
{
	static const char text[] = "# comment\n"
				   "\n"
				   "[daemon]\n"
				   "socket = /tmp/x.sock\n"
				   "database=/tmp/x.db\n"
				   "  events_dir   =   /usr/share/topdown/events  \n"
				   "admin_group = perf-users\n"
				   "interval = 250ms\n"
				   "max_clients = 10\n"
				   "max_request = 8K\n"
				   "max_output = 2M\n"
				   "max_sessions = 3\n"
				   "client_timeout = 1.5s\n"
				   "retention_age = 7d\n"
				   "retention_size = 1G\n"
				   "tracker = proc\n"
				   "[schedule hourly]\n"
				   "every = 1h\n"
				   "duration = 10s\n"
				   "interval = 500ms\n"
				   "level = 2\n"
				   "top = 5\n"
				   "[schedule web.cg]\n"
				   "every = 30m\n"
				   "duration = 1m\n"
				   "nodes = Backend_Bound.Memory_Bound, Frontend_Bound\n"
				   "cgroup = /sys/fs/cgroup/web\n"
				   "[auto db]\n"
				   "exec = /usr/lib/postgresql/*/bin/postgres\n"
				   "comm = postgres\n"
				   "cgroup = /sys/fs/cgroup/system.slice/postgresql.service\n"
				   "interval = 2s\n"
				   "level = 3\n"
				   "children = yes\n"
				   "duration = 1h\n"
				   "max_sessions = 2\n"
				   "[auto java]\n"
				   "comm = java*\n"
				   "nodes = Backend_Bound\n"
				   "[exporter]\n"
				   "listen = [::1]:9464\n"
				   "top = 3\n"
				   "labels = comm\n"
				   "[watch]\n"
				   "enable = yes\n"
				   "root = /kubepods.slice\n"
				   "depth = 2\n"
				   "interval = 500ms\n"
				   "baseline = 20\n"
				   "window = 4\n"
				   "p_value = 0.005\n"
				   "min_shift = 2.5\n"
				   "drill_level = 3\n"
				   "drill_duration = 1m\n"
				   "drill_hotspots = no\n"
				   "workload_every = 1h\n"
				   "threshold_for = 2s\n"
				   "changes_per_hour = 4\n"
				   "max_cpu_percent = 0.5\n"
				   "top_processes = 7\n"
				   "full_resolution = 2h\n"
				   "downsample = off\n";
	struct td_config c;
	td_err err;

	(void)state;
	td_config_defaults(&c);
	if (td_config_parse(text, "t.conf", &c, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(c.socket_path, "/tmp/x.sock");
	assert_string_equal(c.db_path, "/tmp/x.db");
	assert_string_equal(c.events_dir, "/usr/share/topdown/events");
	assert_string_equal(c.admin_group, "perf-users");
	assert_int_equal(c.interval_ms, 250);
	assert_int_equal(c.max_clients, 10);
	assert_int_equal(c.max_request, 8 * 1024);
	assert_int_equal(c.max_output, 2 * 1024 * 1024);
	assert_int_equal(c.max_sessions, 3);
	assert_int_equal(c.client_timeout_ms, 1500);
	assert_true(c.retention_age_ns == 7ull * 86400 * 1000000000ull);
	assert_true(c.retention_bytes == 1024ull * 1024 * 1024);
	assert_int_equal(c.nschedule, 2);
	assert_string_equal(c.schedule[0].name, "hourly");
	assert_true(c.schedule[0].every_ns == 3600ull * 1000000000ull);
	assert_true(c.schedule[0].duration_ns == 10ull * 1000000000ull);
	assert_int_equal(c.schedule[0].interval_ms, 500);
	assert_int_equal(c.schedule[0].level, 2);
	assert_int_equal(c.schedule[0].top, 5);
	assert_null(c.schedule[0].nodes);
	assert_string_equal(c.schedule[1].name, "web.cg");
	assert_true(c.schedule[1].every_ns == 1800ull * 1000000000ull);
	assert_int_equal(c.schedule[1].interval_ms, 1000); /* the default */
	assert_string_equal(c.schedule[1].nodes, "Backend_Bound.Memory_Bound, Frontend_Bound");
	assert_string_equal(c.schedule[1].cgroup, "/sys/fs/cgroup/web");
	assert_int_equal(c.nautos, 2);
	assert_string_equal(c.autos[0].name, "db");
	assert_string_equal(c.autos[0].exec, "/usr/lib/postgresql/*/bin/postgres");
	assert_string_equal(c.autos[0].comm, "postgres");
	assert_string_equal(c.autos[0].cgroup, "/sys/fs/cgroup/system.slice/postgresql.service");
	assert_int_equal(c.autos[0].interval_ms, 2000);
	assert_int_equal(c.autos[0].level, 3);
	assert_true(c.autos[0].children);
	assert_true(c.autos[0].duration_ns == 3600ull * 1000000000ull);
	assert_int_equal(c.autos[0].max_sessions, 2);
	assert_string_equal(c.autos[1].name, "java");
	assert_null(c.autos[1].exec);
	assert_string_equal(c.autos[1].comm, "java*");
	assert_null(c.autos[1].cgroup);
	assert_int_equal(c.autos[1].interval_ms, 0); /* the [daemon] interval */
	assert_false(c.autos[1].children);
	assert_true(c.autos[1].duration_ns == 0); /* until the process ends */
	assert_int_equal(c.autos[1].max_sessions, 8);
	assert_string_equal(c.autos[1].nodes, "Backend_Bound");
	assert_int_equal(c.tracker, TD_TRACKER_PROC);
	assert_string_equal(c.export_listen, "[::1]:9464");
	assert_int_equal(c.export_top, 3);
	assert_true(c.export_comm);
	assert_true(c.watch.enable);
	assert_string_equal(c.watch.root, "/kubepods.slice");
	assert_int_equal(c.watch.depth, 2);
	assert_int_equal(c.watch.interval_ms, 500);
	assert_int_equal(c.watch.baseline, 20);
	assert_int_equal(c.watch.window, 4);
	assert_true(c.watch.p_value == 0.005);
	assert_true(c.watch.min_shift == 2.5);
	assert_int_equal(c.watch.drill_level, 3);
	assert_true(c.watch.drill_duration_ns == 60ull * 1000000000ull);
	assert_false(c.watch.drill_hotspots);
	assert_true(c.watch.workload_every_ns == 3600ull * 1000000000ull);
	assert_true(c.watch.threshold_for_ns == 2000000000ull);
	assert_int_equal(c.watch.changes_per_hour, 4);
	assert_true(c.watch.max_cpu_percent == 0.5);
	assert_int_equal(c.watch.top_processes, 7);
	assert_true(c.watch.full_resolution_ns == 7200ull * 1000000000ull);
	assert_true(c.watch.downsample_ns == 0);
	td_config_free(&c);
}

/* Each mistake and the start of its error. */
static void test_errors(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "[daemon]\nintervl = 1s\n",
		  "t.conf:2: unknown key 'intervl' in [daemon]: the keys are socket, database," },
		{ "socket = /x\n", "t.conf:1: a setting before any section" },
		{ "[daemons]\n", "t.conf:1: unknown section [daemons]" },
		{ "[daemon\n",
		  "t.conf:1: a section header is [daemon], [exporter], [watch], [schedule NAME] or [auto NAME]" },
		{ "[watch]\nenable = on\n", "t.conf:2: bad enable 'on': give yes or no" },
		{ "[watch]\ndrill_hotspots = 1\n", "t.conf:2: bad drill_hotspots '1': give yes or no" },
		{ "[watch]\nroot = sys/fs/cgroup\n", "t.conf:2: bad root 'sys/fs/cgroup': give an absolute path" },
		{ "[watch]\ndepth = 0\n", "t.conf:2: bad depth '0': give a whole number from 1 to 16" },
		{ "[watch]\nbaseline = 2\n", "t.conf:2: bad baseline '2': give a whole number from 3 to 10000" },
		{ "[watch]\nwindow = 1\n", "t.conf:2: bad window '1': give a whole number from 3 to 10000" },
		{ "[watch]\np_value = 0\n", "t.conf:2: bad p_value '0': give a number above 0 and at most 0.5" },
		{ "[watch]\np_value = 0.6\n", "t.conf:2: bad p_value '0.6': give a number above 0 and at most 0.5" },
		{ "[watch]\np_value = nan\n", "t.conf:2: bad p_value 'nan'" },
		{ "[watch]\nmin_shift = 101\n", "t.conf:2: bad min_shift '101': give a number from 0 and at most 100" },
		{ "[watch]\nmin_shift = 5pp\n", "t.conf:2: bad min_shift '5pp'" },
		{ "[watch]\nmax_cpu_percent = -1\n", "t.conf:2: bad max_cpu_percent '-1'" },
		{ "[watch]\ndrill_level = 7\n", "t.conf:2: bad drill_level '7': give a whole number from 1 to 6" },
		{ "[watch]\nchanges_per_hour = 0\n", "t.conf:2: bad changes_per_hour '0'" },
		{ "[watch]\nworkload_every = soon\n", "t.conf:2: bad workload_every 'soon': give a duration" },
		{ "[watch]\nthreshold_for = 0\n", "t.conf:2: bad threshold_for '0': give 'off' or a duration" },
		{ "[watch]\ninterval = 1s\nwindow = 3\nthreshold_for = 7s\n",
		  "t.conf:4: [watch]: 'threshold_for' must be at most 2 x 'window' intervals (2 x 3 x 1000 ms" },
		{ "[watch]\ninterval = 2s\ndrill_duration = 1s\n",
		  "t.conf:3: [watch]: 'drill_duration' must not be shorter than 'interval'" },
		{ "[watch]\ninterval = 1s\nwindow = 10\nworkload_every = 5s\n",
		  "t.conf:4: [watch]: 'workload_every' must be at least 'window' intervals (10 x 1000 ms)" },
		{ "[watch]\n[watch]\n", "t.conf:2: [watch] is given twice" },
		{ "[watch]\ndownsample = soon\n", "t.conf:2: bad downsample 'soon': give 'off' or a duration" },
		{ "[watch]\nfull_resolution = 0\n", "t.conf:2: bad full_resolution '0'" },
		{ "[watch]\ninterval = 1s\nbaseline = 30\nwindow = 5\nfull_resolution = 39s\n",
		  "t.conf:5: [watch]: 'full_resolution' must be at least the intervals a change is decided on "
		  "(baseline + 2 x window = 40 x 1000 ms)" },
		{ "[watch]\ninterval = 1s\ndownsample = 1500ms\n",
		  "t.conf:3: [watch]: 'downsample' must be 'off' or at least 2 x 'interval' (2 x 1000 ms)" },
		{ "[watch]\ncgroup = /x\n",
		  "t.conf:2: unknown key 'cgroup' in [watch]: the keys are enable, root, depth," },
		{ "[exporter]\nlisten = localhost:9464\n",
		  "t.conf:2: bad listen 'localhost:9464': give HOST:PORT with a numeric address" },
		{ "[exporter]\nlisten = 127.0.0.1:65536\n", "t.conf:2: bad listen '127.0.0.1:65536'" },
		{ "[exporter]\nlisten = [::1\n", "t.conf:2: bad listen '[::1'" },
		{ "[exporter]\nlabels = cmdline\n",
		  "t.conf:2: bad labels 'cmdline': give comm (a comm label beside target) or none" },
		{ "[exporter]\nport = 1\n",
		  "t.conf:2: unknown key 'port' in [exporter]: the keys are listen, top, labels" },
		{ "[daemon] x\n", "t.conf:1: a section header is" },
		{ "[daemon]\nsocket\n", "t.conf:2: expected 'key = value'" },
		{ "[daemon]\nsocket =\n", "t.conf:2: 'socket' has no value" },
		{ "[daemon]\nsocket = relative/x\n", "t.conf:2: bad socket 'relative/x': give an absolute path" },
		{ "[daemon]\ninterval = 1s\ninterval = 2s\n", "t.conf:3: 'interval' is set twice in this section" },
		{ "[daemon]\ninterval = 5ms\n", "t.conf:2: bad interval '5ms': give a duration from 10ms to 1h" },
		{ "[daemon]\ninterval = 1\n", "t.conf:2: bad interval '1'" },
		{ "[daemon]\ninterval = -1s\n", "t.conf:2: bad interval '-1s'" },
		{ "[daemon]\nmax_clients = 0\n",
		  "t.conf:2: bad max_clients '0': give a whole number from 1 to 100000" },
		{ "[daemon]\nmax_clients = 12x\n", "t.conf:2: bad max_clients '12x'" },
		{ "[daemon]\nmax_request = 8Q\n", "t.conf:2: bad max_request '8Q': give a size in bytes" },
		{ "[daemon]\nmax_request = 99999999999999999999T\n", "t.conf:2: bad max_request" },
		{ "[daemon]\nadmin_group = a b\n", "t.conf:2: bad admin_group 'a b': give a name" },
		{ "[schedule]\n", "t.conf:1: [schedule] needs a name: [schedule NAME]" },
		{ "[auto]\n", "t.conf:1: [auto] needs a name: [auto NAME]" },
		{ "[autos x]\n", "t.conf:1: unknown section [autos x]" },
		{ "[auto x]\ninterval = 1s\n", "t.conf:2: [auto x] needs 'exec', 'comm' or 'cgroup'" },
		{ "[auto x]\nexec = /a\n[auto x]\n", "t.conf:3: [auto x] is defined twice" },
		{ "[auto x]\ncomm = a\nchildren = maybe\n", "t.conf:3: bad children 'maybe': give yes or no" },
		{ "[auto x]\ncomm = a\nmax_sessions = 0\n", "t.conf:3: bad max_sessions '0'" },
		{ "[auto x]\ncomm = a\ncgroup = rel\n", "t.conf:3: bad cgroup 'rel': give an absolute path" },
		{ "[auto x]\ncomm = a\nduration = 1s\ninterval = 2s\n",
		  "t.conf:4: [auto x]: 'interval' must not be longer than 'duration'" },
		{ "[auto x]\ncomm = a\nevery = 1h\n",
		  "t.conf:3: unknown key 'every' in [auto]: the keys are exec, comm," },
		{ "[daemon]\ntracker = ebpf\n",
		  "t.conf:2: bad tracker 'ebpf': give auto (BPF where it loads), bpf or proc" },
		{ "[schedule a b]\n", "t.conf:1: schedule name 'a b': use letters" },
		{ "[schedule a]\nevery = 1h\nduration = 1s\n[schedule a]\n",
		  "t.conf:4: [schedule a] is defined twice" },
		{ "[schedule a]\nevery = 1h\n[daemon]\n", "t.conf:3: [schedule a] needs 'every' and 'duration'" },
		{ "[schedule a]\nevery = 1h\n", "t.conf:2: [schedule a] needs 'every' and 'duration'" },
		{ "[schedule a]\nevery = 1s\nduration = 2s\n",
		  "t.conf:3: [schedule a]: 'duration' must be shorter than 'every'" },
		{ "[schedule a]\nevery = 1h\nduration = 1s\ninterval = 2s\n",
		  "t.conf:4: [schedule a]: 'interval' must not be longer than 'duration'" },
		{ "[schedule a]\nlevel = 7\n", "t.conf:2: bad level '7': give a whole number from 1 to 6" },
		{ "[schedule a]\nsocket = /x\n", "t.conf:2: unknown key 'socket' in [schedule]: the keys are every," },
	};
	td_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct td_config c;
		td_config_defaults(&c);
		err.msg[0] = '\0';
		if (td_config_parse(bad[i].text, "t.conf", &c, &err) != -1 ||
		    strncmp(err.msg, bad[i].says, strlen(bad[i].says)))
			fail_msg("%s: wanted \"%s...\", got \"%s\"", bad[i].text, bad[i].says, err.msg);
		assert_null(strchr(err.msg, '\n'));
		td_config_free(&c);
	}
}

static void test_load_file(void **state)
{
	char dir[] = "/tmp/td-conf.XXXXXX", path[64];
	struct td_config c;
	td_err err;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/missing.conf", dir);
	assert_int_equal(td_config_load(path, &c, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read configuration"));
	td_config_free(&c);
	snprintf(path, sizeof(path), "%s/nul.conf", dir);
	f = fopen(path, "w");
	fwrite("[daemon]\n\0x", 1, 11, f);
	fclose(f);
	assert_int_equal(td_config_load(path, &c, &err), -1);
	assert_non_null(strstr(err.msg, "a NUL byte"));
	td_config_free(&c);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
