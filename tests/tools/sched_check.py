#!/usr/bin/env python3
# sched_check: an independent check that the groups of a `tdctl plan --json`
# would be scheduled by the Linux x86 PMU driver. It owns its own copy of the
# kernel's rules, transcribed from the kernel source (never from src/plan/ or
# the `limit`/`fixed`/`counters` lines of events/), and its own counter
# assignment, a transcription of perf_assign_events():
#
#   linux 6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1; a Debian
#   source package carries no git commit), paths below relative to its root.
#
# It reads only the raw encoding the plan gives each event (perf_event_attr
# type, config, config1) and the group membership. Per group it does what the
# kernel does at perf_event_open (validate_group(), arch/x86/events/core.c:2394,
# with a fake cpuc: the group alone) and at sched-in (x86_schedule_events(),
# core.c:983, with the NMI watchdog's pinned cycles event already on the CPU,
# kernel/watchdog_perf.c:87 wd_hw_attr = PERF_TYPE_HARDWARE/CPU_CYCLES, pinned):
#   - collect_event() (core.c:1140): at most num_counters + num_fixed events
#     plus the metric events; at most INTEL_TD_METRIC_NUM (8) metric events
#     (add_nr_metric_event(), core.c:1120; arch/x86/include/asm/perf_event.h:399);
#   - intel_pmu_hw_config() (arch/x86/events/intel/core.c:4195-4231): a topdown
#     metric event (is_metric_event(), arch/x86/events/perf_event.h:94: event 0,
#     umask 0x80..0x87) must be no higher than INTEL_TD_METRIC_AVAILABLE_MAX
#     (intel/core.c:3935: 0x8000 + (num_topdown_events - 1) << 8; 4 on ICL,
#     intel/core.c:7097; 8 on GLC/RWC, intel/core.c:6454), have no config1 and no
#     flags (X86_ALL_EVENT_FLAGS), and its group leader must be SLOTS (0x0400);
#   - the extra registers (x86_pmu_extra_regs(), core.c:160; shared-register
#     allocation __intel_shared_reg_get_constraints(), intel/core.c:3301, with
#     intel_alt_er(), intel/core.c:3256): OFFCORE_RSP_0/1 hold two distinct
#     offcore values (a second value moves to the other MSR, the event code is
#     rewritten by intel_fixup_er()); a third distinct value, or a second value
#     of the frontend (MSR_PEBS_FRONTEND) or load-latency MSR, gets
#     emptyconstraint: the group cannot be scheduled;
#   - the constraint tables (first match in table order, constraint_match(),
#     perf_event.h:64), fixed constraints extended to the general-purpose
#     counters unless pseudo-encoded (intel_pmu_check_event_constraints(),
#     intel/core.c:6318; use_fixed_pseudo_encoding(), asm/perf_event.h:344),
#     anything else unconstrained on the general-purpose counters;
#   - AMD family 17h+ (Zen 4 = 19h, Zen 5 = 1Ah): amd_get_event_constraints_f17h()
#     (arch/x86/events/amd/core.c:1236): event 0x003 (Retired SSE/AVX FLOPs,
#     amd_is_pair_event_code(), amd/core.c:351) takes an even counter and the
#     odd one after it (pair_constraint, amd/core.c:1475; PMU_FL_PAIR lowers
#     gpmax by the pairs, core.c:1080); everything else is unconstrained on
#     the 6 core counters (AMD64_NUM_COUNTERS_CORE, asm/perf_event.h:130;
#     PerfMonV2 reads the count from CPUID 0x80000022, 6 on Zen 4/5);
#   - perf_assign_events() (core.c:965): events by increasing constraint
#     weight, fixed counters first, then the lowest free general-purpose
#     counter, at most gpmax general-purpose counters.
# Counters per logical CPU: Skylake has 8 general-purpose counters with SMT
# off and 4 with SMT on (CPUID 0xA reports 4 per thread when HT is on; the
# constraint masks 0xf of intel_skl_event_constraints, intel/core.c:234-249,
# say "when HT is off, these can only run on the bottom 4 counters"); Ice
# Lake, Sapphire Rapids, Granite Rapids: 8 either way; fixed counters 0-2
# (SKL), 0-3 (ICL/SPR/GNR: 3 = SLOTS).
#
# usage: sched_check.py MODEL on|off on|off < plan.json   (MODEL: skl icl spr gnr srf emr icx tgl skx clx bdx zen4 zen5 arm;
#        SMT; NMI watchdog). Prints one line per group; exits 1 if any group
#        cannot be scheduled, or an event's counters as the plan states them
#        are not among those the kernel allows.
import json
import sys

