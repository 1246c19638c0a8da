/* Unit tests for planner: group counts per level for the shipped Skylake,
 * Ice Lake, Sapphire Rapids and Zen 4 files (derived by hand below), the
 * counter rules on a small invented PMU (tests/data/planner/test-planner.td),
 * request errors, and a property test over random node sets checking every
 * plan with a checker written independently of planner_fit.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/catalog.h"
#include "model/model.h"
#include "plan/planner.h"

struct loaded {
	struct td_catalog *cat;
	struct td_model *m;
};

static struct loaded load(const char *rel)
{
	struct loaded l = { 0 };
	char path[1024];
	const char *src = getenv("TD_SRCDIR");
	td_err err;

	snprintf(path, sizeof(path), "%s/%s", src ? src : "..", rel);
	if (td_catalog_load(path, &l.cat, &err) || td_model_compile(l.cat, &l.m, &err))
		fail_msg("%s", err.msg);
	return l;
}

static void unload(struct loaded *l)
{
	td_model_free(l->m);
	td_catalog_free(l->cat);
}

static int groups_for(const char *rel, int level, bool smt, bool watchdog)
{
	struct loaded l = load(rel);
	struct td_plan_request rq = { .level = level, .smt = smt, .watchdog = watchdog };
	struct td_plan *p;
	td_err err;

	if (td_plan_make(l.m, &rq, &p, &err))
		fail_msg("%s", err.msg);
	int n = p->ngroups;
	assert_int_equal(p->multiplex, n > 1);
	assert_true(p->share > 1.0 / n - 1e-12 && p->share < 1.0 / n + 1e-12);
	td_plan_free(p);
	unload(&l);
	return n;
}

/* Skylake (intel-skl.td: gp=8 smt-gp=4 fixed=3; INST fixed 0, CLK_THREAD and
 * CLKS_ANY fixed 1, REF_TSC fixed 2 only).
 *
 * L1, SMT on (4 GP): SLOTS = 4 * CLKS_ANY/2, recovery = RECOVERY_ANY/2.
 *   Frontend_Bound  FE_NOT, CLKS_ANY
 *   Bad_Speculation UOPS_ISSUED, RETIRE_SLOTS, RECOVERY_ANY, CLKS_ANY
 *   Backend_Bound   FE_NOT, UOPS_ISSUED, RECOVERY_ANY, CLKS_ANY
 *   Retiring        RETIRE_SLOTS, CLKS_ANY
 *   union: 4 GP (FE_NOT UOPS_ISSUED RETIRE_SLOTS RECOVERY_ANY) + CLKS_ANY on
 *   fixed 1 -> 1 group. SMT off: the same with RECOVERY and CLK_THREAD -> 1.
 * L2, SMT on: the L2 nodes add FE_LAT_CYC (Fetch_Latency/Bandwidth),
 *   MACRO_FUSED + INST on fixed 0 (Heavy/Light_Operations: RETIRE_SLOTS,
 *   MACRO_FUSED, INST, CLKS_ANY), BR_MISP MC_COUNT (Branch_Mispredicts and
 *   Machine_Clears: 5 GP with the Bad_Speculation events > 4: spans),
 *   STALLS_TOTAL STALLS_MEM_ANY EXE_1 EXE_2 BOUND_ON_STORES (Memory/Core_Bound:
 *   9 GP with Backend_Bound's and Retiring's: spans). 13 distinct GP events /
 *   4 -> at least 4 groups. First fit: {UOPS_ISSUED RETIRE_SLOTS RECOVERY_ANY
 *   FE_NOT}, {RETIRE_SLOTS MACRO_FUSED FE_NOT FE_LAT_CYC}, then the spanning
 *   events {STALLS_TOTAL STALLS_MEM_ANY EXE_1 EXE_2}, {BOUND_ON_STORES BR_MISP
 *   MC_COUNT} -> 4.
 * L2, SMT off (8 GP): the non-spanning L2 events are 8 GP (FE_NOT FE_LAT_CYC
 *   UOPS_ISSUED RETIRE_SLOTS MACRO_FUSED RECOVERY BR_MISP MC_COUNT): group 1;
 *   Memory/Core_Bound (9 GP, span) add the five stall/port events: group 2 -> 2.
 * L3: 35 distinct GP events with SMT on (lower bound 9 groups of 4; first fit
 *   gives 10, and 7 nodes needing 5-9 GP are not collectable); 46 with SMT off
 *   (lower bound 6 groups of 8; first fit gives 7; nothing uncollectable
 *   besides the two spanning L2 nodes). */
