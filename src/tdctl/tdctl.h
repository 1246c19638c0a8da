/* tdctl: shared declarations of the subcommands (one file each). */
#ifndef TDCTL_H
#define TDCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

int cmd_doctor(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_sessions(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_recompute(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_prune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* The SESSION operand of a store subcommand; -1 after printing an error. */
int tdctl_session_arg(const char *cmd, const char *arg, int64_t *id);
/* Open the database, printing the one-line error on failure. */
int tdctl_open_store(const char *db, enum td_store_mode mode, struct td_store **out);

struct td_session_opts;
/* Parse the options run and attach share. Returns the index of the first
 * operand, or -1 after printing a one-line error. */
int tdctl_parse_collect_opts(int argc, char **argv, const char *usage, bool attach, struct td_session_opts *o);
/* Run the session and print its summary; *exit_code is what tdctl exits with.
 * Returns -1 when no session was recorded. */
int tdctl_collect(const struct td_session_opts *o, int *exit_code);

struct td_catalog;
/* Load the file in dir serving model; on failure print one line per problem
 * prefixed "CMD: " (unknown model with the models that have files). 0 or -1. */
int tdctl_find_catalog(const char *cmd, const char *dir, const char *model, struct td_catalog **out);
/* The host's libpfm4 model into buf; -1 after a one-line error hinting --pmu. */
int tdctl_host_model(const char *cmd, char *buf, size_t len);

/* Print "tdctl: MSG" to stderr as one line. */
/* "7d", "12h", "30m", "45s" -> ns; megabytes -> bytes. 0, or -1 after a one-line error naming opt. */
int tdctl_parse_age(const char *opt, const char *arg, uint64_t *ns);
int tdctl_parse_size(const char *opt, const char *arg, uint64_t *bytes);

void tdctl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
