/* bench_bytes: a synthetic session written through the store API as live
 * collection writes it — THREADS threads, INTERVALS intervals of MS, perf
 * groups of the given sizes (the values of one group read together:
 * one enabled/running), values of realistic magnitudes for a busy thread
 * at that period (a group's first value cycles-like, about 3 GHz; the
 * others from 1e8 down to 1e3, varying by interval and thread). Prints the
 * bytes the file takes per thread-interval against the raw payload (8
 * bytes per value, 16 per group's enabled/running) and the MB an hour at
 * that rate. bench_bytes.sh runs it on the Skylake level-3 plan's groups.
 * usage: bench_bytes DB THREADS INTERVALS MS SIZE...  (group sizes) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "store/store.h"

static const struct td_session_info info = { .kind = "run", .command = "bench_bytes", .smt = -1 };

/* A deterministic spread in [0.5, 1.5). */
static double spread(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return 0.5 + (double)((*state >> 8) & 0xffff) / 65536.0;
}

static long long file_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

int main(int argc, char **argv)
{
	static const double magnitude[] = { 3e8, 1e8, 3e7, 1e7, 1e6, 1e5, 1e4, 1e3 };
	struct td_session_info si = info;
	struct td_store *s;
	struct td_store_count *c;
	int64_t sess, *thread, **event;
	int nthreads, nintervals, ms, ngroups, nvalues = 0;
	int *size;
	unsigned seed = 1;
	td_err err;

	if (argc < 6 || (nthreads = atoi(argv[2])) < 1 || (nintervals = atoi(argv[3])) < 1 ||
	    (ms = atoi(argv[4])) < 1) {
		fprintf(stderr, "usage: bench_bytes DB THREADS INTERVALS MS SIZE...\n");
		return 2;
	}
	ngroups = argc - 5;
	size = calloc((size_t)ngroups, sizeof(*size));
	event = calloc((size_t)ngroups, sizeof(*event));
	thread = calloc((size_t)nthreads, sizeof(*thread));
	if (!size || !event || !thread)
		return 1;
	for (int g = 0; g < ngroups; g++) {
		size[g] = atoi(argv[5 + g]);
		if (size[g] < 1 || !(event[g] = calloc((size_t)size[g], sizeof(**event)))) {
			fprintf(stderr, "bench_bytes: bad group size '%s'\n", argv[5 + g]);
			return 2;
		}
		nvalues += size[g];
	}
	if (!(c = calloc((size_t)nvalues, sizeof(*c))))
		return 1;
	unlink(argv[1]);
	si.interval_ms = ms;
	if (td_store_open(argv[1], TD_STORE_WRITE, &s, &err) || (sess = td_store_session_begin(s, &si, &err)) < 0) {
		fprintf(stderr, "bench_bytes: %s\n", err.msg);
		return 1;
	}
	for (int g = 0; g < ngroups; g++)
		for (int i = 0; i < size[g]; i++)
			event[g][i] = td_store_event_add(s, sess, "E", "cpu/event=0x0/", g, 4, (uint64_t)(g * 64 + i),
							 "counting", NULL, "bench.td");
	for (int t = 0; t < nthreads; t++)
		thread[t] = td_store_thread_add(s, sess, 1000, 1000 + t, "bench", 0);
	for (int k = 0; k < nintervals; k++) {
		uint64_t start = (uint64_t)k * (uint64_t)ms * 1000000u, len = (uint64_t)ms * 1000000u;
		int64_t iv;
		if (td_store_begin(s) || (iv = td_store_interval_add(s, sess, k, start, start + len)) < 0)
			goto fail;
		for (int t = 0; t < nthreads; t++)
			for (int g = 0; g < ngroups; g++) {
				/* multiplexed groups: each counted part of the interval */
				uint64_t running = (uint64_t)((double)len / ngroups * spread(&seed));
				for (int i = 0; i < size[g]; i++) {
					double m = magnitude[i < 8 ? i : 7] * (double)ms / 100.0 / ngroups;
					c[i] = (struct td_store_count){ event[g][i], (uint64_t)(m * spread(&seed)), len,
									running };
				}
				if (td_store_counts_add(s, iv, thread[t], c, size[g]))
					goto fail;
			}
		if (td_store_commit(s))
			goto fail;
	}
	if (td_store_session_end(s, sess, "completed", 0, NULL))
		goto fail;
	td_store_close(s);
	{
		long long bytes = file_bytes(argv[1]);
		double per = (double)bytes / ((double)nthreads * nintervals);
		double payload = 8.0 * nvalues + 16.0 * ngroups;
		printf("%d threads x %d intervals of %d ms, %d groups, %d values: %.1f bytes per thread-interval, "
		       "payload %.0f; ratio %.2f (goal <= 3); %.1f MB per hour\n",
		       nthreads, nintervals, ms, ngroups, nvalues, per, payload, per / payload,
		       per * nthreads * (3600000.0 / ms) / 1e6);
	}
	return 0;
fail:
	fprintf(stderr, "bench_bytes: %s\n", td_store_errmsg(s));
	return 1;
}
