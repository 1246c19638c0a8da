/* bench_floor: the floor of one interval of a BPF-counted session (issue 32,
 * part 3) — what an interval must do at the least: copy the sums of the
 * threads that changed out of a mapped table laid out as the counting
 * program's (a thread's sums: per event a value, plus its enabled and
 * running, and its voluntary and involuntary switches), compare them with
 * the last copy, and write one transaction through the store API: the
 * interval's row, its cost, per changed thread the packed samples rows a
 * session writes (its group of EVENTS values, its two switch counts;
 * td_store_counts_add, batched as the session's sink does), commit. Nothing else (no tracker, no live metrics, no poll loop).
 * Prints the CPU time of that per interval; given the database of a real
 * `tdctl attach -I 100` run (bench_vs_perf.sh keeps none; make one with
 * tdctl), it takes the threads and the rows per interval from it and prints
 * its recorded cost per interval (intervals.collector_ns) against the floor.
 * The floor is measured twice: intervals back to back (caches warm: what
 * the code costs) and one every PERIOD ms (the session's interval_ms with
 * REAL.db, else 100), as a session runs them: a process that sleeps 100 ms
 * between intervals finds its caches, TLB and branch predictors cold
 * (other processes ran meanwhile), and the same work costs it about three
 * times as much (0.08 against 0.26 ms at 13 threads, measured
 * 2026-11-28 on the 2-vCPU VM, load 11-13). A real session is compared
 * with the second.
 * Prints numbers; never passes or fails.
 * usage: bench_floor [THREADS] [CHANGED] [INTERVALS] [REAL.db] [PERIOD_MS] */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "store/store.h"

#define EVENTS 6

struct sums {
	uint64_t value[EVENTS], enabled, running, switches[2];
	uint32_t pid, tid; /* as the program's entries: a key beside the sums */
};

static const struct td_session_info info = {
	.kind = "attach", .command = "bench_floor", .interval_ms = 100, .smt = -1
};

