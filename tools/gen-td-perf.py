#!/usr/bin/env python3
# tools/gen-td-perf.py — maintainer's generator: Linux perf's pmu-events metrics (AMD
# x86/amdzenN/pipeline.json, Arm arm64/sbsa.json + arm/CORE/metrics.json) -> events/*.td
#
# Owns the translation of the AMD and Arm top-down trees Linux perf ships (the vendors'
# contributions to tools/perf/pmu-events/arch/) into the events-file format
# (docs/td-format.md), as tools/gen-td.py does for Intel perfmon. Nodes are the metrics of the
# groups PipelineLN (AMD) or TopdownLN (Arm); a node's parent is the metric its NAME_group
# names; node names follow TMA's (a table below, reported when a name is missing from it).
# Events are perf raw forms of the core JSON's EventCode/UMask (AMD) or the Arm common
# architectural events' numbers; what cannot be translated is listed in OUT.untranslated.
#
#   tools/gen-td-perf.py --arch KERNEL/tools/perf/pmu-events/arch --dir x86/amdzen4 \
#       --pmu amd64_fam19h_zen4 --title "AMD Zen 4" --source "Linux 6.12.117" -o OUT.td
import argparse
import glob
import json
import os
import re
import sys

# perf metric name -> TMA node name (toplev's and the hand-written files')
NAMES = {
    'frontend_bound': 'Frontend_Bound', 'bad_speculation': 'Bad_Speculation', 'backend_bound': 'Backend_Bound',
    'retiring': 'Retiring', 'smt_contention': 'SMT_Contention',
    'frontend_bound_latency': 'Fetch_Latency', 'frontend_bound_bandwidth': 'Fetch_Bandwidth',
    'bad_speculation_mispredicts': 'Branch_Mispredicts', 'bad_speculation_pipeline_restarts': 'Pipeline_Restarts',
    'backend_bound_memory': 'Memory_Bound', 'backend_bound_cpu': 'Core_Bound',
    'retiring_fastpath': 'Fastpath', 'retiring_microcode': 'Microcode',
    # Zen 5's names (amdzen5/pipeline.json)
    'frontend_bound_by_latency': 'Fetch_Latency', 'frontend_bound_by_bandwidth': 'Fetch_Bandwidth',
    'bad_speculation_from_mispredicts': 'Branch_Mispredicts', 'bad_speculation_from_pipeline_restarts': 'Pipeline_Restarts',
    'backend_bound_by_memory': 'Memory_Bound', 'backend_bound_by_cpu': 'Core_Bound',
    'retiring_from_fastpath': 'Fastpath', 'retiring_from_microcode': 'Microcode',
}


# Arm's stage-1 cycle accounting (perf's arm/*/metrics.json group Cycle_Accounting): the level-1 nodes
# of a core perf gives no TopdownL1 for (--cycle-accounting), a share of cycles, not of slots
CYCLE_ACCOUNTING = {'frontend_stalled_cycles': 'Frontend_Bound', 'backend_stalled_cycles': 'Backend_Bound'}
NAMES.update(CYCLE_ACCOUNTING)


class Untranslatable(Exception):
    pass


