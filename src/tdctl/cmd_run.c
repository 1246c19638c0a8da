/* tdctl run: start a command and count every thread of it (and of its
 * children) until it exits; exits with the command's status. */
#include <stdio.h>

#include "session.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl run [-I MS] [-d DB] [--duration SEC] [--events-dir DIR] [-q] [--max-age AGE] [--max-size MB] [--counters N] [--rotate MS] -- CMD [ARGS...]\n"
	"  -I, --interval MS   read the counters every MS milliseconds (default 1000)\n"
	"  -d, --database DB   SQLite file to write (default ./topdown.db)\n"
	"  --duration SEC      stop (and send SIGTERM to CMD) after SEC seconds\n"
	"  -q, --quiet         no notes on stderr while running\n"
	"  --max-age AGE       delete sessions older than AGE (7d, 12h) at start and every minute\n"
	"  --max-size MB       keep the database under MB megabytes the same way\n"
	"  --counters N        at most N events per group (events files split, each info metric kept together)\n"
	"  --rotate MS         enable one group at a time, switching every MS (the TASK_CLOCK group stays on)\n"
	"  -l LEVEL, --nodes LIST  planned model groups: not collected yet (refused with the reason)\n";

int cmd_run(int argc, char **argv)
{
	struct td_session_opts o;
	int first, code;

	first = tdctl_parse_collect_opts(argc, argv, usage, false, &o);
	if (first < 0)
		return 2;
	if (o.system || o.cgroup) {
		tdctl_error("run: --system and --cgroup are options of 'tdctl record': use 'tdctl record'");
		return 2;
	}
	if (first >= argc) {
		tdctl_error("run: no command given; usage: tdctl run [OPTIONS] -- CMD [ARGS...]");
		return 2;
	}
	o.argv = argv + first;
	tdctl_collect(&o, &code);
	return code;
}
