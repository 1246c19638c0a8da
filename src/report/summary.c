/* summary: per-process and per-thread software metrics of one session. */
#include "summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum col { C_TASK_CLOCK, C_SWITCHES, C_MIGRATIONS, C_FAULTS, C_MAJOR, C_VOL, C_INVOL, C_CYCLES, C_INSTR, C_N };
static const char *const col_event[C_N] = {
	"TASK_CLOCK", "CONTEXT_SWITCHES", "CPU_MIGRATIONS", "PAGE_FAULTS", "MAJOR_FAULTS",
	"VOLUNTARY_SWITCHES", "INVOLUNTARY_SWITCHES", "CYCLES", "INSTRUCTIONS",
};

struct row {
	int64_t thread;
	pid_t pid, tid;
	char comm[32];
	uint64_t first_ns, last_ns;
	double v[C_N];     /* scaled totals; NaN = not counted */
};

struct rows {
	struct row *r;
	int n, cap;
};

static int collect(const struct td_thread_total *t, void *ctx)
{
	struct rows *rows = ctx;
	struct row *r;

	if (rows->n == 0 || rows->r[rows->n - 1].thread != t->thread) {
		if (rows->n == rows->cap) {
			int ncap = rows->cap ? rows->cap * 2 : 32;
			struct row *nr = realloc(rows->r, (size_t)ncap * sizeof(*nr));
			if (!nr)
				return -1;
			rows->r = nr;
			rows->cap = ncap;
		}
		r = &rows->r[rows->n++];
		memset(r, 0, sizeof(*r));
		for (int c = 0; c < C_N; c++)
			r->v[c] = NAN;
		r->thread = t->thread;
		r->pid = t->pid;
		r->tid = t->tid;
		snprintf(r->comm, sizeof(r->comm), "%s", t->comm);
		r->first_ns = t->first_seen_ns;
		r->last_ns = t->last_seen_ns;
	}
	r = &rows->r[rows->n - 1];
	/* a total with an interval not counted would be a guess: not counted */
	for (int c = 0; c < C_N; c++)
		if (t->event && !strcmp(t->event, col_event[c]))
			r->v[c] = t->not_counted ? NAN : t->scaled;
	return 0;
}


static void cell(FILE *f, int width, int prec, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(f, " %*s", width, "n/c");
	else
		fprintf(f, " %*.*f", width, prec, v);
}

static void print_header(FILE *f, bool hw)
{
	fprintf(f, "  %7s %-15s %8s %6s %9s %8s %8s %7s %9s %8s", "TID", "COMM", "CPU s", "util", "switch/s",
		"vol/s", "invol/s", "migr/s", "faults/s", "major/s");
	if (hw)
		fprintf(f, " %6s", "IPC");
	fprintf(f, " %8s\n", "alive s");
}

static void print_metrics(FILE *f, const double *v, double seconds, bool hw)
{
	double cpu = v[C_TASK_CLOCK] / 1e9;

	cell(f, 8, 3, cpu);
	cell(f, 6, 2, seconds > 0 ? cpu / seconds : NAN);
	cell(f, 9, 1, seconds > 0 ? v[C_SWITCHES] / seconds : NAN);
	cell(f, 8, 1, seconds > 0 ? v[C_VOL] / seconds : NAN);
	cell(f, 8, 1, seconds > 0 ? v[C_INVOL] / seconds : NAN);
	cell(f, 7, 1, seconds > 0 ? v[C_MIGRATIONS] / seconds : NAN);
	cell(f, 9, 1, seconds > 0 ? v[C_FAULTS] / seconds : NAN);
	cell(f, 8, 1, seconds > 0 ? v[C_MAJOR] / seconds : NAN);
	if (hw)
		cell(f, 6, 2, v[C_CYCLES] > 0 ? v[C_INSTR] / v[C_CYCLES] : NAN);
	cell(f, 8, 2, seconds);
	fputc('\n', f);
}

/* Metric values counted for only part of their interval (multiplexing,
 * rotation): per metric, how many and the lowest confidence. */
struct low_conf {
	char name[64][96];
	double least[64];
	int low[64], total[64];
	int n;
};

static int collect_confidence(const struct td_metric_row *m, void *ctx)
{
	struct low_conf *lc = ctx;
	int i;

	for (i = 0; i < lc->n && strcmp(lc->name[i], m->name); i++)
		;
	if (i == lc->n) {
		if (lc->n == 64)
			return 0;
		snprintf(lc->name[i], sizeof(lc->name[i]), "%s", m->name);
		lc->least[i] = NAN;
		lc->low[i] = lc->total[i] = 0;
		lc->n++;
	}
	if (isnan(m->confidence))
		return 0;
	lc->total[i]++;
	if (m->confidence < 1.0) {
		lc->low[i]++;
		if (isnan(lc->least[i]) || m->confidence < lc->least[i])
			lc->least[i] = m->confidence;
	}
	return 0;
}

