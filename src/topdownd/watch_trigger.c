/* watch_trigger: a workload's baseline against its latest windows, the
 * hold-back of a move its neighbours made, and the rate limits (see
 * watch_trigger.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "watch_trigger.h"

#define HOUR_NS 3600000000000ull

/* The ring: the baseline, then the two windows the shift must persist over. */
#define ROWS(pr) ((pr)->baseline + 2 * (pr)->window)

int td_watch_rows(const struct td_watch_params *pr)
{
	return ROWS(pr);
}

int td_watch_series_init(struct td_watch_series *s, const struct td_watch_params *pr, int nnodes)
{
	memset(s, 0, sizeof(*s));
	s->nnodes = nnodes;
	s->ring = calloc((size_t)ROWS(pr) * (size_t)(nnodes + 2), sizeof(double));
	s->flags = calloc((size_t)ROWS(pr) * (size_t)(nnodes > 0 ? nnodes : 1), 1);
	if (!s->ring || !s->flags) {
		td_watch_series_free(s);
		return -1;
	}
	return 0;
}

void td_watch_series_free(struct td_watch_series *s)
{
	free(s->ring);
	free(s->flags);
	memset(s, 0, sizeof(*s));
}

int td_watch_limits_init(struct td_watch_limits *l, const struct td_watch_params *pr)
{
	memset(l, 0, sizeof(*l));
	l->times = calloc((size_t)pr->per_hour, sizeof(*l->times));
	return l->times ? 0 : -1;
}

void td_watch_limits_free(struct td_watch_limits *l)
{
	free(l->times);
	memset(l, 0, sizeof(*l));
}

const double *td_watch_series_row(const struct td_watch_series *s, const struct td_watch_params *pr, int k)
{
	return s->ring + (size_t)((s->head + k) % ROWS(pr)) * (size_t)(s->nnodes + 2);
}

/* Row k (0: the oldest kept) of column i: node i, or (nnodes) the CPU
 * time, (nnodes + 1) the wait for a CPU. */
static double at(const struct td_watch_series *s, int rows, int k, int i)
{
	int r = (s->head - s->filled + k + rows) % rows;

	return s->ring[(size_t)r * (size_t)(s->nnodes + 2) + (size_t)i];
}

/* Both windows as one (test_window's w) */
#define BOTH 2

/* Node i's baseline against window w (0: the earlier, 1: the latest, BOTH): 0
 * with t filled when both have 3 values or more and the test could be made. */
static int test_window(const struct td_watch_series *s, const struct td_watch_params *pr, int i, int w, double *a,
		       double *b, struct td_watch_trigger *t)
{
	int rows = ROWS(pr);
	struct td_stats sa, sb;
	double u;

	for (int k = 0; k < pr->baseline; k++)
		a[k] = at(s, rows, k, i);
	int nb = w == BOTH ? 2 * pr->window : pr->window, from = pr->baseline + (w == BOTH ? 0 : w * pr->window);

	for (int k = 0; k < nb; k++)
		b[k] = at(s, rows, from + k, i);
	td_stats_describe(a, pr->baseline, &sa);
	td_stats_describe(b, nb, &sb);
	if (sa.n < 3 || sb.n < 3 || td_mann_whitney(a, pr->baseline, b, nb, &u, &t->p))
		return -1;
	t->node = i;
	t->before = sa.median;
	t->after = sb.median;
	t->n_before = sa.n;
	t->n_after = sb.n;
	return 0;
}

/* Did window w move node i away from the baseline (t: how)? */
static bool moved(const struct td_watch_series *s, const struct td_watch_params *pr, int i, int w, double *a, double *b,
		  struct td_watch_trigger *t)
{
	return !test_window(s, pr, i, w, a, b, t) && t->p < pr->p_value &&
	       fabs(t->after - t->before) * 100 >= pr->min_shift;
}

