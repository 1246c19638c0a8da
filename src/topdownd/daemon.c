/* daemon: the monitor's one loop (see daemon.h and docs/protocol.md). One
 * thread: poll() over the signalfd, the channels to the front and the
 * exporter (daemon_privsep.c: the clients and the network are theirs, never
 * the monitor's), the report jobs' pipes, the exec watcher and every
 * running session's timers; the schedule's next run bounds the sleep. A
 * request is answered at once — a report is rendered by a child process, an
 * attach opens counters — and never waits on a client. Start (database,
 * front, exporter) and stop. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "daemon_impl.h"
#include "session/sampler_priority.h"

/* The database exists and is ours; sessions a killed topdownd left
 * 'running' are marked interrupted; the changes watch mode found before are
 * listed again. */
static int open_database(struct daemon *d, td_err *err)
{
	struct td_store *st;
	int n;

	if (td_store_open(d->cfg.db_path, TD_STORE_WRITE, &st, err))
		return -1;
	n = td_store_recover(st);
	if (daemon_watch_load_changes(d, st, err)) {
		td_store_close(st);
		return -1;
	}
	/* kept: the watch sessions write through it (daemon_impl.h) */
	d->store = st;
	if (!(d->store_path = strdup(d->cfg.db_path))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	if (n > 0)
		daemon_log(d, "%d session%s left running by a stopped collector marked interrupted", n,
			   n == 1 ? "" : "s");
	return 0;
}

/* Read the report jobs' pipes (as polled: the first n jobs, fds[i] each);
 * answer and free the finished ones. */
static void reports(struct daemon *d, const struct pollfd *p, const int *fds, int n)
{
	int kept = 0;

	for (int i = 0; i < d->njobs; i++) {
		struct td_report_job *j = d->jobs[i];
		bool polled = i < n;
		if (polled && td_report_job_dispatch(j, p, fds[i])) {
			daemon_report_done(d, j);
			td_report_job_free(j);
		} else {
			d->jobs[kept++] = j;
		}
		if (polled)
			p += fds[i];
	}
	d->njobs = kept;
}

static void shutdown_sessions(struct daemon *d)
{
	daemon_watch_free(d);
	for (int i = 0; i < d->ns; i++)
		td_session_stop(d->s[i]->s, "stopped: topdownd shut down");
	while (d->ns > 0)
		daemon_reap(d, d->ns - 1);
}

static void handle_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			td_err err;
			daemon_log(d, "SIGHUP: reloading the configuration");
			daemon_reload(d, &err);
		} else {
			daemon_log(d, "%s: stopping", strsignal((int)si.ssi_signo));
			d->stop = true;
		}
	}
}

static int min_timeout(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static void loop(struct daemon *d)
{
	struct pollfd *p = NULL;
	int cap = 0;

	while (!d->stop) {
		int need = 3 + 2 + d->ns * TD_SESSION_POLLFDS + 2 * TD_REPORT_JOBS_MAX, np = 0, timeout, nkids;
		int *first = calloc((size_t)d->ns + 1, sizeof(int)), *count = calloc((size_t)d->ns + 1, sizeof(int));
		int nsess = d->ns;
		if (need > cap) {
			struct pollfd *grown = realloc(p, (size_t)need * sizeof(*p));
			if (grown) {
				p = grown;
				cap = need;
			}
		}
		if (!first || !count || need > cap) {
			free(first);
			free(count);
			daemon_log(d, "out of memory: stopping");
			break;
		}
		p[np++] = (struct pollfd){ .fd = d->sigfd, .events = POLLIN };
		nkids = daemon_privsep_pollfds(d, p + np);
		np += nkids;
		timeout = min_timeout(daemon_privsep_timeout_ms(d), daemon_schedule_timeout_ms(d));
		timeout = min_timeout(timeout, daemon_watch_timeout_ms(d));
		int watch_at = -1;
		if (d->watch) {
			watch_at = np;
			p[np++] = (struct pollfd){ .fd = td_exec_watch_fd(d->watch), .events = POLLIN };
		}
		int jobs_at = np, njobs = d->njobs, job_fds[TD_REPORT_JOBS_MAX];
		for (int i = 0; i < njobs; i++) {
			job_fds[i] = td_report_job_pollfds(d->jobs[i], p + np);
			np += job_fds[i];
		}
		for (int i = 0; i < nsess; i++) {
			first[i] = np;
			count[i] = td_session_pollfds(d->s[i]->s, p + np);
			np += count[i];
			timeout = min_timeout(timeout, td_session_timeout_ms(d->s[i]->s));
		}
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			daemon_log(d, "poll failed: %s", strerror(errno));
			free(first);
			free(count);
			break;
		}
		/* sessions first: an interval is due before any client's wish; the
		 * ones sharing the daemon's store (watch mode's, their timers
		 * aligned) write their intervals in one transaction, committed
		 * before any other session's own begins (which would wait for it) */
		if (d->store)
			td_store_outer_begin(d->store);
		/* ... and read the BPF program's sums once for all of them */
		td_session_batch_begin();
		for (int i = 0; i < nsess; i++)
			if (d->s[i]->shared_store && !td_session_done(d->s[i]->s))
				td_session_dispatch(d->s[i]->s, p + first[i], count[i]);
		td_session_batch_end();
		if (d->store) {
			td_err werr;
			const char *why = td_store_outer_end(d->store, &werr) ? werr.msg : NULL;
			struct td_session *wrote = NULL;
			for (int i = 0; i < nsess; i++)
				if (d->s[i]->shared_store && td_session_settle(d->s[i]->s, why) && !wrote)
					wrote = d->s[i]->s;
			/* retention once for all of them: the limits are the database's */
			if (wrote && !why)
				td_session_retain(wrote);
		}
		for (int i = 0; i < nsess; i++)
			if (!d->s[i]->shared_store && !td_session_done(d->s[i]->s))
				td_session_dispatch(d->s[i]->s, p + first[i], count[i]);
		free(first);
		free(count);
		for (int i = d->ns - 1; i >= 0; i--)
			if (td_session_done(d->s[i]->s))
				daemon_reap(d, i);
		daemon_watch_step(d);
		daemon_downsample_step(d);
		if (p[0].revents & POLLIN)
			handle_signal(d);
		daemon_privsep_dispatch(d, p + 1, nkids);
		reports(d, p + jobs_at, job_fds, njobs);
		/* the watcher of before a reload (watch_at) is the one polled; a new one is read next time */
		if (d->watch && watch_at >= 0 && p[watch_at].revents)
			daemon_watch_execs(d);
		daemon_run_schedule(d);
	}
	free(p);
}