static void test_skylake_levels(void **state)
{
	(void)state;
	assert_int_equal(groups_for("events/intel-skl.td", 1, true, false), 1);
	assert_int_equal(groups_for("events/intel-skl.td", 2, true, false), 4);
	assert_int_equal(groups_for("events/intel-skl.td", 3, true, false), 10);
	assert_int_equal(groups_for("events/intel-skl.td", 1, false, false), 1);
	assert_int_equal(groups_for("events/intel-skl.td", 2, false, false), 2);
	assert_int_equal(groups_for("events/intel-skl.td", 3, false, false), 7);
}

/* Ice Lake (intel-icl.td: gp=8 both ways, fixed=4, SLOTS_EV fixed 3 only and
 * topdown-group leader of TD_RET TD_BAD TD_FE TD_BE; 14 events on counters 0-3).
 * L1: TD_* take no counter, SLOTS_EV fixed 3; GP: UOP_DROPPING (Frontend_Bound)
 *   and CLEARS_COUNT (Backend_Bound) -> 1 group.
 * L2: Fetch_Latency FE_LAT_CYC UOP_DROPPING; Memory/Core_Bound STALLS_MEM_ANY
 *   BOUND_ON_STORES STALLS_TOTAL EXE_1 EXE_2 + CLEARS_COUNT UOP_DROPPING (7 GP);
 *   Branch_Mispredicts/Machine_Clears BR_MISP MC_COUNT + UOP_DROPPING
 *   CLEARS_COUNT (4 GP); Heavy/Light_Operations RETIRE_SLOTS UOPS_ISSUED
 *   MS_UOPS MITE_UOPS DEC0 DEC0_C1 (6 GP). 15 distinct GP events / 8 -> >= 2,
 *   but group 1 (Memory_Bound + Fetch_Latency: 8 GP) leaves no room, Heavy (6)
 *   and the mispredict pair (4) cannot share 8 -> 3 groups.
 * L3 (TMA 5.1 level 3, all of Fetch_Latency's, Fetch_Bandwidth's, Bad_Speculation's,
 *   Memory_Bound's, Core_Bound's, Light_Operations' and Heavy_Operations' children): 47
 *   distinct GP events -> >= 6 groups, 23 of them limited to counters 0-3 (with LSD.* and
 *   DSB2MITE_SWITCHES.PENALTY_CYCLES: the kernel's 0xA8-0xB0 range, intel_icl_event_constraints)
 *   -> >= 6; each node keeps its events together except the spanning L2_Bound, DRAM_Bound and
 *   Other_Light_Ops (12 GP events: Light_Operations and its three siblings'), so first fit gives
 *   9 with SMT on (CLK_DISTRIBUTED joins the core-clock formulas), 8 with it off. */
static void test_icelake_levels(void **state)
{
	(void)state;
	assert_int_equal(groups_for("events/intel-icl.td", 1, true, false), 1);
	assert_int_equal(groups_for("events/intel-icl.td", 2, true, false), 3);
	assert_int_equal(groups_for("events/intel-icl.td", 3, true, false), 9);
	assert_int_equal(groups_for("events/intel-icl.td", 3, false, false), 8);
	assert_int_equal(groups_for("events/intel-icl.td", 2, false, false), 3);
}

/* Sapphire Rapids (intel-spr.td: 8 PERF_METRICS events under SLOTS_EV).
 * L1 and L2 read only TD_* (no counter), SLOTS_EV (fixed 3) and UOP_DROPPING
 *   (1 GP) -> 1 group each: the general-purpose TOPDOWN.* fallback sits behind
 *   `if PM` with PM = available(PM_SUM), which planning takes as 1.
 * L3 (TMA 5.1 level 3) adds CLK_THREAD (fixed 1) and 54 distinct GP events -> >= 7
 *   groups; CXL_Mem_Bound (9 GP events, 7 of them on counters 0-3) and Other_Light_Ops
 *   (12: Light_Operations' five siblings' events) span groups, the other nodes keep their
 *   events together, and first fit gives 9.
 * Microcode_Sequencer = MS_UOPS_RET / SLOTS with SLOTS = SLOTS_EV if PM else
 *   SLOTS_P: it needs SLOTS_EV and, for PM, TD_RET TD_BAD TD_FE TD_BE (no
 *   counters) in its group, or SLOTS would fall back to the unplanned SLOTS_P
 *   in that group's window. */
