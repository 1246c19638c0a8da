/* summary: per-process and per-thread software metrics of one session,
 * printed (see summary.h). */
#include "summary.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

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

static void print_metrics(FILE *f, const struct td_summary_row *r, bool hw)
{
	cell(f, 8, 3, r->v[TD_SUM_CPU_TIME]);
	cell(f, 6, 2, r->v[TD_SUM_UTILIZATION]);
	cell(f, 9, 1, r->v[TD_SUM_SWITCHES]);
	cell(f, 8, 1, r->v[TD_SUM_VOLUNTARY]);
	cell(f, 8, 1, r->v[TD_SUM_INVOLUNTARY]);
	cell(f, 7, 1, r->v[TD_SUM_MIGRATIONS]);
	cell(f, 9, 1, r->v[TD_SUM_FAULTS]);
	cell(f, 8, 1, r->v[TD_SUM_MAJOR_FAULTS]);
	if (hw)
		cell(f, 6, 2, r->v[TD_SUM_IPC]);
	cell(f, 8, 2, r->seconds);
	fputc('\n', f);
}

/* The share of the process's work that no listed thread holds, and what
 * counted it: the BPF program's per-process sums in BPF counting mode, else
 * the roots' inherited perf counters. */
static void print_unlisted(FILE *f, const struct td_summary_row *all, const struct td_summary_row *u, bool bpf)
{
	double cpu = u->v[TD_SUM_CPU_TIME], share = 100.0 * cpu / all->v[TD_SUM_CPU_TIME];

	if (isnan(cpu) || !(all->v[TD_SUM_CPU_TIME] > 0))
		return;
	if (bpf)
		fprintf(f, "  (unlisted): %.3f s CPU, %.1f %% of the process's, ran in threads and children not listed "
			   "(too short to be listed, or no room in the BPF sums map);\n  counted by the BPF program's "
			   "per-process sums: software events only, no switch counts\n", cpu, share);
	else
		fprintf(f, "  (unlisted): %.3f s CPU, %.1f %% of the process's, ran in threads and children too short to "
			   "be listed (and in listed ones before they were);\n  counted by the kernel's inherited counters: "
			   "software events only, no /proc switches or hardware events\n", cpu, share);
}

bool td_summary_cost(FILE *f, const struct td_summary *sum, const char *prefix)
{
	double own = (double)sum->session.collector_ns / 1e9, target = 0;

	if (sum->session.collector_ns < 0)
		return false;
	fputs(prefix, f);
	for (int i = 0; i < sum->nrows; i++)
		if (sum->rows[i].thread == 0 && sum->rows[i].counted && !isnan(sum->rows[i].v[TD_SUM_CPU_TIME]))
			target += sum->rows[i].v[TD_SUM_CPU_TIME];
	fprintf(f, "topdown used %.1f ms of CPU", 1e3 * own);
	if (target > 0)
		fprintf(f, " (%.2f %% of the target's %.3f s)", 100 * own / target, target);
	if (sum->session.cost_intervals > 0) {
		fprintf(f, ", %.0f counter reads", (double)sum->session.counter_reads / sum->session.cost_intervals);
		if (sum->session.syscalls >= 0)
			fprintf(f, " and %.0f read/write system calls", (double)sum->session.syscalls / sum->session.cost_intervals);
		fputs(" per interval", f);
	}
	/* every read assumed to land on a running target: an upper bound */
	if (sum->has_read_cost && sum->read_cost.counted > 0)
		fprintf(f, "; its reads added at most %.2g %% to %s (%.0f per read of a running target, measured)",
			100 * (double)sum->read_cost.reads * sum->read_cost.per_read / sum->read_cost.counted,
			sum->read_cost.event, sum->read_cost.per_read);
	return true;
}

static void print_confidence(FILE *f, const struct td_summary *sum)
{
	bool header = false;

	for (int i = 0; i < sum->nconf; i++) {
		const struct td_summary_conf *c = &sum->conf[i];
		if (!c->low)
			continue;
		if (!header)
			fprintf(f, "  confidence below 100%% (events counted part of the time, values scaled):\n");
		header = true;
		fprintf(f, "    %-20s lowest %5.1f%%, %d of %d values below 100%%\n", c->name, 100.0 * c->least, c->low,
			c->total);
	}
}

/* One line per reason; a long list of names is cut after the first few. */
static void print_failed(FILE *f, const char *names, const char *error)
{
	const int shown = 8;
	int n = 0, cut = 0;

	for (const char *p = names; *p; p++)
		if (*p != ' ' && (p == names || p[-1] == ' ') && ++n == shown + 1)
			cut = (int)(p - names) - 1;
	if (n > shown + 1)
		fprintf(f, "  not counted: %.*s and %d more events: %s\n", cut, names, n - shown, error);
	else
		fprintf(f, "  not counted: %s: %s\n", names, error);
}

