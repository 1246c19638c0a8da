/* tdctl: shared declarations of the subcommands (one file each). */
#ifndef TDCTL_H
#define TDCTL_H

#include <stdbool.h>

int cmd_doctor(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_sessions(int argc, char **argv);

struct td_session_opts;
/* Parse the options run and attach share. Returns the index of the first
 * operand, or -1 after printing a one-line error. */
int tdctl_parse_collect_opts(int argc, char **argv, const char *usage, bool attach, struct td_session_opts *o);
/* Run the session and print its summary; *exit_code is what tdctl exits with.
 * Returns -1 when no session was recorded. */
int tdctl_collect(const struct td_session_opts *o, int *exit_code);

/* Print "tdctl: MSG" to stderr as one line. */
void tdctl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