FIXED = 32                       # INTEL_PMC_IDX_FIXED, asm/perf_event.h:13
METRIC_BASE = FIXED + 16         # INTEL_PMC_IDX_METRIC_BASE, asm/perf_event.h:364
EVENT = 0xff
UMASK = 0xff00
EDGE, ANY, INV = 1 << 18, 1 << 21, 1 << 23
PIN = 1 << 19
CMASK = 0xff000000
IN_TX, IN_TX_CP = 1 << 32, 1 << 33
ARCH = EVENT | UMASK                                           # INTEL_ARCH_EVENT_MASK
FIXED_FLAGS = EVENT | UMASK | EDGE | INV | CMASK | IN_TX | IN_TX_CP   # FIXED_EVENT_FLAGS, perf_event.h:435
ALL_FLAGS = EDGE | INV | CMASK | ANY | PIN | IN_TX | IN_TX_CP  # X86_ALL_EVENT_FLAGS, asm/perf_event.h:95


class C:
    """struct event_constraint: code..code+size under cmask, counter mask."""
    def __init__(self, code, last, mask, cmask, kind='', pair=False):
        self.code, self.size, self.mask, self.cmask, self.kind, self.pair = code, last - code, mask, cmask, kind, pair

    def match(self, config):     # constraint_match(), perf_event.h:64
        return 0 <= (config & self.cmask) - self.code <= self.size


def ev(c, n):                    # INTEL_EVENT_CONSTRAINT
    return C(c, c, n, EVENT)


def rng(c, e, n):                # INTEL_EVENT_CONSTRAINT_RANGE
    return C(c, e, n, EVENT)


def uev(c, n):                   # INTEL_UEVENT_CONSTRAINT
    return C(c, c, n, ARCH)


def fix(c, n):                   # FIXED_EVENT_CONSTRAINT
    return C(c, c, 1 << (FIXED + n), FIXED_FLAGS, 'fixed')


def metric(c, n):                # METRIC_EVENT_CONSTRAINT
    return C(c, c, 1 << (METRIC_BASE + n), ARCH, 'metric')


# arch/x86/events/intel/core.c:234-249
SKL = [fix(0x00c0, 0), fix(0x003c, 1), fix(0x0300, 2), uev(0x1c0, 0x2),
       ev(0xd0, 0xf), ev(0xd1, 0xf), ev(0xd2, 0xf), ev(0xcd, 0xf), ev(0xc6, 0xf)]
# intel/core.c:530-543 (intel_bdw_event_constraints: Broadwell-X, INTEL_BROADWELL_X and _D, :6943-6966);
# INTEL_UBIT_EVENT_CONSTRAINT(0x8a3, 0x4) matches event 0xa3 with umask bit 0x08 (perf_event.h:459-460)
BDW = [fix(0x00c0, 0), fix(0x003c, 1), fix(0x0300, 2), uev(0x148, 0x4), C(0x8a3, 0x8a3, 0x4, EVENT | 0x800),
       ev(0xd0, 0xf), ev(0xd1, 0xf), ev(0xd2, 0xf), ev(0xcd, 0xf)]
# intel/core.c:286-312
ICL = [fix(0x00c0, 0), fix(0x01c0, 0), fix(0x0100, 0), fix(0x003c, 1), fix(0x0300, 2), fix(0x0400, 3),
       metric(0x8000, 0), metric(0x8100, 1), metric(0x8200, 2), metric(0x8300, 3),
       rng(0x03, 0x0a, 0xf), rng(0x1f, 0x28, 0xf), ev(0x32, 0xf), rng(0x48, 0x56, 0xf), rng(0x60, 0x8b, 0xf),
       uev(0x04a3, 0xff), uev(0x10a3, 0xff), uev(0x14a3, 0xff), ev(0xa3, 0xf), rng(0xa8, 0xb0, 0xf),
       rng(0xb7, 0xbd, 0xf), rng(0xd0, 0xe6, 0xf), ev(0xef, 0xf), rng(0xf0, 0xf4, 0xf)]
