/* daemon_auto: auto-attach — the exec watcher set up for the [auto NAME]
 * rules (auto_attach.h matches them), and a session started on each process
 * a rule matches, unless one of that rule already follows it or the rule runs
 * its max_sessions. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_impl.h"
#include "machine/procfs.h"

/* Does a session of rule already follow pid (itself, or with children an ancestor of it)? */
static bool followed_by_rule(const struct daemon *d, const struct td_auto_rule *r, pid_t pid)
{
	for (int i = 0; i < d->ns; i++) {
		const struct dsession *ds = d->s[i];
		pid_t p = pid;
		if (!ds->rule || strcmp(ds->rule, r->name))
			continue;
		for (int depth = 0; p > 1 && depth < 4096; depth++) {
			if (p == ds->pid)
				return true;
			if (!r->children || td_proc_stat(p, &p, NULL) != 0)
				break;
		}
	}
	return false;
}

static void start_auto(struct daemon *d, const struct td_auto_rule *r, const struct td_exec *e)
{
	struct td_session_opts o;
	struct dsession *ds;
	char name[80];
	int running = 0;
	td_err err;

	if (followed_by_rule(d, r, e->pid))
		return;
	for (int i = 0; i < d->ns; i++)
		running += d->s[i]->rule && !strcmp(d->s[i]->rule, r->name);
	if (running >= r->max_sessions) {
		d->auto_missed++;
		daemon_log(d,
			   "auto %s: process %d (%s) not followed: this rule runs %d session%s already (max_sessions)",
			   r->name, (int)e->pid, e->comm, running, running == 1 ? "" : "s");
		return;
	}
	snprintf(name, sizeof(name), "auto:%s", r->name);
	if (!(ds = calloc(1, sizeof(*ds))) || daemon_dup_opt(&ds->entry_name, name) ||
	    daemon_dup_opt(&ds->rule, r->name) || daemon_dup_opt(&ds->nodes, r->nodes)) {
		if (ds)
			daemon_session_free(ds);
		d->auto_missed++;
		daemon_log(d, "auto %s: process %d not followed: out of memory", r->name, (int)e->pid);
		return;
	}
	memset(&o, 0, sizeof(o));
	ds->entry = -1;
	ds->pid = e->pid;
	o.attach_pid = e->pid;
	o.attach_children = r->children;
	o.interval_ms = r->interval_ms ? r->interval_ms : d->cfg.interval_ms;
	o.duration_ms = (int)(r->duration_ns / 1000000ull);
	o.level = r->level;
	if (daemon_start_session(d, ds, &o, &err)) {
		d->auto_missed++;
		daemon_log(d, "auto %s: process %d (%s) not followed: %s", r->name, (int)e->pid, e->comm, err.msg);
		daemon_session_free(ds);
		return;
	}
	daemon_log(d, "auto %s: session %lld follows process %d (%s, %s)", r->name, (long long)ds->id, (int)e->pid,
		   e->comm, e->path[0] ? e->path : "file unknown");
}

/* Each exec against the rules: the first that matches starts a session. */
static void match_execs(struct daemon *d, const struct td_exec *e, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < d->autos.n; k++)
			if (td_auto_rule_matches(&d->autos, k, &e[i])) {
				start_auto(d, &d->cfg.autos[k], &e[i]);
				break;
			}
}

/* The watcher and the resolved rules for d->cfg's [auto] sections (none:
 * no watcher); the processes running now are matched too. */
int daemon_setup_auto(struct daemon *d, td_err *err)
{
	const struct td_exec *e;
	int n;

	td_auto_rules_free(&d->autos);
	if (d->cfg.nautos == 0) {
		td_exec_watch_free(d->watch);
		d->watch = NULL;
		return 0;
	}
	if (td_auto_rules_init(&d->autos, d->cfg.autos, d->cfg.nautos, err))
		return -1;
	if (!d->watch) {
		if (!(d->watch = td_exec_watch_new(d->cfg.tracker, err)))
			return -1;
		daemon_log(d, "auto-attach: %s", td_exec_watch_describe(d->watch));
	}
	if ((n = td_exec_watch_existing(d->watch, &e)) < 0) {
		td_err_set(err, "cannot list the running processes: %s", strerror(-n));
		return -1;
	}
	match_execs(d, e, n);
	return 0;
}

void daemon_watch_execs(struct daemon *d)
{
	const struct td_exec *e;
	int n = td_exec_watch_poll(d->watch, &e);

	if (n < 0) {
		daemon_log(d, "auto-attach: cannot read the execs: %s", strerror(-n));
		return;
	}
	match_execs(d, e, n);
}
