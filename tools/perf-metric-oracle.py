#!/usr/bin/env python3
# tools/perf-metric-oracle.py — maintainer's script: an oracle fixture for an events file generated
# from Linux perf's pmu-events (tools/gen-td-perf.py), where toplev has no model (Arm). Perf's own
# expression code decides the expected values: every metric the file has a node or an info line for
# is read from perf's JSON (arm64/sbsa.json's arch-standard metrics where the core's metrics.json
# names them by ArchStdEvent, the core's MetricExpr winning, as jevents.py resolves them), parsed
# by perf's tools/perf/pmu-events/metric.py (ParsePerfJson, the parser perf's jevents uses) and
# evaluated on seeded synthetic counts by a walk of the tree metric.py builds. The fixture
# (tests/data/fixtures/NAME.fix) gives those counts by the file's aliases and perf's values as
# expect lines (nodes: perf's percent / 100), so tests/unit/test_fixtures checks our evaluation of
# the file against perf's within `tolerance 1e-8` (1e-6 percentage points). Nothing of the events
# file's formulas is read here: only its aliases, perf-name lines and node/info names.
# Not run at build or test time.
#
#   tools/perf-metric-oracle.py --kernel KERNEL --dir arm/neoverse-v1 --slots 8 \
#       --td events/arm-neoverse-v1.td --seed 1 -o tests/data/fixtures/arm-v1-perf-oracle.fix
#
# Counts (a consistent machine): CPU_CYCLES 1-2e9; on slot cores STALL_SLOT = STALL_SLOT_FRONTEND +
# STALL_SLOT_BACKEND (each 10-30 % of #slots x cycles), OP_SPEC 30-70 % of the slots, OP_RETIRED
# 80-98 % of it, BR_MIS_PRED 0.1-1 % of cycles (so Frontend_Bound stays above 0); STALL_FRONTEND and
# STALL_BACKEND 10-40 % of cycles; an access event 10-100 % of cycles, a refill, miss or walk 0.1-5 %.
import argparse
import json
import glob
import os
import random
import re
import sys

SMALL = re.compile(r'REFILL|MISS|WALK|MIS_PRED')


def resolve(arch, d):
    """perf's metrics for core directory d: jevents.py's arch-standard resolution"""
    std = {}
    for f in sorted(glob.glob(os.path.join(arch, 'arm64', '*.json'))):
        for m in json.load(open(f)):
            if 'MetricName' in m:
                std[m['MetricName'].lower()] = m
    out = {}
    for f in sorted(glob.glob(os.path.join(arch, 'arm64', d, '*.json'))):
        for m in json.load(open(f)):
            if 'ArchStdEvent' in m and m['ArchStdEvent'].lower() in std:
                out[m['ArchStdEvent'].lower()] = dict(std[m['ArchStdEvent'].lower()],
                                                      **{k: v for k, v in m.items() if k == 'MetricExpr'})
            elif 'MetricName' in m:
                out[m['MetricName']] = m
    return out