# intel/core.c:332-370 (intel_glc_event_constraints: Sapphire Rapids and Granite Rapids,
# intel_pmu_init_glc(), intel/core.c:6442-6462, called for both at intel/core.c:7106-7121)
GLC = [fix(0x00c0, 0), fix(0x0100, 0), fix(0x003c, 1), fix(0x0300, 2), fix(0x013c, 2), fix(0x0400, 3),
       metric(0x8000, 0), metric(0x8100, 1), metric(0x8200, 2), metric(0x8300, 3),
       metric(0x8400, 4), metric(0x8500, 5), metric(0x8600, 6), metric(0x8700, 7),
       ev(0x2e, 0xff), ev(0x3c, 0xff), rng(0x01, 0x8f, 0xf),
       uev(0x01a3, 0xf), uev(0x02a3, 0xf), uev(0x08a3, 0xf), uev(0x04a4, 0x1), uev(0x08a4, 0x1),
       uev(0x02cd, 0x1), ev(0xce, 0x1), rng(0xd0, 0xdf, 0xf), rng(0x90, 0xfe, 0xff)]
# intel/core.c:215-221 (intel_grt_event_constraints: Sierra Forest, INTEL_ATOM_CRESTMONT_X,
# intel_pmu_init_grt() from intel_pmu_init(), intel/core.c:6785-6787, 6468-6487)
GRT = [fix(0x00c0, 0), fix(0x003c, 1), fix(0x0300, 2), fix(0x013c, 2)]

# Extra registers: (event|umask, register name, valid config1 mask).
# intel_skl_extra_regs, intel/core.c:274-284; intel_icl_extra_regs, :314-320;
# intel_glc_extra_regs (SPR, intel/core.c:7109), :322-330; intel_rwc_extra_regs
# (GNR, intel/core.c:7116), :373-381. LDLAT: INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG,
# perf_event.h:609, valid mask 0xffff.
SKL_ER = [(0x01b7, 'RSP_0', 0x3fffff8fff), (0x01bb, 'RSP_1', 0x3fffff8fff), (0x01cd, 'LDLAT', 0xffff),
          (0x01c6, 'FE', 0x7fff17)]
ICL_ER = [(0x01b7, 'RSP_0', 0x3fffffbfff), (0x01bb, 'RSP_1', 0x3fffffbfff), (0x01cd, 'LDLAT', 0xffff),
          (0x01c6, 'FE', 0x7fff17)]
GLC_ER = [(0x012a, 'RSP_0', 0x3fffffffff), (0x012b, 'RSP_1', 0x3fffffffff), (0x01cd, 'LDLAT', 0xffff),
          (0x01c6, 'FE', 0x7fff1f), (0x40ad, 'FE', 0x7), (0x04c2, 'FE', 0x8)]
# intel_snbep_extra_regs (Broadwell-X, intel/core.c:6966), :266-272
SNBEP_ER = [(0x01b7, 'RSP_0', 0x3fffff8fff), (0x01bb, 'RSP_1', 0x3fffff8fff), (0x01cd, 'LDLAT', 0xffff)]
# intel_cmt_extra_regs (Sierra Forest, intel/core.c:6788), :2218-2226
CMT_ER = [(0x01b7, 'RSP_0', 0x800ff3ffffffffff), (0x02b7, 'RSP_1', 0xff3ffffffffff), (0x05d0, 'LDLAT', 0xffff),
          (0x0127, 'SNOOP_0', 0xffffffffffffffff), (0x0227, 'SNOOP_1', 0xffffffffffffffff)]
RWC_ER = [(0x012a, 'RSP_0', 0x3fffffffff), (0x012b, 'RSP_1', 0x3fffffffff), (0x01cd, 'LDLAT', 0xffff),
          (0x02c6, 'FE', 0x9), (0x03c6, 'FE', 0x7fff1f), (0x40ad, 'FE', 0x7), (0x04c2, 'FE', 0x8)]

