#!/usr/bin/env python3
# tools/toplev-oracle.py — maintainer's script: makes one toplev --import oracle case
# (tests/data/oracle/toplev-gen/) for a CPU model pmu-tools knows (--force-cpu), with no
# hardware: (1) toplev --print gives the perf command it would run (its event groups, in
# order); (2) every distinct event gets a synthetic count (seeded random, with the
# PERF_METRICS fields a split of SLOTS); (3) those counts, written as `perf stat -x;`
# lines in toplev's schedule order, go to `toplev --import` with the same arguments;
# toplev's CSV is the expected output. toplev runs from a temporary copy of pmu-tools whose
# CSV values have 12 significant digits (patched_copy) and with -v (every node, also below
# its threshold). Not run at build or test time.
#
#   tools/toplev-oracle.py --pmu-tools PMU_TOOLS --eventmap PERFMON/EMR/events/emeraldrapids_core.json \
#       --cpu spr --metrics 1 --level 3 --seed 207 -o tests/data/oracle/toplev-gen emr-l3
#
# toplev reads EVENTMAP for the event list (offline: no download); FORCEMETRICS=1 selects
# its PERF_METRICS formulas (0: the general-purpose TOPDOWN.* events); FORCEHT=0 is SMT off.
import argparse
import os
import random
import shutil
import tempfile
import re
import subprocess
import sys

PM_L1 = ['topdown-retiring', 'topdown-bad-spec', 'topdown-fe-bound', 'topdown-be-bound']


def toplev(a, extra, env):
    cmd = [sys.executable, os.path.join(a.tools, 'toplev.py'), '--force-cpu', a.cpu, '-v',
           '-l%d' % a.level, '--nodes', a.info, '-x,'] + \
        (['--ret-latency', os.path.abspath(a.ret_latency)] if a.ret_latency else []) + extra
    return subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=a.tools)


def patched_copy(src, costs=None):
    """a copy of pmu-tools whose CSV values carry 12 significant digits (tl_uval.py's
    format_value_raw prints one decimal: '{:>13.1f}' and '{:13.1f}' become '{:.12g}'); costs
    (FILE:NAME=VALUE,...) replaces the constant of a `return N * Core_Frequency(...)` cost
    function of FILE (e.g. spr_server_ratios.py's Mem_L2_Hit_Cost: toplev 5.1 serves Emerald
    Rapids with SPR's memory latencies, perfmon's EMR file has EMR's)"""
    d = tempfile.mkdtemp(prefix='pmu-tools.')
    shutil.copytree(src, d, dirs_exist_ok=True)
    if costs:
        fn, kvs = costs.split(':', 1)
        f = os.path.join(d, fn)
        s = open(f).read()
        for kv in kvs.split(','):
            k, v = kv.split('=')
            s, n = re.subn(r'(def %s\(self, EV, level\):\n    return )[0-9.]+( \* Core_Frequency)' % re.escape(k),
                           r'\g<1>%s\2' % v, s)
            if n != 1:
                sys.exit('%s: no cost function %s returning N * Core_Frequency' % (fn, k))
        open(f, 'w').write(s)
    f = os.path.join(d, 'tl_uval.py')
    s = open(f).read()
    n = s.count('{:>13.1f}') + s.count('{:13.1f}')
    if n != 2:
        sys.exit('tl_uval.py: expected the two one-decimal formats of format_value_raw, found %d' % n)
    open(f, 'w').write(s.replace('{:>13.1f}', '{:.12g}').replace('{:13.1f}', '{:.12g}'))
    return d


BASE = ('slots', 'event=0x3c,umask=0x0', 'event=0xc0,umask=0x0', 'event=0x0,umask=0x3', 'event=0x0,umask=0x4',
        'cpu-cycles', 'cycles', 'instructions')