static void test_sapphire_rapids_levels(void **state)
{
	(void)state;
	assert_int_equal(groups_for("events/intel-spr.td", 1, false, false), 1);
	assert_int_equal(groups_for("events/intel-spr.td", 2, false, false), 1);
	/* level 3 reads four events that set MSR 0x3F7 (INT_MISC.UNKNOWN_BRANCH_CYCLES = 0x7, UOPS_RETIRED.MS
	 * and its two cmask forms = 0x8): the register holds one value per group (`extra frontend 1`), the
	 * three MS forms share theirs, so they may sit together and take any counter (the kernel's
	 * 0x90-0xFE range); with SMT on CORE_CLKS adds CPU_CLK_UNHALTED.DISTRIBUTED to the MS-based
	 * formulas, which still fit the groups first fit makes: 9 either way */
	assert_int_equal(groups_for("events/intel-spr.td", 3, false, false), 9);
	assert_int_equal(groups_for("events/intel-spr.td", 3, true, false), 9);

	struct loaded l = load("events/intel-spr.td");
	struct td_plan_request rq = { .level = 3 };
	static const char *const want[] = { "SLOTS_EV", "TD_RET", "TD_BAD", "TD_FE", "TD_BE", "MS_UOPS_RET" };
	struct td_plan *p;
	td_err err;
	int found = 0;
	if (td_plan_make(l.m, &rq, &p, &err))
		fail_msg("%s", err.msg);
	for (int i = 0; i < p->nitems; i++) {
		const struct td_plan_item *it = &p->items[i];
		if (strcmp(it->name, "Retiring.Heavy_Operations.Microcode_Sequencer"))
			continue;
		found++;
		assert_int_equal(it->status, TD_PLAN_OK);
		assert_int_equal(it->nevents, 6);
		for (int e = 0; e < it->nevents; e++)
			assert_string_equal(l.cat->events[it->events[e]].alias, want[e]);
	}
	assert_int_equal(found, 1);
	/* no general-purpose TOPDOWN event planned; UOPS_RETIRED.SLOTS (RET_SLOTS) is, as TMA's
	 * Retire_Fraction in MS_Switches and MS on both paths */
	for (int i = 0; i < p->nitems; i++)
		for (int e = 0; e < p->items[i].nevents; e++) {
			const char *a = l.cat->events[p->items[i].events[e]].alias;
			assert_true(strcmp(a, "SLOTS_P") && strcmp(a, "BE_SLOTS") && strcmp(a, "IDQ_BUBBLES") &&
				    strcmp(a, "IDQ_BUBBLES_0") && strcmp(a, "BR_MISP_SLOTS") &&
				    strcmp(a, "MEM_SLOTS") && strcmp(a, "RET_HEAVY"));
		}
	td_plan_free(p);
	unload(&l);
}

/* Zen 4 (amd-zen4.td: gp=6, no fixed, watchdog takes a GP counter).
 * L1: CYCLES FE_NO_OPS OPS_DISP RET_OPS BE_STALLS SMT_CONT = 6 GP -> 1 group;
 *   with the watchdog 5 GP: every node fits alone (at most 3 GP) but not all
 *   six events together -> 2 groups.
 * L2: Fetch_Latency/Bandwidth FE_NO_OPS FE_NO_OPS_C6; mispredicts/restarts
 *   OPS_DISP RET_OPS BR_MISP RESYNCS; Memory/Core_Bound BE_STALLS
 *   LOAD_NOT_COMPLETE NOT_COMPLETE; Fastpath/Microcode RET_OPS UCODE_OPS; all
 *   with CYCLES. 12 distinct events with CYCLES in every group: 11 + CYCLES
 *   per group needs >= ceil(11/5) = 3 groups; first fit gives 3.
 * L3: the file has two levels -> an error. */
static void test_zen4_levels(void **state)
{
	(void)state;
	assert_int_equal(groups_for("events/amd-zen4.td", 1, true, false), 1);
	assert_int_equal(groups_for("events/amd-zen4.td", 1, true, true), 2);
	assert_int_equal(groups_for("events/amd-zen4.td", 2, true, false), 3);

	struct loaded l = load("events/amd-zen4.td");
	struct td_plan_request rq = { .level = 3 };
	struct td_plan *p;
	td_err err;
	assert_int_equal(td_plan_make(l.m, &rq, &p, &err), -1);
	assert_string_equal(err.msg, "level 3: amd-zen4.td has levels 1 to 2");
	unload(&l);
}

/* ---- the invented PMU ----------------------------------------------------- */

