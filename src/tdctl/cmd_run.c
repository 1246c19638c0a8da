/* tdctl run: start a command and count every thread of it (and of its
 * children) until it exits; exits with the command's status. */
#include <stdio.h>

#include "report/report.h"
#include "session/session.h"
#include "store/store.h"
#include "tdctl.h"

static const char usage[] =
	"usage: tdctl run [OPTIONS] -- CMD [ARGS...]\n"
	"  --duration SEC      stop (and send SIGTERM to CMD) after SEC seconds\n" TDCTL_COLLECT_HELP TDCTL_PROCESS_HELP
		TDCTL_RUN_HELP;

/* -r N --warmup K: K + N sessions, one group (its first session's id),
 * warm-ups indexed below 0; the group's statistics at the end. Stops at the
 * first run that fails to record; exits with the last run's status. */
static int repeat(struct td_session_opts *o)
{
	int n = o->repeats ? o->repeats : 1, code = 0;
	int64_t group = 0, session;
	struct td_store *st;
	td_err err;

	for (int i = -o->warmups; i < n; i++) {
		if (tdctl_collect_session(o, false, &code, &session) || session <= 0)
			return code ? code : 1;
		if (!group)
			group = session;
		if (tdctl_open_store(o->db_path, TD_STORE_WRITE, &st))
			return 1;
		if (td_store_session_repeat(st, session, group, i)) {
			tdctl_error("run: cannot mark session %lld as repeat %d: %s", (long long)session, i,
				    td_store_errmsg(st));
			td_store_close(st);
			return 1;
		}
		td_store_close(st);
		fprintf(stderr, "tdctl: %s %d of %d: session %lld, exit status %d\n", i < 0 ? "warm-up" : "repeat",
			i < 0 ? i + o->warmups + 1 : i + 1, i < 0 ? o->warmups : n, (long long)session, code);
	}
	if (tdctl_open_store(o->db_path, TD_STORE_READ, &st))
		return 1;
	if (td_report_repeats(st, group, o->events_dir, stderr, &err))
		tdctl_error("run: %s", err.msg);
	td_store_close(st);
	return code;
}

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
	if (o.repeats == 0 && o.warmups == 0) {
		tdctl_collect(&o, &code);
		return code;
	}
	return repeat(&o);
}
