/* tdctl detach, status, list, changes, and attach through topdownd: the commands
 * that ask the daemon (docs/protocol.md) rather than count themselves. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon_client.h"
#include "tdctl.h"

/* --socket PATH and --json, the options these commands share; the index of
 * the first operand, or -1 after an error. */
static int parse_common(const char *cmd, const char *usage, int argc, char **argv, const char **socket_path, bool *json)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*socket_path = NULL;
	*json = false;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			*socket_path = optarg;
			break;
		case 'j':
			*json = true;
			break;
		case 'h':
			printf("%s", usage);
			return -2;
		default:
			tdctl_error("%s: %s", cmd, usage);
			return -1;
		}
	}
	return optind;
}

static void print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT);

	if (text)
		printf("%s\n", text);
	free(text);
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void when(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000ull);
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "-");
}

/* ---- tdctl detach ---------------------------------------------------------- */

static const char detach_usage[] = "usage: tdctl detach SESSION [--socket PATH]\n"
				   "  end a session topdownd runs ('tdctl list' shows them)\n";

int cmd_detach(int argc, char **argv)
{
	struct td_request r = { .op = TD_OP_DETACH };
	const char *sock;
	bool json;
	int first = parse_common("detach", detach_usage, argc, argv, &sock, &json);
	json_t *rep;
	td_err err;

	if (first < 0)
		return first == -2 ? 0 : 2;
	if (first != argc - 1) {
		tdctl_error("detach: give one SESSION; %s", detach_usage);
		return 2;
	}
	if (tdctl_session_arg("detach", argv[first], &r.session))
		return 2;
	if (!(rep = tdctl_daemon_request(tdctl_daemon_socket(sock), &r, &err))) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	if (json)
		print_json(rep);
	else
		printf("session %lld detached: its last interval is written as it ends\n", (long long)r.session);
	json_decref(rep);
	return 0;
}

/* ---- tdctl list ------------------------------------------------------------ */

static const char list_usage[] = "usage: tdctl list [--socket PATH] [--json]\n"
				 "  the sessions topdownd runs now that you may see\n";

int cmd_list(int argc, char **argv)
{
	struct td_request r = { .op = TD_OP_LIST };
	const char *sock;
	bool json;
	int first = parse_common("list", list_usage, argc, argv, &sock, &json);
	json_t *rep, *all, *s;
	size_t i;
	td_err err;

	if (first < 0)
		return first == -2 ? 0 : 2;
	if (first != argc) {
		tdctl_error("list: no operands; %s", list_usage);
		return 2;
	}
	if (!(rep = tdctl_daemon_request(tdctl_daemon_socket(sock), &r, &err))) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	all = json_object_get(rep, "sessions");
	if (json) {
		print_json(rep);
	} else {
		printf("%8s  %-8s  %-24s  %9s  %s\n", "SESSION", "KIND", "TARGET", "INTERVALS", "STARTED");
		json_array_foreach(all, i, s)
		{
			char target[4200], started[32];
			if (json_object_get(s, "schedule"))
				snprintf(target, sizeof(target), "schedule %s",
					 json_string_value(json_object_get(s, "schedule")));
			else
				snprintf(target, sizeof(target), "PID %.0f (uid %.0f)", num(s, "pid"),
					 num(s, "owner_uid"));
			when((uint64_t)num(s, "started_ns"), started, sizeof(started));
			printf("%8.0f  %-8s  %-24s  %9.0f  %s\n", num(s, "session"),
			       json_string_value(json_object_get(s, "kind")), target, num(s, "intervals"), started);
		}
		if (json_array_size(all) == 0)
			printf("(no sessions running)\n");
	}
	json_decref(rep);
	return 0;
}

/* ---- tdctl changes --------------------------------------------------------- */

static const char changes_usage[] =
	"usage: tdctl changes [--socket PATH] [--json]\n"
	"  what topdownd's watch mode found changed, newest first ([watch] in topdownd.conf)\n";

