/* counter_packing: simple packing of an events file's events into groups of at most N (see counter_packing.h). */
#include "counter_packing.h"

#include <stdlib.h>

/* Members of group g so far. */
static int size_of(const int *group, int nevents, int g)
{
	int k = 0;

	for (int i = 0; i < nevents; i++)
		k += group[i] == g;
	return k;
}

/* Events of f not yet placed. */
static int unplaced(const struct td_formula *f, const int *group)
{
	int k = 0;

	for (int i = 0; i < f->nevents; i++)
		k += group[f->events[i]] < 0;
	return k;
}

static void place_all(const struct td_formula *f, int *group, int g)
{
	for (int i = 0; i < f->nevents; i++)
		if (group[f->events[i]] < 0)
			group[f->events[i]] = g;
}

/* First group (existing or new) with room for one more event. */
static int first_fit(const int *group, int nevents, int ngroups, int n)
{
	for (int g = 0; g < ngroups; g++)
		if (size_of(group, nevents, g) < n)
			return g;
	return ngroups;
}

int td_counter_packing(const struct td_model *m, int n, int *group)
{
	int nev = m->cat->nevents, ngroups = 0;

	if (n < 1)
		return -1;
	for (int i = 0; i < nev; i++)
		group[i] = -1;
	for (int i = 0; i < m->ninfos; i++) {
		const struct td_formula *f = &m->infos[i].f;
		int need = unplaced(f, group);
		if (need == 0)
			continue;
		if (ngroups > 0 && size_of(group, nev, ngroups - 1) + need <= n) {
			place_all(f, group, ngroups - 1);
		} else if (need <= n) {
			place_all(f, group, ngroups++);
		} else {
			for (int k = 0; k < f->nevents; k++)
				if (group[f->events[k]] < 0) {
					int g = first_fit(group, nev, ngroups, n);
					group[f->events[k]] = g;
					ngroups += g == ngroups;
				}
		}
	}
	for (int i = 0; i < nev; i++)
		if (group[i] < 0) {
			int g = first_fit(group, nev, ngroups, n);
			group[i] = g;
			ngroups += g == ngroups;
		}
	return ngroups;
}
