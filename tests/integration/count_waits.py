#!/usr/bin/env python3
"""count_waits.py: count_waits.sh's random lines and what one admitting
tick must make of them, worked out here visitor by visitor from the
definitions (doc/api.md, "The report"; lib.lua's comment above
count_waits), never from the Lua: the first join mark at or above a
ticket says when it joined ('ms' or 'ms eta pos', scored by the ticket
the line had reached), a ticket with no mark above waited 0, a drawn
entrant waited from the opening; one some places ahead of the mark's was
told eta * max(pos - ahead, 1) / pos; its error is that less the wait;
the ETA's own error ((told + 0.5 s) / (waited + 0.5 s) - 1, thousandths:
it joined half a second before the mark, on average) of each who waited
2 s or more goes to the last 200 in eta_errs.

    count_waits.py layout CASE SEED T0 OUT   OUT.json, the line of queue
        CASE (big or mid) laid out from the seed around T0 (Redis's ms
        before), and OUT.resp, the commands that write it (redis-cli --pipe)
    count_waits.py expect OUT.json T         the stats the tick at T (ms)
        must leave, "field value" a line ('-' for a field not there), then
        "cover_* n": what of the definitions the line exercises
"""
import bisect
import json
import math
import random
import sys

DRAWN = -2251799813685248  # lib.lua's DRAWN, doc/api.md's drawn places
WAIT_LE = [2 ** i for i in range(15)]
ERR_LE = [-4096, -1024, -256, -64, -16, -4, -1, 0, 1, 4, 16, 64, 256, 1024,
          4096]
KEEP, MIN_MS = 200, 2000
HIST = ['w%d' % i for i in range(16)] + ['e%d' % i for i in range(16)]

# What each random case looks like: admitted, left in line after them,
# drawn entrants at its head, waits (s) of its marks, how many of the
# batch's last tickets have no mark above, prior words of eta_errs, and
# how long the long runs under one mark are.
CASES = {
    'big': dict(admit=4000, stay=40, drawn=3, wait_lo=0.1, wait_hi=20000,
                tail=25, prior_words=150, long=(40, 300)),
    'mid': dict(admit=400, stay=60, drawn=0, wait_lo=0.1, wait_hi=12,
                tail=0, prior_words=180, long=(10, 30)),
}


def bucket(bounds, s):
    for i, b in enumerate(bounds):
        if s <= b:
            return i
    return len(bounds)


def resp(*args):
    out = '*%d\r\n' % len(args)
    for a in args:
        a = str(a).encode()
        out += '$%d\r\n%s\r\n' % (len(a), a.decode())
    return out


def run_length(rng, long):
    if rng.random() < 0.08:
        return rng.randint(*long)
    return rng.randint(1, 12)


def lay_marks(rng, tickets, upto, long):
    """Mark scores: each closes a run of tickets (at its last one, or in
    the gap after it, on tickets that left), sometimes with another mark
    in the same gap that nobody is under."""
    scores, idx = [], 0
    while idx < upto:
        idx = min(idx + run_length(rng, long), upto)
        low = tickets[idx - 1]
        high = tickets[idx] - 1 if idx < len(tickets) else low + 3
        s = rng.randint(low, high)
        scores.append(s)
        if s < high and rng.random() < 0.1:
            scores.append(rng.randint(s + 1, high))
    return scores


