/* topdownd: the sampling daemon's command line (man 8 topdownd). It never
 * forks into the background: run it with -f in a terminal, or under
 * systemd (Type=notify), which it tells when it is ready. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon_config.h"
#include "daemon.h"
#include "export_proc.h"
#include "front.h"
#include "report_job.h"
#include "symbolizer_proc.h"

static const char usage[] =
	"usage: topdownd [OPTIONS]\n"
	"  -c, --config FILE     configuration (default /etc/topdown/topdownd.conf, if it exists)\n"
	"  -f, --foreground      log to stderr (default: syslog, or stderr under systemd)\n"
	"  --socket PATH         control socket (default /run/topdown/topdownd.sock)\n"
	"  --database DB         SQLite database (default /var/lib/topdown/topdown.db)\n"
	"  --events-dir DIR      read events/*.td files from DIR\n"
	"  --check-config        check the configuration and exit (0: valid)\n"
	"  --no-priority         sample at the priority it was started with (by default raised where\n"
	"                        permitted: SCHED_FIFO, else a negative nice value; never inherited)\n"
	"  --render-report SESSION [--format text|json]\n"
	"                        print one session's report from --database and exit: what the daemon\n"
	"                        runs, in a child process, for a client's report request; with\n"
	"                        --render-as UID:GID it opens the database, then renders as UID\n"
	"                        confined (the daemon's own option)\n"
	"  --privsep-front-exe PATH\n"
	"                        tests: run PATH in the front's place (a compromised front)\n"
	"  -V, --version         print the version\n"
	"  -h, --help            this text\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "socket", required_argument, NULL, 's' },
		{ "database", required_argument, NULL, 'd' },
		{ "events-dir", required_argument, NULL, 'e' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "no-priority", no_argument, NULL, 'P' },
		{ "render-report", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'F' },
		{ "render-as", required_argument, NULL, 'A' },
		{ "privsep-front", required_argument, NULL, 'X' },
		{ "privsep-exporter", required_argument, NULL, 'Y' },
		{ "privsep-front-exe", required_argument, NULL, 'Z' },
		{ "privsep-symbolizer", required_argument, NULL, 'W' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct td_daemon_opts o = { 0 };
	bool check = false, render = false, json = false, render_as = false;
	unsigned as_uid = 0, as_gid = 0;
	long long session = 0;
	char *end;
	td_err err;
	int c;

	while ((c = getopt_long(argc, argv, "c:fVh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.config_path = optarg;
			o.config_given = true;
			break;
		case 'f':
			o.log_stderr = true;
			break;
		case 's':
			o.socket_path = optarg;
			break;
		case 'd':
			o.db_path = optarg;
			break;
		case 'e':
			o.events_dir = optarg;
			break;
		case 'C':
			check = true;
			break;
		case 'P':
			o.no_priority = true;
			break;
		case 'R':
			render = true;
			session = strtoll(optarg, &end, 10);
			if (*end || session <= 0) {
				fprintf(stderr, "topdownd: --render-report takes a session number, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				fprintf(stderr, "topdownd: --format is text or json, not '%s'\n", optarg);
				return 2;
			}
			json = !strcmp(optarg, "json");
			break;
		case 'A': {
			/* the monitor's report child: who to become once the database is open */
			char tail;
			if (sscanf(optarg, "%u:%u%c", &as_uid, &as_gid, &tail) != 2 || !as_uid || !as_gid) {
				fprintf(stderr, "topdownd: --render-as is topdownd's own, not to be run by hand\n");
				return 2;
			}
			render_as = true;
			break;
		}
		case 'X':
		case 'Y': {
			/* the monitor starts its front and exporter so, their channel on fd 3 */
			unsigned uid, gid;
			char tail;
			if (sscanf(optarg, "%u:%u%c", &uid, &gid, &tail) != 2 || !uid || !gid) {
				fprintf(stderr, "topdownd: --privsep-%s is topdownd's own, not to be run by hand\n",
					c == 'X' ? "front" : "exporter");
				return 2;
			}
			return c == 'X' ? td_front_main(TD_PRIVSEP_FD, (uid_t)uid, (gid_t)gid)
					: td_export_proc_main(TD_PRIVSEP_FD, (uid_t)uid, (gid_t)gid);
		}
		case 'W': {
			/* a drill-down's symbolizer, its channel on fd 3: a target's owner, root's too */
			unsigned uid, gid;
			char tail;
			if (sscanf(optarg, "%u:%u%c", &uid, &gid, &tail) != 2) {
				fprintf(stderr,
					"topdownd: --privsep-symbolizer is topdownd's own, not to be run by hand\n");
				return 2;
			}
			return td_symbolizer_proc_main(TD_PRIVSEP_FD, (uid_t)uid, (gid_t)gid);
		}
		case 'Z':
			o.front_exe = optarg;
			break;
		case 'V':
			printf("topdownd %s\n", PACKAGE_VERSION);
			return 0;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "topdownd: unexpected argument '%s': see topdownd --help\n", argv[optind]);
		return 2;
	}
	if ((o.socket_path && o.socket_path[0] != '/') || (o.db_path && !o.db_path[0])) {
		fprintf(stderr, "topdownd: give an absolute --socket path and a non-empty --database\n");
		return 2;
	}
	if (render) {
		if (!o.db_path) {
			fprintf(stderr, "topdownd: --render-report needs --database\n");
			return 2;
		}
		if (!render_as) {
			fprintf(stderr, "topdownd: --render-report renders as an unprivileged user: give --render-as "
					"UID:GID (topdownd's own option; 'tdctl report' reads a database by hand)\n");
			return 2;
		}
		return td_report_job_render(o.db_path, o.events_dir, session, json, (uid_t)as_uid, (gid_t)as_gid);
	}
	umask(027); /* the database holds every user's sessions: not for others to read */
	/* under systemd stderr is the journal */
	if (getenv("JOURNAL_STREAM") || getenv("NOTIFY_SOCKET"))
		o.log_stderr = true;
	if (check) {
		struct td_config cfg;
		int rc = td_daemon_read_config(&o, &cfg, &err);
		if (rc == 0)
			printf("topdownd: configuration %s is valid: %d schedule entr%s, %d auto rule%s\n",
			       o.config_path ? o.config_path : "(built-in defaults)", cfg.nschedule,
			       cfg.nschedule == 1 ? "y" : "ies", cfg.nautos, cfg.nautos == 1 ? "" : "s");
		else
			fprintf(stderr, "topdownd: %s\n", err.msg);
		td_config_free(&cfg);
		return rc ? 1 : 0;
	}
	if (td_daemon_run(&o, &err)) {
		fprintf(stderr, "topdownd: %s\n", err.msg);
		return 1;
	}
	return 0;
}
