/* tdctl: shared declarations of the subcommands (one file each). */
#ifndef TDCTL_H
#define TDCTL_H

int cmd_doctor(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);

/* Print "tdctl: MSG" to stderr as one line. */
void tdctl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
