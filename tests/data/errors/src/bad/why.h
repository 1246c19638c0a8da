/* why.h: fixture of tests/errors.sh, one violation of each kind it finds
 * (it must report exactly the three lines its self-test names). */
#ifndef FIXTURE_WHY_H
#define FIXTURE_WHY_H

#include <stddef.h>

typedef struct td_err { char msg[512]; } td_err;

/* A why/len error buffer: the check must find it. */
int fixture_why(int x, char *why, size_t len);
/* Returns 0 or -errno, and is no wrapper: the check must find it. */
int fixture_not_a_wrapper(const char *path);
/* 0 or -errno: a thin wrapper of the system call (read). */
int fixture_wrapper(int fd);
/* 0, or -1 with err: as the convention says (nothing to find). */
int fixture_good(const char *path, td_err *err);

#endif