# model: vendor, GP counters (SMT off, on), fixed counters, table, extra regs, num_topdown_events
MODELS = {
    'skl': ('intel', (8, 4), 3, SKL, SKL_ER, 0),
    'icl': ('intel', (8, 8), 4, ICL, ICL_ER, 4),     # intel/core.c:7097
    'spr': ('intel', (8, 8), 4, GLC, GLC_ER, 8),     # intel/core.c:6454
    'gnr': ('intel', (8, 8), 4, GLC, RWC_ER, 8),
    # Sierra Forest: 8 GP and 3 fixed counters (CPUID 0xA; Linux perf's sierraforest/counter.json
    # "CountersNumGeneric": "8", "CountersNumFixed": "3"), no SMT, no PERF_METRICS
    'srf': ('intel', (8, 8), 3, GRT, CMT_ER, 0),
    # Emerald Rapids: INTEL_EMERALDRAPIDS_X shares INTEL_SAPPHIRERAPIDS_X's case (intel/core.c:7106-7111:
    # intel_glc_extra_regs, then glc_common: intel_glc_event_constraints, intel_pmu_init_glc(),
    # num_topdown_events = 8, :6454)
    'emr': ('intel', (8, 8), 4, GLC, GLC_ER, 8),
    # Ice Lake-SP (INTEL_ICELAKE_X, _D) and Tiger Lake (INTEL_TIGERLAKE_L, INTEL_TIGERLAKE) fall into
    # Ice Lake's case (intel/core.c:7062-7104: intel_icl_event_constraints, intel_icl_extra_regs,
    # num_topdown_events = 4, :7097)
    'icx': ('intel', (8, 8), 4, ICL, ICL_ER, 4),
    'tgl': ('intel', (8, 8), 4, ICL, ICL_ER, 4),
    # Skylake-SP and Cascade Lake (both INTEL_SKYLAKE_X, family 6 model 0x55: one kernel case whatever the
    # stepping, intel/core.c:7005-7060: intel_skl_event_constraints :7026,
    # intel_skl_extra_regs :7028; the stepping only picks microcode quirks, isolation_ucodes :5505-5510)
    'skx': ('intel', (8, 4), 3, SKL, SKL_ER, 0),
    'clx': ('intel', (8, 4), 3, SKL, SKL_ER, 0),
    # Broadwell-X (INTEL_BROADWELL_X, _D: intel/core.c:6943-6979; hsw_get_event_constraints() :4523 adds
    # only the in_tx_checkpointed rule): 8 GP counters with HT off, 4 with it (the table's "when HT is off,
    # these can only run on the bottom 4 counters", :535), fixed counters 0-2, no PERF_METRICS
    'bdx': ('intel', (8, 4), 3, BDW, SNBEP_ER, 0),
    'zen4': ('amd', (6, 6), 0, [], [], 0),
    'zen5': ('amd', (6, 6), 0, [], [], 0),
    # Arm PMUv3 (Neoverse N1, V1: PMCR_EL0.N = 6): drivers/perf/arm_pmuv3.c, check_group_arm()
    'arm': ('arm', (6, 6), 1, [], [], 0),
}
# PERF_TYPE_HARDWARE ids to raw codes: intel_perfmon_event_map, intel/core.c:33-41;
# amd_zen4_perfmon_event_map, amd/core.c:276-286, Zen 4 and family 1Ah (amd_pmu_event_map(), :288-291)
HW_INTEL = {0: 0x003c, 1: 0x00c0, 4: 0x00c4, 5: 0x00c5, 9: 0x0300}
HW_AMD = {0: 0x0076, 1: 0x00c0, 4: 0x00c2, 5: 0x00c3}


