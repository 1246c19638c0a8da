/* tdctl record --system: count every online CPU (system-wide, pid = -1)
 * until --duration ends or a signal; rows per CPU with core and socket, and
 * metric values per CPU, per core and per socket. */
#include <stdio.h>

#include "session.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl record --system [-I MS] [-d DB] [--duration SEC] [--events-dir DIR] [-q] [--counters N]\n"
	"  --system            count every online CPU (needs root, CAP_PERFMON or perf_event_paranoid <= 0)\n"
	"  -I, --interval MS   read the counters every MS milliseconds (default 1000)\n"
	"  -d, --database DB   SQLite file to write (default ./topdown.db)\n"
	"  --duration SEC      stop after SEC seconds (default: until Ctrl-C or SIGTERM)\n"
	"  --counters N        at most N events per group\n"
	"  -q, --quiet         no notes on stderr while running\n";

int cmd_record(int argc, char **argv)
{
	struct td_session_opts o;
	int first, code;

	first = tdctl_parse_collect_opts(argc, argv, usage, false, &o);
	if (first < 0)
		return 2;
	if (first < argc) {
		tdctl_error("record: unexpected argument '%s'; usage: tdctl record --system [OPTIONS]", argv[first]);
		return 2;
	}
	if (!o.system) {
		tdctl_error("record: say what to record: give --system (every online CPU)");
		return 2;
	}
	if (o.rotate_ms) {
		tdctl_error("record --system: --rotate is for run and attach; leave it out");
		return 2;
	}
	if (tdctl_collect(&o, &code))
		return code ? code : 1;
	return code;
}