int cmd_changes(int argc, char **argv)
{
	struct td_request r = { .op = TD_OP_CHANGES, .limit = 100000 }; /* the protocol's most */
	const char *sock;
	bool json;
	int first = parse_common("changes", changes_usage, argc, argv, &sock, &json);
	json_t *rep, *all, *ch;
	size_t i;
	td_err err;

	if (first < 0)
		return first == -2 ? 0 : 2;
	if (first != argc) {
		tdctl_error("changes: no operands; %s", changes_usage);
		return 2;
	}
	if (!(rep = tdctl_daemon_request(tdctl_daemon_socket(sock), &r, &err))) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	all = json_object_get(rep, "changes");
	if (json) {
		print_json(rep);
	} else {
		printf("%6s  %-19s  %-24s  %-20s  %-9s  %8s  %8s  %8s  %7s\n", "CHANGE", "WHEN", "GROUP", "NODE",
		       "KIND", "BEFORE", "AFTER", "P", "DRILL");
		json_array_foreach(all, i, ch)
		{
			char at[32], drill[32] = "-";
			when((uint64_t)num(ch, "when_ns"), at, sizeof(at));
			if (json_is_integer(json_object_get(ch, "drill_session")))
				snprintf(drill, sizeof(drill), "%.0f", num(ch, "drill_session"));
			char before[16] = "n/a", p[16] = "n/a"; /* not known: never 0 */
			if (!isnan(num(ch, "before")))
				snprintf(before, sizeof(before), "%.1f%%", 100 * num(ch, "before"));
			if (!isnan(num(ch, "p")))
				snprintf(p, sizeof(p), "%.2g", num(ch, "p"));
			printf("%6.0f  %-19s  %-24s  %-20s  %-9s  %8s  %7.1f%%  %8s  %7s\n", num(ch, "change"), at,
			       json_string_value(json_object_get(ch, "group")),
			       json_string_value(json_object_get(ch, "node")),
			       json_is_string(json_object_get(ch, "kind"))
				       ? json_string_value(json_object_get(ch, "kind"))
				       : "moved",
			       before, 100 * num(ch, "after"), p, drill);
		}
		if (!json_is_true(json_object_get(rep, "watch")))
			printf("(watch mode is off: enable it in [watch] of topdownd.conf)\n");
		else if (json_array_size(all) == 0)
			printf("(no changes)\n");
		if (num(rep, "total") > (double)json_array_size(all))
			printf("(the newest %zu of %.0f changes)\n", json_array_size(all), num(rep, "total"));
		if (num(rep, "held") > 0)
			printf("(%.0f more held back by workload_every or changes_per_hour: topdownd's log names "
			       "them)\n",
			       num(rep, "held"));
	}
	json_decref(rep);
	return 0;
}

/* ---- tdctl status ---------------------------------------------------------- */

static const char status_usage[] = "usage: tdctl status [--socket PATH] [--json]\n"
				   "  whether topdownd runs, its sessions and schedule\n";

int cmd_status(int argc, char **argv)
{
	struct td_request r = { .op = TD_OP_STATUS };
	const char *sock;
	bool json;
	int first = parse_common("status", status_usage, argc, argv, &sock, &json);
	json_t *rep, *e;
	size_t i;
	td_err err;

	if (first < 0)
		return first == -2 ? 0 : 2;
	if (first != argc) {
		tdctl_error("status: no operands; %s", status_usage);
		return 2;
	}
	if (!(rep = tdctl_daemon_request(tdctl_daemon_socket(sock), &r, &err))) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	if (json) {
		print_json(rep);
		json_decref(rep);
		return 0;
	}
	printf("topdownd %s, PID %.0f, up %.0f s, on %s\n", json_string_value(json_object_get(rep, "version")),
	       num(rep, "pid"), num(rep, "uptime_s"), tdctl_daemon_socket(sock));
	printf("sessions running (yours%s): %.0f\n",
	       json_is_true(json_object_get(rep, "admin")) ? ", as admin: all" : "", num(rep, "sessions_running"));
	if (json_object_get(rep, "database"))
		printf("database: %s; %.0f intervals written, %.0f sessions started, %.0f scheduled runs missed\n",
		       json_string_value(json_object_get(rep, "database")), num(rep, "intervals_written"),
		       num(rep, "sessions_started"), num(rep, "missed_runs"));
	json_array_foreach(json_object_get(rep, "schedule"), i, e)
		printf("schedule %s: every %g s for %g s, next in %.1f s, %.0f runs, %.0f missed%s\n",
		       json_string_value(json_object_get(e, "name")), num(e, "every_s"), num(e, "duration_s"),
		       num(e, "next_in_s"), num(e, "runs"), num(e, "missed"),
		       json_is_integer(json_object_get(e, "running")) ? " (running)" : "");
	json_decref(rep);
	return 0;
}

