/* watch_replay: the verdicts watch mode's rule (src/topdownd/watch_trigger.c)
 * gives the rows a daemon decided on, read back from its TD_DEBUG_WATCH
 * file (bench_watch_steady.sh keeps it as rows): each block — a "# GROUP
 * NODE verdict V: WHY" line, then baseline + 2 x window rows of the
 * nodes' values, the CPU time and the wait — fed to a new series, and the
 * verdict and the rule's reading printed beside the daemon's. To try a
 * change of the rule on what a 600 s run met without running it again.
 * Usage: watch_replay ROWS [BASELINE WINDOW P_VALUE MIN_SHIFT NCPUS]
 * (default 30 5 0.01 10 and the CPUs online: topdownd.conf's defaults). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topdownd/watch_trigger.h"

static const char *name(enum td_watch_verdict v)
{
	return v == TD_WATCH_NONE	? "none"
	       : v == TD_WATCH_CHANGE	? "change"
	       : v == TD_WATCH_HELD_CPU ? "held (neighbours)"
					: "held (limits)";
}

/* One block's rows (rows x cols values) through a new series; its verdict printed. */
static void replay(const char *head, const double *vals, int rows, int cols, const struct td_watch_params *pr)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t = { 0 };
	enum td_watch_verdict v = TD_WATCH_NONE;

	if (td_watch_series_init(&s, pr, cols - 2) || td_watch_limits_init(&l, pr)) {
		fprintf(stderr, "watch_replay: out of memory\n");
		exit(1);
	}
	for (int k = 0; k < rows; k++) {
		struct td_watch_cpu c = { vals[k * cols + cols - 2], vals[k * cols + cols - 1] };
		v = td_watch_add_cpu(&s, &l, pr, vals + k * cols, &c, 1000000000ull * (uint64_t)(k + 1), &t);
	}
	printf("%s\n  replayed: %s", head, name(v));
	if (v != TD_WATCH_NONE)
		printf(" (node %d %.3f -> %.3f, p = %.2g; CPU time %.3f -> %.3f, %.3f p = %.2g, %.2g; wait %.3f -> "
		       "%.3f, %.3f p = %.2g, %.2g: %s)",
		       t.node, t.before, t.after, t.p, t.run[0].before, t.run[0].after, t.run[1].after, t.run[0].p,
		       t.run[1].p, t.wait[0].before, t.wait[0].after, t.wait[1].after, t.wait[0].p, t.wait[1].p,
		       t.why ? t.why : "");
	printf("\n");
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

int main(int argc, char **argv)
{
	struct td_watch_params pr = { .baseline = 30,
				      .window = 5,
				      .p_value = 0.01,
				      .min_shift = 10,
				      .workload_every_ns = 1,
				      .per_hour = 1000000,
				      .ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN) };
	char *line = NULL, head[1024] = "";
	size_t cap = 0;
	double *vals = NULL;
	int n = 0, cols = 0, rows;
	FILE *f;

	if (argc != 2 && argc != 7) {
		fprintf(stderr, "usage: watch_replay ROWS [BASELINE WINDOW P_VALUE MIN_SHIFT NCPUS]\n");
		return 2;
	}
	if (argc == 7) {
		pr.baseline = atoi(argv[2]);
		pr.window = atoi(argv[3]);
		pr.p_value = atof(argv[4]);
		pr.min_shift = atof(argv[5]);
		pr.ncpus = atoi(argv[6]);
	}
	rows = pr.baseline + 2 * pr.window;
	if (!(f = fopen(argv[1], "re"))) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		bool end = getline(&line, &cap, f) < 0;
		if (end || line[0] == '#') {
			if (n == rows)
				replay(head, vals, rows, cols, &pr);
			else if (head[0])
				printf("%s\n  %d rows, not %d: not replayed (other parameters?)\n", head, n, rows);
			if (end)
				break;
			line[strcspn(line, "\n")] = 0;
			snprintf(head, sizeof(head), "%s", line);
			n = 0;
			continue;
		}
		int c = 0;
		double *row = NULL;
		for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n")) {
			double *r = realloc(row, (size_t)(c + 1) * sizeof(double));
			if (!r)
				return 1;
			row = r;
			row[c++] = strtod(tok, NULL);
		}
		if (!n) {
			cols = c;
			free(vals);
			if (!(vals = malloc((size_t)rows * (size_t)cols * sizeof(double))))
				return 1;
		}
		if (c != cols || n >= rows) {
			fprintf(stderr, "watch_replay: a row of %d values in a block of %d, or more than %d rows\n", c,
				cols, rows);
			return 1;
		}
		memcpy(vals + (size_t)n * (size_t)cols, row, (size_t)cols * sizeof(double));
		free(row);
		n++;
	}
	fclose(f);
	free(line);
	free(vals);
	return 0;
}