void td_summary_write(FILE *f, const struct td_summary *sum, const char *db_path)
{
	const struct td_session_row *sr = &sum->session;

	fprintf(f, "\ntopdown session %lld (%s) %s: %s\n", (long long)sr->id, sr->kind, sr->status, sr->command);
	if (sum->filtered)
		fprintf(f, "  %.2f s selected, %d of %d thread%s, %d interval%s of %d ms, database %s", sum->duration,
			sum->nthreads, sr->nthreads, sr->nthreads == 1 ? "" : "s", sr->nintervals,
			sr->nintervals == 1 ? "" : "s", sr->interval_ms, db_path);
	else
		fprintf(f, "  %.2f s, %d thread%s, %d interval%s of %d ms, database %s", sum->duration, sr->nthreads,
			sr->nthreads == 1 ? "" : "s", sr->nintervals, sr->nintervals == 1 ? "" : "s", sr->interval_ms,
			db_path);
	if (sr->has_exit_code)
		fprintf(f, ", exit status %d", sr->exit_code);
	td_summary_cost(f, sum, "; ");
	fprintf(f, "\n  rung: %s%s\n", sr->rung, !strcmp(sr->rung, "software-only") ?
		" (top-down metrics need hardware counters: see 'tdctl doctor')" : "");
	for (int i = 0; i < sum->nfailed; i++)
		print_failed(f, sum->failed[i].names, sum->failed[i].error);
	if (strstr(sr->message, "not counted"))
		fprintf(f, "  note: %s\n", sr->message);
	if (!sr->kernel_counted)
		fprintf(f, "  kernel mode not counted (perf_event_paranoid, no CAP_PERFMON): switches come from "
			   "/proc, migrations are n/c; run as root or grant CAP_PERFMON to count them\n");
	if (sum->why_not_evaluated[0])
		fprintf(f, "  not evaluated: %s\n", sum->why_not_evaluated);
	print_confidence(f, sum);

	bool any = false;
	for (int i = 0; i < sum->nrows;) {
		const struct td_summary_row *p = &sum->rows[i], *unlisted = NULL;
		int j = i + 1, n = 0;
		while (j < sum->nrows && sum->rows[j].thread) {
			if (sum->rows[j].kind == TD_SUM_THREAD && sum->rows[j].tid == 0)
				unlisted = &sum->rows[j];
			else
				n += sum->rows[j].counted;
			j++;
		}
		if (!p->counted) { /* nothing of it was counted (or kept by the filter) */
			i = j;
			continue;
		}
		any = true;
		if (p->kind == TD_SUM_PROCESS)
			fprintf(f, "\nprocess %d (%s), %d thread%s:\n", (int)p->pid, p->comm, n, n == 1 ? "" : "s");
		else if (p->kind == TD_SUM_SYSTEM)
			fprintf(f, "\nsystem-wide, %d CPU%s:\n", n, n == 1 ? "" : "s");
		else
			fprintf(f, "\n%s:\n", p->label);
		print_header(f, sum->hw);
		fprintf(f, "  %7s %-15s", "all", "");
		print_metrics(f, p, sum->hw);
		for (int k = i + 1; p->kind != TD_SUM_OTHER && k < j; k++) {
			const struct td_summary_row *r = &sum->rows[k];
			if (!r->counted)
				continue;
			if (r->kind == TD_SUM_CPU)
				fprintf(f, "  %7s %-15.15s", r->comm, "");
			else if (r == unlisted)
				fprintf(f, "  %7s %-15.15s", "-", r->comm);
			else
				fprintf(f, "  %7d %-15.15s", (int)r->tid, r->comm);
			print_metrics(f, r, sum->hw);
		}
		if (unlisted && unlisted->counted)
			print_unlisted(f, p, unlisted, !strcmp(sum->counting, "bpf"));
		i = j;
	}
	if (!any)
		fprintf(f, "\n  nothing was counted%s\n", sum->filtered ? " in what the filter kept" : "");
}

int td_summary_print(FILE *f, struct td_store *s, int64_t session, const char *events_dir,
		     const struct td_report_filter *filter, const char *db_path, td_err *err)
{
	struct td_summary sum;

	if (td_summary_load(s, session, events_dir, filter, &sum, err))
		return -1;
	td_summary_write(f, &sum, db_path);
	td_summary_free(&sum);
	return 0;
}