/* ---- tdctl attach through the daemon ----------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* One streamed interval: the level-1 nodes, or the info metrics without a tree. */
static void print_interval(json_t *ev)
{
	json_t *nodes = json_object_get(ev, "nodes"), *info = json_object_get(ev, "info"), *v;
	const char *k;
	int shown = 0;

	printf("%5.0f  %-7s %-8.0f %-13s", num(ev, "seq"), json_string_value(json_object_get(ev, "kind")),
	       num(ev, "pid"), json_string_value(json_object_get(ev, "file")));
	json_object_foreach(nodes, k, v) if (!strchr(k, '.'))
	{
		if (json_is_number(v))
			printf("  %s %.1f %%", k, 100 * json_number_value(v));
		else
			printf("  %s <not counted>", k);
		shown++;
	}
	if (!shown)
		json_object_foreach(info, k, v)
		{
			if (json_is_number(v))
				printf("  %s %.4g", k, json_number_value(v));
			else
				printf("  %s <not counted>", k);
		}
	printf("\n");
	fflush(stdout);
}

int tdctl_attach_daemon(const char *socket_path, const struct td_request *r, bool follow)
{
	struct tdctl_daemon *d;
	json_t *rep;
	td_err err;
	int64_t session;

	if (!(d = tdctl_daemon_connect(socket_path, &err))) {
		tdctl_error("%s", err.msg);
		return 1;
	}
	if (!(rep = tdctl_daemon_call(d, r, &err))) {
		tdctl_error("%s", err.msg);
		tdctl_daemon_close(d);
		return 1;
	}
	session = (int64_t)num(rep, "session");
	fprintf(stderr, "tdctl: topdownd follows PID %d in session %lld%s; 'tdctl detach %lld' ends it\n", (int)r->pid,
		(long long)session,
		json_is_true(json_object_get(rep, "user_only")) ? " (user space only: perf_event_paranoid)" : "",
		(long long)session);
	json_decref(rep);
	if (!follow) {
		printf("%lld\n", (long long)session);
		tdctl_daemon_close(d);
		return 0;
	}
	struct td_request tail = { .op = TD_OP_TAIL, .session = session, .id = 2 };
	struct sigaction sa = { .sa_handler = on_sigint };
	sigaction(SIGINT, &sa, NULL);
	if (!(rep = tdctl_daemon_call(d, &tail, &err))) {
		tdctl_error("%s", err.msg);
		tdctl_daemon_close(d);
		return 1;
	}
	json_decref(rep);
	for (;;) {
		json_t *ev = tdctl_daemon_read(d, &err);
		const char *kind;
		if (!ev) {
			if (interrupted) {
				/* Ctrl-C: the session ends as a standalone attach would */
				struct td_request det = { .op = TD_OP_DETACH, .session = session, .id = 3 };
				interrupted = 0;
				if (tdctl_daemon_send(d, &det, &err) == 0)
					continue;
			}
			tdctl_error("%s", err.msg);
			tdctl_daemon_close(d);
			return 1;
		}
		kind = json_string_value(json_object_get(ev, "event"));
		if (kind && !strcmp(kind, "interval")) {
			print_interval(ev);
		} else if (kind && !strcmp(kind, "end")) {
			fprintf(stderr, "tdctl: session %lld ended: %s (%.0f intervals)\n", (long long)session,
				json_string_value(json_object_get(ev, "reason")), num(ev, "intervals"));
			json_decref(ev);
			break;
		}
		json_decref(ev);
	}
	tdctl_daemon_close(d);
	return 0;
}
