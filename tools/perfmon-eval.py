#!/usr/bin/env python3
# tools/perfmon-eval.py — maintainer's script: evaluates Intel perfmon metrics' BaseFormula text
# itself (Python's own arithmetic on the formula as perfmon writes it) on the counts of a metric
# fixture, a check of a generated file's node that no toplev row can give (where perfmon's formula
# and toplev's differ, e.g. perfmon MTL's `a * (12 * CF) - (3 * CF)` against toplev's
# `a * (12 * CF - 3 * CF)`). It reads nothing of our events files: events are the fixture's
# `count` lines (alias = perfmon's event name upper-cased, '.' and ':' as '_'), `EVENT:retire_latency`
# the mean of a retire-latency file rounded (as gen-td.py's RL_ constants), `tma_NAME` another
# metric's BaseFormula, duration_time the fixture's DURATION, tsc its TSC count, smt_on 0.
# Not run at build or test time.
#
#   tools/perfmon-eval.py METRICS.json FIXTURE.fix RETLAT.json NAME...   -> "NAME VALUE" (fractions)
import json
import re
import sys


def main():
    mj, fix, rl = sys.argv[1:4]
    metrics = {'tma_' + m['MetricName'].lower(): m for m in json.load(open(mj))['Metrics']}
    byname = {m['MetricName']: m for m in metrics.values()}
    counts, dur = {}, 1.0
    for line in open(fix):
        t = line.split()
        if len(t) >= 3 and t[0] == 'count':
            counts[t[1]] = float(t[2])
        elif len(t) >= 3 and t[0] == 'builtin' and t[1] == 'DURATION':
            dur = float(t[2])
    lat = {k.lower(): float(round(v['MEAN'])) for k, v in json.load(open(rl))['Data'].items()}

    def value(formula):
        def tok(m):
            w = m.group(0)
            if w in ('min', 'max', 'if', 'else', 'and', 'or', 'not'):
                return w
            if w.endswith(':retire_latency'):
                return repr(lat[w[:-len(':retire_latency')]])
            if w in metrics:
                return '(%r)' % value(metrics[w]['BaseFormula'])
            if w == 'duration_time':
                return repr(dur)
            if w == 'smt_on':
                return '0'
            alias = re.sub(r'[.:]', '_', w).upper()
            if alias not in counts:
                raise SystemExit('no count for %s (%s)' % (w, alias))
            return repr(counts[alias])
        py = re.sub(r'[A-Za-z_][A-Za-z0-9_.:]*', tok, formula)
        return eval(py, {'min': min, 'max': max})

    for n in sys.argv[4:]:
        m = byname[n.split('.')[-1]]
        print('%s %.15g' % (n, value(m['BaseFormula'])))


if __name__ == '__main__':
    main()