class Pmu:
    def __init__(self, model, smt):
        self.vendor, gp, self.nfixed, table, self.er, self.ntd = MODELS[model]
        self.ngp = gp[1] if smt else gp[0]
        gpmask = (1 << self.ngp) - 1
        self.gpmask = gpmask
        self.table = []
        # intel_pmu_check_event_constraints(), intel/core.c:6318-6361
        for c in table:
            m = c.mask
            if c.kind == 'fixed':
                m &= ((1 << self.nfixed) - 1) << FIXED
                if c.code & 0xff:            # not a pseudo encoding: also the GP counters
                    m |= gpmask
            elif c.kind != 'metric':
                m &= gpmask
            self.table.append(C(c.code, c.code + c.size, m, c.cmask, c.kind))
        self.unconstrained = C(0, 0, gpmask, 0)
        # amd_core_pmu_init(), amd/core.c:1471-1477: even counters, weight num/2, PAIR
        even = sum(1 << i for i in range(0, self.ngp - 1, 2))
        self.pair = C(0, 0, even, 0, pair=True)

    def constraint(self, config):
        if self.vendor == 'arm':           # CPU_CYCLES: the cycle counter or any other (arm_pmuv3.c:936-966)
            return C(0, 0, self.gpmask | ((1 << FIXED) if (config & 0xffff) == 0x11 else 0), 0)
        if self.vendor == 'amd':
            code = ((config >> 24) & 0x0f00) | (config & 0xff)   # amd_get_event_code(), amd/core.c:346
            return self.pair if code == 0x003 else self.unconstrained
        for c in self.table:               # x86_get_event_constraints(), intel/core.c:3426
            if c.match(config):
                return c
        return self.unconstrained


def weight(m):
    return bin(m).count('1')


def assign(pmu, cons):
    """perf_assign_events(), core.c:965-981 with __perf_sched_find_counter()
    (core.c:868) and perf_sched_next_event() (core.c:937). None overlap, so no
    saved states. Returns the counter of each event, or None if one is left."""
    n_pair = sum(1 for c in cons if c.pair)
    gpmax = pmu.ngp - n_pair if pmu.vendor == 'amd' else pmu.ngp   # core.c:1080-1083
    used, nr_gp, out = 0, 0, [None] * len(cons)
    if not cons:
        return out
    wmin = min(weight(c.mask) for c in cons)
    wmax = max(weight(c.mask) for c in cons)
    for w in range(wmin, wmax + 1):
        for i, c in enumerate(cons):
            if weight(c.mask) != w:
                continue
            done = False
            if c.mask >> FIXED:                     # prefer fixed counters
                for idx in range(FIXED, 64):
                    if (c.mask >> idx) & 1 and not (used >> idx) & 1:
                        used |= 1 << idx
                        out[i], done = idx, True
                        break
            if not done:
                for idx in range(FIXED):
                    if not (c.mask >> idx) & 1:
                        continue
                    m = (1 << idx) | ((1 << (idx + 1)) if c.pair else 0)
                    if used & m:
                        continue
                    if nr_gp >= gpmax:
                        return None
                    nr_gp += 1
                    used |= m
                    out[i], done = idx, True
                    break
            if not done:
                return None
    return out


def counter_name(idx):
    if idx >= METRIC_BASE:
        return 'metric %d' % (idx - METRIC_BASE)
    if idx >= FIXED:
        return 'fixed %d' % (idx - FIXED)
    return 'gp %d' % idx


class Ev:
    def __init__(self, alias, raw, config1, nocounter, klass=''):
        self.alias, self.raw, self.config1, self.nocounter, self.klass = alias, raw, config1, nocounter, klass


def raw_event(pmu, e):
    """The config the kernel schedules, from the plan's encoding; None: takes no core counter."""
    t = e.get('type')
    if t is None:
        raise ValueError('%s: no perf_event_attr type in the plan' % e['alias'])
    config = int(e['config'], 16)
    config1 = int(e['config1'], 16) if e.get('config1') else 0
    if t == 4 or t == CORE_TYPE or (pmu.vendor == 'arm' and t > 5):   # PERF_TYPE_RAW (4 on x86); a hybrid's
        # cpu_atom (CORE_TYPE: its dynamic sysfs type, argv[4]) or armv8_pmuv3's dynamic type
        return Ev(e['alias'], config, config1, False, e.get('class', ''))
    if t == 0:                       # PERF_TYPE_HARDWARE
        hw = HW_AMD if pmu.vendor == 'amd' else HW_INTEL
        if config not in hw:
            raise ValueError('%s: hardware event %d not mapped here' % (e['alias'], config))
        return Ev(e['alias'], hw[config], config1, False, e.get('class', ''))
    # software, msr, tool events: another PMU, no core counter (is_x86_event() false, core.c:1195)
    return Ev(e['alias'], config, config1, True, e.get('class', ''))