def load_dir(path):
    out = []
    for f in sorted(glob.glob(os.path.join(path, '*.json'))):
        out += json.load(open(f))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--arch', required=True, help='tools/perf/pmu-events/arch of a kernel tree')
    p.add_argument('--dir', required=True, help='x86/amdzen4, arm/neoverse-v1, ...')
    p.add_argument('--pmu', required=True, nargs='+')
    p.add_argument('--title', required=True)
    p.add_argument('--source', required=True, help='the kernel the files were read from')
    p.add_argument('--slots', type=int, help='Arm #slots (the core\'s slot width)')
    p.add_argument('--info', action='store_true', help='the core\'s other metrics as info metrics (perf\'s values and units)')
    p.add_argument('--cycle-accounting', action='store_true',
                   help='a core with no TopdownLN metrics: its Cycle_Accounting metrics (Arm\'s stage 1) as level 1')
    p.add_argument('--thresholds', default='',
                   help='NODE>VALUE,... for nodes perf gives no threshold (say where the values come from in --append\'s notes)')
    p.add_argument('--append', help='a hand-maintained part (e.g. a CPI stack perf does not publish), appended as it is')
    p.add_argument('-o', required=True)
    a = p.parse_args()
    thresholds = dict(t.split('>') for t in a.thresholds.split(',') if t)
    arm = a.dir.startswith('arm')
    base = os.path.join(a.arch, 'arm64' if arm else '', a.dir) if arm else os.path.join(a.arch, a.dir)
    items = load_dir(base)
    untranslated = []
    events = {}
    if arm:
        # the arch-standard events: every arm64/*.json (common-and-microarch.json, recommended.json), as
        # jevents.py's preprocess_arch_std_files() reads them
        common = [e for f in sorted(glob.glob(os.path.join(a.arch, 'arm64', '*.json'))) for e in json.load(open(f))]
        for e in common:
            if 'EventCode' not in e or not (e.get('ArchStdEvent') or e.get('EventName')):
                continue
            nm = e.get('ArchStdEvent') or e.get('EventName')
            events[nm.lower()] = dict(code=int(e['EventCode'], 16), umask=None, name=nm,
                                                     desc=e.get('BriefDescription', ''))
        sbsa = {m['MetricName']: m for m in json.load(open(os.path.join(a.arch, 'arm64', 'sbsa.json'))) if 'MetricName' in m}
        # as perf's jevents.py (preprocess_arch_std_files, JsonEvent): an arch-standard metric of
        # sbsa.json is the core's only where the core's files name it ("ArchStdEvent"), the core's
        # own fields (a MetricExpr) winning
        metrics = {}
        for m in items:
            if 'ArchStdEvent' in m and m['ArchStdEvent'] in sbsa:
                metrics[m['ArchStdEvent']] = dict(sbsa[m['ArchStdEvent']], **{k: v for k, v in m.items() if k == 'MetricExpr'})
            elif 'MetricName' in m:
                metrics[m['MetricName']] = m
        metrics = dict([(k, metrics[k]) for k in sbsa if k in metrics] + [(k, v) for k, v in metrics.items() if k not in sbsa])
    else:
        for e in items:
            if 'EventName' in e and 'EventCode' in e:
                events[e['EventName'].lower()] = dict(code=int(e['EventCode'], 16), umask=int(e.get('UMask', '0x0'), 16),
                                                      name=e['EventName'], desc=e.get('BriefDescription', ''))
        metrics = {m['MetricName']: m for m in items if 'MetricName' in m}
    aliases = {}     # (code, umask, cmask) -> alias
    evlines = []

    # Arm: an event of the common list counts only if the core's own files list it
    core_arm = {(i.get('ArchStdEvent') or i.get('EventName') or '').lower() for i in items
                if 'MetricExpr' not in i and 'MetricName' not in i}

    def event(tok, cmask=0):
        e = events.get(tok.lower())
        if e is None:
            raise Untranslatable('event %s not in the core events' % tok)
        if arm and tok.lower() not in core_arm:
            raise Untranslatable('event %s is not one of %s\'s events' % (tok, a.dir))
        key = (e['code'], e['umask'], cmask)
        if key in aliases:
            return aliases[key]
        al = re.sub(r'[^A-Za-z0-9_]', '_', e['name'].upper()) + ('_c%d' % cmask if cmask else '')
        aliases[key] = al
        if arm:
            spec = 'armv8_pmuv3/event=0x%x/' % e['code']
            enc = '0x%04X' % e['code']
            perf = [e['name'].lower(), e['name']]
        else:
            spec = 'cpu/event=0x%x,umask=0x%x%s/' % (e['code'], e['umask'], ',cmask=%d' % cmask if cmask else '')
            enc = '0x%X/0x%02X%s' % (e['code'], e['umask'], ' c=%d' % cmask if cmask else '')
            perf = ['cpu/%s,cmask=0x%x/' % (e['name'], cmask)] if cmask else [e['name']]
        desc = ' '.join(e['desc'].split()).replace('|', '/')
        if len(desc) > 150:
            desc = desc[:147].rsplit(' ', 1)[0] + '...'
        evlines.append((al, spec, '%s%s, %s [%s]' % (e['name'], ' :c%d' % cmask if cmask else '', desc.rstrip('.'), enc), perf))
        return al

    def expr(s, refs):
        s = s.replace('\\,', ',').replace('\\=', '=')
        out = []
        pos = 0
        tok = re.compile(r'\s*(?:(cpu@[^@]*@)|(\d+\.?\d*(?:e\d+)?)|(#?[A-Za-z_][A-Za-z0-9_.]*)|(==|<=|>=|[-+*/(),<>]))')
        while pos < len(s.strip()):
            m = tok.match(s, pos)
            if not m or m.end() == pos:
                raise Untranslatable('cannot read %r' % s[pos:pos + 20])
            pos = m.end()
            if m.group(1):
                body = m.group(1)[4:-1].split(',')
                cm = 0
                for t in body[1:]:
                    k, v = t.split('=')
                    if k != 'cmask':
                        raise Untranslatable('term %s in %s' % (k, m.group(1)))
                    cm = int(v, 0)
                out.append(event(body[0], cm))
            elif m.group(2):
                out.append(m.group(2))
            elif m.group(3):
                v = m.group(3)
                if v == 'd_ratio':
                    out.append('@d_ratio')
                elif v in ('min', 'max', 'if', 'else'):
                    out.append(v)
                elif v == '#slots':
                    if not a.slots:
                        raise Untranslatable('#slots needs --slots')
                    out.append(str(a.slots))
                elif v == '#smt_on':
                    out.append('SMT_on')
                elif v in metrics and (v.lower() not in events):
                    refs.add(v)
                    out.append('@@' + v)
                else:
                    out.append(event(v))
            else:
                out.append(m.group(4))
        return d_ratio(out)

    nodes = {}
    has_tree = any(re.search(r'(?:Pipeline|Topdown)L\d', m.get('MetricGroup', '')) for m in metrics.values())
    for name, m in metrics.items():
        g = m.get('MetricGroup', '')
        lv = re.search(r'(?:Pipeline|Topdown)L(\d)', g)
        level = int(lv.group(1)) if lv else None
        if not lv and a.cycle_accounting and not has_tree and name in CYCLE_ACCOUNTING:
            level = 1       # Arm's stage 1: cycle accounting as level 1 (Cycles domain)
        if level is None:
            continue
        parent = None
        for part in g.split(';'):
            if part.endswith('_group'):
                parent = part[:-len('_group')]
        try:
            if name not in NAMES:
                raise Untranslatable('no TMA name for %s (add it to NAMES)' % name)
            refs = set()
            body = expr(m['MetricExpr'], refs)
            scale = m.get('ScaleUnit', '')
            if re.match(r'1\s*percent', scale) or scale == '1%':
                body = ['('] + body + [')', '/', '100']     # the expression gives percent
            elif not (scale.startswith('100%') or scale == ''):
                raise Untranslatable('scale unit %s' % scale)
            nodes[name] = dict(level=level, parent=parent, body=body, refs=refs, scale=scale,
                               domain='Cycles' if name in CYCLE_ACCOUNTING else 'Slots',
                               desc=' '.join(m.get('BriefDescription', '').split()).split('. ')[0].rstrip('.'))
        except Untranslatable as ex:
            untranslated.append((name, str(ex)))
    if not has_tree:
        untranslated.append(('(tree)', 'no metric of groups PipelineLN/TopdownLN in %s: perf publishes no top-down '
                             'tree for this core%s' % (a.dir, ' (its files name none of arm64/sbsa.json\'s TopdownL1 metrics '
                                                       'by ArchStdEvent)' if arm else '') +
                             ('; level 1 is its Cycle_Accounting metrics (--cycle-accounting)' if nodes else '') +
                             '; files: %s; metric groups: %s' % (' '.join(os.path.basename(f) for f in sorted(glob.glob(os.path.join(base, '*.json')))),
                                                                 ' '.join(sorted({g for m in metrics.values() for g in m.get('MetricGroup', '').split(';') if g})) or 'none')))
    infos = {}     # --info: the core's other metrics (perf's values, its scale unit's number)
    for name, m in metrics.items() if a.info else ():
        if name in nodes or 'MetricExpr' not in m or re.search(r'(?:Pipeline|Topdown)L\d', m.get('MetricGroup', '')):
            continue
        su = m.get('ScaleUnit', '')
        unit = {'1MPKI': 'MPKI', '1per cycle': 'IPC'}.get(su) or ('%' if su.startswith('1percent') else
                                                                 'Ratio' if su.startswith('1per ') else None)
        try:
            if unit is None:
                raise Untranslatable('scale unit %r' % su)
            refs = set()
            body = expr(m['MetricExpr'], refs)
            if refs:
                raise Untranslatable('refers to metrics %s' % ' '.join(sorted(refs)))
            infos[name] = (unit, body, ' '.join(m.get('BriefDescription', '').split()).split('. ')[0].rstrip('.') +
                           ' (perf %s, %s)' % (name, su[1:]))
        except Untranslatable as ex:
            untranslated.append((name, str(ex)))
    lets = {}
    for n in nodes.values():
        for r in n['refs']:
            if r not in nodes and r not in lets:
                try:
                    lets[r] = expr(metrics[r]['MetricExpr'], set())
                except Untranslatable as ex:
                    untranslated.append((r, str(ex)))

    def path(n):
        p = nodes[n]['parent']
        return (path(p) + '.' if p else '') + NAMES[n]

    def render(toks):
        s = ' '.join(path(t[2:]) if t[2:] in nodes else t[2:] if t.startswith('@@') else t for t in toks)
        for x, y in (('( ', '('), (' )', ')'), (' ,', ',')):
            s = s.replace(x, y)
        return re.sub(r'\b(max|min) \(', r'\1(', s)

    L = []
    w = L.append
    w('# %s — %s: the top-down tree Linux perf ships (tools/perf/pmu-events/arch/%s%s), GENERATED by' %
      (os.path.basename(a.o), a.title, 'arm64/' if arm else '', a.dir))
    w('# tools/gen-td-perf.py: do not edit. Untranslated metrics: %s.untranslated' % os.path.basename(a.o))
    w('pmu      %s' % ' '.join(a.pmu))
    w('title    %s' % a.title)
    w('version  Linux perf pmu-events %s%s (%s)' % ('arm64/sbsa.json + arm64/' if arm else '', a.dir, a.source))
    w('note     Generated: tools/gen-td-perf.py --dir %s --pmu %s%s%s%s%s%s -o %s' % (a.dir, ' '.join(a.pmu),
                                                                          ' --slots %d' % a.slots if a.slots else '',
                                                                          ' --cycle-accounting' if a.cycle_accounting else '',
                                                                          ' --info' if a.info else '',
                                                                          ' --thresholds %s' % a.thresholds if a.thresholds else '',
                                                                          ' --append %s' % os.path.basename(a.append) if a.append else '',
                                                                          os.path.normpath(a.o)))
    w('note     Nodes are the metrics of groups PipelineLN/TopdownLN, parents their NAME_group, names TMA\'s;')
    w('note     d_ratio(a, b) is a / b (NA when b is 0: perf gives 0); percent scale units are fractions here.')
    if infos:
        w('note     Info metrics are the core\'s other metrics.json metrics under perf\'s names, in perf\'s units')
        w('note     (percent, MPKI, per access): the numbers perf stat prints.')
    if any(n in CYCLE_ACCOUNTING for n in nodes):
        w('note     perf publishes no top-down tree for this core (no TopdownL1 metric of sbsa.json named by')
        w('note     ArchStdEvent in its files): level 1 is its Cycle_Accounting metrics, Arm\'s stage 1, shares')
        w('note     of cycles (Cycles domain) stalled for the frontend or the backend; no Retiring or Bad_Speculation.')
    w('')
    w('param    SMT_on 0')
    for al, spec, desc, perf in sorted(evlines):
        w('event    %-36s %-40s | %s' % (al, spec, desc))
    for al, spec, desc, perf in sorted(evlines):
        w('perf-name %-35s %s' % (al, ' '.join(perf)))
    w('')
    if arm:
        w('# Arm: 6 programmable counters per CPU (Neoverse TRMs, PMCR_EL0.N; arm_pmuv3.c:1211-1212 of Linux 6.12.117)')
        w('# and the cycle counter (index 31, :1215), where CPU_CYCLES always goes when free (armv8pmu_get_event_idx(),')
        w('# :936-945); the NMI watchdog\'s cycles event (arm64 watchdog_hld) takes it when it runs')
        w('counters  gp=6 fixed=1 watchdog=fixed:0')
        if ('CPU_CYCLES' in [e[0] for e in evlines]):
            w('fixed     0 CPU_CYCLES')
    else:
        w('# AMD Zen 4/5: 6 general-purpose counters (Linux arch/x86/events/amd/core.c, amd_core_pmu_init()),')
        w('# no fixed counters; the NMI watchdog holds one GP counter')
        w('counters  gp=6 watchdog=gp')
    w('')
    for r, body in sorted(lets.items()):
        w('let      %s = %s' % (r, render(body)))
    for n, (unit, body, desc) in sorted(infos.items()):
        w('info     %-32s %-5s = %s | %s' % (n, unit, render(body), desc.replace('|', '/')))
    if infos:
        w('')
    kids = {}
    for n, d in nodes.items():
        kids.setdefault(d['parent'], []).append(n)
    order = []

    def walk(p):
        for n in kids.get(p, []):
            order.append(n)
            walk(n)
    walk(None)
    for n in order:
        d = nodes[n]
        w('node  %s %s = %s \\' % (path(n), d['domain'], render(d['body'])))
        th = thresholds.get(NAMES[n])
        w('      | %s | L%d. %s' % ('> ' + th if th else '', d['level'], d['desc']))
        if n in kids:
            ch = kids[n]
            w('unrelated %s | perf gives each child\'s formula, no relation to its parent (generated)' % path(n))
    for t in thresholds:
        if t not in [NAMES[n] for n in nodes]:
            sys.exit('--thresholds names %s, not a node of this tree' % t)
    if a.append:
        w('')
        w('# ---- appended by tools/gen-td-perf.py --append %s (hand-maintained: not from perf) ----' %
          os.path.basename(a.append))
        L.extend(open(a.append).read().rstrip('\n').split('\n'))
    if nodes:
        open(a.o, 'w').write('\n'.join(L) + '\n')
    elif os.path.exists(a.o):
        os.remove(a.o)      # no tree: only the .untranslated list says why
    with open(a.o + '.untranslated', 'w') as f:
        f.write('# %s: what tools/gen-td-perf.py could not translate (name: reason)\n' % os.path.basename(a.o))
        for n, why in untranslated:
            f.write('%s: %s\n' % (n, why))
            print('untranslated %s: %s' % (n, why))
    print('%s: %d nodes, %d info metrics, %d events, %d untranslated' % (a.o, len(nodes), len(infos), len(evlines), len(untranslated)))


def d_ratio(toks):
    """perf's d_ratio(a, b) -> (a) / (b); toks is a flat token list"""
    out = []
    i = 0
    while i < len(toks):
        if toks[i] == '@d_ratio':
            # find the matching parens and the top-level comma
            j, depth, comma = i + 1, 0, None
            while True:
                if toks[j] == '(':
                    depth += 1
                elif toks[j] == ')':
                    depth -= 1
                    if depth == 0:
                        break
                elif toks[j] == ',' and depth == 1:
                    comma = j
                j += 1
            a_, b_ = d_ratio(toks[i + 2:comma]), d_ratio(toks[comma + 1:j])
            out += ['('] + a_ + [')', '/', '('] + b_ + [')']
            i = j + 1
        else:
            out.append(toks[i])
            i += 1
    return out


if __name__ == '__main__':
    main()
