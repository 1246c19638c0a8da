/* daemon_config: topdownd.conf (man 5 topdownd.conf) — the daemon's paths, limits,
 * who administers it, retention, the schedule of system profiles and the
 * auto-attach rules, watch mode. The
 * parser is strict: an unknown section or key, a repeated key, a value that
 * does not parse or is out of range is an error "FILE:LINE: what, and what
 * to write instead"; nothing falls back to a default silently. */
#ifndef TD_DAEMON_CONFIG_H
#define TD_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "collect/tracker.h"

/* [schedule NAME]: a system-wide session every `every`, for `duration`. */
struct td_schedule_entry {
	char *name;
	uint64_t every_ns, duration_ns;
	int interval_ms;
	int level;    /* 0: the default depth */
	char *nodes;  /* NULL: level */
	char *cgroup; /* NULL: every CPU, all tasks */
	int top;      /* the N processes that used most CPU time, attributed (0: none) */
};

/* [auto NAME]: a session on every process that executes a matching program
 * (every given pattern must match). */
struct td_auto_rule {
	char *name;
	char *exec;	      /* fnmatch pattern on the executed file's path; NULL: any */
	char *comm;	      /* fnmatch pattern on the process's name; NULL: any */
	char *cgroup;	      /* the process is in this cgroup v2 path or below; NULL: any */
	int interval_ms;      /* 0: [daemon] interval */
	int level;	      /* 0: the default depth */
	char *nodes;	      /* NULL: level */
	bool children;	      /* follow the processes it starts too */
	uint64_t duration_ns; /* 0: until the process ends */
	int max_sessions;     /* this rule's sessions at once */
};

/* [watch]: level 1 of every cgroup v2 group at a depth below a root,
 * baselines, and a drill-down session with a change recorded when a node
 * moves (docs/watch.md). */
struct td_watch_config {
	bool enable;
	char *root;		     /* the groups are below this cgroup (NULL: the mount's root) */
	int depth;		     /* groups this many levels below root (1: its children) */
	int interval_ms;	     /* each group's reading period */
	int baseline;		     /* intervals in a workload's baseline window */
	int window;		     /* the latest intervals held against it */
	double p_value;		     /* a trigger's Mann-Whitney p below this ... */
	double min_shift;	     /* ... and its medians this many percentage points apart */
	int drill_level;	     /* the drill-down session's level */
	uint64_t drill_duration_ns;  /* and its length */
	bool drill_hotspots;	     /* and its hotspots (time-based where no PMU samples; symbolizer.h) */
	uint64_t workload_every_ns;  /* at most one change of a workload in this */
	uint64_t threshold_for_ns;   /* a level-1 node over its threshold this long is a change (0: no) */
	int changes_per_hour;	     /* all workloads' changes in any hour */
	double max_cpu_percent;	     /* the daemon's CPU time over which no group is added */
	int top_processes;	     /* the busiest processes watched too (0: none) */
	uint64_t full_resolution_ns; /* a watch session's intervals are kept as read this long ... */
	uint64_t downsample_ns;	     /* ... then merged per bucket of this width (0: never) */
};

struct td_config {
	char *socket_path, *db_path, *events_dir; /* events_dir NULL: the built-in */
	char *admin_group;			  /* NULL: root only */
	char *user;	       /* the front and the exporter run as this user; NULL: "topdown", else nobody (said) */
	int interval_ms;       /* an attach's default */
	int max_clients;       /* connected at once; more are refused */
	size_t max_request;    /* bytes of one request line */
	size_t max_output;     /* bytes queued to one client before it is dropped as too slow */
	int max_sessions;      /* running at once (attach and schedule) */
	int client_timeout_ms; /* a request half-sent for this long closes the connection */
	uint64_t retention_age_ns, retention_bytes; /* 0: none */
	enum td_tracker_mode tracker;		    /* threads and execs: BPF where it loads (auto), bpf, or proc */
	struct td_schedule_entry *schedule;
	int nschedule;
	struct td_auto_rule *autos;
	int nautos;
	/* [exporter] */
	char *export_listen; /* HOST:PORT of GET /metrics; NULL: off (the default) */
	int export_top;	     /* followed processes exported at most (the newest) */
	bool export_comm;    /* labels = comm: a comm label beside target="pid:PID" */
	struct td_watch_config watch;
};

/* Built-in defaults (the paths of the FHS install). */
void td_config_defaults(struct td_config *c);
/* Parse text (named name in errors) over c, which holds defaults. 0, or
 * -1 with "NAME:LINE: ..." in err; c is then to be freed, not used. */
int td_config_parse(const char *text, const char *name, struct td_config *c, td_err *err);
/* Defaults, then the file at path. */
int td_config_load(const char *path, struct td_config *c, td_err *err);
void td_config_free(struct td_config *c);
struct sockaddr_storage;
/* An [exporter] listen address, "127.0.0.1:9464" or "[::1]:9464" (numeric,
 * port 0-65535: 0 any free one), into ss. 0, or -1 with err saying what to
 * write. */
int td_config_parse_listen(const char *listen, struct sockaddr_storage *ss, td_err *err);
/* Replace *field (a string of c) with a copy of value. -1 out of memory. */
int td_config_set_string(char **field, const char *value);

#endif
