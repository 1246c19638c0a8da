#!/usr/bin/env python3
# tools/gen-td.py — maintainer's generator: Intel perfmon TMA metrics JSON -> events/*.td
#
# Owns the translation of a vendor's published top-down tree (intel/perfmon
# MODEL/metrics/*_metrics.json, its BaseFormula/Threshold/CountDomain fields, and the
# MODEL/events/*_core.json encodings) into this project's events-file format
# (docs/td-format.md). Run by hand when the vendor files change; never at build or
# run time. Whatever it cannot translate (uncore or free-running events, :sup/:user
# privilege filters, :percore aggregation, counter lists the planner cannot express,
# events missing from the core table, and every metric reading one of those) is
# listed by name in OUT.untranslated and printed; nothing is dropped silently.
#
#   tools/gen-td.py --perfmon DIR --model EMR --pmu emr --title "Intel Emerald Rapids" \
#                   --class glc -o events/intel-emr.td
#
# DIR is a checkout (or `git archive`) of github.com/intel/perfmon; --commit records
# the commit it was read at (default: `git -C DIR rev-parse HEAD` when DIR is a clone).
import argparse
import glob
import json
import os
import re
import subprocess
import sys

# Counter rules per core class: the kernel's (linux 6.12.117 arch/x86/events/intel/core.c),
# as docs/td-format.md's table gives them for the shipped models.
CLASSES = {
    # Skylake-class: 8 GP counters (4 per thread with SMT on), 3 fixed, no PERF_METRICS
    'skl': dict(gp=8, smt_gp=4, fixed=3, pm=0, table='intel_skl_event_constraints',
                init='intel_pmu_init() case INTEL_SKYLAKE*/INTEL_CASCADELAKE (skl_format_attr)'),
    # Broadwell-class (Broadwell-X): as Skylake for the GP/fixed counts
    'bdw': dict(gp=8, smt_gp=4, fixed=3, pm=0, table='intel_bdw_event_constraints',
                init='intel_pmu_init() case INTEL_BROADWELL_X'),
    # Ice Lake / Tiger Lake: fixed 3 = SLOTS, 4 PERF_METRICS
    'icl': dict(gp=8, smt_gp=8, fixed=4, pm=4, table='intel_icl_event_constraints',
                init='intel_pmu_init() case INTEL_ICELAKE*/INTEL_TIGERLAKE*'),
    # Golden Cove / Raptor Cove / Redwood Cove servers: 8 PERF_METRICS
    'glc': dict(gp=8, smt_gp=8, fixed=4, pm=8, table='intel_glc_event_constraints',
                init='intel_pmu_init() case INTEL_SAPPHIRERAPIDS_X/INTEL_EMERALDRAPIDS_X/INTEL_GRANITERAPIDS_*, '
                'and the P-core PMU of INTEL_METEORLAKE* (intel/core.c:7215-7217: glc, intel_rwc_extra_regs)'),
    # Crestmont E-core servers (Sierra Forest): 8 GP counters, 3 fixed, no PERF_METRICS
    'cmt': dict(gp=8, smt_gp=8, fixed=3, pm=0, table='intel_grt_event_constraints',
                init='intel_pmu_init() case INTEL_ATOM_CRESTMONT'),
}

DOMAINS = {
    'Slots': 'Slots', 'Clocks': 'Clocks', 'Stalls': 'Stalls', 'Uops': 'Uops',
    'Slots_Estimated': 'Slots_est', 'Clocks_Estimated': 'Clocks_est',
    'Clocks_Retired': 'Clocks_Retired', 'Clocks_Calculated': 'Clocks_Calculated',
    'Core_Utilization': 'Core_Utilization', 'Core_Execution': 'Core_Execution',
    'Core_Clocks': 'Core_Clocks', 'Cycles': 'Cycles',
}

PM_FIELDS = ['retiring', 'bad_speculation', 'frontend_bound', 'backend_bound',
             'heavy_operations', 'branch_mispredicts', 'fetch_latency', 'memory_bound']
PM_PERF = ['topdown-retiring', 'topdown-bad-spec', 'topdown-fe-bound', 'topdown-be-bound',
           'topdown-heavy-ops', 'topdown-br-mispredict', 'topdown-fetch-lat', 'topdown-mem-bound']

# the perfmon info-metric groups (Info_<group>_<name>): the name toplev prints is <name>
INFO_GROUPS = sorted(['Thread', 'Core', 'Inst_Mix', 'Pipeline', 'Frontend', 'Bad_Spec', 'Branches',
                      'Memory', 'Memory_TLB', 'Memory_Mix', 'Memory_SoC', 'Memory_Lat', 'System',
                      'Botlnk_L0', 'Botlnk_L2', 'Botlnk_L3', 'Br_Mispredict', 'Cache',
                      'Mem'], key=len, reverse=True)


class Untranslatable(Exception):
    pass


