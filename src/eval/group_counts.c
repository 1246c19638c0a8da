/* group_counts: scaled counts per perf group and alias (see group_counts.h). */
#include "group_counts.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

double td_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return enabled == 0 ? (double)value : NAN; /* never enabled: a task that did not run counted nothing */
	if (running >= enabled)
		return (double)value;
	return (double)value * ((double)enabled / (double)running);
}

double td_coverage(uint64_t enabled, uint64_t running)
{
	if (enabled == 0)
		return NAN;
	return running >= enabled ? 1.0 : (double)running / (double)enabled;
}

int td_group_counts_init(struct td_group_counts *c, int n, int ngroups)
{
	size_t k = (size_t)(n > 0 ? n : 1) * (size_t)(ngroups > 0 ? ngroups : 1);

	c->n = n;
	c->ngroups = ngroups > 0 ? ngroups : 1;
	c->val = malloc(k * sizeof(double));
	c->cov = malloc(k * sizeof(double));
	c->rows = malloc(k * sizeof(int));
	c->en = malloc(k * sizeof(double));
	c->gap = malloc(k * sizeof(double));
	if (!c->val || !c->cov || !c->rows || !c->en || !c->gap) {
		td_group_counts_free(c);
		return -1;
	}
	td_group_counts_clear(c);
	return 0;
}

void td_group_counts_free(struct td_group_counts *c)
{
	free(c->val);
	free(c->cov);
	free(c->rows);
	free(c->en);
	free(c->gap);
	c->val = c->cov = c->en = c->gap = NULL;
	c->rows = NULL;
}

void td_group_counts_clear(struct td_group_counts *c)
{
	for (int i = 0; i < c->n * c->ngroups; i++) {
		c->val[i] = c->cov[i] = NAN;
		c->rows[i] = 0;
		c->en[i] = c->gap[i] = 0;
	}
}

void td_group_counts_add_row(struct td_group_counts *c, int group, int alias, uint64_t value, uint64_t enabled,
			     uint64_t running)
{
	int i = group * c->n + alias;
	double v = td_scale(value, enabled, running), cov = td_coverage(enabled, running);

	assert(group >= 0 && group < c->ngroups && alias >= 0 && alias < c->n);
	if (isnan(v)) {
		if (!c->rows[i]) /* not counted so far: how long it was enabled without running */
			c->en[i] = fmax(c->en[i], (double)enabled);
		return;
	}
	c->en[i] = c->rows[i] ? (c->en[i] * c->rows[i] + (double)enabled) / (c->rows[i] + 1) : (double)enabled;
	c->val[i] = c->rows[i] ? (c->val[i] * c->rows[i] + v) / (c->rows[i] + 1) : v;
	c->rows[i]++;
	if (!isnan(cov))
		c->cov[i] = isnan(c->cov[i]) ? cov : fmin(c->cov[i], cov);
}

void td_group_counts_zero(struct td_group_counts *c)
{
	for (int i = 0; i < c->n * c->ngroups; i++) {
		c->val[i] = 0;
		c->cov[i] = NAN;
		c->rows[i] = 0;
		c->en[i] = c->gap[i] = 0;
	}
}

void td_group_counts_add(struct td_group_counts *sum, const struct td_group_counts *part)
{
	assert(sum->n == part->n && sum->ngroups == part->ngroups);
	for (int i = 0; i < sum->n * sum->ngroups; i++) {
		sum->val[i] += part->val[i]; /* NaN + x is NaN */
		sum->en[i] += part->en[i];
		sum->gap[i] += part->gap[i];
		if (!isnan(part->cov[i]))
			sum->cov[i] = isnan(sum->cov[i]) ? part->cov[i] : fmin(sum->cov[i], part->cov[i]);
	}
}

void td_group_counts_add_time(struct td_group_counts *sum, const struct td_group_counts *part)
{
	assert(sum->n == part->n && sum->ngroups == part->ngroups);
	for (int i = 0; i < sum->n * sum->ngroups; i++) {
		if (isnan(part->val[i]) && part->en[i] > 0) { /* multiplexed out the whole part */
			sum->gap[i] += part->en[i] + part->gap[i];
			sum->rows[i]++;
			continue;
		}
		if (isnan(part->val[i]) && part->rows[i] == 0 && part->gap[i] == 0)
			continue; /* no row: nothing of it moved in this part */
		sum->rows[i]++;
		sum->val[i] += part->val[i];
		sum->en[i] += part->en[i];
		sum->gap[i] += part->gap[i];
		if (!isnan(part->cov[i]))
			sum->cov[i] = isnan(sum->cov[i]) ? part->cov[i] : fmin(sum->cov[i], part->cov[i]);
	}
}

void td_group_counts_extrapolate(struct td_group_counts *c)
{
	for (int i = 0; i < c->n * c->ngroups; i++) {
		if (c->rows[i] == 0) /* no part had a row of it (add_time) */
			c->val[i] = NAN;
		if (c->gap[i] <= 0)
			continue;
		if (c->en[i] > 0 && !isnan(c->val[i])) {
			double share = c->en[i] / (c->en[i] + c->gap[i]);
			c->val[i] /= share;
			c->cov[i] = isnan(c->cov[i]) ? share : fmin(c->cov[i], share);
		} else {
			c->val[i] = NAN; /* counted in no part */
		}
		c->en[i] += c->gap[i];
		c->gap[i] = 0;
	}
}

bool td_group_counts_any(const struct td_group_counts *c)
{
	for (int i = 0; i < c->n * c->ngroups; i++)
		if (c->rows[i] > 0 || c->en[i] > 0 || c->gap[i] > 0)
			return true;
	return false;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int td_group_numbers_dense(int *group, int n)
{
	int *sorted = malloc(((size_t)n + 1) * sizeof(int)), k = 0;

	if (!sorted)
		return -1;
	for (int i = 0; i < n; i++)
		sorted[i] = group[i];
	qsort(sorted, (size_t)n, sizeof(int), cmp_int);
	for (int i = 0; i < n; i++)
		if (i == 0 || sorted[i] != sorted[k - 1])
			sorted[k++] = sorted[i];
	for (int i = 0; i < n; i++)
		group[i] = (int)((int *)bsearch(&group[i], sorted, (size_t)k, sizeof(int), cmp_int) - sorted);
	free(sorted);
	return k > 0 ? k : 1;
}