static const struct td_plan_item *item(const struct td_plan *p, const char *name)
{
	for (int i = 0; i < p->nitems; i++)
		if (!strcmp(p->items[i].name, name))
			return &p->items[i];
	fail_msg("no item %s", name);
	return NULL;
}

static struct td_plan *plan_nodes(struct loaded *l, const char *name, bool smt, bool watchdog)
{
	const char *names[] = { name };
	struct td_plan_request rq = { .nodes = names, .nnodes = 1, .smt = smt, .watchdog = watchdog };
	struct td_plan *p;
	td_err err;

	if (td_plan_make(l->m, &rq, &p, &err))
		fail_msg("%s", err.msg);
	return p;
}

static const char *alias(const struct td_plan *p, int g, int i)
{
	return p->model->cat->events[p->groups[g].events[i]].alias;
}

/* `extra REG N`: a group holds at most N distinct values of the register, events of one value
 * (the text of REG= in their raw form) share it — as the kernel allocates MSR_OFFCORE_RSP_0/1 (a
 * second value on the alternate MSR, a third refused) and MSR_PEBS_FRONTEND (one value). Counts
 * from tests/data/planner/test-extra.td: 4 counters, so only the register can split a group. */
static void test_extra_registers(void **state)
{
	struct loaded l = load("tests/data/planner/test-extra.td");
	struct td_plan *p;
	char cls[80];
	(void)state;

	p = plan_nodes(&l, "Two", false, false); /* two offcore values: one group */
	assert_int_equal(item(p, "Two")->status, TD_PLAN_OK);
	assert_int_equal(p->ngroups, 1);
	assert_string_equal(td_plan_event_class(p, td_catalog_event(l.cat, "O1") - l.cat->events, cls, sizeof(cls)),
			    "gp, offcore_rsp (2 per group)");
	td_plan_free(p);
	p = plan_nodes(&l, "Three", false, false); /* a third value: not in one group */
	assert_int_equal(item(p, "Three")->status, TD_PLAN_NOT_COLLECTABLE);
	assert_non_null(strstr(item(p, "Three")->reason, "O3 would be the offcore_rsp register's value number 3, "
							 "and it holds 2 in one group"));
	td_plan_free(p);
	p = plan_nodes(&l, "SameFe", false, false); /* one frontend value (0x8) twice: shared */
	assert_int_equal(item(p, "SameFe")->status, TD_PLAN_OK);
	assert_int_equal(p->ngroups, 1);
	td_plan_free(p);
	p = plan_nodes(&l, "OtherFe", false, false); /* 0x8 and 0x7: not in one group */
	assert_int_equal(item(p, "OtherFe")->status, TD_PLAN_NOT_COLLECTABLE);
	td_plan_free(p);
	unload(&l);
}

/* A bad `extra` line is a file error with its line: an unknown register, a count that is no
 * number of values, or a second line giving the same register another count. */
static void check_bad_extra(const char *line, const char *want)
{
	char path[] = "/tmp/td-extra-XXXXXX";
	int fd = mkstemp(path);
	struct td_catalog *cat = NULL;
	td_err err;

	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f,
		"pmu      testextra\nevent    O1       cpu/event=0xb7,umask=0x1,offcore_rsp=0x1/\n"
		"event    O2       cpu/event=0xbb,umask=0x1,offcore_rsp=0x2/\ncounters gp=4\n"
		"extra    offcore_rsp 2 O1\n%s\nnode  N  Slots = O1 / O2\n",
		line);
	fclose(f);
	assert_int_not_equal(td_catalog_load(path, &cat, &err), 0);
	unlink(path);
	if (!strstr(err.msg, want))
		fail_msg("'%s': got '%s', want '%s'", line, err.msg, want);
	assert_non_null(strstr(err.msg, ":6:"));
}

static void test_extra_errors(void **state)
{
	(void)state;
	check_bad_extra("extra    offcore 2 O2",
			"extra: expected 'extra offcore_rsp|frontend|ldlat N ALIAS...', got register 'offcore'");
	check_bad_extra("extra    frontend x O2", "extra: 'x' is not a number of values (1 to 32) for frontend");
	check_bad_extra("extra    ldlat 0 O2", "extra: '0' is not a number of values");
	check_bad_extra("extra    offcore_rsp 1 O2", "extra: offcore_rsp gets 1 per group here but 2 at line 5");
	check_bad_extra("extra    frontend 1 NOPE", "'NOPE' is not an event alias of this file");
}

