/* daemon: topdownd's state and its one poll() loop — the control socket's
 * clients, every running session (attached processes and scheduled system
 * profiles) and the schedule, driven together so that a slow or hostile
 * client never delays an interval. */
#ifndef TD_DAEMON_H
#define TD_DAEMON_H

#include <stdbool.h>

#include "base/util.h"
#include "daemon_config.h"

struct td_daemon_opts {
	const char *config_path;			/* NULL: the built-in defaults only */
	bool config_given;				/* -c: a missing file is an error */
	const char *socket_path, *db_path, *events_dir; /* override the file's, NULL: keep */
	bool log_stderr;				/* -f: log to stderr, else syslog (stderr under systemd) */
	const char *front_exe; /* tests: run this as the front (a "compromised front"), NULL: topdownd */
	bool no_priority;      /* --no-priority: the loop runs at the priority it was started with (by
				   * default raised where permitted: session/sampler_priority.h) */
};

/* Read the configuration (and the overrides) into c. 0, or -1 with err. */
int td_daemon_read_config(const struct td_daemon_opts *o, struct td_config *c, td_err *err);

/* Run until SIGTERM or SIGINT. 0 after a clean shutdown, -1 with err when
 * it cannot start (socket, database). */
int td_daemon_run(const struct td_daemon_opts *o, td_err *err);

#endif
