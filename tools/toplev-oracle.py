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
           '-l%d' % a.level, '--nodes', a.info, '-x,'] + extra
    return subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=a.tools)


def patched_copy(src):
    """a copy of pmu-tools whose CSV values carry 12 significant digits (tl_uval.py's
    format_value_raw prints one decimal: '{:>13.1f}' and '{:13.1f}' become '{:.12g}')"""
    d = tempfile.mkdtemp(prefix='pmu-tools.')
    shutil.copytree(src, d, dirs_exist_ok=True)
    f = os.path.join(d, 'tl_uval.py')
    s = open(f).read()
    n = s.count('{:>13.1f}') + s.count('{:13.1f}')
    if n != 2:
        sys.exit('tl_uval.py: expected the two one-decimal formats of format_value_raw, found %d' % n)
    open(f, 'w').write(s.replace('{:>13.1f}', '{:.12g}').replace('{:13.1f}', '{:.12g}'))
    return d


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--pmu-tools', required=True)
    p.add_argument('--eventmap', required=True)
    p.add_argument('--cpu', required=True)
    p.add_argument('--metrics', default='0')
    p.add_argument('--level', type=int, default=3)
    p.add_argument('--seed', type=int, required=True)
    p.add_argument('--info', default='+IPC,+CPI,+CLKS,+SLOTS', help="toplev --nodes (info metrics to add)")
    p.add_argument('--slot-codes', help='E-core slot event codes, e.g. 0x71,0x72,0x73,0x74')
    p.add_argument('--width', type=int, default=6, help='slots per cycle for --slot-codes')
    p.add_argument('--scale', type=float, default=0.08, help='other events: at most this fraction of cycles')
    p.add_argument('-o', required=True)
    p.add_argument('name')
    a = p.parse_args()
    a.tools = patched_copy(a.pmu_tools)
    env = dict(os.environ, EVENTMAP=os.path.abspath(a.eventmap), FORCEMETRICS=a.metrics, FORCEHT='0')
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
    os.makedirs(os.path.join(a.o, 'inputs'), exist_ok=True)
    os.makedirs(os.path.join(a.o, 'expected'), exist_ok=True)
    inp = os.path.join(a.o, 'inputs', a.name + '.perf.csv')
    with open(inp, 'w') as f:
        for e in evs:
            f.write('%d;;%s;1000000000;100.00;;\n' % (val[e], e))
    out = os.path.abspath(os.path.join(a.o, 'expected', a.name + '.csv'))
    r = toplev(a, ['--import', os.path.abspath(inp), '-o', out], env)
    bad = [l for l in (r.stdout + r.stderr).splitlines() if 'unparseable' in l or 'does not match' in l]
    if r.returncode or bad or not os.path.exists(out):
        sys.exit('toplev --import failed (%d):\n%s%s' % (r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
    rows = sum(1 for l in open(out) if l[:1].isalpha() and not l.startswith('Area') and not l.startswith('MUX'))
    shutil.rmtree(a.tools)
    print('%s: %d events (%d distinct), toplev printed %d rows' % (a.name, len(evs), len(val), rows))


if __name__ == '__main__':
    main()
