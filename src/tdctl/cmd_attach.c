/* tdctl attach: count every thread of a running process (and threads and
 * children born later) until it exits, --duration passes, or Ctrl-C. */
#include <stdio.h>

#include "session/session.h"
#include "tdctl.h"
#include "base/util.h"

static const char usage[] =
	"usage: tdctl attach PID [OPTIONS]\n"
	"  --duration SEC      stop after SEC seconds (default: until PID exits or Ctrl-C)\n" TDCTL_COLLECT_HELP
	TDCTL_PROCESS_HELP TDCTL_ATTACH_HELP;

int cmd_attach(int argc, char **argv)
{
	struct td_session_opts o;
	const char *pid_arg = NULL;
	long pid;
	int code;

	/* PID may come before or after the options */
	if (argc > 1 && argv[1][0] != '-') {
		pid_arg = argv[1];
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	int first = tdctl_parse_collect_opts(argc, argv, usage, true, &o);
	if (first < 0)
		return 2;
	if (!pid_arg && first < argc)
		pid_arg = argv[first++];
	if (!pid_arg) {
		tdctl_error("attach: no PID given; usage: tdctl attach PID [OPTIONS]");
		return 2;
	}
	if (first < argc) {
		tdctl_error("attach: unexpected argument '%s'; usage: tdctl attach PID [OPTIONS]", argv[first]);
		return 2;
	}
	if (td_parse_long(pid_arg, 1, 4194304, &pid)) {
		tdctl_error("bad PID '%s': give the number of a running process (see 'ps')", pid_arg);
		return 2;
	}
	o.attach_pid = (pid_t)pid;
	if (tdctl_collect(&o, &code))
		return code;
	return code;
}
