/* tracker_shared: the helpers both backends of the tracker use (the /proc
 * one in tracker_proc.c, the BPF one in tracker_bpf.c): a process's
 * descendants as /proc lists them, and the array of events a poll returns.
 * Its own file so that neither backend calls the other's file. */
#include "tracker_backend.h"
#include "base/util.h"
#include "machine/procfs.h"

#include <errno.h>
#include <stdlib.h>

int td_task_events_push(struct td_task_events *e, const struct td_task_event *ev)
{
	if (e->n == e->cap) {
		int ncap = e->cap ? e->cap * 2 : 64;
		struct td_task_event *nv = realloc(e->v, (size_t)ncap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		e->v = nv;
		e->cap = ncap;
	}
	e->v[e->n++] = *ev;
	return 0;
}

int td_proc_descendants(pid_t root, pid_t **out)
{
	pid_t *pids = NULL, *parent, *found = NULL;
	int n = td_proc_pids(&pids), nfound = 0;
	bool grew = true;

	*out = NULL;
	if (n < 0)
		return n;
	if (!(parent = calloc((size_t)n + 1, sizeof(*parent)))) {
		free(pids);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		if (td_proc_stat(pids[i], &parent[i], NULL) != 0)
			parent[i] = 0;
	/* to a fixed point: a grandchild may be listed before its parent */
	while (grew) {
		grew = false;
		for (int i = 0; i < n; i++) {
			bool known = false, parent_in = parent[i] == root;
			if (parent[i] <= 0 || pids[i] == root)
				continue;
			for (int k = 0; k < nfound && !(known && parent_in); k++) {
				known = known || found[k] == pids[i];
				parent_in = parent_in || found[k] == parent[i];
			}
			if (known || !parent_in)
				continue;
			pid_t *slot = td_array_push(&found, &nfound, sizeof(*found));
			if (!slot) {
				free(found);
				nfound = -ENOMEM;
				goto out;
			}
			*slot = pids[i];
			grew = true;
		}
	}
	*out = found;
out:
	free(parent);
	free(pids);
	return nfound;
}
