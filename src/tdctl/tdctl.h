/* tdctl: shared declarations of the subcommands (one file each). */
#ifndef TDCTL_H
#define TDCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

int cmd_doctor(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sessions(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_recompute(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_prune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_changes(int argc, char **argv);
int cmd_status(int argc, char **argv);

struct td_request;
/* attach through topdownd on socket_path; follow: stream the intervals
 * until the session ends. What tdctl exits with. */
int tdctl_attach_daemon(const char *socket_path, const struct td_request *r, bool follow);

/* The SESSION operand of a store subcommand; -1 after printing an error. */
int tdctl_session_arg(const char *cmd, const char *arg, int64_t *id);
/* Open the database, printing the one-line error on failure. */
int tdctl_open_store(const char *db, enum td_store_mode mode, struct td_store **out);
/* -o FILE (stdout when path is NULL), or NULL after a one-line error. */
FILE *tdctl_open_output(const char *cmd, const char *path);
/* Close what tdctl_open_output gave; a failed close of a file turns rc
 * (the writer's result) into -1 with a one-line error. */
int tdctl_close_output(const char *cmd, FILE *out, const char *path, int rc);

/* The options run, attach and record share, for their usage texts. */
#define TDCTL_COLLECT_HELP                                                                                           \
	"  -I, --interval MS   read the counters every MS milliseconds (default 1000)\n"                             \
	"  -d, --database DB   SQLite file to write (default ./topdown.db)\n"                                        \
	"  -q, --quiet         no notes on stderr while running\n"                                                   \
	"  -l, --level LEVEL   collect the top-down tree to LEVEL (default: the deepest level that needs no\n"       \
	"                      multiplexing; 'tdctl plan' shows the groups)\n"                                       \
	"  --nodes LIST        collect these nodes (and their ancestors) instead, e.g. Backend_Bound.Memory_Bound\n" \
	"  --pmu MODEL         use the events file of libpfm4 model MODEL (e.g. when libpfm4 does not know this "    \
	"CPU)\n"                                                                                                     \
	"  --counters N        at most N general-purpose counters per group (the plan, and events files split)\n"    \
	"  --events-dir DIR    read events/*.td files from DIR\n"                                                    \
	"  -e, --event LIST    also count these perf events (libpfm4 or perf spellings, comma separated), each as\n" \
	"                      a count per interval\n"                                                               \
	"  --thread-metrics    also store each thread's (CPU's) metric values every interval (by default\n"          \
	"                      per process, core, socket, cgroup; reports compute the rest from the counts)\n"       \
	"  --no-priority       sample at this process's priority (by default raised where permitted:\n"              \
	"                      SCHED_FIFO, else a negative nice value; the target never inherits it)\n"
/* run and attach only. */
#define TDCTL_PROCESS_HELP                                                                                            \
	"  --max-age AGE       delete sessions older than AGE (7d, 12h) at start and every minute\n"                  \
	"  --max-size MB       keep the database under MB megabytes the same way\n"                                   \
	"  --rotate MS         enable one group at a time, switching every MS (the TASK_CLOCK group stays on)\n"      \
	"  --tracker MODE      how threads are found: auto (default: BPF where it loads), bpf, proc (/proc rescan)\n" \
	"  --counting MODE     how threads are counted: auto (default: BPF at each context switch where it loads),\n" \
	"                      bpf, per-thread (perf groups per thread); TD_COUNTING sets the default\n"              \
	"  --bpf-map-entries N threads the BPF counting map holds (default 8192)\n"                                   \
	"  --hotspots[=EVENT]  also sample where in the code the time goes: EVENT (default cpu-clock),    \n"         \
	"                      per thread, function and line ('tdctl report --hotspots')\n"                           \
	"  --hotspots-hz N     samples a second per busy CPU (default 99)\n"
/* run only. */
#define TDCTL_RUN_HELP                                                                                          \
	"  -r, --repeat N      run CMD N times, each a session of one repeat group ('report --repeats' gives\n" \
	"                      the statistics, 'diff --repeats' compares two groups)\n"                         \
	"  --warmup K          run it K times more first, stored as warm-ups and left out of the statistics\n"
/* attach only. */
#define TDCTL_ATTACH_HELP                                                                                       \
	"  --children          also follow the child processes PID has already (and theirs); by default only\n" \
	"                      the threads and children it starts after attach are added\n"

struct td_report_filter;
/* --thread/--process/--cpu (c: 'T', 'P', 'C') into f; one only. 0, or -1
 * after a one-line error prefixed "CMD: ". */
int tdctl_filter_target(const char *cmd, int c, const char *arg, struct td_report_filter *f);
/* --from/--to (NULL when not given) into f's window. 0, or -1 after an error. */
int tdctl_filter_window(const char *cmd, struct td_report_filter *f, const char *from, const char *to);

struct td_session_opts;
/* Parse the options run, attach and record share. Returns the index of the
 * first operand, or -1 after printing a one-line error. */
int tdctl_parse_collect_opts(int argc, char **argv, const char *usage, bool attach, struct td_session_opts *o);
/* Did the last tdctl_parse_collect_opts see --tracker or --counting on the command line? */
bool tdctl_collect_mode_given(void);
/* Run the session and print its summary; *exit_code is what tdctl exits with.
 * Returns -1 when no session was recorded. The priority stays raised: the
 * command ends next. */
int tdctl_collect(const struct td_session_opts *o, int *exit_code);
/* Offer this boot's kernel types file to the BPF object's load (collect/kernel_types.h), made there when
 * there is none: a session of o that pays with it then loads its programs without parsing the kernel's
 * BTF. The note after the session: when it could not be made (not with -q). */
void tdctl_kernel_types(const struct td_session_opts *o);
void tdctl_kernel_types_note(void);
/* The directory tdctl keeps it in (NULL: nowhere). */
const char *tdctl_kernel_types_dir(void);
/* The same, with the summary only when asked, and the session's id (0: none);
 * the priority is given back (repeats run more after it). */
int tdctl_collect_session(const struct td_session_opts *o, bool summary, int *exit_code, int64_t *session);
/* Raise the sampling thread's priority for a collecting command unless
 * --no-priority (sampler_priority.h); o->priority_said then says what it
 * got (the session's note at its end). Give it back with
 * td_sampler_priority_restore. */
struct td_sampler_priority;
void tdctl_priority_raise(struct td_session_opts *o, struct td_sampler_priority *p);

struct td_catalog;
/* Load the file in dir serving model; on failure print one line per problem
 * prefixed "CMD: " (unknown model with the models that have files). 0 or -1. */
int tdctl_find_catalog(const char *cmd, const char *dir, const char *model, struct td_catalog **out);
/* The host's libpfm4 model into buf; -1 after a one-line error hinting --pmu. */
int tdctl_host_model(const char *cmd, char *buf, size_t len);
struct td_caps;
/* What this host can count, as tdctl doctor shows it: its PMUs, the events
 * file serving each (from events_dir, or the default when NULL) and the rung. */
void tdctl_host_caps(const char *events_dir, struct td_caps *caps);

/* "7d", "12h", "30m", "45s" -> ns; megabytes -> bytes. 0, or -1 after a one-line error naming opt. */
int tdctl_parse_age(const char *opt, const char *arg, uint64_t *ns);
int tdctl_parse_size(const char *opt, const char *arg, uint64_t *bytes);

/* Print "tdctl: MSG" to stderr as one line (tdctl_error.c). */
void tdctl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