def check_group_arm(pmu, core, watchdog):
    """Arm PMUv3, linux 6.12.117 drivers/perf: validate_group() (arm_pmu.c:389-415) and sched-in
    (armpmu_add()) each call armv8pmu_get_event_idx() (arm_pmuv3.c:929-966) per event in group order:
    event 0x11 (CPU_CYCLES, ARMV8_PMUV3_PERFCTR_CPU_CYCLES) takes the cycle counter (index 31) when free,
    anything else (and a second CPU_CYCLES) the lowest free of the PMCR_EL0.N programmable counters
    (armv8pmu_get_single_idx(), :894-904; cntr_mask, :1211-1215), -EAGAIN when none is free. No event
    is chained (64-bit) here: the plan sets no config1 bit 0. The arm64 NMI watchdog's pinned cycles
    event (kernel/watchdog_perf.c:87) is on the CPU first and holds the cycle counter."""
    for what, cyc_used in [('perf_event_open (validate_group, the group alone)', False)] + (
            [('sched-in with the NMI watchdog\'s cycles event', True)] if watchdog else []):
        used_gp = 0
        for e in core:
            if (e.raw & 0xffff) == 0x11 and not cyc_used:
                cyc_used = True
            elif used_gp < pmu.ngp:
                used_gp += 1
            else:
                return 'no counter for %s at %s: %d programmable counters in use (armv8pmu_get_event_idx(), ' \
                       'arm_pmuv3.c:929)' % (e.alias, what, used_gp)
    return None


def check_group(pmu, events, watchdog):
    """None if the kernel schedules the group, else why not."""
    core = [e for e in events if not e.nocounter]
    if pmu.vendor == 'arm':
        return check_group_arm(pmu, core, watchdog)
    # collect_event(): counters + fixed + metric events at most, metric events at most 8
    is_metric = [pmu.vendor == 'intel' and (e.raw & EVENT) == 0 and 0x8000 <= (e.raw & ARCH) <= 0x8700
                 for e in core]
    nmetric = sum(is_metric)
    if nmetric > 8:
        return '%d topdown metric events, INTEL_TD_METRIC_NUM is 8 (core.c:1120)' % nmetric
    if len(core) > pmu.ngp + pmu.nfixed + nmetric:
        return '%d events, more than %d counters + %d fixed (collect_event(), core.c:1140)' % (
            len(core), pmu.ngp, pmu.nfixed)
    leader = events[0] if events else None
    for e, m in zip(core, is_metric):
        if not m:
            continue
        if pmu.ntd == 0 or (e.raw & ARCH) > 0x8000 + ((pmu.ntd - 1) << 8):
            return '%s: metric 0x%x beyond this PMU\'s %d topdown events (intel/core.c:3935)' % (
                e.alias, e.raw & ARCH, pmu.ntd)
        if e.config1 or e.raw & ALL_FLAGS:
            return '%s: a metric event takes no config1 or flags (intel/core.c:4196-4204)' % e.alias
        if leader is None or leader.nocounter or (leader.raw & ARCH) != 0x0400:
            return '%s: a metric event needs SLOTS as its group leader (intel/core.c:4214)' % e.alias
    # the watchdog's cycles event first (it is on the CPU before the group: index 0 of the
    # event list, core.c:1164 collect_events() appends the group after cpuc->n_events)
    sets = [('perf_event_open (validate_group, the group alone)', core)]
    if watchdog:
        wd = Ev('nmi_watchdog', HW_AMD[0] if pmu.vendor == 'amd' else HW_INTEL[0], 0, False)
        sets.append(('sched-in with the NMI watchdog\'s cycles event', [wd] + core))
    for what, evs in sets:
        regs = {}                                   # MSR -> value (era->config)
        cons = []
        for e in evs:
            er = next((r for r in pmu.er if r[0] == (e.raw & 0xffff)), None)
            if er:
                if e.config1 & ~er[2]:
                    return '%s: config1 0x%x outside the %s mask (x86_pmu_extra_regs(), core.c:174)' % (
                        e.alias, e.config1, er[1])
                reg = er[1]
                while True:
                    if reg not in regs or regs[reg] == e.config1:
                        regs[reg] = e.config1
                        break
                    # intel_alt_er(), intel/core.c:3256: RSP_0 <-> RSP_1 when the value fits the
                    # other's valid mask; tried once (back at the event's own register: empty)
                    alt = {'RSP_0': 'RSP_1', 'RSP_1': 'RSP_0'}.get(reg)
                    alt_er = next((r for r in pmu.er if r[1] == alt), None)
                    if alt and alt_er and not (e.config1 & ~alt_er[2]) and alt != er[1]:
                        reg = alt
                        continue
                    return '%s: %s holds another value in this group (%s): emptyconstraint ' \
                           '(__intel_shared_reg_get_constraints(), intel/core.c:3301)' % (e.alias, reg, what)
            cons.append(pmu.constraint(e.raw))
        got = assign(pmu, cons)
        if got is None:
            desc = ', '.join('%s[%s]' % (e.alias, mask_text(c.mask)) for e, c in zip(evs, cons))
            return 'no counter assignment at %s: %s (perf_assign_events(), core.c:965)' % (what, desc)
    return None


