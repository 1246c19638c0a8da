#!/usr/bin/env python3
# tools/td-diff.py — what changed between two events files of one model: the version lines, nodes
# and info metrics added or removed, formulas, domains and thresholds changed, events added,
# removed or re-encoded. For a generated file and the same file generated from a newer vendor
# file (tools/gen-td.py --compare), that is what changed upstream. Formulas are compared as
# text with whitespace normalised, so two generated files compare well; a hand-written file and
# a generated one name their events differently and differ in every formula.
#
#   tools/td-diff.py events/generated/tma-5.1/intel-emr.td events/generated/intel-emr.td
import re
import sys


def read(path):
    lines, cur = [], ''
    for raw in open(path):
        line = raw.rstrip('\n')
        if line.endswith('\\'):
            cur += line[:-1] + ' '
            continue
        lines.append(cur + line)
        cur = ''
    f = dict(version='', node={}, info={}, event={})
    for line in lines:
        line = re.sub(r'\s+#.*$', '', line) if not line.lstrip().startswith('#') else ''
        w = line.split(None, 1)
        if not w:
            continue
        if w[0] == 'version':
            f['version'] = w[1].strip()
        elif w[0] == 'node':
            m = re.match(r'(\S+)\s+(\S+)\s*=\s*(.*)', w[1])
            parts = [p.strip() for p in m.group(3).split('|')]
            f['node'][m.group(1)] = dict(domain=m.group(2), expr=' '.join(parts[0].split()),
                                         thr=' '.join(parts[1].split()) if len(parts) > 1 else '')
        elif w[0] == 'info':
            m = re.match(r'(\S+)\s+(\S+)\s*=\s*(.*)', w[1])
            f['info'][m.group(1)] = dict(expr=' '.join(m.group(3).split('|')[0].split()))
        elif w[0] == 'event':
            a = w[1].split()
            f['event'][a[0]] = a[1]
    return f


def diff(old_path, new_path, out=sys.stdout):
    o, n = read(old_path), read(new_path)
    changes = 0

    def say(s):
        nonlocal changes
        changes += 1
        print(s, file=out)
    print('old: %s\nnew: %s' % (o['version'] or '(no version line)', n['version'] or '(no version line)'), file=out)
    for kind in ('node', 'info', 'event'):
        for k in sorted(set(o[kind]) - set(n[kind])):
            say('- %s %s' % (kind, k))
        for k in sorted(set(n[kind]) - set(o[kind])):
            say('+ %s %s' % (kind, k))
        for k in sorted(set(o[kind]) & set(n[kind])):
            a, b = o[kind][k], n[kind][k]
            if kind == 'event':
                if a != b:
                    say('~ event %s: %s -> %s' % (k, a, b))
                continue
            for field in ('domain', 'expr', 'thr'):
                if a.get(field) != b.get(field):
                    say('~ %s %s %s: %s -> %s' % (kind, k, {'expr': 'formula', 'thr': 'threshold'}.get(field, field),
                                                  a.get(field), b.get(field)))
    print('%d change%s' % (changes, '' if changes == 1 else 's'), file=out)
    return changes


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: tools/td-diff.py OLD.td NEW.td')
    diff(sys.argv[1], sys.argv[2])
