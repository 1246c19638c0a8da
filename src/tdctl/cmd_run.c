/* tdctl run: start a command and count every thread of it (and of its
 * children) until it exits; exits with the command's status. */
#include <stdio.h>

#include "session/session.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl run [OPTIONS] -- CMD [ARGS...]\n"
	"  --duration SEC      stop (and send SIGTERM to CMD) after SEC seconds\n" TDCTL_COLLECT_HELP TDCTL_PROCESS_HELP;

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