def mask_text(m):
    parts = []
    gp = [i for i in range(FIXED) if (m >> i) & 1]
    if gp:
        parts.append('gp %d-%d' % (gp[0], gp[-1]) if len(gp) > 1 and gp[-1] - gp[0] == len(gp) - 1
                     else 'gp ' + ','.join(map(str, gp)))
    parts += ['fixed %d' % (i - FIXED) for i in range(FIXED, METRIC_BASE) if (m >> i) & 1]
    parts += ['metric %d' % (i - METRIC_BASE) for i in range(METRIC_BASE, 64) if (m >> i) & 1]
    return ' '.join(parts) or 'none'


def class_mask(klass, ngp):
    """The counters the plan says an event may take ("fixed 1 or gp", "gp 0-3",
    "fixed 3 only, leader", "topdown metric", "no counter"), as a mask; None: not a claim."""
    k = klass.split(',')[0].strip()
    m = 0
    if k.startswith('fixed '):
        m |= 1 << (FIXED + int(k.split()[1]))
        k = k.split(' or ', 1)[1] if ' or ' in k else ''
    if k == 'gp':
        m |= (1 << ngp) - 1
    elif k.startswith('gp '):
        spec = k[3:]
        lo, hi = (spec.split('-') + [spec])[:2] if '-' in spec else (spec, spec)
        m |= sum(1 << i for i in range(int(lo), int(hi) + 1))
    return m or None


CORE_TYPE = 4


def main():
    global CORE_TYPE
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in MODELS:
        sys.stderr.write('usage: sched_check.py %s on|off on|off [CORE_PMU_TYPE] < plan.json\n' % '|'.join(MODELS))
        return 2
    if len(sys.argv) == 5:          # a hybrid's cpu_atom: the kernel gives it a dynamic type (sysfs cpu_atom/type)
        CORE_TYPE = int(sys.argv[4])
    pmu = Pmu(sys.argv[1], sys.argv[2] == 'on')
    watchdog = sys.argv[3] == 'on'
    plan = json.load(sys.stdin)
    bad = 0
    for g in plan['groups']:
        evs = [raw_event(pmu, e) for e in g['events']]
        why = check_group(pmu, evs, watchdog)
        # the counters the plan states for each event must be ones the kernel gives it
        for e in evs:
            if e.nocounter or not e.klass:
                continue
            claim = class_mask(e.klass, pmu.ngp)
            if claim is None:
                continue
            kmask = pmu.constraint(e.raw).mask
            if claim & ~kmask:
                why = (why + '; ' if why else '') + '%s: the plan says %s, the kernel allows %s' % (
                    e.alias, e.klass, mask_text(kmask))
        if why:
            bad += 1
            print('group %d: UNSCHEDULABLE: %s' % (g['group'], why))
        else:
            print('group %d: schedulable (%d events)' % (g['group'], len(evs)))
    print('groups %d unschedulable %d' % (len(plan['groups']), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