static void test_rules(void **state)
{
	struct loaded l = load("tests/data/planner/test-planner.td");
	struct td_plan *p;
	(void)state;

	/* SMT_on picks the branch: B with SMT on, C off */
	p = plan_nodes(&l, "Small.Child", true, false);
	assert_int_equal(p->ngroups, 1);
	const struct td_plan_item *child = item(p, "Small.Child");
	assert_int_equal(child->nevents, 2);
	assert_string_equal(l.cat->events[child->events[0]].alias, "CYC");
	assert_string_equal(l.cat->events[child->events[1]].alias, "B");
	td_plan_free(p);
	p = plan_nodes(&l, "Child", false, false);
	assert_string_equal(alias(p, 0, 0), "CYC");
	assert_string_equal(alias(p, 0, 1), "A");
	assert_string_equal(alias(p, 0, 2), "C");
	td_plan_free(p);

	/* five GP events, budget 4: not collectable with the reason */
	p = plan_nodes(&l, "Wide", false, false);
	assert_int_equal(item(p, "Wide")->status, TD_PLAN_NOT_COLLECTABLE);
	assert_string_equal(item(p, "Wide")->reason, "node Wide needs 5 general-purpose counters, budget 4");
	assert_int_equal(p->nnot_collectable, 1);
	td_plan_free(p);
	/* SMT halves to 2; the watchdog takes one more */
	p = plan_nodes(&l, "Small", true, true);
	assert_int_equal(p->budget.gp, 1);
	assert_int_equal(item(p, "Small")->status, TD_PLAN_OK); /* A on GP, CYC on fixed 1 */
	td_plan_free(p);

	/* span: its events spread, flagged, in every group holding them */
	p = plan_nodes(&l, "Wide.Spread", false, false);
	assert_int_equal(item(p, "Wide.Spread")->status, TD_PLAN_SPANS);
	assert_int_equal(p->nspans, 1);
	assert_int_equal(p->ngroups, 2);
	td_plan_free(p);

	/* Z0 only on counter 0 and L1 L2 on 0-1: three events for two counters */
	p = plan_nodes(&l, "Zeros", false, false);
	assert_int_equal(item(p, "Zeros")->status, TD_PLAN_NOT_COLLECTABLE);
	assert_non_null(strstr(item(p, "Zeros")->reason, "cannot all be placed"));
	td_plan_free(p);

	/* topdown group: leader first, metrics next, no-counter last */
	p = plan_nodes(&l, "Metric", false, false);
	assert_int_equal(p->ngroups, 1);
	assert_string_equal(alias(p, 0, 0), "SL");
	assert_string_equal(alias(p, 0, 1), "M1");
	assert_string_equal(alias(p, 0, 2), "M2");
	assert_string_equal(alias(p, 0, p->groups[0].nevents - 1), "TSC");
	assert_int_equal(p->groups[0].fixed_used, 1); /* REF fixed 1 */
	assert_int_equal(p->groups[0].gp_used, 1);    /* SL: this file gives it no fixed counter */
	td_plan_free(p);

	/* `X if available(M) else Y` through a let: M's and X's events, not Y's */
	p = plan_nodes(&l, "Fallback", false, false);
	const struct td_plan_item *fb = item(p, "Fallback");
	assert_int_equal(fb->status, TD_PLAN_OK);
	assert_int_equal(fb->nevents, 3);
	assert_string_equal(l.cat->events[fb->events[0]].alias, "SL");
	assert_string_equal(l.cat->events[fb->events[1]].alias, "M1");
	assert_string_equal(l.cat->events[fb->events[2]].alias, "M2");
	assert_int_equal(p->ngroups, 1);
	assert_int_equal(p->groups[0].nevents, 3);
	td_plan_free(p);
	unload(&l);
}