/* One number from a query of db, -1 when it cannot be read. */
static double real_number(const char *db, const char *sql)
{
	sqlite3 *d;
	sqlite3_stmt *st;
	double v = -1;

	if (sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(d, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
			v = sqlite3_column_double(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(d);
	return v;
}

/* The 1-minute load average, -1 when unread. */
static double loadavg_1min(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1000, changed = argc > 2 ? atoi(argv[2]) : 200,
	    intervals = argc > 3 ? atoi(argv[3]) : 200;
	const char *real = argc > 4 && *argv[4] ? argv[4] : NULL;
	double real_ns = -1, real_rows = -1, period_ms = argc > 5 ? atof(argv[5]) : 0;
	char dir[] = "/tmp/td-bench-floor.XXXXXX", path[64];
	struct td_store *s;
	td_err err;

	if (real) {
		real_ns = real_number(real, "select avg(collector_ns) from intervals where seq > 10");
		real_rows = real_number(
			real,
			"select 1.0 * count(*) / (select count(*) from intervals) from samples where target_id in "
			"(select id from targets where kind = 'thread' and tid > 0) and event_id = (select min(id) "
			"from events)");
		double t = real_number(real, "select count(*) from targets where kind = 'thread' and tid > 0");
		if (real_ns < 0 || real_rows < 0 || t <= 0) {
			fprintf(stderr, "bench_floor: %s holds no attach session with intervals\n", real);
			return 1;
		}
		threads = (int)t;
		changed = (int)(real_rows + 0.5);
		if (period_ms <= 0)
			period_ms = real_number(real, "select max(interval_ms) from sessions");
	}
	if (period_ms <= 0)
		period_ms = 100;
	if (threads <= 0 || changed < 0 || changed > threads || intervals <= 0) {
		fprintf(stderr, "usage: bench_floor [THREADS] [CHANGED <= THREADS] [INTERVALS] [REAL.db]\n");
		return 1;
	}
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f.db", dir);
	if (td_store_open(path, TD_STORE_WRITE, &s, &err)) {
		fprintf(stderr, "bench_floor: %s\n", err.msg);
		return 1;
	}
	/* the session, its threads and events, as a session's start writes them (not timed) */
	int64_t sess = td_store_session_begin(s, &info, &err), ev0 = 0, sw0 = 0,
		*tid_ids = calloc((size_t)threads, sizeof(int64_t));
	struct sums *map = calloc((size_t)threads, sizeof(*map)), *copy = calloc((size_t)threads, sizeof(*copy));
	if (sess < 0 || !tid_ids || !map || !copy || td_store_begin(s))
		return 1;
	for (int e = 0; e < EVENTS; e++) {
		int64_t id = td_store_event_add(s, sess, "E", "perf::E", 0, 1, (uint64_t)e, "counting", NULL, NULL);
		if (e == 0)
			ev0 = id;
	}
	for (int k = 0; k < 2; k++) {
		int64_t id = td_store_event_add(s, sess, k ? "INVOLUNTARY_SWITCHES" : "VOLUNTARY_SWITCHES", "proc", -1,
						0, 0, "counting", NULL, NULL);
		if (k == 0)
			sw0 = id;
	}
	for (int t = 0; t < threads; t++) {
		tid_ids[t] = td_store_thread_add(s, sess, 1000, 1000 + t, "busy", td_wall_ns());
		map[t].pid = 1000;
		map[t].tid = 1000 + (uint32_t)t;
	}
	if (td_store_commit(s))
		return 1;

	uint64_t wall = td_wall_ns();
	double floor_ms[2];
	int next = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint64_t cpu0 = td_process_cpu_ns(), nap_us = pass ? (uint64_t)(period_ms * 1000) : 0;
		for (int i = pass * intervals; i < (pass + 1) * intervals; i++) {
			if (nap_us) {
				/* the time a session waits for its next interval, not counted (CPU time only) */
				uint64_t cpu = td_process_cpu_ns();
				usleep((useconds_t)nap_us);
				cpu0 += td_process_cpu_ns() - cpu;
			}
			/* the program adds to `changed` threads' sums (not timed apart: a store of a few words) */
			for (int k = 0; k < changed; k++, next = (next + 1) % threads) {
				for (int e = 0; e < EVENTS; e++)
					map[next].value[e] += 1000 + (uint64_t)e;
				map[next].enabled += 100000000;
				map[next].running += 100000000;
				map[next].switches[next % 2]++;
			}
			if (td_store_begin(s))
				return 1;
			int64_t iv = td_store_interval_add(s, sess, i + 1, wall + (uint64_t)i * 100000000u,
							   wall + (uint64_t)(i + 1) * 100000000u);
			td_store_batch_begin(s);
			for (int t = 0; t < threads; t++) {
				struct sums now = map[t]; /* the copy out of the mapped table */
				if (now.running == copy[t].running &&
				    !memcmp(now.value, copy[t].value, sizeof(now.value)))
					continue;
				struct td_store_count c[EVENTS];
				for (int e = 0; e < EVENTS; e++)
					c[e] = (struct td_store_count){ ev0 + e, now.value[e] - copy[t].value[e],
									now.enabled - copy[t].enabled,
									now.running - copy[t].running };
				struct td_store_count sw[2];
				for (int k = 0; k < 2; k++)
					sw[k] = (struct td_store_count){ sw0 + k, now.switches[k] - copy[t].switches[k],
									 1, 1 };
				copy[t] = now;
				if (td_store_counts_add(s, iv, tid_ids[t], c, EVENTS) ||
				    td_store_counts_add(s, iv, tid_ids[t], sw, 2))
					return 1;
			}
			if (iv < 0 || td_store_batch_end(s) || td_store_interval_cost(s, iv, 0, 1, 0) ||
			    td_store_commit(s))
				return 1;
		}
		floor_ms[pass] = (double)(td_process_cpu_ns() - cpu0) / 1e6 / intervals;
	}

	printf("bench_floor: %d threads, %d of them changed per interval, %d events, %d intervals: "
	       "%.3f ms of CPU per interval back to back, %.3f ms one every %.0f ms (copy, compare, one "
	       "transaction of 2 rows a changed thread); load %.2f\n",
	       threads, changed, EVENTS, intervals, floor_ms[0], floor_ms[1], period_ms, loadavg_1min());
	if (real)
		printf("  %s: tdctl recorded %.3f ms per interval (after its 10th) for %.0f rows an interval: "
		       "%.2f x the floor at its period (%.2f x back to back)\n",
		       real, real_ns / 1e6, real_rows, real_ns / 1e6 / floor_ms[1], real_ns / 1e6 / floor_ms[0]);
	td_store_close(s);
	free(tid_ids);
	free(map);
	free(copy);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? 1 : 0;
}