/* Node i moved when both windows moved it the same way: a level-1 value's
 * noise is autocorrelated (a neighbour's burst of load lasts a while), and
 * one window of it off the baseline is not yet a change of the workload.
 * t: the latest window's medians, the larger of the two p-values. */
static int test_node(const struct td_watch_series *s, const struct td_watch_params *pr, int i, double *a, double *b,
		     struct td_watch_trigger *t)
{
	struct td_watch_trigger first;

	if (!moved(s, pr, i, 0, a, b, &first) || !moved(s, pr, i, 1, a, b, t) ||
	    (first.after > first.before) != (t->after > t->before))
		return -1;
	if (first.p > t->p)
		t->p = first.p;
	return 0;
}

/* Did the neighbours make the move? A task of the workload that is
 * runnable either runs or waits for a CPU: while what the workload asks
 * for stays the same, a neighbour that takes CPUs from it turns its CPU
 * time into wait (cpu.pressure "some": the time some task of it was
 * runnable and not running, kernel/sched/psi.c, test_states), and one that
 * leaves turns wait back into CPU time; on m CPUs, m times as much CPU
 * time as wait (psi.c averages the CPUs' "some" time, weighted by their
 * non-idle time, and caps it at all of the time). So: the wait moved in
 * the latest window, or in both windows read together with the latest's
 * median that way (the neighbours may leave within it), p below CPU_P,
 * and in the first its median not the other way; the CPU time's median the other way or not at all (not the same way as same_way() reads it) in both;
 * in the latest, by at most 2 x ncpus times the wait's (twice: a group always
 * runnable on its CPUs sits on m times, and the wait stops at 1). A change
 * of the workload itself changes what it asks for: more CPU time with as
 * much wait or more (a sleeping loop turned compute loop), or less of both.
 * And while the wait sat at 95 % of the time or more all along (psi.c's
 * "some" stops at all of it), the CPU time moving (p below CPU_P) is
 * enough: the workload got what its neighbours left it. Likewise, the CPU
 * time moving (p below CPU_P) the way starving does (starved()) in the
 * latest window, and in the first not at all or that way too (it may
 * straddle the neighbours' coming or going): the workload was runnable,
 * its neighbours took the CPU or gave it back. */
/* The CPU time and the wait count as moved at p below CPU_P (or p_value
 * where that is larger). A node's move is shown at p_value before they are
 * read at all; they are read to choose between two explanations of it,
 * and at p_value the wait could not show a move it plainly made: capped at
 * all of the time (psi.c), its windows' 1.0s tie with a baseline that met
 * the neighbours before (bench_watch_steady.sh: 0.52 -> 1.00, 1.00, p =
 * 0.013 to 0.061 a window while the node's p was 7e-5 to 4e-3). */
#define CPU_P 0.05
static double cpu_p(const struct td_watch_params *pr)
{
	return fmax(pr->p_value, CPU_P);
}

/* Some task of the workload waited for a CPU SATURATED of the time or more
 * in every interval of the ring (a value not read: no). */
#define SATURATED 0.95
/* A workload whose CPU time was lower while some task of it waited for a
 * CPU this much of the time or more (that side's median) was starved,
 * not idle by choice: a loop of 0.5 ms sleeps waits 0.24 to 0.45 of the
 * time on a saturated 2-vCPU host (docs/watch.md), a compute group its
 * neighbours starve 0.89 to 1.00 (bench_watch_steady.sh). */
#define STARVED 0.75
static bool saturated(const struct td_watch_series *s, const struct td_watch_params *pr)
{
	int rows = ROWS(pr);

	for (int k = 0; k < rows; k++)
		if (!(at(s, rows, k, s->nnodes + 1) >= SATURATED))
			return false;
	return true;
}

/* A window's CPU time (run) and wait against the baseline's: did it move
 * the way starving does? On the side where it had less CPU time, some task
 * of it waited for a CPU most of the time: it was runnable and did not get
 * the CPU, so the CPU time it lacked was not its choice. Fell: starved in
 * the window (the wait near psi.c's cap of the whole time can show no
 * rise). Rose: starved in the baseline, and the wait not up (p below
 * CPU_P: up is the workload asking for more). */
