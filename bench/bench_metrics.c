/* bench_metrics: evaluates the biggest events file's whole tree (or the
 * test-only tree when no events file has nodes) on 1,000,000 intervals of
 * synthetic counts and prints nodes evaluated per second against the goal
 * of 10 million per second. Prints a ratio; never passes or fails.
 * usage: bench_metrics [FILE.td] [INTERVALS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "eval/metrics.h"
#include "model/model.h"
#include "base/util.h"

#define GOAL_NODES_PER_S 10e6

/* The .td in dir with the most node lines (path into best, its count returned). */
static int biggest_file(const char *dir, char *best, size_t len)
{
	char **names;
	int n = td_list_dir(dir, ".td", &names), most = 0;

	for (int i = 0; i < n; i++) {
		char path[1024];
		struct td_catalog *cat;
		td_err err;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (td_catalog_load(path, &cat, &err))
			continue;
		int nodes = 0;
		for (int k = 0; k < cat->ndefs; k++)
			nodes += !strcmp(cat->defs[k].keyword, "node");
		if (nodes > most) {
			most = nodes;
			snprintf(best, len, "%s", path);
		}
		td_catalog_free(cat);
	}
	td_free_names(names, n);
	return most;
}

static void pick_file(int argc, char **argv, char *path, size_t len)
{
	if (argc > 1) {
		snprintf(path, len, "%s", argv[1]);
		return;
	}
	if (biggest_file(td_events_dir(NULL), path, len) > 0)
		return;
	snprintf(path, len, "%s/tests/data/events/test-engine.td",
		 getenv("TD_SRCDIR") ? getenv("TD_SRCDIR") : TD_SRCDIR_DEFAULT);
}

/* Counts that vary per interval (a small LCG), plausible in size. */
static void synth(double *counts, int n, unsigned *seed)
{
	for (int i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		counts[i] = 1e8 + (double)(*seed >> 8) * 10.0;
	}
}

int main(int argc, char **argv)
{
	char path[1024];
	struct td_catalog *cat;
	struct td_model *m;
	td_err err;
	long intervals = argc > 2 ? atol(argv[2]) : 1000000;
	const int batch = 1024;

	pick_file(argc, argv, path, sizeof(path));
	if (td_catalog_load(path, &cat, &err) || td_model_compile(cat, &m, &err)) {
		fprintf(stderr, "bench_metrics: %s\n", err.msg);
		return 1;
	}
	struct td_metrics *mx = td_metrics_new(m);
	double *counts = malloc((size_t)batch * (size_t)(cat->nevents + 1) * sizeof(double));
	unsigned seed = 1;
	double sink = 0;
	synth(counts, batch * cat->nevents, &seed); /* pre-generated: time the engine, not the generator */
	td_metrics_set(mx, "DURATION", 1.0, &err);
	td_metrics_set(mx, "NUM_CPUS", 8, &err);

	uint64_t t0 = td_now_ns();
	for (long i = 0; i < intervals; i++) {
		td_metrics_eval(mx, counts + (size_t)(i % batch) * (size_t)cat->nevents);
		sink += mx->bottleneck + (m->nnodes ? mx->node[0] : 0);
	}
	double secs = (double)(td_now_ns() - t0) / 1e9;
	double nodes_per_s = (double)m->nnodes * (double)intervals / secs;

	printf("file: %s (%d nodes, %d info, %d cpi, %d formulas, %d events)\n", cat->name, m->nnodes, m->ninfos,
	       m->ncpis, m->norder, cat->nevents);
	printf("intervals: %ld in %.3f s = %.0f intervals/s (%.2f us each)\n", intervals, secs,
	       (double)intervals / secs, secs / (double)intervals * 1e6);
	printf("nodes evaluated per second: %.3g\n", nodes_per_s);
	printf("ratio to goal (10M nodes/s): %.2f\n", nodes_per_s / GOAL_NODES_PER_S);
	printf("(checksum %g)\n", sink);
	td_metrics_free(mx);
	td_model_free(m);
	td_catalog_free(cat);
	free(counts);
	return 0;
}
