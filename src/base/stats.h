/* stats: the statistics of repeated measurements — order statistics that
 * stay honest on the 5 to 20 repeats a benchmark affords: median with a
 * distribution-free confidence interval, a trimmed mean, and the
 * Mann–Whitney rank test between two groups (exact when there are no ties). */
#ifndef TD_STATS_H
#define TD_STATS_H

struct td_stats {
	int n;
	double min, max, median, mean, trimmed_mean, stddev;
	int trimmed;		/* values dropped at each end for the trimmed mean (20 %, rounded down) */
	double ci_low, ci_high; /* a confidence interval of the median between two order statistics */
	double ci_level;	/* its exact coverage: >= 0.95, or the most n values allow ([min, max]) */
};

/* Describe x[0..n) (n >= 1; NaNs are left out, and counted out of n). */
void td_stats_describe(const double *x, int n, struct td_stats *s);

/* The Mann–Whitney U of a against b and its two-sided p-value: exact (the
 * rank-sum distribution counted) when the values have no ties and
 * na * nb <= 400, else the normal approximation with the tie correction.
 * NaNs are left out. -1 when a group is empty. */
int td_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p);

#endif