int td_daemon_run(const struct td_daemon_opts *o, td_err *err)
{
	struct daemon d = { .o = o, .sigfd = -1 };
	sigset_t old;
	int rc = -1;

	if (!o->log_stderr)
		openlog("topdownd", LOG_PID, LOG_DAEMON);
	if (td_daemon_read_config(o, &d.cfg, err))
		goto out;
	if (daemon_adopt_schedule(&d, &d.cfg, err) || open_database(&d, err))
		goto out;
	if ((d.sigfd = td_session_block_signals(&old)) < 0) {
		td_err_set(err, "cannot receive signals: %s", strerror(errno));
		goto out;
	}
	/* the rules before the socket: a client never finds a daemon whose watcher then fails */
	if (daemon_setup_auto(&d, err))
		goto out;
	d.scrape_seconds = -1;
	/* the front binds the socket, the exporter its port; both then give up every privilege */
	if (daemon_privsep_start(&d, err))
		goto out;
	d.start_mono = td_now_ns();
	/* after the front: a failure here starts no session (its sessions start with the first scan) */
	if (daemon_setup_watch(&d, err))
		goto out;
	/* the loop samples every session: raised, it keeps their clocks on a saturated machine */
	if (!o->no_priority) {
		struct td_sampler_priority prio;
		td_sampler_priority_raise(&prio);
		daemon_log(&d, "%s", prio.said);
	}
	daemon_log(&d, "listening on %s, database %s, %d schedule entr%s, %d auto rule%s", d.cfg.socket_path,
		   d.cfg.db_path, d.cfg.nschedule, d.cfg.nschedule == 1 ? "y" : "ies", d.cfg.nautos,
		   d.cfg.nautos == 1 ? "" : "s");
	sd_notify(0, "READY=1");
	daemon_notify_status(&d);
	loop(&d);
	sd_notify(0, "STOPPING=1");
	shutdown_sessions(&d);
	rc = 0;
out:
	for (int i = 0; i < d.njobs; i++)
		td_report_job_free(d.jobs[i]); /* nobody will read them now */
	daemon_privsep_stop(&d);
	td_exec_watch_free(d.watch);
	td_auto_rules_free(&d.autos);
	daemon_watch_free(&d);
	daemon_downsample_free(&d);
	daemon_watch_changes_free(&d);
	td_store_close(d.store); /* after the sessions that shared it */
	free(d.store_path);
	if (d.sigfd >= 0) {
		close(d.sigfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	free(d.s);
	for (int k = 0; d.sched && k < d.cfg.nschedule; k++)
		td_snapshot_free(&d.sched[k].last);
	free(d.sched);
	td_config_free(&d.cfg);
	if (!o->log_stderr)
		closelog();
	return rc;
}