static void test_request_errors(void **state)
{
	struct loaded l = load("events/intel-skl.td");
	const char *names[] = { "Memory_Bond" };
	struct td_plan_request rq = { .nodes = names, .nnodes = 1 };
	struct td_plan *p;
	td_err err;
	(void)state;

	assert_int_equal(td_plan_make(l.m, &rq, &p, &err), -1);
	assert_non_null(strstr(err.msg, "unknown node 'Memory_Bond' in intel-skl.td; near matches: "));
	assert_non_null(strstr(err.msg, "Backend_Bound.Memory_Bound"));
	rq = (struct td_plan_request){ .level = 0 };
	assert_int_equal(td_plan_make(l.m, &rq, &p, &err), -1);
	assert_string_equal(err.msg, "level 0: intel-skl.td has levels 1 to 6");
	assert_int_equal(td_plan_find_node(l.m, "DRAM_Bound"),
			 td_model_node(l.m, "Backend_Bound.Memory_Bound.DRAM_Bound"));

	/* Level-6 paths are 86 characters: "Port_9" is one edit from the eight Port_N nodes; of the
	 * five asked for, three whole paths (86 + 2 + 86 + 2 + 86 = 262) fit 320 with ", ..." and a
	 * fourth would not (350), so the list ends in ", ..." and no path is cut. */
	const char *p3 = "Backend_Bound.Core_Bound.Ports_Utilization.Ports_Utilized_3m.";
	char nearby[320], want[320];
	snprintf(want, sizeof(want),
		 "%sALU_Op_Utilization.Port_0, %sALU_Op_Utilization.Port_1, %sALU_Op_Utilization.Port_5, ...", p3, p3,
		 p3);
	td_plan_near_nodes(l.m, "Port_9", nearby, sizeof(nearby), 5);
	assert_string_equal(nearby, want);
	names[0] = "Port_9";
	rq = (struct td_plan_request){ .nodes = names, .nnodes = 1 };
	assert_int_equal(td_plan_make(l.m, &rq, &p, &err), -1);
	assert_non_null(strstr(err.msg, want));
	td_plan_near_nodes(l.m, "Port_9", nearby, 40, 5); /* not even one path fits: none, not a cut one */
	assert_string_equal(nearby, "");
	unload(&l);

	struct loaded sw = load("events/software.td");
	rq = (struct td_plan_request){ .level = 1 };
	assert_int_equal(td_plan_make(sw.m, &rq, &p, &err), -1);
	assert_non_null(strstr(err.msg, "software.td has no 'counters' line"));
	unload(&sw);
}

/* intel-spr.td limits UOPS_EXECUTED.THREAD (0x01B1) to counter 3, as the kernel does. With two
 * counters FP_Arith (which reads it) is not collectable, and the reason names the counter and the
 * budget. Other_Light_Ops may span groups, but it also reads UOPS_EXEC: it is not collectable either,
 * and must leave no group behind that serves nothing (every group serves an item). */
static void test_counter_beyond_budget(void **state)
{
	struct loaded x = load("tests/data/planner/test-extra.td");
	const char *high[] = { "High" };
	struct td_plan_request rq = { .nodes = high, .nnodes = 1, .counters = 2 };
	struct td_plan *p;
	td_err err;
	(void)state;

	/* HI counts only on counter 3 (a `limit ... counters=3` line): with --counters 2 it has none */
	assert_int_equal(td_plan_make(x.m, &rq, &p, &err), 0);
	const struct td_plan_item *hi = item(p, "High");
	assert_int_equal(hi->status, TD_PLAN_NOT_COLLECTABLE);
	assert_non_null(strstr(hi->reason, "HI counts only on general-purpose counter 3, beyond the budget of 2"));
	for (int g = 0; g < p->ngroups; g++)
		assert_true(p->groups[g].nitems > 0);
	td_plan_free(p);
	unload(&x);

	/* The set the property test found: Other_Light_Ops was spread event by event, its first events
	 * opened a group, then an event did not fit and the group served nothing (then UOPS_EXEC, which
	 * intel-spr.td had put on counter 3 after Lion Cove's table; Sapphire Rapids' kernel table gives it
	 * any counter). Every group must serve an item. */
	struct loaded l = load("events/intel-spr.td");
	const char *found[] = { "Clears_Resteers",   "FP_Vector_256b",	"Serializing_Operation", "INT_Divider",
				"Ports_Utilization", "Fetch_Bandwidth", "Ports_Utilized_0",	 "Other_Light_Ops" };
	rq = (struct td_plan_request){ .nodes = found, .nnodes = 8, .counters = 2, .watchdog = true };
	assert_int_equal(td_plan_make(l.m, &rq, &p, &err), 0);
	assert_int_not_equal(item(p, "Retiring.Light_Operations.Other_Light_Ops")->status, TD_PLAN_OK);
	for (int g = 0; g < p->ngroups; g++)
		assert_true(p->groups[g].nitems > 0);
	td_plan_free(p);
	unload(&l);
}

/* The deepest level of each Intel file (level 6, ~100 nodes, 110-140 events) with SMT off: every node
 * is planned (in one group, or spread where the file allows it), none left out, and every group
 * serves an item: the planner has no size limit that would truncate the larger trees. */