def fit(a, val, rnd):
    """moves the counts of the events a node reads (never cycles, instructions, slots, the
    topdown-* fields or the TSC) by factors of 0.5-2, greedily, until every node of --fit
    evaluates within --lo..--hi: a consistent synthetic machine on which toplev's values are
    neither capped at 100 % nor clamped at 0 (its max(0, ...) and maxval 1.0)"""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import td_eval
    tree = td_eval.Tree(a.fit)
    bykey = {}
    for alias, raw in sorted(tree.events.items()):
        bykey.setdefault(td_eval.terms(raw), alias)
    clk = float(next(val[e] for e in val if (e.split('/')[1] if '/' in e else e) in BASE[1:2] + BASE[5:7]))
    copies = {}     # alias -> the input's events (raw forms) that count it
    fixed = set()
    slots = max(val.values())
    extra = {'DURATION': 1.0, 'SMT_on': 0.0}
    for e in val:
        if e.startswith('msr/tsc'):
            extra['TSC'] = val[e]
        name = e.split('/')[1] if '/' in e else e
        k = td_eval.terms(e)
        if k in bykey:
            copies.setdefault(bykey[k], []).append(e)
            if name in BASE or name.startswith('topdown-') or e.startswith('msr/'):
                fixed.add(bykey[k])
    counts = {al: float(val[es[0]]) for al, es in copies.items()}
    free = set(copies) - fixed
    for al in filter(None, a.zero.split(',')):
        if al not in tree.events or al in copies:
            sys.exit('fit: --zero %s: not an event of %s, or one toplev counts' % (al, a.fit))
        counts[al] = 0.0
    # toplev's events the tree does not read (toplev-only nodes, or an offcore event whose MSR
    # value toplev's perf form lost): small, so toplev's own nodes stay under 100 % too
    for e in val:
        name = e.split('/')[1] if '/' in e else e
        if td_eval.terms(e) not in bykey and name not in BASE and not name.startswith('topdown-') and \
                e not in ('duration_time',) and not e.startswith('msr/'):
            val[e] = max(1000, val[e] // 100)

    def penalty(c):
        lost = {}
        v = tree.evaluate(c, extra, lost)
        p, bad = 0.0, []
        for n, x in v.items():
            d = 1.0 if x is None else max(0.0, a.lo - x, x - a.hi)
            if x is not None and x < a.lo:
                d += lost[n]    # how far below its max() bound: what the fit must raise
            if d > 0:
                p += d
                bad.append(n)
        return p, bad
    refs = {n: set() for n in tree.nodes}
    for n in tree.nodes:
        body = tree.nodes[n]
        seen = set()
        todo = [n]
        while todo:
            m = todo.pop()
            for r in td_eval.NAME.findall(tree.nodes.get(m) or tree.infos.get(m) or ''):
                if r in tree.events:
                    refs[n].add(r)
                elif (r in tree.nodes or r in tree.infos) and r not in seen:
                    seen.add(r)
                    todo.append(r)
    # a node that reads an event toplev's schedule does not count is not toplev's (a TMA
    # difference the test names): left out of the fit
    # the tree's events toplev's schedule does not count (its nodes are a TMA or schedule
    # difference the test names: their values are not toplev's): one small stand-in count each,
    # so that their nodes (and toplev's own versions of them, which read toplev's events) fit too
    stand = sorted(al for al in tree.refs_all() if al not in counts)
    for al in stand:
        counts[al] = clk * 0.001
    if stand:
        print('fit: not counted by toplev (stand-in counts): ' + ' '.join(stand), file=sys.stderr)
    v0 = tree.evaluate(counts, extra)
    skip = sorted(n for n in tree.nodes if v0[n] is None)
    if skip:
        print('fit: not computable: ' + ' '.join(skip), file=sys.stderr)
    for n in skip:
        del tree.nodes[n]
    p, bad = penalty(counts)
    for it in range(2000):
        if p == 0:
            break
        cand = sorted(set().union(*[refs[n] for n in bad]) & free)
        best = (p, None, None)
        for al in cand:
            for f in (0.25, 0.5, 0.8, 1.25, 2.0, 4.0):
                x = counts[al] * f
                if x < 1000 or x > slots:
                    continue
                c = dict(counts)
                c[al] = x
                q = penalty(c)[0]
                if q < best[0] - 1e-12:
                    best = (q, al, x)
        if best[1] is None:
            if not cand:
                break
            al = rnd.choice(cand)    # stuck: a random move
            counts[al] = min(slots, max(1000.0, counts[al] * rnd.uniform(0.2, 5)))
        else:
            counts[best[1]] = best[2]
        p, bad = penalty(counts)
    if p:
        print('fit: %d nodes of %s still outside %g..%g after %d steps: %s' % (
            len(bad), a.fit, a.lo, a.hi, it, ' '.join(bad)), file=sys.stderr)
    else:
        print('fit: every node of %s within %g..%g after %d steps' % (a.fit, a.lo, a.hi, it), file=sys.stderr)
    for al, es in copies.items():
        for e in es:
            val[e] = int(round(counts[al]))


def run_import(a, env, inp):
    """toplev --import of INP: expected/NAME.csv; the number of rows toplev printed"""
    out = os.path.abspath(os.path.join(a.o, 'expected', a.name + '.csv'))
    if a.pmu_name:      # toplev reads the cpu/ form it printed
        tmp = os.path.join(a.tools, 'input.perf.csv')
        with open(tmp, 'w') as f:
            f.write(open(inp).read().replace(';%s/' % a.pmu_name, ';cpu/'))
        inp = tmp
    r = toplev(a, ['--import', os.path.abspath(inp), '-o', out], env)
    bad = [l for l in (r.stdout + r.stderr).splitlines() if 'unparseable' in l or 'does not match' in l]
    if r.returncode or bad or not os.path.exists(out):
        sys.exit('toplev --import failed (%d):\n%s%s' % (r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
    rows = sum(1 for l in open(out) if l[:1].isalpha() and not l.startswith('Area') and not l.startswith('MUX'))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--pmu-tools', required=True)
    p.add_argument('--eventmap', required=True)
    p.add_argument('--cpu', required=True)
    p.add_argument('--metrics', default='0')
    p.add_argument('--level', type=int, default=3)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--info', default='+IPC,+CPI,+CLKS,+SLOTS', help="toplev --nodes (info metrics to add)")
    p.add_argument('--slot-codes', help='E-core slot event codes, e.g. 0x71,0x72,0x73,0x74')
    p.add_argument('--width', type=int, default=6, help='slots per cycle for --slot-codes')
    p.add_argument('--scale', type=float, default=0.08, help='other events: at most this fraction of cycles')
    p.add_argument('--fit', metavar='TD', help='fit the counts to a consistent machine: every node of TD '
                   '(the tree the case checks, same TMA as toplev) within --lo..--hi (tools/td_eval.py)')
    p.add_argument('--zero', default='', help='aliases of --fit toplev does not count, as 0 (comma-separated): '
                   'the synthetic machine had none of them (e.g. half-precision FP_ARITH_INST_RETIRED2 for toplev 5.1)')
    p.add_argument('--lo', type=float, default=0.0005)
    p.add_argument('--hi', type=float, default=0.95)
    p.add_argument('--costs', help="FILE:NAME=VALUE,...: toplev's latency costs replaced (see patched_copy)")
    p.add_argument('--expected-only', metavar='INPUT', help="no counts made: toplev --import of this case's "
                   "input (e.g. the same counts with other --costs) gives expected/NAME.csv")
    p.add_argument('--ret-latency', help='toplev --ret-latency FILE: retire latencies (mtl-retlat.json\'s format) '
                   'in place of pmu-tools\' own')
    p.add_argument('--pmu-name', help='the stored input names this core PMU where toplev printed cpu/ (a hybrid\'s '
                   'cpu_core or cpu_atom, as perf stat prints them there; toplev --force-cpu mtl on a host without them '
                   'prints cpu/): toplev reads the cpu/ form')
    p.add_argument('-o', required=True)
    p.add_argument('name')
    a = p.parse_args()
    a.tools = patched_copy(a.pmu_tools, a.costs)
    env = dict(os.environ, EVENTMAP=os.path.abspath(a.eventmap), FORCEMETRICS=a.metrics, FORCEHT='0')
    if a.expected_only:
        os.makedirs(os.path.join(a.o, 'expected'), exist_ok=True)
        rows = run_import(a, env, a.expected_only)
        shutil.rmtree(a.tools)
        print('%s: toplev printed %d rows for %s' % (a.name, rows, a.expected_only))
        return
    r = toplev(a, ['--print', '--', 'true'], env)
    m = re.search(r"-e '([^']*)'", r.stdout)
    if not m:
        sys.exit('toplev --print gave no perf command:\n' + r.stdout + r.stderr)
    evs = re.findall(r'[A-Za-z0-9_]+/[^/]*/[a-z]*|[A-Za-z0-9_.:-]+', m.group(1).replace('{', ',').replace('}', ','))
    rnd = random.Random(a.seed)
    clk = rnd.randint(1500000000, 2500000000)
    val = {}
    width = 6 if any('topdown-' in e or e.endswith('slots/') for e in evs) else 4
    slots = width * clk
    # PERF_METRICS: level-1 fields split SLOTS; each level-2 field is a share of its parent
    cut = sorted(rnd.sample(range(1, 1000), 3))
    parts = [cut[0], cut[1] - cut[0], cut[2] - cut[1], 1000 - cut[2]]
    l1 = dict(zip(PM_L1, [slots * x // 1000 for x in parts]))
    l1['topdown-be-bound'] = slots - sum(v for k, v in l1.items() if k != 'topdown-be-bound')
    sub = {'topdown-heavy-ops': 'topdown-retiring', 'topdown-br-mispredict': 'topdown-bad-spec',
           'topdown-fetch-lat': 'topdown-fe-bound', 'topdown-mem-bound': 'topdown-be-bound'}
    # E-core slot events (--slot-codes, Atom TMA: TOPDOWN_FE_BOUND 0x71, _RETIRING 0x72,
    # _BAD_SPECULATION 0x73, _BE_BOUND 0x74): the umask-0 (ALL_P) events split slots = --width x
    # cycles, and each umask bit gets a random share of its code's ALL_P, so an event with
    # several bits counts the sum of its bits' shares (as the hardware's umask subsets do)
    a.slot_codes = [int(x, 16) for x in a.slot_codes.split(',')] if a.slot_codes else []
    share = {}
    if a.slot_codes:
        slots = a.width * clk
        cut = sorted(rnd.sample(range(1, 1000), len(a.slot_codes) - 1))
        bounds = [0] + cut + [1000]
        for i, c in enumerate(a.slot_codes):
            total = slots * (bounds[i + 1] - bounds[i]) // 1000
            w = [rnd.uniform(0.1, 1) for _ in range(8)]
            share[c] = [total * x / sum(w) for x in w]

    def slot_event(name):
        code, umask = [int(x.split('=')[1], 16) for x in name.split(',')]
        if umask == 0:
            return int(round(sum(share[code])))
        return int(round(sum(share[code][b] for b in range(8) if umask >> b & 1)))

    for e in evs:
        if e in val:
            continue
        name = e.split('/')[1] if '/' in e else e
        if name in ('slots', 'event=0x0,umask=0x4'):
            val[e] = slots
        elif name in l1:
            val[e] = l1[name]
        elif name in sub:
            val[e] = int(l1[sub[name]] * rnd.uniform(0.2, 0.8))
        elif name in ('event=0x3c,umask=0x0', 'cpu-cycles', 'cycles'):
            val[e] = clk
        elif name in ('event=0xc0,umask=0x0', 'instructions'):
            val[e] = int(clk * rnd.uniform(0.6, 2.2))
        elif e == 'duration_time':
            val[e] = 1000000000
        elif e.startswith('msr/'):
            val[e] = 2000000000
        elif name == 'event=0x0,umask=0x3':
            val[e] = int(clk * rnd.uniform(0.7, 0.95))
        elif a.slot_codes and re.fullmatch(r'event=(0x[0-9a-f]+),umask=(0x[0-9a-f]+)', name) and \
                int(name.split(',')[0][6:], 16) in a.slot_codes:
            val[e] = slot_event(name)
        else:
            val[e] = int(clk * rnd.uniform(a.scale / 160, a.scale))
    if a.fit:
        fit(a, val, rnd)
    os.makedirs(os.path.join(a.o, 'inputs'), exist_ok=True)
    os.makedirs(os.path.join(a.o, 'expected'), exist_ok=True)
    inp = os.path.join(a.o, 'inputs', a.name + '.perf.csv')
    with open(inp, 'w') as f:
        for e in evs:
            f.write('%d;;%s;1000000000;100.00;;\n' % (val[e], re.sub(r'^cpu/', a.pmu_name + '/', e) if a.pmu_name else e))
    rows = run_import(a, env, inp)
    shutil.rmtree(a.tools)
    print('%s: %d events (%d distinct), toplev printed %d rows' % (a.name, len(evs), len(val), rows))


if __name__ == '__main__':
    main()