def evaluate(e, metric, counts, slots):
    """a walk of metric.py's expression tree (Operator, Select, Function, Event, Constant, Literal)"""
    def ev(x):
        if isinstance(x, metric.Operator):
            a, b = ev(x.lhs), ev(x.rhs)
            return {'+': a + b, '-': a - b, '*': a * b, '/': a / b}[x.operator]
        if isinstance(x, metric.Select):
            return ev(x.true_val) if ev(x.cond) else ev(x.false_val)
        if isinstance(x, metric.Function):
            a = ev(x.lhs)
            b = ev(x.rhs) if x.rhs is not None else None
            if x.fn == 'd_ratio':
                return 0.0 if b == 0 else a / b
            return {'min': min, 'max': max}[x.fn](a, b)
        if isinstance(x, metric.Event):
            return float(counts[x.name.upper()])
        if isinstance(x, metric.Constant):
            return float(x.value)
        if isinstance(x, metric.Literal):
            if x.value == '#slots':
                return float(slots)
            raise SystemExit('literal %s' % x.value)
        raise SystemExit('cannot evaluate %r' % x)
    return ev(e)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--kernel', required=True, help='an extracted kernel tree (tools/perf/pmu-events)')
    p.add_argument('--dir', required=True, help='arm/neoverse-v1, ...')
    p.add_argument('--slots', type=int, default=0)
    p.add_argument('--td', required=True)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--source', default='Linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1')
    p.add_argument('-o', required=True)
    a = p.parse_args()
    pe = os.path.join(a.kernel, 'tools', 'perf', 'pmu-events')
    sys.path.insert(0, pe)
    import metric
    metrics = resolve(os.path.join(pe, 'arch'), a.dir)

    aliases, perfname, nodes, infos = {}, {}, [], []
    for line in open(a.td):
        t = line.split()
        if not t:
            continue
        if t[0] == 'event':
            aliases[t[1]] = t[2]
        elif t[0] == 'perf-name':
            for n in t[2:]:
                perfname[n.upper()] = t[1]
        elif t[0] == 'node':
            nodes.append((t[1], t[2]))
        elif t[0] == 'info':
            infos.append(t[1])
    rnd = random.Random(a.seed)
    cyc = rnd.randint(1000000000, 2000000000)
    c = {'CPU_CYCLES': cyc}
    if 'STALL_SLOT' in perfname:
        s = a.slots * cyc
        c['STALL_SLOT_FRONTEND'] = int(s * rnd.uniform(0.1, 0.3))
        c['STALL_SLOT_BACKEND'] = int(s * rnd.uniform(0.1, 0.3))
        c['STALL_SLOT'] = c['STALL_SLOT_FRONTEND'] + c['STALL_SLOT_BACKEND']
        c['OP_SPEC'] = int(s * rnd.uniform(0.3, 0.7))
        c['OP_RETIRED'] = int(c['OP_SPEC'] * rnd.uniform(0.8, 0.98))
    c.setdefault('BR_MIS_PRED', int(cyc * rnd.uniform(0.001, 0.01)))
    for e in ('STALL_FRONTEND', 'STALL_BACKEND'):
        c[e] = int(cyc * rnd.uniform(0.1, 0.4))
    c['INST_SPEC'] = int(cyc * rnd.uniform(1.5, 3.0))
    c['INST_RETIRED'] = int(c['INST_SPEC'] * rnd.uniform(0.8, 0.98))
    for e in sorted(set(perfname.values())):
        if e.endswith('_SPEC') and e not in c:      # the operation mix: 2-12 % of INST_SPEC each
            c[e] = int(c['INST_SPEC'] * rnd.uniform(0.02, 0.12))
    for e in sorted(set(perfname.values())):
        if e not in c:
            c[e] = int(cyc * (rnd.uniform(0.001, 0.05) if SMALL.search(e) else rnd.uniform(0.1, 1.0)))
    counts = {n: c[al] for n, al in perfname.items()}

    def perf_value(name):
        import math
        v = evaluate(metric.ParsePerfJson(metrics[name]['MetricExpr']), metric, counts, a.slots)
        assert math.isfinite(v)
        return v

    L = ['# %s — oracle: Linux perf\'s own metric expressions (%s, %s), parsed by perf\'s' % (os.path.basename(a.o), a.dir, a.source),
         '# tools/perf/pmu-events/metric.py and evaluated on these counts (tools/perf-metric-oracle.py --dir %s%s --seed %d);' %
         (a.dir, ' --slots %d' % a.slots if a.slots else '', a.seed),
         '# nodes are perf\'s percent / 100, info metrics perf\'s numbers in perf\'s units. Within 1e-6 percentage points.',
         'td      %s' % os.path.basename(a.td),
         'source  Linux perf metric.py on %s metrics.json + arm64/sbsa.json (%s)' % (a.dir, a.source),
         'tolerance 1e-8', '']
    for al in sorted(c):
        if al in aliases:
            L.append('count %-28s %d' % (al, c[al]))
    L.append('')
    total = 0
    for path, dom in nodes:
        leaf = path.split('.')[-1].lower()
        name = leaf if leaf in metrics else leaf.replace('_bound', '_stalled_cycles')
        if dom != 'Cycles' and name != leaf:
            raise SystemExit('node %s: no perf metric %s' % (path, leaf))
        L.append('expect %-40s %.15g   # perf %s / 100' % (path, perf_value(name) / 100, name))
        total += 1
    for n in infos:
        L.append('expect %-40s %.15g   # perf %s' % (n, perf_value(n), n))
        total += 1
    open(a.o, 'w').write('\n'.join(L) + '\n')
    print('%s: %d counts, %d expect lines (%d nodes, %d info)' % (a.o, len(c), total, len(nodes), len(infos)))


if __name__ == '__main__':
    main()