def hexnum(s):
    s = str(s).strip()
    return int(s, 16) if s.lower().startswith('0x') else int(s or '0')


class Gen:
    def __init__(self, a):
        self.a = a
        self.cls = CLASSES[a.cls]
        mfiles = sorted(glob.glob(os.path.join(a.perfmon, a.metrics_model or a.model, 'metrics', a.metrics or '*_metrics.json')))
        mfiles = [f for f in mfiles if '/perf/' not in f]
        if len(mfiles) != 1:
            sys.exit('gen-td: want one metrics file under %s/%s/metrics, found %s (use --metrics)' %
                     (a.perfmon, a.model, mfiles or 'none'))
        self.mpath = mfiles[0]
        self.mdoc = json.load(open(self.mpath))
        efiles = sorted(glob.glob(os.path.join(a.perfmon, a.model, 'events', a.events or '*_core.json')))
        if len(efiles) != 1:
            sys.exit('gen-td: want one core events file under %s/%s/events, found %s (use --events)' %
                     (a.perfmon, a.model, efiles or 'none'))
        self.epath = efiles[0]
        self.edoc = json.load(open(self.epath))
        self.ev = {e['EventName'].upper(): e for e in self.edoc['Events']}
        rl = [a.retire_latency] if a.retire_latency else \
            glob.glob(os.path.join(a.perfmon, a.model, 'metrics', '*_retire_latency.json'))
        self.rl = {}
        self.rlpath = rl[0] if rl else None
        if rl:
            d = json.load(open(rl[0]))
            for k, v in d.get('Data', {}).items():
                self.rl[k.upper()] = float(v['MEAN'])
        self.metrics = {m['MetricName'].lower(): m for m in self.mdoc['Metrics'] if 'BaseFormula' in m}
        self.untranslated = []      # (name, reason)
        # E-core (Atom TMA) files compare percent metrics with fractions and write && / ||
        self.frac_thresholds = any('&&' in (m.get('Threshold') or {}).get('Formula', '')
                                   for m in self.metrics.values())
        self.events = {}            # key(encoding) -> dict(alias, terms, names, desc, counter)
        self.alias_of = {}          # event token -> alias
        self.consts = {}            # name -> (value, comment)
        self.out_names = {}         # metric lower name -> td name
        self.info_names = set()

    # ---- events ---------------------------------------------------------------------------
    def event_alias(self, tok):
        """tok: perfmon BaseFormula event token, e.g. uops_retired.ms:c1:e1"""
        if tok in self.alias_of:
            return self.alias_of[tok]
        parts = tok.split(':')
        name = parts[0].upper()
        mods = parts[1:]
        if name.startswith('UNC_') or name.startswith('FREERUN_') or name.startswith('#UNC'):
            raise Untranslatable('uncore event %s (no uncore PMU support)' % tok)
        if name.startswith('PERF_METRICS.'):
            f = name.split('.', 1)[1].lower()
            if f not in PM_FIELDS or PM_FIELDS.index(f) >= self.cls['pm']:
                raise Untranslatable('PERF_METRICS field %s not on this core class' % tok)
            i = PM_FIELDS.index(f)
            return self.add_event(('cpu', 0, 0x80 + i, 0, 0, 0, 0, None, None),
                                  'TD_' + f.upper(), name,
                                  'PERF_METRICS.%s (perf %s), in slots [pseudo 0x00/0x%02X]' % (f.upper(), PM_PERF[i], 0x80 + i),
                                  [PM_PERF[i]], 'metric', tok)
        if name == 'TOPDOWN.SLOTS' and mods == ['perf_metrics']:
            if not self.cls['pm']:
                raise Untranslatable('%s: no PERF_METRICS on this core class' % tok)
            return self.add_event(('cpu', 0, 4, 0, 0, 0, 0, None, None), 'SLOTS_EV', name,
                                  'TOPDOWN.SLOTS, issue slots (fixed counter 3, group leader) [fixed 0x00/0x04]',
                                  ['topdown.slots', 'slots'], 'fixed3', tok)
        if name == 'TSC':
            return self.add_event(('msr', 0, 0, 0, 0, 0, 0, None, None), 'TSC', 'TSC',
                                  'msr/tsc/, time-stamp counter (perf msr PMU, event 0) [msr tsc]',
                                  ['msr/tsc/'], 'msr', tok)
        e = self.ev.get(name)
        if e is None:
            raise Untranslatable('event %s not in %s' % (name, os.path.basename(self.epath)))
        code = hexnum(e['EventCode'].split(',')[0])
        umask = hexnum(e['UMask'])
        cmask = hexnum(e.get('CounterMask', '0'))
        edge = hexnum(e.get('EdgeDetect', '0'))
        inv = hexnum(e.get('Invert', '0'))
        anyt = hexnum(e.get('AnyThread', '0'))
        msri = str(e.get('MSRIndex', '0')).lower()
        msrv = hexnum(e.get('MSRValue', '0'))
        # the counters with Hyper-Threading off (Skylake, Broadwell: 8; "Counter" lists the 4 a thread has
        # with it on, which are then every counter there is: smt-gp)
        counter = e.get('CounterHTOff') or e.get('Counter', '')
        offcore = frontend = ldlat = None
        if '0x1a6' in msri or '0x1a7' in msri:
            offcore = msrv
        elif msri in ('0x3f7',):
            frontend = msrv
        elif msri in ('0x3f6',):
            ldlat = msrv
        elif msri not in ('0', '0x0', '0x00', ''):
            raise Untranslatable('event %s sets MSR %s (no perf term for it)' % (name, msri))
        for m in mods:
            if re.fullmatch(r'c\d+', m):
                cmask = int(m[1:])
            elif re.fullmatch(r'e\d+', m):
                edge = int(m[1:])
            elif re.fullmatch(r'i\d+', m):
                inv = int(m[1:])
            elif re.fullmatch(r'u0x[0-9a-fA-F]+', m):
                umask = int(m[1:], 16)
            elif m.startswith('ocr_msr_val='):
                offcore = hexnum(m.split('=', 1)[1])
            else:
                raise Untranslatable('event modifier :%s of %s' % (m, tok))
        fixed = None
        if code == 0:
            # fixed-counter events: their architectural GP equivalents (the kernel's
            # fixed-counter constraints, intel/core.c FIXED_EVENT_CONSTRAINT(0x00c0,0), (0x003c,1))
            if umask == 1:
                code, umask, fixed = 0xc0, 0, 'fixed0'
            elif umask == 2:
                code, umask, fixed = 0x3c, 0, 'fixed1'
            elif umask == 3:
                fixed = 'fixed2'
            else:
                raise Untranslatable('fixed-counter event %s (0x00/0x%02x)' % (name, umask))
        key = ('cpu', code, umask, cmask, edge, inv, anyt, offcore, frontend if frontend is not None else ldlat)
        alias = re.sub(r'[^A-Za-z0-9_]', '_', name)
        for m in mods:
            alias += '_' + re.sub(r'[^A-Za-z0-9]', '', m.split('=')[0] if m.startswith('ocr') else m)
        enc = '0x%02X/0x%02X' % (code, umask)
        if cmask:
            enc += ' c=%d' % cmask
        if edge:
            enc += ' e=1'
        if inv:
            enc += ' i=1'
        if anyt:
            enc += ' any=1'
        if offcore is not None:
            enc += ' MSR 0x1A6 = 0x%X' % offcore
        if frontend is not None:
            enc += ' MSR 0x3F7 = 0x%X' % frontend
        if ldlat is not None:
            enc += ' MSR 0x3F6 = 0x%X' % ldlat
        desc = '%s%s, %s [%s]' % (name, ''.join(' :' + m for m in mods),
                                  brief(e.get('BriefDescription'), 150).rstrip('.'), enc)
        pname = name.lower()
        perf = []
        terms = []
        if cmask != hexnum(e.get('CounterMask', '0')):
            terms.append('cmask=%d' % cmask)
        if edge != hexnum(e.get('EdgeDetect', '0')):
            terms.append('edge=%d' % edge)
        if inv != hexnum(e.get('Invert', '0')):
            terms.append('inv=%d' % inv)
        if umask != hexnum(e['UMask']) and fixed is None:
            terms.append('umask=0x%x' % umask)
        if not any(m.startswith('ocr') for m in mods):
            perf.append('%s/%s,%s/' % (self.a.pmu_name, pname, ','.join(terms)) if terms else pname)
        if fixed is None:
            fixed = 'gp'
        return self.add_event(key, alias, name, desc, perf, fixed, tok, counter)

    def add_event(self, key, alias, name, desc, perf, kind, tok, counter=''):
        ent = self.events.get(key)
        if ent is None:
            base = alias
            n = 2
            used = {x['alias'] for x in self.events.values()}
            while alias in used:
                alias = '%s_%d' % (base, n)
                n += 1
            ent = dict(alias=alias, key=key, desc=desc, perf=[], kind=kind, counter=counter, names=[name])
            self.events[key] = ent
        else:
            if name not in ent['names']:
                ent['names'].append(name)
                ent['desc'] += ' (also %s)' % name
            if kind.startswith('fixed') and not ent['kind'].startswith('fixed'):
                ent['kind'] = kind
            if ent['counter'] != counter and counter and 'Fixed' not in counter:
                ent['counter'] = counter if 'Fixed' in ent['counter'] else ent['counter']
        for p in perf:
            if p not in ent['perf']:
                ent['perf'].append(p)
        self.alias_of[tok] = ent['alias']
        return ent['alias']

    def event_string(self, ent):
        pmu, code, umask, cmask, edge, inv, anyt, off, fe = ent['key']
        if pmu == 'msr':
            return 'msr/event=0x0/'
        t = ['event=0x%x' % code, 'umask=0x%x' % umask]
        if cmask:
            t.append('cmask=%d' % cmask)
        if edge:
            t.append('edge=1')
        if inv:
            t.append('inv=1')
        if anyt:
            t.append('any=1')
        if off is not None:
            t.append('offcore_rsp=0x%x' % off)
        if fe is not None:
            t.append(('frontend=0x%x' if '3F7' in ent['desc'] else 'ldlat=0x%x') % fe)
        return '%s/%s/' % (self.a.pmu_name, ','.join(t))

    # ---- names ------------------------------------------------------------------------------
    def is_node(self, m):
        n = m['MetricName']
        return not n.startswith('Info_') and not n.startswith('Bottleneck_') and m.get('Category') == 'TMA' \
            and m.get('CountDomain') in DOMAINS

    def path_of(self, m, seen=()):
        p = m.get('ParentCategory')
        if not p:
            return m['MetricName']
        pm = self.metrics.get(p.lower())
        if pm is None or p in seen:
            raise Untranslatable('parent %s of %s not in the metrics file' % (p, m['MetricName']))
        return self.path_of(pm, seen + (p,)) + '.' + m['MetricName']

    def info_name(self, n):
        if n.startswith('Bottleneck_'):
            return n
        s = n[len('Info_'):] if n.startswith('Info_') else n
        for g in INFO_GROUPS:
            if s.startswith(g + '_'):
                return s[len(g) + 1:]
        return s

    # ---- expressions --------------------------------------------------------------------
    TOK = re.compile(r'\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)|([A-Za-z_#][A-Za-z0-9_.#]*(?::[A-Za-z0-9_=]+)*)'
                     r'|(<=|>=|==|!=|&&|\|\||[-+*/(),<>&|]))')

    def tokens(self, s):
        pos, out = 0, []
        s = s.strip()
        while pos < len(s):
            m = self.TOK.match(s, pos)
            if not m or m.end() == pos:
                raise Untranslatable('cannot read %r in %r' % (s[pos:pos + 20], s))
            pos = m.end()
            if m.group(1):
                out.append(('num', m.group(1)))
            elif m.group(2):
                out.append(('id', m.group(2)))
            else:
                out.append(('op', m.group(3)))
        return out

    def expr(self, s, refs):
        out = []
        toks = self.tokens(s)
        for i, (k, v) in enumerate(toks):
            if k == 'num':
                out.append(v)
            elif k == 'op':
                out.append({'&': 'and', '|': 'or'}.get(v, v))
            else:
                lv = v.lower()
                if lv in ('max', 'min') and i + 1 < len(toks) and toks[i + 1] == ('op', '('):
                    out.append(lv)
                elif lv in ('if', 'else', 'and', 'or', 'not'):
                    out.append(lv)
                elif lv in ('smt_on', '#smt_on'):
                    out.append('SMT_on')
                elif lv in ('num_cpus', '#num_cpus'):
                    out.append('NUM_CPUS')
                elif lv == 'duration_time':
                    out.append('DURATION')
                elif lv.startswith('tma_'):
                    m = self.metrics.get(lv[4:])
                    if m is None:
                        raise Untranslatable('reads %s, not in the metrics file' % v)
                    refs.add(m['MetricName'].lower())
                    out.append('@@' + m['MetricName'].lower())
                elif lv.endswith(':retire_latency'):
                    ev = lv[:-len(':retire_latency')].upper()
                    if ev not in self.rl:
                        raise Untranslatable('%s: no retire-latency mean in perfmon' % v)
                    alias = self.event_alias(lv[:-len(':retire_latency')])
                    c = 'RL_' + alias
                    self.consts[c] = (round(self.rl[ev]), '%s retire latency %s cycles (perfmon %s MEAN, rounded as '
                                      'perf stat does without samples)' % (ev, self.rl[ev], os.path.basename(self.rlpath)))
                    out.append(c)
                elif lv == 'tsc' or '.' in lv or lv.startswith('unc_') or lv.startswith('freerun_'):
                    out.append(self.event_alias(lv))
                else:
                    raise Untranslatable('unknown name %s' % v)
        return out

    def threshold(self, m, refs):
        th = m.get('Threshold') or {}
        f = th.get('Formula')
        if not f:
            return None
        amap = {}
        for t in th.get('ThresholdMetrics', []):
            val = t['Value']
            mm = re.fullmatch(r'metric_TMA_\.*([A-Za-z0-9_]+)(\(%\))?', val)
            if not mm:
                raise Untranslatable('threshold reads %s' % val)
            tm = self.metrics.get(mm.group(1).lower())
            if tm is None:
                raise Untranslatable('threshold reads %s, not in the metrics file' % val)
            pct = bool(mm.group(2)) or (tm.get('UnitOfMeasure') == 'percent' and not self.is_node(tm))
            amap[t['Alias']] = (tm['MetricName'].lower(), bool(mm.group(2)))
        # some files (E-core) write the metric names into Formula instead of aliases
        names_in = {}

        def name_alias(mm):
            k = '__t%d' % len(names_in)
            names_in[k] = mm.group(0)
            return k
        f = re.sub(r'metric_TMA_\.*[A-Za-z0-9_]+(\(%\))?', name_alias, f)
        for k, val in names_in.items():
            mm = re.fullmatch(r'metric_TMA_\.*([A-Za-z0-9_]+)(\(%\))?', val)
            tm = self.metrics.get(mm.group(1).lower())
            if tm is None:
                raise Untranslatable('threshold reads %s, not in the metrics file' % val)
            amap[k] = (tm['MetricName'].lower(), bool(mm.group(2)))
        # E-core files (Atom TMA) write fraction thresholds with && and ||: 'X(%) >0.20 && ...'
        frac = self.frac_thresholds
        toks = [('op', {'&&': '&', '||': '|'}.get(v, v)) if k == 'op' else (k, v) for k, v in self.tokens(f)]
        # split at top-level 'and' (&); keep conjuncts that are not an ancestor's own test
        conj, cur, depth = [], [], 0
        for k, v in toks:
            if k == 'op' and v == '(':
                depth += 1
            elif k == 'op' and v == ')':
                depth -= 1
            if k == 'op' and v == '&' and depth == 0:
                conj.append(cur)
                cur = []
            else:
                cur.append((k, v))
        conj.append(cur)
        me = m['MetricName'].lower()
        anc = set()
        p = m.get('ParentCategory')
        while p:
            anc.add(p.lower())
            pm = self.metrics.get(p.lower())
            p = pm.get('ParentCategory') if pm else None
        parts = []
        for c in conj:
            names = {amap[v][0] for k, v in c if k == 'id' and v in amap}
            if names and names <= anc and self.is_node(m):
                continue    # the ancestor's own test: implied by "every ancestor is flagged"
            strip = c
            while strip and strip[0] == ('op', '(') and strip[-1] == ('op', ')') and closes_at_end(strip):
                strip = strip[1:-1]
            o = []
            i = 0
            while i < len(strip):
                k, v = strip[i]
                if k == 'id' and v in amap:
                    name, pct = amap[v]
                    ref = 'this' if name == me else '@@' + name
                    if name != me:
                        refs.add(name)
                    # NAME(%) OP NUMBER: compare the fraction with NUMBER / 100
                    if pct and i + 2 < len(strip) and strip[i + 1][0] == 'op' and \
                            strip[i + 1][1] in ('<', '>', '<=', '>=') and strip[i + 2][0] == 'num':
                        o += [ref, strip[i + 1][1], fmtnum(float(strip[i + 2][1]) / (1 if frac else 100))]
                        i += 3
                        continue
                    o.append('(100 * %s)' % ref if pct else ref)
                elif k == 'op':
                    o.append({'&': 'and', '|': 'or'}.get(v, v))
                elif k == 'id':
                    raise Untranslatable('threshold name %s' % v)
                else:
                    o.append(v)
                i += 1
            parts.append(o)
        if not parts:
            return None
        if len(parts) == 1 and len(parts[0]) == 3 and parts[0][0] == 'this':
            return parts[0][1:]
        return (['('] + sum([p + [')', 'and', '('] for p in parts], [])[:-2]) if len(parts) > 1 else parts[0]

    # ---- main -----------------------------------------------------------------------------
    def run(self):
        ms = [m for m in self.mdoc['Metrics'] if 'BaseFormula' in m]
        tr = {}
        for m in ms:
            key = m['MetricName'].lower()
            refs = set()
            try:
                if m.get('Category') != 'TMA':
                    raise Untranslatable('not a TMA metric (category %s)' % m.get('Category'))
                node = self.is_node(m)
                if not node and not (m['MetricName'].startswith('Info_') or m['MetricName'].startswith('Bottleneck_')):
                    raise Untranslatable('count domain %s has no equivalent' % m.get('CountDomain'))
                body = self.expr(m['BaseFormula'], refs)
                thr = self.threshold(m, refs)
                name = self.path_of(m) if node else self.info_name(m['MetricName'])
                tr[key] = dict(m=m, node=node, name=name, body=body, thr=thr, refs=refs)
            except Untranslatable as ex:
                self.untranslated.append((m['MetricName'], str(ex)))
        # drop what reads a dropped metric, and children of dropped nodes
        changed = True
        while changed:
            changed = False
            for key in list(tr):
                t = tr[key]
                bad = [r for r in t['refs'] if r not in tr]
                p = t['m'].get('ParentCategory')
                if p and p.lower() not in tr:
                    bad.append(p.lower())
                if bad:
                    self.untranslated.append((t['m']['MetricName'], 'reads or sits under untranslated %s' %
                                              ', '.join(sorted(self.metrics[b]['MetricName'] if b in self.metrics else b
                                                               for b in set(bad)))))
                    del tr[key]
                    changed = True
        # info-name collisions: keep perfmon's full name
        seen = {}
        for key, t in tr.items():
            if not t['node']:
                seen.setdefault(t['name'], []).append(key)
        for n, keys in seen.items():
            if len(keys) > 1:
                for k in keys:
                    tr[k]['name'] = tr[k]['m']['MetricName']
        self.tr = tr
        return tr

    def render_expr(self, toks):
        s = ' '.join(self.tr[t[2:]]['name'] if t.startswith('@@') else t for t in toks)
        s = re.sub(r'\b(max|min) \(', r'\1(', s)
        s = re.sub(r'\( ', '(', s)
        s = re.sub(r' \)', ')', s)
        s = re.sub(r' ,', ',', s)
        return s

    def write(self, out):
        a, h = self.a, self.mdoc['Header']
        eh = self.edoc['Header']
        rel = os.path.relpath(self.mpath, a.perfmon)
        erel = os.path.relpath(self.epath, a.perfmon)
        commit = a.commit
        if not commit:
            try:
                commit = subprocess.check_output(['git', '-C', a.perfmon, 'rev-parse', 'HEAD'],
                                                 stderr=subprocess.DEVNULL, text=True).strip()
            except (OSError, subprocess.CalledProcessError):
                commit = 'unknown'
        tr = self.tr
        nodes = [t for t in tr.values() if t['node']]
        infos = [t for t in tr.values() if not t['node']]
        L = []
        w = L.append
        w('# %s — %s: the TMA %s tree of intel/perfmon %s, GENERATED by tools/gen-td.py: do not edit,'
          % (os.path.basename(out), a.title, h.get('TmaVersion'), rel))
        w('# regenerate (the command is in the note below). Untranslated metrics: %s.untranslated' % os.path.basename(out))
        w('pmu      %s' % ' '.join(a.pmu))
        w('title    %s' % a.title)
        w('version  TMA %s-%s (intel/perfmon %s V%s, %s; events %s V%s, %s; perfmon commit %s)' %
          (h.get('TmaVersion'), h.get('TmaFlavor', '').lower(), rel, h.get('Version'), h.get('DatePublished'), erel,
           eh.get('Version'), eh.get('DatePublished'), commit[:12]))
        w('note     Generated: tools/gen-td.py --perfmon PERFMON --model %s --pmu %s --class %s%s%s%s%s -o %s'
          % (a.model, ' '.join(a.pmu), a.cls, ' --metrics ' + a.metrics if a.metrics else '',
             ' --events ' + a.events if a.events else '',
             ' --pmu-name ' + a.pmu_name if a.pmu_name != 'cpu' else '',
             ' --retire-latency PMU_TOOLS/' + os.path.basename(a.retire_latency) if a.retire_latency else '',
             os.path.normpath(out)) + (' --metrics-model ' + a.metrics_model if a.metrics_model else ''))
        if a.metrics_model:
            w('note     perfmon has no %s metrics file for this core type: the tree is %s\'s (%s), the same core\'s'
              % (a.model, a.metrics_model, os.path.basename(self.mpath)))
            w('note     TMA, its events spelled by %s\'s events file (a metric reading an event that file lacks is untranslated).'
              % a.model)
        w('note     Nodes, parents, levels, count domains and thresholds are the metrics file\'s (MetricName,')
        w('note     ParentCategory, Level, CountDomain, Threshold; formulas from BaseFormula, percent thresholds / 100,')
        w('note     an ancestor\'s own test left to the rule that every ancestor must be flagged); events are perf raw')
        w('note     forms of the core events file\'s EventCode/UMask/CounterMask/EdgeDetect/Invert/AnyThread/MSRValue.')
        w('note     %d nodes, %d info metrics; %d metrics not translated (listed in the .untranslated file).'
          % (len(nodes), len(infos), len(self.untranslated)))
        if self.rl:
            w('note     EVENT:retire_latency is %s mean (%s), rounded, as Linux perf stat uses without'
              % ('the given' if a.retire_latency else 'perfmon\'s', os.path.basename(self.rlpath)))
            w('note     timed-PEBS samples (tools/perf/util/intel-tpebs.c): the RL_* constants.')
        w('')
        w('param    SMT_on 0')
        for c, (v, why) in sorted(self.consts.items()):
            w('const    %-28s %s   # %s' % (c, v, why))
        w('')
        w('# --- events (perfmon %s V%s) ---' % (erel, eh.get('Version')))
        evs = sorted(self.events.values(), key=lambda e: e['alias'])
        for e in evs:
            w('event    %-32s %-44s | %s' % (e['alias'], self.event_string(e), e['desc']))
        for e in evs:
            if e['perf']:
                w('perf-name %-31s %s' % (e['alias'], ' '.join(e['perf'])))
        w('')
        w('# --- counters (planner): the kernel\'s rules for this core class, linux 6.12.117 arch/x86/events/intel/core.c')
        w('# %s, %s; a limit is perfmon\'s "CounterHTOff" field (else "Counter")' % (self.cls['init'], self.cls['table']))
        c = self.cls
        w('counters  gp=%d%s fixed=%d watchdog=fixed:1' % (c['gp'], ' smt-gp=%d' % c['smt_gp'] if c['smt_gp'] != c['gp'] else '',
                                                            c['fixed']))
        byk = {}
        for e in evs:
            byk.setdefault(e['kind'], []).append(e['alias'])
        for i in range(c['fixed']):
            for al in byk.get('fixed%d' % i, []):
                w('fixed     %d %s' % (i, al))
        fx = byk.get('fixed2', []) + byk.get('fixed3', [])
        if fx:
            w('limit     %s counters=fixed' % ' '.join(fx))
        if byk.get('metric'):
            w('topdown-group %s %s' % (byk['fixed3'][0], ' '.join(byk['metric'])))
        if byk.get('msr'):
            w('nocounter %s' % ' '.join(byk['msr']))
        lim = {}
        for e in evs:
            if e['kind'] != 'gp':
                continue
            cnt = e['counter'].replace(' ', '')
            if not cnt or cnt.startswith('Fixed'):
                continue
            nums = [int(x) for x in cnt.split(',') if x.isdigit()]
            if nums == list(range(c['gp'])) or nums == list(range(max(nums) + 1)) and max(nums) + 1 >= c['gp']:
                continue
            if nums == list(range(nums[0], nums[-1] + 1)):
                lim.setdefault('%d-%d' % (nums[0], nums[-1]) if len(nums) > 1 else str(nums[0]), []).append(e['alias'])
            else:
                self.untranslated.append((e['alias'], 'perfmon Counter "%s" is not a range (no limit line; the '
                                          'kernel\'s constraint table still applies)' % e['counter']))
        for spec, als in sorted(lim.items()):
            w('limit     %s counters=%s' % (' '.join(als), spec))
        for reg, n in (('offcore_rsp', 2), ('frontend', 1), ('ldlat', 1)):
            als = [e['alias'] for e in evs if ('offcore_rsp=' if reg == 'offcore_rsp' else reg + '=') in self.event_string(e)]
            if als:
                w('extra     %s %d %s' % (reg, n, ' '.join(als)))
        spans = self.spans(evs)
        if spans:
            w('span      %s' % ' '.join(spans))
        w('')
        w('# --- info metrics ---')
        for t in infos:
            m = t['m']
            unit = {'percent': '%'}.get(m.get('UnitOfMeasure'), m.get('CountDomain') or 'Metric').replace(' ', '_') or 'Metric'
            desc = brief(m.get('BriefDescription'))
            w('info     %s %s = %s | %s' % (t['name'], unit, self.render_expr(t['body']), desc))
        w('')
        w('# --- tree ---')
        children = {}
        for t in nodes:
            p = t['name'].rsplit('.', 1)[0] if '.' in t['name'] else None
            children.setdefault(p, []).append(t)
        order = []

        def walk(p):
            for t in children.get(p, []):
                order.append(t)
                walk(t['name'])
        walk(None)
        for t in order:
            m = t['m']
            desc = brief(m.get('BriefDescription'))
            thr = self.render_expr(t['thr']) if t['thr'] else ''
            if thr and thr.split()[0] in ('>', '<', '>=', '<='):
                pass
            w('node  %s %s = %s \\' % (t['name'], DOMAINS[m['CountDomain']], self.render_expr(t['body'])))
            w('      | %s | L%s. %s' % (thr, m.get('Level'), desc))
            kids = children.get(t['name'])
            if kids:
                w(self.relation(t, kids))
        open(out, 'w').write('\n'.join(L) + '\n')
        with open(out + '.untranslated', 'w') as f:
            f.write('# %s: what tools/gen-td.py could not translate from %s (name: reason)\n' % (os.path.basename(out), rel))
            for n, why in self.untranslated:
                f.write('%s: %s\n' % (n, why))
        for n, why in self.untranslated:
            print('untranslated %s: %s' % (n, why))
        print('%s: %d nodes, %d info metrics, %d events, %d untranslated' %
              (out, len(nodes), len(infos), len(evs), len(self.untranslated)))

    def relation(self, t, kids):
        """partition when the children are a node and its complement in the parent (perfmon's
        max(0, PARENT - SIBLING) or PARENT - SIBLING), else unrelated: the metrics file
        states formulas, not relations."""
        me = '@@' + t['m']['MetricName'].lower()
        if len(kids) == 2:
            for a, b in ((kids[0], kids[1]), (kids[1], kids[0])):
                sib = '@@' + a['m']['MetricName'].lower()
                body = [x for x in b['body']]
                forms = ([me, '-', sib], ['max', '(', '0', ',', me, '-', sib, ')'])
                if body in [list(f) for f in forms] and DOMAINS[a['m']['CountDomain']][:4] == DOMAINS[t['m']['CountDomain']][:4] \
                        and DOMAINS[b['m']['CountDomain']][:4] == DOMAINS[t['m']['CountDomain']][:4]:
                    return 'partition %s   # perfmon: %s = %s' % (t['name'], b['m']['MetricName'], self.render_expr(b['body']))
        # PARENT = CHILD1 + CHILD2 + ... (every child once, perfmon's FP_Arith)
        body = [x for x in t['body'] if x not in ('(', ')')]
        refs = ['@@' + k['m']['MetricName'].lower() for k in kids]
        if len(kids) >= 2 and sorted(body[0::2]) == sorted(refs) and all(x == '+' for x in body[1::2]) and \
                all(DOMAINS[k['m']['CountDomain']][:4] == DOMAINS[t['m']['CountDomain']][:4] for k in kids):
            return 'partition %s   # perfmon: %s is the sum of its children' % (t['name'], t['m']['MetricName'])
        return 'unrelated %s | perfmon gives each child\'s formula, no relation to its parent (generated)' % t['name']

    def spans(self, evs):
        """nodes whose events cannot share one group (more than the GP counters, or two values of a
        one-value extra register) may spread over groups"""
        byalias = {e['alias']: e for e in evs}
        memo = {}

        def evset(key):
            if key in memo:
                return memo[key]
            memo[key] = set()
            s = set()
            for tok in self.tr[key]['body']:
                if tok.startswith('@@'):
                    s |= evset(tok[2:])
                elif tok in byalias:
                    s.add(tok)
            memo[key] = s
            return s
        out = []
        for key, t in self.tr.items():
            if not t['node']:
                continue
            s = evset(key)
            gp = [a for a in s if byalias[a]['kind'] == 'gp']
            low = [a for a in gp if byalias[a]['counter'].replace(' ', '') in ('0,1,2,3',)]
            fe = {self.event_string(byalias[a]) for a in s if 'frontend=' in self.event_string(byalias[a])}
            fev = {re.search(r'frontend=0x[0-9a-f]+', x).group(0) for x in fe}
            off = {re.search(r'offcore_rsp=0x[0-9a-f]+', self.event_string(byalias[a])).group(0)
                   for a in s if 'offcore_rsp=' in self.event_string(byalias[a])}
            gpc = self.cls['gp'] if self.cls['smt_gp'] == self.cls['gp'] else self.cls['smt_gp']
            if len(gp) > gpc or len(low) > 4 or len(fev) > 1 or len(off) > 2:
                out.append(t['name'])
        return sorted(out)


