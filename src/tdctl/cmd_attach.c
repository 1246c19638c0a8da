/* tdctl attach: count every thread of a running process (and threads and
 * children born later) until it exits, --duration passes, or Ctrl-C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "tdctl.h"
#include "base/util.h"
#include "daemon_client.h"

static const char usage[] =
	"usage: tdctl attach PID [OPTIONS]\n"
	"  --duration SEC      stop after SEC seconds (default: until PID exits or Ctrl-C)\n" TDCTL_COLLECT_HELP
		TDCTL_PROCESS_HELP TDCTL_ATTACH_HELP
	"  --socket PATH       ask topdownd on PATH to follow PID (default: $TOPDOWN_SOCKET, else\n"
	"                      /run/topdown/topdownd.sock when it answers and no -d is given)\n"
	"  --follow            through topdownd: print each interval until the session ends (Ctrl-C ends it)\n"
	"  --standalone        count in this process, even when topdownd runs\n";

/* The options only the daemon path reads, taken out of argv before the
 * collection options are parsed; -d is noted (a database of one's own
 * means standalone). */
struct daemon_args {
	const char *socket;
	bool follow, standalone, database;
};

static int take_daemon_args(int *argc, char **argv, struct daemon_args *a)
{
	int out = 1;

	for (int i = 1; i < *argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strcmp(s, "--follow"))
			a->follow = true;
		else if (!strcmp(s, "--standalone"))
			a->standalone = true;
		else if (!strncmp(s, "--socket=", 9))
			a->socket = s + 9;
		else if (!strcmp(s, "--socket")) {
			if (i + 1 >= *argc || !argv[i + 1][0]) {
				tdctl_error("attach: --socket needs a PATH");
				return -1;
			}
			a->socket = argv[++i];
		} else {
			if (!strcmp(s, "-d") || !strcmp(s, "--database") || !strncmp(s, "--database=", 11) ||
			    (!strncmp(s, "-d", 2) && s[2]))
				a->database = true;
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	*argc = out;
	return 0;
}

/* What an attach through topdownd cannot take (the daemon's own settings). */
static const char *daemon_refuses(const struct td_session_opts *o)
{
	if (o->extra_events)
		return "-e";
	if (o->pmu_model)
		return "--pmu";
	if (o->counters)
		return "--counters";
	if (o->rotate_ms)
		return "--rotate";
	if (o->max_age_ns || o->max_bytes)
		return "--max-age/--max-size";
	if (o->thread_metrics)
		return "--thread-metrics";
	if (o->events_dir)
		return "--events-dir";
	if (o->hotspots)
		return "--hotspots";
	if (o->scan_ms)
		return "--scan-ms";
	if (o->bpf_map_entries != TD_BPF_MAP_ENTRIES_DEFAULT)
		return "--bpf-map-entries";
	if (o->no_priority)
		return "--no-priority";
	if (tdctl_collect_mode_given())
		return "--tracker/--counting";
	return NULL;
}

int cmd_attach(int argc, char **argv)
{
	struct td_session_opts o;
	const char *pid_arg = NULL;
	long pid;
	int code;
	struct daemon_args da = { 0 };
	td_err err;

	if (take_daemon_args(&argc, argv, &da))
		return 2;

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
	if (da.standalone && (da.socket || da.follow)) {
		tdctl_error("attach: --standalone counts here; --socket and --follow are for topdownd");
		return 2;
	}
	/* topdownd when asked for (--socket, $TOPDOWN_SOCKET), or when it answers on the default socket */
	if (!da.standalone && !da.database) {
		const char *env = getenv("TOPDOWN_SOCKET");
		bool asked = da.socket || (env && *env) || da.follow;
		const char *path = tdctl_daemon_socket(da.socket);
		struct tdctl_daemon *probe = tdctl_daemon_connect(path, &err);
		if (probe || asked) {
			const char *no = daemon_refuses(&o);
			tdctl_daemon_close(probe);
			if (!probe) {
				tdctl_error("attach: %s", err.msg);
				return 1;
			}
			if (no) {
				tdctl_error("attach: %s is not available through topdownd: add --standalone (or -d DB) "
					    "to count "
					    "in this process",
					    no);
				return 2;
			}
			struct td_request r = { .op = TD_OP_ATTACH,
						.id = 1,
						.pid = o.attach_pid,
						.children = o.attach_children,
						.unlisted_off = o.unlisted_off,
						.interval_ms = o.interval_ms,
						.duration_ms = o.duration_ms,
						.level = o.level };
			if (o.nodes && strlen(o.nodes) >= sizeof(r.nodes)) {
				tdctl_error("attach: --nodes longer than %zu characters: use --standalone",
					    sizeof(r.nodes) - 1);
				return 2;
			}
			if (o.nodes)
				memcpy(r.nodes, o.nodes, strlen(o.nodes) + 1);
			return tdctl_attach_daemon(path, &r, da.follow);
		}
	}
	if (tdctl_collect(&o, &code))
		return code;
	return code;
}