static void print_confidence(FILE *f, struct td_store *s, int64_t session)
{
	struct low_conf *lc = calloc(1, sizeof(*lc));
	bool header = false;

	if (!lc || td_store_metrics(s, session, collect_confidence, lc)) {
		free(lc);
		return;
	}
	for (int i = 0; i < lc->n; i++) {
		if (!lc->low[i])
			continue;
		if (!header)
			fprintf(f, "  confidence below 100%% (events counted part of the time, values scaled):\n");
		header = true;
		fprintf(f, "    %-20s lowest %5.1f%%, %d of %d values below 100%%\n", lc->name[i], 100.0 * lc->least[i],
			lc->low[i], lc->total[i]);
	}
	free(lc);
}

/* One line per reason; a long list of names is cut after the first few. */
static int print_failed(const char *names, const char *error, void *ctx)
{
	const int shown = 8;
	int n = 0, cut = 0;

	for (const char *p = names; *p; p++)
		if (*p != ' ' && (p == names || p[-1] == ' ') && ++n == shown + 1)
			cut = (int)(p - names) - 1;
	if (n > shown + 1)
		fprintf((FILE *)ctx, "  not counted: %.*s and %d more events: %s\n", cut, names, n - shown, error);
	else
		fprintf((FILE *)ctx, "  not counted: %s: %s\n", names, error);
	return 0;
}

int td_summary_print(FILE *f, struct td_store *s, int64_t session, const char *db_path)
{
	struct td_session_row sr;
	struct rows rows = { 0 };
	bool hw = false;
	double duration;

	if (td_store_session(s, session, &sr))
		return -1;
	if (td_store_thread_totals(s, session, collect, &rows)) {
		free(rows.r);
		return -1;
	}
	duration = sr.ended_ns > sr.started_ns ? (double)(sr.ended_ns - sr.started_ns) / 1e9 : 0;
	for (int i = 0; i < rows.n; i++) {
		struct row *r = &rows.r[i];
		hw |= !isnan(r->v[C_CYCLES]);
		if (!sr.kernel_counted) {
			/* switches and migrations happen in the kernel: with kernel mode excluded the
			 * perf counters read 0 without having measured anything. /proc counts switches. */
			r->v[C_SWITCHES] = isnan(r->v[C_VOL]) || isnan(r->v[C_INVOL]) ? NAN : r->v[C_VOL] + r->v[C_INVOL];
			r->v[C_MIGRATIONS] = NAN;
		}
	}
	fprintf(f, "\ntopdown session %lld (%s) %s: %s\n", (long long)sr.id, sr.kind, sr.status, sr.command);
	fprintf(f, "  %.2f s, %d thread%s, %d interval%s of %d ms, database %s", duration, sr.nthreads,
		sr.nthreads == 1 ? "" : "s", sr.nintervals, sr.nintervals == 1 ? "" : "s", sr.interval_ms, db_path);
	if (sr.has_exit_code)
		fprintf(f, ", exit status %d", sr.exit_code);
	fprintf(f, "\n  rung: %s%s\n", sr.rung, !strcmp(sr.rung, "software-only") ?
		" (top-down metrics need hardware counters: see 'tdctl doctor')" : "");
	td_store_failed_events(s, session, print_failed, f);
	if (strstr(sr.message, "not counted"))
		fprintf(f, "  note: %s\n", sr.message);
	if (!sr.kernel_counted)
		fprintf(f, "  kernel mode not counted (perf_event_paranoid, no CAP_PERFMON): switches come from "
			   "/proc, migrations are n/c; run as root or grant CAP_PERFMON to count them\n");

	print_confidence(f, s, session);

	/* processes in PID order; rows come ordered by pid, tid */
	for (int i = 0; i < rows.n;) {
		int j = i;
		double tot[C_N];
		/* a thread not counted makes the process total not counted (NaN propagates) */
		for (int c = 0; c < C_N; c++)
			tot[c] = 0;
		while (j < rows.n && rows.r[j].pid == rows.r[i].pid) {
			for (int c = 0; c < C_N; c++)
				tot[c] += rows.r[j].v[c];
			j++;
		}
		fprintf(f, "\nprocess %d (%s), %d thread%s:\n", (int)rows.r[i].pid, rows.r[i].comm, j - i,
			j - i == 1 ? "" : "s");
		print_header(f, hw);
		fprintf(f, "  %7s %-15s", "all", "");
		print_metrics(f, tot, duration, hw);
		for (int k = i; k < j; k++) {
			struct row *r = &rows.r[k];
			double alive = r->last_ns > r->first_ns ? (double)(r->last_ns - r->first_ns) / 1e9 : 0;
			fprintf(f, "  %7d %-15.15s", (int)r->tid, r->comm);
			print_metrics(f, r->v, alive, hw);
		}
		i = j;
	}
	if (rows.n == 0)
		fprintf(f, "\n  no thread was counted\n");
	free(rows.r);
	return 0;
}