def layout(case, seed, t0):
    p = CASES[case]
    rng = random.Random('%s:%s' % (case, seed))
    tickets, s = [], 0
    for _ in range(p['admit'] - p['drawn'] + p['stay']):
        s += 1 if rng.random() < 0.75 else rng.randint(2, 6)
        tickets.append(s)
    line = [['p%d' % i, DRAWN + i] for i in range(1, p['drawn'] + 1)]
    line += [['k%d' % x, x] for x in tickets]
    upto = len(tickets) if p['tail'] == 0 else \
        p['admit'] - p['drawn'] - p['tail']
    scores = lay_marks(rng, tickets, upto, p['long'])
    lo, hi = math.log(p['wait_lo']), math.log(p['wait_hi'])
    waits = sorted((int(1000 * math.exp(rng.uniform(lo, hi)))
                    for _ in scores), reverse=True)
    marks, prev_at = [], None
    for score, w in zip(scores, waits):
        at = t0 - w
        if prev_at is not None and at <= prev_at:
            at = prev_at + 1
        prev_at = at
        r = rng.random()
        if r < 0.25:
            marks.append([score, '%d' % at])
            continue
        told = max(0, int(w / 1000 * math.exp(rng.gauss(0, 1.0)) +
                          rng.uniform(-3, 3)))
        if r < 0.30:
            pos = 0
        elif r < 0.50:
            pos = rng.randint(1, 5)
        else:
            pos = rng.randint(1, 400)
        marks.append([score, '%d %d %d' % (at, told, pos)])
    prior = {'w%d' % rng.randint(0, 15): rng.randint(1, 50)
             for _ in range(5)}
    prior.update({'e%d' % rng.randint(0, 15): rng.randint(1, 50)
                  for _ in range(5)})
    prior['w_sum'] = rng.randint(0, 10 ** 9)
    prior['eta_errs'] = ' '.join('%d' % rng.randint(-900, 3000)
                                 for _ in range(p['prior_words']))
    prior['eta_errs_n'] = p['prior_words'] + rng.randint(0, 9000)
    if case == 'big':
        prior['w_max'] = 1000          # lower: the tick's largest wins
    else:
        prior['w_max'] = 10 ** 11      # higher: stays
        prior['e_max'] = -10 ** 7      # lower: the tick's largest wins
    opens_ms = (t0 // 1000 - 3600) * 1000 if p['drawn'] else 0
    return dict(queue=case, batch=p['admit'], opens_ms=opens_ms, line=line,
                marks=marks, prior=prior, seq=tickets[-1])


def commands(lay):
    q = 'wr:{%s}:' % lay['queue']
    out = resp('DEL', *[q + k for k in ('waiting', 'active', 'seen', 'stats',
               'tick', 'unchecked', 'line', 'places', 'joins', 'waits')])
    out += resp('HSET', q + 'config', 'state', 'open', 'batch', lay['batch'],
                'max_active', 0, 'opens_at', lay['opens_ms'] // 1000)
    out += resp('SET', q + 'seq', lay['seq'])
    for i in range(0, len(lay['line']), 500):
        args = []
        for token, score in lay['line'][i:i + 500]:
            args += [score, token]
        out += resp('ZADD', q + 'waiting', *args)
    for i in range(0, len(lay['marks']), 500):
        args = []
        for score, member in lay['marks'][i:i + 500]:
            args += [score, member]
        out += resp('ZADD', q + 'joins', *args)
    args = []
    for k, v in lay['prior'].items():
        args += [k, v]
    out += resp('HSET', q + 'stats', *args)
    return out


def expect(lay, t):
    prior = lay['prior']
    line = sorted(lay['line'], key=lambda e: e[1])[:lay['batch']]
    marks = sorted(lay['marks'])
    at_or_above = [m[0] for m in marks]
    add = {}
    waits, errs, rel = [], [], []
    cover = dict(drawn=0, nomark=0, plain=0, clamped=0)
    runs = {}
    for token, s in line:
        eta = None
        if s < 0:
            ms = max(t - lay['opens_ms'], 0)
            cover['drawn'] += 1
        else:
            k = bisect.bisect_left(at_or_above, s)
            if k == len(marks):
                ms = 0
                cover['nomark'] += 1
            else:
                words = marks[k][1].split(' ')
                ms = max(t - int(words[0]), 0)
                runs.setdefault(k, []).append(s)
                if len(words) == 3 and int(words[2]) > 0:
                    told, pos = int(words[1]), int(words[2])
                    ahead = marks[k][0] - s
                    cover['clamped'] += pos - ahead < 1
                    eta = told * max(pos - ahead, 1) / pos
                else:
                    cover['plain'] += 1
        waits.append(ms)
        w = 'w%d' % bucket(WAIT_LE, ms / 1000)
        add[w] = add.get(w, 0) + 1
        if eta is not None:
            err = eta * 1000 - ms
            e = 'e%d' % bucket(ERR_LE, err / 1000)
            add[e] = add.get(e, 0) + 1
            errs.append(err)
            runs.setdefault(('e', k), set()).add(e)
            if ms >= MIN_MS:
                rel.append('%d' % int(((eta * 1000 + 500) / (ms + 500) - 1) *
                                      1000))
    out = []
    for f in HIST:
        n = int(prior.get(f, 0)) + add.get(f, 0)
        out.append((f, str(n) if f in prior or f in add else '-'))
    out.append(('w_sum', str(int(prior.get('w_sum', 0)) + sum(waits))))
    w_max = prior.get('w_max')
    if max(waits) > (-1 if w_max is None else int(w_max)):
        w_max = max(waits)
    out.append(('w_max', '-' if w_max is None else str(w_max)))
    e_max = prior.get('e_max')
    if errs and max(errs) > (-math.inf if e_max is None else int(e_max)):
        e_max = int(max(errs))
    out.append(('e_max', '-' if e_max is None else str(e_max)))
    had = prior.get('eta_errs', '').split()
    kept = (had + rel)[-KEEP:]
    n = int(prior.get('eta_errs_n', 0))
    if rel:
        out.append(('eta_errs', ' '.join(kept)))
        out.append(('eta_errs_n', str(n + len(rel))))
    else:
        out.append(('eta_errs', prior.get('eta_errs', '-')))
        out.append(('eta_errs_n', str(n) if 'eta_errs_n' in prior else '-'))
    out.append(('waits', '%d %d %d %d' % (t, waits[0], waits[-1], len(line))))
    out.append(('admitted', str(len(line))))
    # what the line exercises
    shared = [v for k, v in runs.items() if not isinstance(k, tuple)]
    split = [v for k, v in runs.items() if isinstance(k, tuple)]
    out.append(('cover_runs_of_3', str(sum(len(v) >= 3 for v in shared))))
    out.append(('cover_longest_run', str(max(map(len, shared)))))
    out.append(('cover_runs_split', str(sum(len(v) >= 2 for v in split))))
    out.append(('cover_w_buckets', str(sum(f[0] == 'w' for f in add))))
    out.append(('cover_e_buckets', str(sum(f[0] == 'e' for f in add))))
    out.append(('cover_errs', str(len(rel))))
    out.append(('cover_errs_old_kept', str(max(0, len(kept) - len(rel)))))
    out.append(('cover_marks_above', str(sum(m[0] > line[-1][1]
                                             for m in marks))))
    for k, v in cover.items():
        out.append(('cover_' + k, str(v)))
    return out


def main(argv):
    if argv[1] == 'layout':
        lay = layout(argv[2], argv[3], int(argv[4]))
        with open(argv[5] + '.json', 'w') as f:
            json.dump(lay, f)
        with open(argv[5] + '.resp', 'w', newline='') as f:
            f.write(commands(lay))
    elif argv[1] == 'expect':
        with open(argv[2]) as f:
            lay = json.load(f)
        for field, value in expect(lay, int(argv[3])):
            print(field, value)
    else:
        sys.exit('usage: count_waits.py layout|expect ...')


if __name__ == '__main__':
    main(sys.argv)
