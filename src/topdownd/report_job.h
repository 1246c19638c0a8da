/* report_job: a report request rendered away from the daemon's loop.
 *
 * The loop samples every session, raised to SCHED_FIFO; a report of a long
 * session takes a CPU for a second or more, and done in the loop it would
 * hold every session's interval up (the protocol promises the sampler is
 * never stalled by a request). So each report is a child process:
 * topdownd itself started again with --render-report (a fresh image: no
 * state shared with the loop, no SQLite connection carried across fork),
 * at normal priority and nice 10. It opens the database as root (the
 * file is root's; SQLite's WAL needs the -shm), then drops to the front's
 * user and confinement before it parses a byte of it: a bug in rendering
 * is nobody's, not root's. Its stdout (the report) and stderr (a
 * one-line error) are pipes the loop reads as they fill; the job is
 * finished when both are closed and the child is reaped. Output beyond
 * max_output kills the child: the report is refused, never cut. */
#ifndef TD_REPORT_JOB_H
#define TD_REPORT_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct pollfd;

/* Reports rendered at once; a request beyond is refused (try again). */
#define TD_REPORT_JOBS_MAX 4

struct td_report_job_spec {
	const char *exe; /* the program to run: "/proc/self/exe" */
	const char *db_path;
	const char *events_dir; /* NULL: the default */
	int64_t session;
	bool json;	   /* else text */
	size_t max_output; /* bytes of report at most */
	uint64_t client;   /* who asked (td_client.serial) */
	int64_t request_id;
	uid_t uid; /* who renders, once the database is open: the front's user */
	gid_t gid;
};

struct td_report_job;

/* Start the child. -1 with err when it cannot be started. */
int td_report_job_start(const struct td_report_job_spec *spec, struct td_report_job **out, td_err *err);
/* The pipes still open, into p (at most 2). */
int td_report_job_pollfds(const struct td_report_job *j, struct pollfd *p);
/* Read what poll() said is ready (p, n: as td_report_job_pollfds filled
 * them). true when the job is finished. */
bool td_report_job_dispatch(struct td_report_job *j, const struct pollfd *p, int n);

/* What the spec said: who asked, the request's id, the session, the format. */
uint64_t td_report_job_client(const struct td_report_job *j);
int64_t td_report_job_request(const struct td_report_job *j);
int64_t td_report_job_session(const struct td_report_job *j);
bool td_report_job_json(const struct td_report_job *j);
/* A finished job's report (0: *text, *len; not NUL-terminated) or its
 * one-line error (-1: *error). */
int td_report_job_result(const struct td_report_job *j, const char **text, size_t *len, const char **error);

/* Free j; a child still running is killed and reaped. */
void td_report_job_free(struct td_report_job *j);

/* The child's side: open db_path (read-only, its -wal and -shm with it)
 * with the privileges it was started with, then become uid/gid confined as
 * the front is (sandbox.h: no capability, no_new_privs, the renderer's
 * seccomp filter), and only then render session's report to stdout (an
 * error: one line on stderr). The process's exit status. */
int td_report_job_render(const char *db_path, const char *events_dir, int64_t session, bool json, uid_t uid, gid_t gid);

#endif
