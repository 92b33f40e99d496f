#!/usr/bin/env python3
"""promcheck.py: check that stdin is valid Prometheus text exposition
format 0.0.4, line by line. Prints one line per problem, with its line
number, and exits 1 when there is any; with no problem prints the number
of samples and families and exits 0.

Checked: line shapes (# HELP, # TYPE, comments, samples), metric and label
names, label value escapes (only \\\\, \\" and \\n), sample values, one TYPE
per family and before its samples, the samples of a family together, no
series twice, counters not negative, and histograms complete: cumulative
_bucket lines with le, a +Inf bucket equal to _count, and a _sum.
"""
import math
import re
import sys

NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*'
TYPES = {'counter', 'gauge', 'histogram', 'summary', 'untyped'}
SUFFIXES = ('_bucket', '_sum', '_count')

problems = []


def problem(n, msg):
    problems.append('line %d: %s' % (n, msg))


def parse_value(s):
    if s in ('+Inf', 'Inf'):
        return math.inf
    if s == '-Inf':
        return -math.inf
    if s == 'NaN':
        return math.nan
    if not re.fullmatch(r'[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?', s):
        raise ValueError(s)
    return float(s)


def parse_labels(text, n):
    """text after '{'; returns (labels dict, rest after '}')."""
    labels = {}
    i = 0
    while True:
        if text[i:i + 1] == '}':
            return labels, text[i + 1:]
        m = re.match(LABEL, text[i:])
        if not m:
            raise ValueError('bad label name at %r' % text[i:i + 20])
        name = m.group(0)
        i += len(name)
        if text[i:i + 2] != '="':
            raise ValueError('label %s: expected ="' % name)
        i += 2
        value = []
        while True:
            if i >= len(text):
                raise ValueError('label %s: unterminated value' % name)
            c = text[i]
            if c == '\\':
                nxt = text[i + 1:i + 2]
                if nxt not in ('\\', '"', 'n'):
                    raise ValueError('label %s: bad escape \\%s' % (name, nxt))
                value.append({'n': '\n'}.get(nxt, nxt))
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == '\n':
                raise ValueError('label %s: raw newline' % name)
            else:
                value.append(c)
                i += 1
        if name in labels:
            raise ValueError('label %s twice' % name)
        labels[name] = ''.join(value)
        if text[i:i + 1] == ',':
            i += 1
        elif text[i:i + 1] != '}':
            raise ValueError('after label %s: expected , or }' % name)


def family_of(name, types):
    for suf in SUFFIXES:
        base = name[:-len(suf)]
        if name.endswith(suf) and types.get(base) in ('histogram', 'summary'):
            return base
    return name


def check_histograms(types, samples):
    for fam, typ in types.items():
        if typ != 'histogram':
            continue
        series = {}
        for n, name, labels, value in samples:
            if family_of(name, types) != fam:
                continue
            key = tuple(sorted((k, v) for k, v in labels.items() if k != 'le'))
            s = series.setdefault(key, {'buckets': [], 'sum': None,
                                        'count': None, 'line': n})
            if name == fam + '_bucket':
                if 'le' not in labels:
                    problem(n, '%s without le' % name)
                    continue
                s['buckets'].append((parse_value(labels['le']), value, n))
            elif name == fam + '_sum':
                s['sum'] = value
            elif name == fam + '_count':
                s['count'] = value
            else:
                problem(n, '%s in histogram %s' % (name, fam))
        for s in series.values():
            b = s['buckets']
            if not b or b[-1][0] != math.inf:
                problem(s['line'], '%s: no le="+Inf" bucket last' % fam)
                continue
            for (le1, v1, _), (le2, v2, n2) in zip(b, b[1:]):
                if le2 <= le1:
                    problem(n2, '%s: le not increasing' % fam)
                if v2 < v1:
                    problem(n2, '%s: buckets not cumulative' % fam)
            if s['count'] is None or s['sum'] is None:
                problem(s['line'], '%s: no _count or _sum' % fam)
            elif s['count'] != b[-1][1]:
                problem(s['line'], '%s: _count differs from +Inf' % fam)


def main():
    text = sys.stdin.read()
    if text and not text.endswith('\n'):
        problem(text.count('\n') + 1, 'the last line does not end with \\n')
    types, helps, samples, seen, done = {}, {}, [], set(), set()
    current = None
    for n, line in enumerate(text.split('\n')[:-1], 1):
        if line.startswith('#'):
            m = re.fullmatch(r'# (HELP|TYPE) (%s)(?: (.*))?' % NAME, line)
            if not m:
                if re.match(r'#\s*(HELP|TYPE)\b', line):
                    problem(n, 'malformed %r' % line)
                continue
            kind, name, rest = m.group(1), m.group(2), m.group(3) or ''
            if kind == 'TYPE':
                if rest not in TYPES:
                    problem(n, 'unknown type %r' % rest)
                if name in types:
                    problem(n, 'second TYPE for %s' % name)
                if name in done or name == current:
                    problem(n, 'TYPE for %s after its samples' % name)
                types[name] = rest
            else:
                if re.search(r'\\[^\\n]', rest):
                    problem(n, 'HELP of %s: bad escape' % name)
                if name in helps:
                    problem(n, 'second HELP for %s' % name)
                helps[name] = rest
            continue
        if line.strip() == '':
            continue
        m = re.match(r'(%s)' % NAME, line)
        if not m:
            problem(n, 'not a sample: %r' % line)
            continue
        name, rest = m.group(1), line[len(m.group(1)):]
        labels = {}
        try:
            if rest.startswith('{'):
                labels, rest = parse_labels(rest[1:], n)
            parts = rest.split(' ')
            if parts[0] != '' or len(parts) not in (2, 3):
                raise ValueError('expected " value [timestamp]"')
            value = parse_value(parts[1])
            if len(parts) == 3 and not re.fullmatch(r'-?\d+', parts[2]):
                raise ValueError('bad timestamp %r' % parts[2])
        except ValueError as e:
            problem(n, '%s: %s' % (name, e))
            continue
        fam = family_of(name, types)
        if fam != current:
            if fam in done:
                problem(n, 'samples of %s are not together' % fam)
            if current:
                done.add(current)
            current = fam
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            problem(n, 'series %s%s twice' % (name, labels))
        seen.add(key)
        if types.get(fam) == 'counter' and (value < 0 or math.isnan(value)):
            problem(n, 'counter %s is %s' % (name, value))
        samples.append((n, name, labels, value))
    check_histograms(types, samples)
    for p in problems:
        print(p)
    if problems:
        return 1
    print('%d samples in %d families' % (len(samples), len(types)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
