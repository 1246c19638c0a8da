/* group_probe: does every group of a plan go on the PMU? (group_probe.h)
 *
 * The kernel checks a group at open against an empty PMU (validate_group,
 * linux 6.12.117 arch/x86/events/core.c:2394), not against what is pinned
 * there: a group that needs a counter a pinned event holds — the NMI
 * watchdog's cycles on fixed counter 1 (kernel/watchdog_perf.c), another
 * tool's pinned event — opens, and then never goes on. merge_sched_in
 * (kernel/events/core.c:3966) fails it at every turn it heads the flexible
 * groups, and sets can_add_hw = 0, so no later group goes on in that turn
 * either; perf_rotate_context moves the first group to the tail every
 * perf_event_mux_interval_ms of the context's time (:4353-4380,
 * ctx_event_to_rotate :4383), so every group heads the list within one
 * round of turns. A group that can fit beside the pinned events therefore
 * runs within (groups + 1) turns; one that enabled that long with running 0
 * never will.
 *
 * So the plan's hardware groups are opened together, as a target thread
 * gets them, on a thread of ours spinning in user space at normal priority,
 * and read until each has been enabled a round; a part that never ran is
 * divided in halves (perf stat's weak group made coarser: the halves of
 * td_perf_group_split's even phase) and the whole set probed again, down to
 * single events. The set is read every mux interval until each part has
 * run or been enabled a round: where every group fits (the usual case) a
 * few turns. A task event's time_enabled advances only while the task
 * runs (the context's time, update_context_time), as the rotation does, so
 * a loaded CPU makes the probe longer, not wrong; past TD_PROBE_WALL_NS a
 * part not yet enabled a round is left as it is. */
#include "group_probe.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "spinner.h"

/* The longest the probe waits for its thread to run a round (a host so
 * loaded that it does not: the parts not judged are left whole). */
#define TD_PROBE_WALL_NS 2000000000ull

bool td_group_probe_wanted(const struct td_perf_group_spec *s)
{
	for (int k = 0; k < s->n; k++)
		if (s->attrs[k].type != PERF_TYPE_SOFTWARE && s->attrs[k].type != PERF_TYPE_TRACEPOINT &&
		    s->attrs[k].type != PERF_TYPE_BREAKPOINT)
			return true;
	return false;
}

/* Divide part `part` of s in halves (the later members and parts move one
 * part up). */
static void halve(struct td_perf_group_spec *s, int part)
{
	int first = -1, n = 0;

	for (int i = 0; i < s->n; i++)
		if (s->sub[i] == part) {
			if (first < 0)
				first = i;
			n++;
		}
	for (int i = first + (n + 1) / 2; i < s->n; i++)
		s->sub[i]++;
}

static void say_split(const struct td_perf_group_spec *s, uint64_t enabled_ns, char *buf, size_t len)
{
	char parts[128];

	td_perf_group_parts_say(s, parts, sizeof(parts));
	snprintf(buf, len,
		 "the kernel never ran it: enabled %.1f ms of a thread's time, running 0 (a counter it needs is held "
		 "by a pinned event, e.g. the NMI watchdog); counted as %s",
		 (double)enabled_ns / 1e6, parts);
}

/* One round: open the probed specs on tid, read until every part has been
 * enabled `round_ns` or the wall time is up; never[g][p] is set for a part
 * enabled a round with running 0. A spec that does not open on tid is not
 * probed. -errno when a reading fails. */
