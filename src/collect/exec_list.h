/* exec_list: the execs a backend of exec_watch found since the last drain
 * (exec_list.c), as both backends fill it. */
#ifndef TD_EXEC_LIST_H
#define TD_EXEC_LIST_H

#include <sys/types.h>

#include "exec_watch.h"

/* A pushed exec's path is copied; the array grows as needed. */
struct td_exec_list {
	struct td_exec *v;
	char **paths;
	int n, cap;
};
/* 0, or -ENOMEM. */
int td_exec_list_push(struct td_exec_list *l, pid_t pid, pid_t ppid, const char *comm, const char *path);
void td_exec_list_clear(struct td_exec_list *l);
void td_exec_list_free(struct td_exec_list *l);

#endif
