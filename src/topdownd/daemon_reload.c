/* daemon_reload: the configuration — read with the command line's overrides
 * at start, and again on SIGHUP or a reload request, where a bad file keeps
 * the configuration in force and the schedule, the client limits and the
 * auto-attach rules take the new one. */
#include "config.h"

#include <string.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "daemon_impl.h"

#define DEFAULT_CONFIG "/etc/topdown/topdownd.conf"

int td_daemon_read_config(const struct td_daemon_opts *o, struct td_config *c, td_err *err)
{
	const char *path = o->config_path ? o->config_path : DEFAULT_CONFIG;

	if (!o->config_given && access(path, F_OK) != 0)
		td_config_defaults(c);
	else if (td_config_load(path, c, err))
		return -1;
	if ((o->socket_path && td_config_set_string(&c->socket_path, o->socket_path)) ||
	    (o->db_path && td_config_set_string(&c->db_path, o->db_path)) ||
	    (o->events_dir && td_config_set_string(&c->events_dir, o->events_dir))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	return 0;
}

/* SIGHUP or reload: a bad file keeps the configuration in force. */
int daemon_reload(struct daemon *d, td_err *err)
{
	struct td_config c;

	sd_notify(0, "RELOADING=1");
	if (td_daemon_read_config(d->o, &c, err)) {
		td_config_free(&c);
		daemon_log(d, "configuration not reloaded, the old one stays: %s", err->msg);
		sd_notify(0, "READY=1");
		return -1;
	}
	if (strcmp(c.socket_path, d->cfg.socket_path))
		daemon_log(d, "the socket moves to %s at the next start only", c.socket_path);
	if ((c.export_listen == NULL) != (d->cfg.export_listen == NULL) ||
	    (c.export_listen && strcmp(c.export_listen, d->cfg.export_listen)))
		daemon_log(d, "the exporter's address changes at the next start only");
	if (daemon_adopt_schedule(d, &c, err)) {
		td_config_free(&c);
		sd_notify(0, "READY=1");
		return -1;
	}
	if ((c.user == NULL) != (d->cfg.user == NULL) || (c.user && strcmp(c.user, d->cfg.user)))
		daemon_log(d, "the front and the exporter change user at the next start only");
	td_config_free(&d->cfg);
	d->cfg = c;
	daemon_privsep_configure(d);
	if (daemon_setup_auto(d, err))
		daemon_log(d, "auto-attach stopped: %s", err->msg);
	if (daemon_setup_watch(d, err))
		daemon_log(d, "watch mode stopped: %s", err->msg);
	daemon_log(d, "configuration reloaded: %d schedule entr%s, %d auto rule%s", c.nschedule,
		   c.nschedule == 1 ? "y" : "ies", c.nautos, c.nautos == 1 ? "" : "s");
	sd_notify(0, "READY=1");
	return 0;
}