static bool starved(const struct td_watch_trigger *run, const struct td_watch_trigger *wait,
		    const struct td_watch_params *pr)
{
	if (run->after < run->before)
		return wait->after >= STARVED;
	return wait->before >= STARVED && !(wait->after > wait->before && wait->p < cpu_p(pr));
}

/* Did the CPU time (run) move the same way as the wait (dw: the latest
 * window's move of it), as a workload asking for more or less moves them?
 * Significantly (p below CPU_P), and by 1 / (2 x ncpus) of the wait's
 * move or more: the mirror of the bound on the other way (a move the other
 * way of up to 2 x ncpus times the wait's is the neighbours'). Neighbours
 * cannot give a group more CPU time while it waits more, yet over a long
 * baseline a drift of a hundredth (0.99 -> 1.00 of a CPU while the wait
 * went 0.50 -> 1.00: bench_watch_steady.sh, docs/watch.md) is
 * significant: below the bound it is no move of the workload's. */
static bool same_way(const struct td_watch_trigger *run, double dw, int k, const struct td_watch_params *pr)
{
	double dr = run->after - run->before;

	return dr * dw > 0 && run->p < cpu_p(pr) && fabs(dr) * 2 * k >= fabs(dw);
}

/* One window's CPU time and wait against the baseline into t (NaN when not
 * tested); 0 when both could be tested. */
static int cpu_window(const struct td_watch_series *s, const struct td_watch_params *pr, int w, double *a, double *b,
		      struct td_watch_trigger *t)
{
	struct td_watch_trigger run, wait;
	int rc = 0;

	if (test_window(s, pr, s->nnodes, w, a, b, &run))
		run.before = run.after = run.p = NAN, rc = -1;
	if (test_window(s, pr, s->nnodes + 1, w, a, b, &wait))
		wait.before = wait.after = wait.p = NAN, rc = -1;
	t->run[w] = (struct td_watch_move){ run.before, run.after, run.p };
	t->wait[w] = (struct td_watch_move){ wait.before, wait.after, wait.p };
	return rc;
}

/* A window's medians as a trigger's (the form starved() and same_way() take). */
static struct td_watch_trigger as_trigger(const struct td_watch_move *m)
{
	return (struct td_watch_trigger){ .before = m->before, .after = m->after, .p = m->p };
}

static bool by_neighbours(const struct td_watch_series *s, const struct td_watch_params *pr, double *a, double *b,
			  struct td_watch_trigger *t)
{
	int k = pr->ncpus > 0 ? pr->ncpus : 1;
	struct td_watch_trigger run, wait, run0, wait0;
	bool first;
	double dr, dw;