def closes_at_end(toks):
    """the '(' that opens toks is closed by its last token"""
    depth = 0
    for i, t in enumerate(toks):
        if t == ('op', '('):
            depth += 1
        elif t == ('op', ')'):
            depth -= 1
            if depth == 0:
                return i == len(toks) - 1
    return False


def brief(text, limit=200):
    """a description's first sentence, at most limit characters (the catalog keeps 255)"""
    t = ' '.join((text or '').replace('|', '/').split())
    m = re.match(r'(.+?\.)(\s+[A-Z(]|$)', t)
    if m:
        t = m.group(1)
    if len(t) > limit:
        t = t[:limit - 3].rsplit(' ', 1)[0] + '...'
    return t


def fmtnum(x):
    s = ('%.10g' % x)
    return s


def main():
    p = argparse.ArgumentParser(description='intel/perfmon TMA metrics -> events/*.td')
    p.add_argument('--perfmon', required=True)
    p.add_argument('--model', required=True, help='perfmon directory, e.g. EMR')
    p.add_argument('--pmu', required=True, nargs='+', help='PMU model names the file serves')
    p.add_argument('--title', required=True)
    p.add_argument('--class', dest='cls', required=True, choices=sorted(CLASSES))
    p.add_argument('--metrics', help='metrics file name when the model has several')
    p.add_argument('--events', help='core events file name when the model has several')
    p.add_argument('--metrics-model', help='the perfmon directory of the metrics file when the model has none for this '
                   'core type (Meteor Lake\'s Crestmont E-core: SRF, the same Crestmont TMA)')
    p.add_argument('--commit', help='perfmon commit the files were read at')
    p.add_argument('--pmu-name', default='cpu', help='the core PMU of the raw forms (cpu_core, cpu_atom on hybrids)')
    p.add_argument('--retire-latency', help='retire-latency means (perfmon\'s *_retire_latency.json format) when '
                   'perfmon has none for the model, e.g. pmu-tools\' mtl-retlat.json')
    p.add_argument('--compare', metavar='OLD.td', help='after writing, say what changed since OLD.td '
                   '(the file generated from the older vendor file): tools/td-diff.py')
    p.add_argument('-o', required=True)
    a = p.parse_args()
    g = Gen(a)
    g.run()
    g.write(a.o)
    if a.compare:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        td_diff = __import__('td-diff')
        td_diff.diff(a.compare, a.o)


if __name__ == '__main__':
    main()