static void test_deepest_levels(void **state)
{
	static const char *const files[] = { "events/intel-skl.td", "events/intel-icl.td", "events/intel-spr.td" };
	(void)state;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct loaded l = load(files[f]);
		struct td_plan_request rq = { .level = td_plan_max_level(l.m) };
		struct td_plan *p;
		td_err err;
		int nodes = 0;

		assert_int_equal(rq.level, 6);
		assert_int_equal(td_plan_make(l.m, &rq, &p, &err), 0);
		for (int i = 0; i < p->nitems; i++) {
			if (p->items[i].kind != TD_PLAN_NODE)
				continue;
			nodes++;
			if (p->items[i].status != TD_PLAN_OK && p->items[i].status != TD_PLAN_SPANS)
				fail_msg("%s: %s not planned: %s", files[f], p->items[i].name, p->items[i].reason);
		}
		assert_int_equal(nodes, l.m->nnodes);
		for (int g = 0; g < p->ngroups; g++)
			assert_true(p->groups[g].nitems > 0);
		td_plan_free(p);
		unload(&l);
	}
}

/* ---- property test ---------------------------------------------------------- */

/* An independent checker: classes read straight from the catalog lines. */
struct cls {
	int fixed;
	unsigned gp;
	bool free_ev, leader, metric;
};

static void classes(const struct td_catalog *cat, struct cls *c)
{
	for (int i = 0; i < cat->nevents; i++)
		c[i] = (struct cls){ .fixed = -1, .gp = ~0u };
	for (int k = 0; k < cat->nlimits; k++) {
		const struct td_cat_limit *l = &cat->limits[k];
		const struct td_cat_event *e = td_catalog_event(cat, l->name);
		if (!e)
			continue;
		struct cls *x = &c[e - cat->events];
		if (l->kind == TD_LIMIT_FIXED)
			x->fixed = l->fixed;
		if (l->kind == TD_LIMIT_GP)
			x->gp = l->gp_mask;
		x->free_ev |= l->kind == TD_LIMIT_NOCOUNTER || l->kind == TD_LIMIT_TD_METRIC;
		x->leader |= l->kind == TD_LIMIT_TD_LEADER;
		x->metric |= l->kind == TD_LIMIT_TD_METRIC;
	}
}

/* Does the group fit? Fixed counters: at most one event each, fixed-only
 * events must get theirs. GP: Hall's condition on the nested ranges the
 * files use (counter 0, 0-1, 0-3, all): events confined to the first k
 * counters are at most k, for every k. */
static bool group_fits(const struct td_plan *p, const struct cls *c, const struct td_plan_group *g)
{
	int ngp = 0, within[33] = { 0 }, fixed_users = 0;
	bool fixed_taken[32] = { false };

	for (int pass = 0; pass < 2; pass++) /* fixed-only events claim their counter first */
		for (int i = 0; i < g->nevents; i++) {
			const struct cls *x = &c[g->events[i]];
			if (x->free_ev || x->fixed < 0 || (pass == 0) != (x->gp == 0))
				continue;
			if (((p->budget.fixed_mask >> x->fixed) & 1) && !fixed_taken[x->fixed]) {
				fixed_taken[x->fixed] = true;
				fixed_users++;
			} else if (x->gp == 0) {
				return false;
			}
		}
	for (int i = 0; i < g->nevents; i++) {
		const struct cls *x = &c[g->events[i]];
		if (x->free_ev || x->fixed >= 0)
			continue;
		ngp++;
		unsigned allowed = x->gp & (p->budget.gp >= 32 ? ~0u : (1u << p->budget.gp) - 1);
		if (!allowed)
			return false;
		within[32 - __builtin_clz(allowed)]++;
	}
	/* fixed-capable events that did not get a fixed counter use GP (unrestricted in our files) */
	int fixed_capable = 0;
	for (int i = 0; i < g->nevents; i++)
		fixed_capable += !c[g->events[i]].free_ev && c[g->events[i]].fixed >= 0;
	ngp += fixed_capable - fixed_users;
	for (int k = 1, run = 0; k <= 32; k++) {
		run += within[k];
		if (k < 32 && run > k && k <= p->budget.gp)
			return false;
	}
	return ngp <= p->budget.gp && ngp == g->gp_used;
}

static bool in_group(const struct td_plan_group *g, int e)
{
	for (int i = 0; i < g->nevents; i++)
		if (g->events[i] == e)
			return true;
	return false;
}