	first = !cpu_window(s, pr, 0, a, b, t);
	if (cpu_window(s, pr, 1, a, b, t)) {
		t->why = "its CPU time or wait not read";
		return false;
	}
	run = as_trigger(&t->run[1]), wait = as_trigger(&t->wait[1]);
	run0 = as_trigger(&t->run[0]), wait0 = as_trigger(&t->wait[0]);
	/* its tasks waited for a CPU all along: what CPU time it gets is what its neighbours
	 * leave; a move of it is theirs (a change of what it does at the same CPU time is not) */
	if (saturated(s, pr)) {
		t->why = run.p < cpu_p(pr) ? "saturated, its CPU time moved" : "saturated, its CPU time did not move";
		return run.p < cpu_p(pr);
	}
	/* its CPU time moved in the latest window, and in each window starved() explains what it did
	 * (when not, the rule below may still) */
	if (run.p < cpu_p(pr) && starved(&run, &wait, pr) && first &&
	    (run0.p >= cpu_p(pr) || starved(&run0, &wait0, pr))) {
		t->why = "starved";
		return true;
	}
	/* the latest window: the wait moved, the CPU time not the same way, and not by more than it explains */
	dr = run.after - run.before;
	dw = wait.after - wait.before;
	if (wait.p >= cpu_p(pr) && dw != 0) {
		struct td_watch_trigger both;
		if (!test_window(s, pr, s->nnodes + 1, BOTH, a, b, &both) && both.p < cpu_p(pr) &&
		    (both.after - both.before) * dw > 0)
			wait.p = both.p;
	}
	t->why = wait.p >= cpu_p(pr) || dw == 0 ? "the wait did not move"
		 : same_way(&run, dw, k, pr)	? "the CPU time moved with the wait"
		 : fabs(dr) > 2 * k * fabs(dw)	? "the CPU time moved more than the wait explains"
		 : !first			? "the first window not tested"
						: NULL;
	if (t->why)
		return false;
	/* the first: nothing the other way (the wait may have stayed put a little longer, or sat at 1.0).
	 * The wait's median a little the other way is its noise while the CPU time stayed or drifted
	 * its way (the window may straddle the neighbours' arrival: two of its five intervals after it
	 * move no median), but where the CPU time moved the trade's way (the other way from the wait's
	 * move, p below CPU_P) the wait must not have gone the other way at all: that CPU time was
	 * not traded for wait */
	if ((wait0.after - wait0.before) * dw < 0 &&
	    (wait0.p < cpu_p(pr) || ((run0.after - run0.before) * dw < 0 && run0.p < cpu_p(pr)))) {
		t->why = "the first window's wait went the other way";
		return false;
	}
	if (same_way(&run0, dw, k, pr)) {
		t->why = "the first window's CPU time moved with the wait";
		return false;
	}
	t->why = "its CPU time and wait traded places";
	return true;
}

/* Changes kept in the hour before now. */
static int in_last_hour(const struct td_watch_limits *l, const struct td_watch_params *pr, uint64_t now_ns)
{
	int n = 0;

	for (int k = 0; k < l->n; k++) {
		uint64_t when = l->times[(l->head - 1 - k + pr->per_hour) % pr->per_hour];
		n += now_ns < when + HOUR_NS;
	}
	return n;
}

enum td_watch_verdict td_watch_add(struct td_watch_series *s, struct td_watch_limits *l,
				   const struct td_watch_params *pr, const double *values, uint64_t now_ns,
				   struct td_watch_trigger *t)
{
	return td_watch_add_cpu(s, l, pr, values, NULL, now_ns, t);
}

enum td_watch_verdict td_watch_add_cpu(struct td_watch_series *s, struct td_watch_limits *l,
				       const struct td_watch_params *pr, const double *values,
				       const struct td_watch_cpu *cpu, uint64_t now_ns, struct td_watch_trigger *t)
{
	return td_watch_add_flags(s, l, pr, values, NULL, cpu, now_ns, t);
}

/* Node i's threshold in row k (0: the oldest of the ring) */
static int flag_at(const struct td_watch_series *s, int rows, int k, int i)
{
	int r = (s->head - s->filled + k + rows) % rows;

	return s->flags[(size_t)r * (size_t)s->nnodes + (size_t)i];
}

/* Node i over its threshold in each of the last pr->hold rows, after a row
 * under it: t filled (the baseline's median against the held rows'). */
static bool held_over(const struct td_watch_series *s, const struct td_watch_params *pr, int i, double *a, double *b,
		      struct td_watch_trigger *t)
{
	int rows = ROWS(pr), from = rows - pr->hold;
	struct td_stats sa, sb;
	double u;

