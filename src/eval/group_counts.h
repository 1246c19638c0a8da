/* group_counts: the scaled counts one model evaluation reads — of one
 * interval and target, or summed over intervals or targets — kept per perf
 * group, because live collection may count one event in several groups and
 * each formula should read a single group's time window
 * (td_metrics_eval_groups). Imports, whose groups are unknown, use one group.
 * What td_evaluate (evaluator.h) evaluates, whoever calls it. */
#ifndef TD_GROUP_COUNTS_H
#define TD_GROUP_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

/* value * enabled / running; NaN when running == 0 while enabled > 0 (the
 * event was enabled but never counted: multiplexed out). Both 0: the event
 * was never enabled in the interval — a per-thread counter of a thread that
 * did not run — and its value (0) is the count. */
double td_scale(uint64_t value, uint64_t enabled, uint64_t running);
/* Fraction of the enabled time the event was counted: running / enabled (NaN if enabled == 0). */
double td_coverage(uint64_t enabled, uint64_t running);

struct td_group_counts {
	int n; /* event aliases per group */
	int ngroups;
	double *val; /* ngroups * n: scaled count; NaN not counted */
	double *cov; /* ngroups * n: running / enabled; NaN unknown */
	int *rows;   /* ngroups * n: rows averaged into val */
	double *en;  /* ngroups * n: enabled ns behind val — of the rows counted, or (val NaN) of the rows enabled
		      * but never running; summed over time (td_group_counts_add_time): of the parts counted */
	double *gap; /* ngroups * n: summed over time, enabled ns of the parts in which it was not counted */
};

/* -1 when out of memory. The counts start cleared. */
int td_group_counts_init(struct td_group_counts *c, int n, int ngroups);
void td_group_counts_free(struct td_group_counts *c);

/* Every value "not counted" (before rows are added). */
void td_group_counts_clear(struct td_group_counts *c);
/* One raw count of alias in group (both in range: asserted): scaled by
 * enabled / running; running == 0 is "not counted" and changes nothing. Several rows of one alias and
 * group (perf printing one event twice) are averaged; coverage is their least. */
void td_group_counts_add_row(struct td_group_counts *c, int group, int alias, uint64_t value, uint64_t enabled,
			     uint64_t running);

/* Every value 0 and coverage unknown (before parts are summed). */
void td_group_counts_zero(struct td_group_counts *c);
/* sum += part, value by value: an alias not counted in part makes the sum
 * not counted (no honest total); coverage is the least seen. */
void td_group_counts_add(struct td_group_counts *sum, const struct td_group_counts *part);

/* sum += part, where part is the same target's next interval (a thread's,
 * CPU's ...): an alias multiplexed out for the whole part (enabled, never
 * running: the kernel ran its group in none of the part's time) is not a hole
 * in the total but time the estimate covers less of: its enabled time goes to
 * gap and td_group_counts_extrapolate scales the rest over it, as scaling by
 * enabled / running does within an interval. An alias with no row in part
 * adds nothing: a session writes no row of a group that did not move (its
 * time enabled neither: the target did not run), whatever the counting —
 * the collector delivers nothing for a thread with nothing new, a session
 * no second row of a group unchanged since its last in the same commit
 * (session_written.c), BPF counting no row of a quiet thread — so a
 * missing row is a part counted as nothing, not a hole; the sum is not
 * counted only when no part had a row of it (td_group_counts_extrapolate
 * decides). */
void td_group_counts_add_time(struct td_group_counts *sum, const struct td_group_counts *part);
/* After add_time: each value with a gap scaled by (en + gap) / en — the
 * counted parts' sum over all the enabled time — its coverage at most en /
 * (en + gap); not counted when no part was, or when no part had a row of
 * it. */
void td_group_counts_extrapolate(struct td_group_counts *c);

/* Has c a row of any alias (counted, or enabled without running)? A target
 * handed over with none in every interval counted nothing of this file
 * (the BPF mode's unlisted remainder under a tree of hardware or tree
 * events): it is not part of the file's totals. */
bool td_group_counts_any(const struct td_group_counts *c);

/* Perf group numbers as stored (events.group_idx) -> 0..k-1 in ascending
 * order, in place. Returns k (at least 1), or -1 when out of memory. */
int td_group_numbers_dense(int *group, int n);

#endif