static int probe_round(struct td_perf_group_spec *specs, int nspecs, const bool *probe, pid_t tid, uint64_t mux_ns,
		       bool (*never)[TD_GROUP_MAX], uint64_t *longest)
{
	struct td_perf_group *g = calloc((size_t)nspecs, sizeof(*g));
	struct td_reading r;
	uint64_t start = td_now_ns(), round_ns;
	int parts = 0, rc = 0, failed;
	bool judged;

	if (!g)
		return -ENOMEM;
	/* a spec that does not open here is not probed (its first open says why) */
	for (int i = 0; i < nspecs; i++)
		if (probe[i] && td_perf_group_open(&g[i], &specs[i], tid, -1, 0, &failed) == 0)
			parts += td_perf_group_parts(&specs[i]);
	if (parts == 0)
		goto out;
	round_ns = (uint64_t)(parts + 1) * mux_ns;
	do {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)mux_ns };
		nanosleep(&ts, NULL);
		judged = true;
		for (int i = 0; i < nspecs && judged; i++) {
			if (!g[i].n)
				continue;
			if ((rc = td_perf_group_read(&g[i], &r)) != 0)
				goto out;
			/* a part is judged once it ran, or enabled a round without running */
			for (int k = 0; k < specs[i].n; k++)
				judged &= (r.split ? r.m_running[k] : r.running) > 0 ||
					  (r.split ? r.m_enabled[k] : r.enabled) >= round_ns;
		}
	} while (!judged && td_now_ns() - start < TD_PROBE_WALL_NS);
	for (int i = 0; i < nspecs; i++) {
		if (!g[i].n)
			continue;
		if ((rc = td_perf_group_read(&g[i], &r)) != 0)
			goto out;
		for (int k = 0; k < specs[i].n; k++) {
			uint64_t en = r.split ? r.m_enabled[k] : r.enabled, run = r.split ? r.m_running[k] : r.running;
			if (en >= round_ns && run == 0) {
				never[i][specs[i].sub[k]] = true;
				if (en > longest[i])
					longest[i] = en;
			}
		}
	}
out:
	for (int i = 0; i < nspecs; i++)
		if (g[i].n)
			td_perf_group_close(&g[i]);
	free(g);
	return rc;
}

int td_group_probe(struct td_perf_group_spec *specs, int nspecs, const bool *probe, int mux_ms,
		   char (*why)[TD_GROUP_PROBE_WHY], int *split)
{
	struct td_spinner s;
	bool(*never)[TD_GROUP_MAX] = calloc((size_t)nspecs, sizeof(*never));
	uint64_t *longest = calloc((size_t)nspecs, sizeof(*longest));
	bool *was_split = calloc((size_t)nspecs, sizeof(*was_split));
	uint8_t(*subs)[TD_GROUP_MAX] = calloc((size_t)nspecs, sizeof(*subs));
	int rc;

	*split = 0;
	if (!never || !longest || !was_split || !subs) {
		rc = -ENOMEM;
		goto out_free;
	}
	for (int i = 0; i < nspecs; i++)
		memcpy(subs[i], specs[i].sub, sizeof(subs[i]));
	/* a target runs at normal priority, whatever the sampler's: the spinner too (and never
	 * holds a CPU the sampler, sleeping meanwhile, shares with it) */
	if ((rc = td_spinner_start(&s, -1, true)) != 0) {
		rc = -rc;
		goto out_free;
	}
	for (;;) {
		bool more = false;
		memset(never, 0, (size_t)nspecs * sizeof(*never));
		if ((rc = probe_round(specs, nspecs, probe, s.tid, (uint64_t)mux_ms * 1000000, never, longest)) != 0)
			break;
		for (int i = 0; i < nspecs; i++) {
			if (!probe[i])
				continue;
			/* from the last part down: halving one renumbers the parts after it */
			for (int p = td_perf_group_parts(&specs[i]) - 1; p >= 0; p--) {
				int n = 0;
				for (int k = 0; k < specs[i].n; k++)
					n += specs[i].sub[k] == p;
				if (!never[i][p] || n < 2)
					continue;
				halve(&specs[i], p);
				was_split[i] = more = true;
			}
		}
		if (!more)
			break;
	}
	td_spinner_stop(&s);
	for (int i = 0; i < nspecs && rc != 0; i++) /* nothing changed when it could not finish */
		memcpy(specs[i].sub, subs[i], sizeof(subs[i]));
	for (int i = 0; i < nspecs && rc == 0; i++)
		if (was_split[i]) {
			say_split(&specs[i], longest[i], why[i], TD_GROUP_PROBE_WHY);
			(*split)++;
		}
out_free:
	free(never);
	free(longest);
	free(was_split);
	free(subs);
	return rc ? -1 : 0;
}
