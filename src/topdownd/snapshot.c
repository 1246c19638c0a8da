/* snapshot: copying one interval's evaluated values (see snapshot.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "eval/evaluator.h"
#include "model/model.h"
#include "session/live_metrics.h"
#include "snapshot.h"

void td_snapshot_init(struct td_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->seq = -1;
}

static void free_values(struct td_snap_value *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].parent);
		free(v[i].unit);
	}
	free(v);
}

static void free_files(struct td_snapshot *s)
{
	for (int i = 0; i < s->nfiles; i++) {
		free(s->files[i].file);
		free_values(s->files[i].nodes, s->files[i].nnodes);
		free_values(s->files[i].infos, s->files[i].ninfos);
		free_values(s->files[i].cpis, s->files[i].ncpis);
	}
	free(s->files);
	s->files = NULL;
	s->nfiles = 0;
}

void td_snapshot_free(struct td_snapshot *s)
{
	free_files(s);
	td_snapshot_init(s);
}

void td_snapshot_move(struct td_snapshot *dst, struct td_snapshot *src)
{
	td_snapshot_free(dst);
	*dst = *src;
	td_snapshot_init(src);
}

static char *dup_or_fail(struct td_snapshot *s, const char *text)
{
	char *d = strdup(text ? text : "");

	if (!d)
		s->failed = true;
	return d;
}

static struct td_snap_value *values(struct td_snapshot *s, int n)
{
	struct td_snap_value *v = n ? calloc((size_t)n, sizeof(*v)) : NULL;

	if (n && !v)
		s->failed = true;
	return v;
}

void td_snapshot_update(struct td_snapshot *s, const struct td_live_value *v)
{
	const struct td_model *m = v->model;
	const struct td_evaluation *ev = v->ev;
	struct td_snap_file *f;

	if (v->seq != s->seq) {
		free_files(s);
		s->seq = v->seq;
		s->seconds = v->seconds;
		s->taken_ns = td_wall_ns();
		s->failed = false;
	}
	for (int i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].file, v->file))
			return; /* one target per file and interval: the first kept */
	if (!(f = td_array_push(&s->files, &s->nfiles, sizeof(*f)))) {
		s->failed = true;
		return;
	}
	f->file = dup_or_fail(s, v->file);
	f->cpi = ev->cpi_valid ? ev->cpi : NAN;
	if ((f->nodes = values(s, m->nnodes)))
		f->nnodes = m->nnodes;
	for (int i = 0; i < f->nnodes; i++) {
		const struct td_node *n = &m->nodes[i];
		f->nodes[i] = (struct td_snap_value){ .name = dup_or_fail(s, n->path),
						      .parent = dup_or_fail(s, n->parent >= 0 ? m->nodes[n->parent].path
											      : ""),
						      .unit = dup_or_fail(s, n->domain),
						      .level = n->level,
						      .value = ev->node[i],
						      .conf = ev->conf[i] };
	}
	if ((f->infos = values(s, m->ninfos)))
		f->ninfos = m->ninfos;
	for (int i = 0; i < f->ninfos; i++)
		f->infos[i] = (struct td_snap_value){ .name = dup_or_fail(s, m->infos[i].name),
						      .unit = dup_or_fail(s, m->infos[i].unit),
						      .value = ev->info[i],
						      .conf = ev->info_conf[i] };
	if (ev->cpi_valid && (f->cpis = values(s, m->ncpis)))
		f->ncpis = m->ncpis;
	for (int i = 0; i < f->ncpis; i++)
		f->cpis[i] = (struct td_snap_value){ .name = dup_or_fail(s, m->cpis[i].name),
						     .value = ev->cpi_comp[i],
						     .conf = ev->cpi_conf[i] };
}
