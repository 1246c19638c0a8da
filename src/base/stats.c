/* stats: order statistics and the Mann–Whitney test (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The non-NaN values of x, sorted, into a malloc'd array; their number (-1: no memory). */
static int sorted(const double *x, int n, double **out)
{
	double *v = malloc(((size_t)n + 1) * sizeof(*v));
	int k = 0;

	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]))
			v[k++] = x[i];
	qsort(v, (size_t)k, sizeof(*v), cmp_double);
	*out = v;
	return k;
}

/* P(Bin(n, 1/2) <= k). */
static double binom_cdf_half(int n, int k)
{
	double term = pow(0.5, n), sum = 0;

	for (int i = 0; i <= k; i++) {
		sum += term;
		term = term * (n - i) / (i + 1);
	}
	return sum;
}

void td_stats_describe(const double *x, int n, struct td_stats *s)
{
	double *v = NULL, sum = 0, ss = 0;
	int k = sorted(x, n, &v);

	memset(s, 0, sizeof(*s));
	s->min = s->max = s->median = s->mean = s->trimmed_mean = s->stddev = NAN;
	s->ci_low = s->ci_high = s->ci_level = NAN;
	s->n = k < 0 ? 0 : k;
	if (k <= 0) {
		free(v);
		return;
	}
	s->min = v[0];
	s->max = v[k - 1];
	s->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	for (int i = 0; i < k; i++)
		sum += v[i];
	s->mean = sum / k;
	for (int i = 0; i < k; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = k > 1 ? sqrt(ss / (k - 1)) : NAN;
	s->trimmed = k / 5;
	sum = 0;
	for (int i = s->trimmed; i < k - s->trimmed; i++)
		sum += v[i];
	s->trimmed_mean = sum / (k - 2 * s->trimmed);
	/* [X(j), X(k-j+1)] covers the median with probability 1 - 2 P(Bin(k, 1/2) <= j - 1):
	 * the narrowest with coverage >= 0.95, or [min, max] when no j reaches it */
	int best = 1;
	for (int j = 1; j <= k / 2; j++)
		if (1 - 2 * binom_cdf_half(k, j - 1) >= 0.95)
			best = j;
	s->ci_low = v[best - 1];
	s->ci_high = v[k - best];
	s->ci_level = 1 - 2 * binom_cdf_half(k, best - 1);
	free(v);
}

/* Exact P(U <= u) for sample sizes m, n without ties: the number of
 * arrangements with rank-sum statistic U counted by recursion
 * f(u; m, n) = f(u - n; m - 1, n) + f(u; m, n - 1), over C(m + n, m). */
static double exact_cdf(int m, int n, double u)
{
	int umax = m * n, uu = (int)floor(u + 1e-9);
	double total = 0, below = 0;
	/* table[j][w]: arrangements of i of the first sample and j of the second with U = w */
	double *table = calloc((size_t)(m + 1) * (size_t)(n + 1) * (size_t)(umax + 1), sizeof(*table));

	if (!table)
		return NAN;
#define T(i, j, w) table[((size_t)(i) * (size_t)(n + 1) + (size_t)(j)) * (size_t)(umax + 1) + (size_t)(w)]
	for (int i = 0; i <= m; i++)
		for (int j = 0; j <= n; j++)
			for (int w = 0; w <= umax; w++) {
				if (i == 0 || j == 0) {
					T(i, j, w) = w == 0;
					continue;
				}
				/* the largest value belongs to the first sample (it beats all j) or the second */
				T(i, j, w) = (w >= j ? T(i - 1, j, w - j) : 0) + T(i, j - 1, w);
			}
	for (int w = 0; w <= umax; w++) {
		total += T(m, n, w);
		if (w <= uu)
			below += T(m, n, w);
	}
#undef T
	free(table);
	return below / total;
}

int td_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p)
{
	double *x = NULL, *y = NULL, ua = 0, tie = 0;
	int m = sorted(a, na, &x), n = sorted(b, nb, &y), ties = 0;

	if (m <= 0 || n <= 0) {
		free(x);
		free(y);
		return -1;
	}
	/* U of a: pairs where a's value is larger, ties counting a half */
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			ua += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	/* ties among all values: the variance's correction */
	{
		int N = m + n, k = 0;
		double *all = malloc((size_t)N * sizeof(*all));
		if (!all) {
			free(x);
			free(y);
			return -1;
		}
		memcpy(all, x, (size_t)m * sizeof(*all));
		memcpy(all + m, y, (size_t)n * sizeof(*all));
		qsort(all, (size_t)N, sizeof(*all), cmp_double);
		while (k < N) {
			int t = 1;
			while (k + t < N && all[k + t] == all[k])
				t++;
			if (t > 1) {
				ties++;
				tie += (double)t * t * t - t;
			}
			k += t;
		}
		free(all);
		*u = ua;
		if (!ties && m * n <= 400) {
			double lo = fmin(ua, (double)m * n - ua);
			*p = fmin(1.0, 2 * exact_cdf(m, n, lo));
		} else {
			double mu = (double)m * n / 2;
			double var = (double)m * n / 12 * ((N + 1) - tie / ((double)N * (N - 1)));
			double z = var > 0 ? (fabs(ua - mu) - 0.5) / sqrt(var) : 0;
			*p = var > 0 ? fmin(1.0, erfc(fmax(z, 0) / sqrt(2))) : 1.0;
		}
	}
	free(x);
	free(y);
	return 0;
}
