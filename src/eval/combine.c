/* combine: level-1 nodes of a hybrid CPU's core types as shares of all their issue slots. */
#include "combine.h"

#include <math.h>
#include <string.h>

static int info_index(const struct td_model *m, const char *name)
{
	for (int i = 0; i < m->ninfos; i++)
		if (!strcmp(m->infos[i].name, name))
			return i;
	return -1;
}

static int node_index(const struct td_model *m, const char *path)
{
	for (int i = 0; i < m->nnodes; i++)
		if (!strcmp(m->nodes[i].path, path))
			return i;
	return -1;
}

int td_combine_level1(const struct td_model *const *models, const struct td_evaluation *const *evs, int n,
		      struct td_combined_node *out, double *slots)
{
	double w[8], total = 0;
	int nout = 0;

	if (n < 1 || n > 8)
		return -1;
	for (int k = 0; k < n; k++) {
		int si = info_index(models[k], "SLOTS");
		if (si < 0)
			return -1;
		w[k] = evs[k]->info[si];
		total += w[k]; /* NaN stays NaN */
	}
	*slots = total;
	for (int i = 0; i < models[0]->nnodes; i++) {
		const struct td_node *nd = &models[0]->nodes[i];
		double sum = 0;
		bool everywhere = true;
		if (nd->level != 1)
			continue;
		for (int k = 0; k < n; k++) {
			int j = node_index(models[k], nd->path);
			if (j < 0) {
				everywhere = false;
				break;
			}
			if (w[k] == 0)
				continue; /* never ran on this core type */
			sum += evs[k]->node[j] * w[k];
		}
		if (!everywhere)
			continue;
		out[nout].path = nd->path;
		out[nout].value = isnan(total) || total <= 0 ? NAN : sum / total;
		nout++;
	}
	return nout;
}