	if (flag_at(s, rows, from - 1, i) != TD_WATCH_UNDER)
		return false;
	for (int k = from; k < rows; k++)
		if (flag_at(s, rows, k, i) != TD_WATCH_OVER)
			return false;
	for (int k = 0; k < pr->baseline; k++)
		a[k] = at(s, rows, k, i);
	for (int k = 0; k < pr->hold; k++)
		b[k] = at(s, rows, from + k, i);
	td_stats_describe(a, pr->baseline, &sa);
	td_stats_describe(b, pr->hold, &sb);
	memset(t, 0, sizeof(*t));
	t->kind = TD_WATCH_THRESHOLD;
	t->node = i;
	t->before = sa.median;
	t->after = sb.median;
	t->n_before = sa.n;
	t->n_after = sb.n;
	if (sa.n < 1 || td_mann_whitney(a, pr->baseline, b, pr->hold, &u, &t->p))
		t->p = NAN; /* the baseline not counted: no test (the medians say what is known) */
	for (int w = 0; w < 2; w++)
		t->run[w] = t->wait[w] = (struct td_watch_move){ NAN, NAN, NAN };
	t->why = "over its threshold";
	return true;
}

enum td_watch_verdict td_watch_add_flags(struct td_watch_series *s, struct td_watch_limits *l,
					 const struct td_watch_params *pr, const double *values,
					 const unsigned char *flags, const struct td_watch_cpu *cpu, uint64_t now_ns,
					 struct td_watch_trigger *t)
{
	int rows = ROWS(pr);
	enum td_watch_verdict v = TD_WATCH_NONE;
	double *a, *b, *row = s->ring + (size_t)s->head * (size_t)(s->nnodes + 2);
	unsigned char *frow = s->flags + (size_t)s->head * (size_t)s->nnodes;
	bool neighbours = false;

	memcpy(row, values, (size_t)s->nnodes * sizeof(double));
	row[s->nnodes] = cpu ? cpu->run : NAN;
	row[s->nnodes + 1] = cpu ? cpu->wait : NAN;
	for (int i = 0; i < s->nnodes; i++)
		frow[i] = flags ? flags[i] : TD_WATCH_NA;
	s->head = (s->head + 1) % rows;
	if (s->filled < rows)
		s->filled++;
	if (s->filled < rows)
		return TD_WATCH_NONE;
	a = calloc((size_t)rows, sizeof(double));
	if (!a)
		return TD_WATCH_NONE; /* out of memory: no test this interval; the next one tries again */
	b = a + pr->baseline;
	for (int i = 0; pr->hold > 0 && i < s->nnodes; i++) {
		struct td_watch_trigger c;
		if (!held_over(s, pr, i, a, b, &c))
			continue;
		if (v == TD_WATCH_NONE || fabs(c.after - c.before) > fabs(t->after - t->before))
			*t = c;
		v = TD_WATCH_CHANGE;
	}
	bool threshold = v != TD_WATCH_NONE; /* a threshold held: no move is tested */
	for (int i = 0; !threshold && i < s->nnodes; i++) {
		struct td_watch_trigger c;
		if (test_node(s, pr, i, a, b, &c))
			continue;
		c.kind = TD_WATCH_MOVED;
		if (v == TD_WATCH_NONE || fabs(c.after - c.before) > fabs(t->after - t->before))
			*t = c;
		v = TD_WATCH_CHANGE;
	}
	/* a threshold held is the events file's rule: not held back as the neighbours' */
	if (v != TD_WATCH_NONE && !threshold)
		neighbours = by_neighbours(s, pr, a, b, t);
	free(a);
	if (v == TD_WATCH_NONE)
		return v;
	/* whatever is decided, the window's values are the new state: the next baseline is what follows */
	s->filled = 0;
	if (neighbours)
		return TD_WATCH_HELD_CPU;
	if (s->last_change_ns && now_ns < s->last_change_ns + pr->workload_every_ns)
		return TD_WATCH_HELD_ONE;
	if (in_last_hour(l, pr, now_ns) >= pr->per_hour)
		return TD_WATCH_HELD_ALL;
	s->last_change_ns = now_ns;
	l->times[l->head] = now_ns;
	l->head = (l->head + 1) % pr->per_hour;
	if (l->n < pr->per_hour)
		l->n++;
	return TD_WATCH_CHANGE;
}
