/* tdctl record --system | --cgroup PATH: count every online CPU
 * (system-wide, pid = -1), or one cgroup's tasks on every CPU (perf's cgroup
 * mode), until --duration ends or a signal. System-wide: rows per CPU with
 * core and socket, metric values per CPU, per core and per socket. Cgroup:
 * one cgroup target, counts summed over the CPUs. */
#include <stdio.h>

#include "session/session.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl record --system|--cgroup PATH [OPTIONS]\n"
	"  --system            count every online CPU (needs root, CAP_PERFMON or perf_event_paranoid <= 0)\n"
	"  --cgroup PATH       count the tasks of cgroup PATH (full path, or under the cgroup v2 mount) on every CPU\n"
	"  --cpus LIST         only these CPUs, e.g. 0-3,6 (default: every online CPU)\n"
	"  --duration SEC      stop after SEC seconds (default: until Ctrl-C or SIGTERM)\n" TDCTL_COLLECT_HELP;

int cmd_record(int argc, char **argv)
{
	struct td_session_opts o;
	int first, code;

	first = tdctl_parse_collect_opts(argc, argv, usage, false, &o);
	if (first < 0)
		return 2;
	if (first < argc) {
		tdctl_error("record: unexpected argument '%s'; usage: tdctl record --system|--cgroup PATH [OPTIONS]",
			    argv[first]);
		return 2;
	}
	if (!o.system && !o.cgroup) {
		tdctl_error("record: say what to record: give --system (every online CPU) or --cgroup PATH");
		return 2;
	}
	if (o.system && o.cgroup) {
		tdctl_error("record: give --system or --cgroup PATH, not both");
		return 2;
	}
	if (o.rotate_ms) {
		tdctl_error("record: --rotate is for run and attach; leave it out");
		return 2;
	}
	if (tdctl_collect(&o, &code))
		return code ? code : 1;
	return code;
}