static void check_group(const struct td_plan *p, const struct cls *c, int gi)
{
	const struct td_plan_group *g = &p->groups[gi];
	bool metric = false;

	for (int i = 0; i < g->nevents; i++) {
		for (int j = 0; j < i; j++)
			assert_int_not_equal(g->events[i], g->events[j]); /* planned once per group */
		metric |= c[g->events[i]].metric;
	}
	if (metric)
		assert_true(c[g->events[0]].leader); /* SLOTS leads */
	if (!group_fits(p, c, g))
		fail_msg("%s group %d does not fit the budget", p->model->cat->name, gi + 1);
	assert_true(g->nitems > 0);
}

static void check_item(const struct td_plan *p, const struct td_plan_item *it)
{
	if (it->status == TD_PLAN_OK) {
		assert_true(it->group >= 0 && it->group < p->ngroups);
		for (int e = 0; e < it->nevents; e++) /* co-scheduled in one group */
			assert_true(in_group(&p->groups[it->group], it->events[e]));
		return;
	}
	assert_int_equal(it->group, -1);
	assert_true(it->reason[0] != '\0');
	assert_non_null(strstr(it->reason, it->name));
	if (it->status == TD_PLAN_SPANS)
		for (int e = 0; e < it->nevents; e++) {
			bool somewhere = false;
			for (int g = 0; g < p->ngroups; g++)
				somewhere |= in_group(&p->groups[g], it->events[e]);
			assert_true(somewhere);
		}
}

/* The plan as text, to compare two runs. */
static void serialise(const struct td_plan *p, char *buf, size_t len)
{
	size_t n = 0;

	for (int g = 0; g < p->ngroups && n < len; g++) {
		for (int i = 0; i < p->groups[g].nevents && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%d,", p->groups[g].events[i]);
		n += (size_t)snprintf(buf + n, len - n, "|");
	}
	for (int i = 0; i < p->nitems && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s:%d:%d;", p->items[i].name, p->items[i].status,
				      p->items[i].group);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 16);
}

static void check_random_sets(const char *rel, int sets)
{
	struct loaded l = load(rel);
	struct cls *c = calloc((size_t)l.cat->nevents, sizeof(*c));
	static char a[65536], b[65536];

	classes(l.cat, c);
	for (int s = 0; s < sets; s++) {
		const char *names[8];
		int k = 1 + (int)(next_rand() % 8);
		for (int i = 0; i < k; i++)
			names[i] = l.m->nodes[next_rand() % (unsigned)l.m->nnodes].path;
		struct td_plan_request rq = { .nodes = names,
					      .nnodes = k,
					      .smt = next_rand() & 1,
					      .watchdog = (next_rand() % 4) == 0,
					      .counters = (next_rand() % 5) == 0 ? 2 + (int)(next_rand() % 7) : 0 };
		struct td_plan *p, *q;
		td_err err;
		if (td_plan_make(l.m, &rq, &p, &err) || td_plan_make(l.m, &rq, &q, &err))
			fail_msg("%s: %s", rel, err.msg);
		for (int g = 0; g < p->ngroups; g++)
			check_group(p, c, g);
		for (int i = 0; i < p->nitems; i++)
			check_item(p, &p->items[i]);
		for (int i = 0; i < k; i++) /* every named node and its ancestors is planned */
			for (int n = td_model_node(l.m, names[i]); n >= 0; n = l.m->nodes[n].parent)
				item(p, l.m->nodes[n].path);
		serialise(p, a, sizeof(a));
		serialise(q, b, sizeof(b));
		assert_string_equal(a, b); /* deterministic */
		td_plan_free(p);
		td_plan_free(q);
	}
	free(c);
	unload(&l);
}

static void test_property_random_sets(void **state)
{
	(void)state;
	check_random_sets("events/intel-skl.td", 2000);
	check_random_sets("events/intel-icl.td", 2000);
	check_random_sets("events/intel-spr.td", 2000);
	check_random_sets("events/amd-zen4.td", 2000);
	check_random_sets("tests/data/planner/test-planner.td", 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake_levels),
		cmocka_unit_test(test_icelake_levels),
		cmocka_unit_test(test_sapphire_rapids_levels),
		cmocka_unit_test(test_zen4_levels),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_extra_registers),
		cmocka_unit_test(test_extra_errors),
		cmocka_unit_test(test_request_errors),
		cmocka_unit_test(test_counter_beyond_budget),
		cmocka_unit_test(test_deepest_levels),
		cmocka_unit_test(test_property_random_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
