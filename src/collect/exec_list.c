/* exec_list: the list of execs that both backends of exec_watch fill (the
 * /proc rescan in exec_watch.c, BPF in exec_watch_bpf.c); its own file so
 * that neither backend calls the other's file. */
#include "exec_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int td_exec_list_push(struct td_exec_list *l, pid_t pid, pid_t ppid, const char *comm, const char *path)
{
	char *copy;

	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		struct td_exec *v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		char **paths = realloc(l->paths, (size_t)cap * sizeof(*paths));
		if (!paths)
			return -ENOMEM;
		l->paths = paths;
		l->cap = cap;
	}
	if (!(copy = strdup(path ? path : "")))
		return -ENOMEM;
	l->paths[l->n] = copy;
	l->v[l->n] = (struct td_exec){ .pid = pid, .ppid = ppid, .path = copy };
	snprintf(l->v[l->n].comm, sizeof(l->v[l->n].comm), "%s", comm ? comm : "");
	l->n++;
	return 0;
}

void td_exec_list_clear(struct td_exec_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->paths[i]);
	l->n = 0;
}

void td_exec_list_free(struct td_exec_list *l)
{
	td_exec_list_clear(l);
	free(l->v);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}
