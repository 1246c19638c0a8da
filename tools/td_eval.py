# tools/td_eval.py — maintainer's helper module (imported by tools/toplev-oracle.py): reads an
# events/*.td file's events, nodes and info metrics and evaluates their formulas in Python over a
# set of counts (alias -> count), so a synthetic oracle case can be fitted to a consistent machine
# (every node within 0-100 %) before toplev computes its values. Used only to choose counts: the
# values a test checks are toplev's, never these.
import re

NAMED = {'slots': (0x0, 0x4), 'topdown-retiring': (0x0, 0x80), 'topdown-bad-spec': (0x0, 0x81),
         'topdown-fe-bound': (0x0, 0x82), 'topdown-be-bound': (0x0, 0x83), 'topdown-heavy-ops': (0x0, 0x84),
         'topdown-br-mispredict': (0x0, 0x85), 'topdown-fetch-lat': (0x0, 0x86),
         'topdown-mem-bound': (0x0, 0x87), 'tsc': (0x0, 0x0)}


def terms(spec):
    """a perf raw form (cpu/event=..,umask=../ or a named PERF_METRICS event such as
    cpu/topdown-fe-bound/) as a key that ignores term order and spelling: offcore_rsp= is
    perf's config1=, the named slots/topdown-* events their pseudo encodings (event 0)"""
    m = re.fullmatch(r'(\w+)/([^/]*)/', spec)
    if not m:
        return None
    t = {'pmu': {'cpu_core': 'cpu', 'cpu_atom': 'cpu'}.get(m.group(1), m.group(1))}   # a hybrid's core PMUs: toplev
    # --force-cpu mtl / mtl-cmt on a host without them writes cpu/
    body = m.group(2)
    if body in NAMED:
        t['event'], t['umask'] = NAMED[body]
    else:
        for kv in body.split(','):
            if '=' in kv:
                k, v = kv.split('=', 1)
                k = {'offcore_rsp': 'config1'}.get(k, k)
                # a term given twice ORs its bits (perf's pmu_format_value() with zero false for the
                # core PMU: tools/perf/util/pmu.c:1282-1296, 1512, Linux 6.12): toplev writes
                # EXE_ACTIVITY.3_PORTS_UTIL:u0x80 as umask=0x8,umask=0x80, which perf counts as 0x88
                t[k] = t.get(k, 0) | int(v, 0)
            elif kv:
                t[kv] = 1
    if 'event' not in t:
        return None
    for k in ('umask', 'cmask', 'edge', 'inv', 'any'):
        t.setdefault(k, 0)
    return tuple(sorted(t.items()))


class Missing(Exception):
    pass


NAME = re.compile(r'(?<![0-9.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*')
KEEP = {'min', 'max', 'if', 'else', 'and', 'or', 'not'}


class Tree:
    def __init__(self, path):
        self.events = {}    # alias -> raw form
        self.nodes = {}     # name -> formula
        self.infos = {}
        self.consts = {}
        lines = open(path).read().splitlines()
        for line in lines:
            f = line.split()
            if len(f) >= 3 and f[0] == 'event':
                self.events[f[1]] = f[2]
            elif len(f) >= 3 and f[0] in ('param', 'builtin', 'const'):
                try:
                    self.consts[f[1]] = float(f[2])
                except ValueError:
                    pass
            elif len(f) >= 4 and f[0] in ('node', 'info') and '=' in line:
                body = line.split('=', 1)[1].split(' | ')[0].rstrip().rstrip('\\').strip()
                (self.nodes if f[0] == 'node' else self.infos)[f[1]] = body
        self.code = {}
        for n, body in list(self.nodes.items()) + list(self.infos.items()):
            py = NAME.sub(lambda m: m.group(0) if m.group(0) in KEEP else 'V(%r)' % m.group(0), body)
            try:
                self.code[n] = compile(py, n, 'eval')
            except SyntaxError:
                pass    # a metric Python cannot read: evaluates to nothing (its nodes: outside)

    def refs(self, name, seen=None):
        """the event aliases a node or metric reads, through the metrics it names"""
        seen = set() if seen is None else seen
        out = set()
        body = self.nodes.get(name) or self.infos.get(name) or ''
        for m in NAME.finditer(body):
            r = m.group(0)
            if r in self.events:
                out.add(r)
            elif r in self.infos and r not in seen:
                seen.add(r)
                out |= self.refs(r, seen)
        return out

    def refs_all(self):
        out = set()
        for n in self.nodes:
            out |= self.refs(n)
        return out

    def evaluate(self, counts, extra, deficit=None):
        """every node's value (None when it cannot be computed) over counts (alias -> count);
        deficit (a dict), when given, gets per node how far below a literal bound of max() (such
        as the 0 of max(0, A - B)) its computation went: what a fit must raise"""
        cache = {}
        lost = [0.0]

        def vmax(*args):
            r = max(*args)
            if len(args) == 2:
                for lit, x in ((args[0], args[1]), (args[1], args[0])):
                    if type(lit) is int and type(x) is float and x < lit:
                        lost[0] += lit - x
            return r

        def V(n):
            if n in cache:
                if cache[n] is None:
                    raise Missing(n)
                return cache[n]
            if n in counts:
                return counts[n]
            if n in extra:
                return extra[n]
            if n in self.consts:
                return self.consts[n]
            if n not in self.code:
                raise Missing(n)
            cache[n] = None
            try:
                v = eval(self.code[n], {'V': V, 'min': min, 'max': vmax})
            except (Missing, ZeroDivisionError):
                raise Missing(n)
            cache[n] = v
            return v
        out = {}
        for n in self.nodes:
            lost[0] = 0.0
            try:
                out[n] = V(n)
            except Missing:
                out[n] = None
            if deficit is not None:
                deficit[n] = lost[0]
        return out
