/* repeats: a repeat group's sessions evaluated and summarised (see repeats.h). */
#include "repeats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"
#include "summary_data.h"

static struct td_repeat_metric *metric(struct td_repeats *r, const char *kind, const char *name, int nsessions)
{
	struct td_repeat_metric *m;

	for (int i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].kind, kind) && !strcmp(r->m[i].name, name))
			return &r->m[i];
	if (!(m = td_array_push(&r->m, &r->nm, sizeof(*r->m))))
		return NULL;
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	if (!(m->name = strdup(name)) || !(m->values = malloc((size_t)nsessions * sizeof(*m->values)))) {
		free(m->name);
		r->nm--;
		return NULL;
	}
	for (int k = 0; k < nsessions; k++)
		m->values[k] = NAN;
	return m;
}

/* "> 0.5", "<0.2": the threshold's number, when it is that simple. */
static bool simple_threshold(const char *text, double *out)
{
	char op[3];

	return text && sscanf(text, " %2[<>=] %lf", op, out) == 2;
}

static int add_tree(struct td_repeats *r, const struct td_report_data *d, int k)
{
	const struct td_model *m = d->model;

	for (int i = 0; i < m->nnodes; i++) {
		struct td_repeat_metric *x = metric(r, "node", m->nodes[i].path, r->nsessions);
		if (!x)
			return -1;
		snprintf(x->unit, sizeof(x->unit), "%% %s", m->nodes[i].domain);
		x->has_threshold = simple_threshold(m->nodes[i].threshold, &x->threshold);
		x->values[k] = d->whole.v.node[i];
	}
	for (int i = 0; i < m->ninfos; i++) {
		struct td_repeat_metric *x = metric(r, "info", m->infos[i].name, r->nsessions);
		if (!x)
			return -1;
		snprintf(x->unit, sizeof(x->unit), "%s", m->infos[i].unit);
		x->values[k] = d->whole.v.info[i];
	}
	return 0;
}

/* The summary's totals: every process (or every CPU, a cgroup) summed as its "all" rows are. */
static int add_summary(struct td_repeats *r, const struct td_summary *sum, int k)
{
	static const struct {
		enum td_summary_col col;
		const char *name, *unit;
	} cols[] = {
		{ TD_SUM_CPU_TIME, "CPU_Time", "s" },	     { TD_SUM_UTILIZATION, "CPU_Utilization", "CPUs" },
		{ TD_SUM_SWITCHES, "Switches_per_s", "/s" }, { TD_SUM_MIGRATIONS, "Migrations_per_s", "/s" },
		{ TD_SUM_FAULTS, "Faults_per_s", "/s" },     { TD_SUM_IPC, "IPC", "" },
	};
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		double v = NAN;
		for (int i = 0; i < sum->nrows; i++)
			if (sum->rows[i].thread == 0 && sum->rows[i].counted) {
				v = sum->rows[i].v[cols[c].col];
				break; /* the first group's total: the target (a run's or attach's process) */
			}
		struct td_repeat_metric *x = metric(r, "summary", cols[c].name, r->nsessions);
		if (!x)
			return -1;
		snprintf(x->unit, sizeof(x->unit), "%s", cols[c].unit);
		x->values[k] = v;
	}
	return 0;
}

int td_repeats_load(struct td_store *s, int64_t session, const char *events_dir, struct td_repeats *r, td_err *err)
{
	static const struct td_report_filter all = { .kind = TD_RF_ALL };

	memset(r, 0, sizeof(*r));
	err->msg[0] = '\0';
	if ((r->nsessions = td_store_repeat_group(s, session, &r->sessions, &r->warmups)) <= 0) {
		if (r->nsessions == 0)
			td_err_set(err,
				   "session %lld is not one of a repeat group: record one with 'tdctl run -r N -- CMD'",
				   (long long)session);
		else
			td_err_set(err, "cannot read the repeat group of session %lld: %s", (long long)session,
				   td_store_errmsg(s));
		r->nsessions = 0;
		return -1;
	}
	for (int k = 0; k < r->nsessions; k++) {
		struct td_report_data d;
		struct td_summary sum;
		int rc;
		if (td_report_data_load(s, r->sessions[k], &all, events_dir, &d, err))
			goto fail;
		rc = td_report_has_tree(&d) ? add_tree(r, &d, k) : 0;
		td_report_data_free(&d);
		if (rc || td_summary_load(s, r->sessions[k], events_dir, NULL, &sum, err))
			goto fail;
		rc = add_summary(r, &sum, k);
		td_summary_free(&sum);
		if (rc)
			goto fail;
	}
	for (int i = 0; i < r->nm; i++) {
		struct td_repeat_metric *x = &r->m[i];
		td_stats_describe(x->values, r->nsessions, &x->st);
		x->noisy = x->has_threshold && x->st.n > 1 && x->st.max - x->st.min > fabs(x->st.median - x->threshold);
	}
	return 0;
fail:
	if (!err->msg[0])
		td_err_set(err, "out of memory");
	td_repeats_free(r);
	return -1;
}

void td_repeats_free(struct td_repeats *r)
{
	for (int i = 0; i < r->nm; i++) {
		free(r->m[i].name);
		free(r->m[i].values);
	}
	free(r->m);
	free(r->sessions);
	memset(r, 0, sizeof(*r));
}

const struct td_repeat_metric *td_repeats_find(const struct td_repeats *r, const char *kind, const char *name)
{
	for (int i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].kind, kind) && !strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}
