/* summary: per-process and per-thread software metrics of one session,
 * printed (see summary.h). */
#include "summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
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
	fprintf(f, "  %7s %-15s %8s %6s %9s %8s %8s %7s %9s %8s", "TID", "COMM", "CPU s", "util", "switch/s", "vol/s",
		"invol/s", "migr/s", "faults/s", "major/s");
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
		fprintf(f,
			"  (unlisted): %.3f s CPU, %.1f %% of the process's, ran in threads and children not listed "
			"(too short to be listed, or no room in the BPF sums map);\n  counted by the BPF program's "
			"per-process sums: software events only, no switch counts\n",
			cpu, share);
	else
		fprintf(f,
			"  (unlisted): %.3f s CPU, %.1f %% of the process's, ran in threads and children too short to "
			"be listed (and in listed ones before they were);\n  counted by the kernel's inherited "
			"counters: "
			"software events only, no /proc switches or hardware events\n",
			cpu, share);
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
		if (sum->session.syscalls >= 0 && sum->session.syscall_intervals > 0)
			fprintf(f, " and %.0f read/write system calls",
				(double)sum->session.syscalls / sum->session.syscall_intervals);
		fputs(" per interval", f);
	}
	/* what the target paid: its switches x what counting added to each (measured at the start) */
	if (sum->counting[0] && isnan(sum->switch_cost_ns)) {
		fputs("; its cost to the target not measured", f);
	} else if (sum->counting[0]) {
		double n = td_summary_switches(sum);
		if (n < 0)
			fputs("; its cost to the target not known (the target's context switches not counted)", f);
		else if (sum->switch_cost_kept)
			fprintf(f, "; cost to the target: ~%.2f ms of CPU (%.0f context switches x %.0f ns, %s)",
				n * sum->switch_cost_ns / 1e6, n, sum->switch_cost_ns, sum->switch_cost_kept);
		else if (sum->switch_cost_from == sum->session.id)
			fprintf(f,
				"; cost to the target: ~%.2f ms of CPU (%.0f context switches x %.0f ns, measured at "
				"start)",
				n * sum->switch_cost_ns / 1e6, n, sum->switch_cost_ns);
		else /* reused from an earlier session of this boot (session_record_switch_cost) */
			fprintf(f,
				"; cost to the target: ~%.2f ms of CPU (%.0f context switches x %.0f ns, measured at "
				"session %lld's start, on this boot, counted as this one)",
				n * sum->switch_cost_ns / 1e6, n, sum->switch_cost_ns,
				(long long)sum->switch_cost_from);
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

/* A process's (or CPU set's, or cgroup's) rows: its total, then its members. */
struct block {
	int first, end; /* rows [first, end) */
	double cpu;	/* CPU s, 0 when not counted */
	bool shown;
};

static double cpu_of(const struct td_summary_row *r)
{
	double v = r->v[TD_SUM_CPU_TIME];
	return isnan(v) || isinf(v) ? 0 : v;
}

static int by_cpu_desc(const void *a, const void *b)
{
	const struct block *x = *(const struct block *const *)a, *y = *(const struct block *const *)b;
	return x->cpu != y->cpu ? (x->cpu < y->cpu ? 1 : -1) : (x->first > y->first) - (x->first < y->first);
}

/* Mark the max (0: all) blocks with the most CPU as shown (ties: the first
 * rows); they print in their own order. */
static void choose(struct block *b, int n, int max)
{
	struct block **order;

	for (int i = 0; i < n; i++)
		b[i].shown = max <= 0 || n <= max;
	if (max <= 0 || n <= max)
		return;
	if (!(order = malloc((size_t)n * sizeof(*order)))) {
		for (int i = 0; i < n; i++)
			b[i].shown = true; /* all rather than a wrong choice */
		return;
	}
	for (int i = 0; i < n; i++)
		order[i] = &b[i];
	qsort(order, (size_t)n, sizeof(*order), by_cpu_desc);
	for (int i = 0; i < max; i++)
		order[i]->shown = true;
	free(order);
}

/* One block's table: its total, then its members, at most max_threads of
 * them (0: all; the others are counted in *hidden). */
static void print_block(FILE *f, const struct td_summary *sum, int i, int j, int max_threads, int *hidden)
{
	const struct td_summary_row *p = &sum->rows[i], *unlisted = NULL;
	int n = 0, nmembers = 0;
	struct block *members = malloc(((size_t)(j - i)) * sizeof(*members));

	for (int k = i + 1; k < j; k++) {
		if (sum->rows[k].kind == TD_SUM_THREAD && sum->rows[k].tid == 0)
			unlisted = &sum->rows[k];
		else
			n += sum->rows[k].counted;
		if (members && sum->rows[k].counted && &sum->rows[k] != unlisted)
			members[nmembers++] = (struct block){ .first = k, .cpu = cpu_of(&sum->rows[k]) };
	}
	if (members && p->kind != TD_SUM_OTHER)
		choose(members, nmembers, max_threads);
	if (p->kind == TD_SUM_PROCESS)
		fprintf(f, "\nprocess %d (%s), %d thread%s:\n", (int)p->pid, p->comm, n, n == 1 ? "" : "s");
	else if (p->kind == TD_SUM_SYSTEM)
		fprintf(f, "\nsystem-wide, %d CPU%s:\n", n, n == 1 ? "" : "s");
	else
		fprintf(f, "\n%s:\n", p->label ? p->label : "");
	print_header(f, sum->hw);
	fprintf(f, "  %7s %-15s", "all", "");
	print_metrics(f, p, sum->hw);
	for (int m = 0, k; p->kind != TD_SUM_OTHER && m < nmembers; m++) {
		const struct td_summary_row *r = &sum->rows[k = members[m].first];
		if (!members[m].shown) {
			(*hidden)++;
			continue;
		}
		if (r->kind == TD_SUM_CPU)
			fprintf(f, "  %7s %-15.15s", r->comm, "");
		else
			fprintf(f, "  %7d %-15.15s", (int)r->tid, r->comm);
		print_metrics(f, r, sum->hw);
	}
	if (unlisted && unlisted->counted) {
		fprintf(f, "  %7s %-15.15s", "-", unlisted->comm);
		print_metrics(f, unlisted, sum->hw);
		print_unlisted(f, p, unlisted, !strcmp(sum->counting, "bpf"));
	} else if (p->kind == TD_SUM_PROCESS && sum->unlisted_off) {
		fprintf(f, "  %7s %-15.15s n/c\n", "-", "(unlisted)");
		fputs("  (unlisted): not counted (--unlisted=off): what threads and children too short to be listed "
		      "ran is in no row\n",
		      f);
	}
	if (!members)
		fprintf(f, "  out of memory: the member rows are left out\n");
	free(members);
}

void td_summary_write(FILE *f, const struct td_summary *sum, const char *db_path, int max_processes, int max_threads)
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
	if (sum->whole_ns)
		fprintf(f,
			"\n  the whole command used %.1f ms of CPU: %.1f ms to its first interval, %.1f ms for this "
			"summary",
			(double)sum->whole_ns / 1e6, (double)sum->start_ns / 1e6, (double)sum->summary_ns / 1e6);
	if (sum->whole_ns && sum->helper_ns)
		fprintf(f, " (%.1f ms of its start in the two processes that measured the switch cost)",
			(double)sum->helper_ns / 1e6);
	if (sum->whole_ns && sum->types_ns)
		fprintf(f, " (%.1f ms of its start in bpftool, making this boot's kernel types file)",
			(double)sum->types_ns / 1e6);
	fprintf(f, "\n  rung: %s%s\n", sr->rung,
		!strcmp(sr->rung, "software-only") ? " (top-down metrics need hardware counters: see 'tdctl doctor')"
						   : "");
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

	/* the blocks to print: every counted one, or the max_processes with the most CPU */
	int nblocks = 0, shown_blocks = 0, hidden_threads = 0;
	struct block *blocks = malloc(((size_t)sum->nrows + 1) * sizeof(*blocks));
	double hidden_cpu = 0, all_cpu = 0;
	if (!blocks) {
		fprintf(f, "\n  out of memory: the per-process table is left out\n");
		return;
	}
	for (int i = 0; i < sum->nrows;) {
		int j = i + 1;
		while (j < sum->nrows && sum->rows[j].thread)
			j++;
		if (sum->rows[i].counted) /* else nothing of it was counted (or kept by the filter) */
			blocks[nblocks++] = (struct block){ .first = i, .end = j, .cpu = cpu_of(&sum->rows[i]) };
		i = j;
	}
	choose(blocks, nblocks, max_processes);
	for (int b = 0; b < nblocks; b++) {
		all_cpu += blocks[b].cpu;
		if (blocks[b].shown)
			shown_blocks++;
		else
			hidden_cpu += blocks[b].cpu;
	}
	for (int b = 0; b < nblocks; b++)
		if (blocks[b].shown)
			print_block(f, sum, blocks[b].first, blocks[b].end, max_threads, &hidden_threads);
	if (shown_blocks < nblocks)
		fprintf(f,
			"\n  %d more process%s not shown, with %.3f s CPU (%.1f %% of all): 'tdctl report %lld -d %s "
			"--process PID' shows any of them\n",
			nblocks - shown_blocks, nblocks - shown_blocks == 1 ? "" : "es", hidden_cpu,
			all_cpu > 0 ? 100 * hidden_cpu / all_cpu : 0.0, (long long)sr->id, db_path);
	if (hidden_threads)
		fprintf(f,
			"\n  %d more thread%s not shown, each process's beyond its %d with the most CPU: 'tdctl report "
			"%lld -d %s --thread TID' shows any of them\n",
			hidden_threads, hidden_threads == 1 ? "" : "s", max_threads, (long long)sr->id, db_path);
	if (!nblocks)
		fprintf(f, "\n  nothing was counted%s\n", sum->filtered ? " in what the filter kept" : "");
	free(blocks);
}

int td_summary_print(FILE *f, struct td_store *s, int64_t session, const char *events_dir,
		     const struct td_report_filter *filter, const char *db_path, int max_processes, int max_threads,
		     td_err *err)
{
	struct td_summary sum;

	if (td_summary_load(s, session, events_dir, filter, &sum, err))
		return -1;
	if (td_summary_load_confidence(s, session, &sum, err)) {
		td_summary_free(&sum);
		return -1;
	}
	td_summary_write(f, &sum, db_path, max_processes, max_threads);
	td_summary_free(&sum);
	return 0;
}
