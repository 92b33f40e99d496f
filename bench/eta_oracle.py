#!/usr/bin/env python3
"""bench/eta_oracle.py: how well could any estimator do in bench/eta's
capacity room?

A discrete-event model of bench/eta's capacity run (no daemon): Poisson
arrivals 2 a second for SPAN s; 8 slots; an admitted session ends at
10 s, or with p 0.2 at min(exp(mean 4), 10) by DELETE (its slot goes to
the next waiter at once; a slot freed by expiry at the next 250 ms
tick); 10% of waiters give up at U(0, 20) s of their wait and are
dropped 5 s later (at a tick), unless admitted first (then they hold the
slot until expiry). A measured wait runs from the join to the middle of
the 0.5 s poll that saw the admission (as eta_sim.py).

The oracle, at each visitor's join, knows all a daemon could: the
sessions inside and their ages, the line ahead, each waiter's age and
whether it still polls. It draws the unknowns (which sessions inside end
early and when, which waiters ahead will still give up, the sessions of
those not yet admitted) from their true laws given what it sees, M times,
and takes the median as its estimate, p10 and p90 as its band.
Usage: python3 bench/eta_oracle.py SPAN SEED... (bench/README: "ETA")
"""
import heapq
import math
import random
import sys

from eta_sim import quantile as q  # bench/ is the script's directory

SLOTS, TTL, P_EARLY, MEAN_EARLY = 8, 10.0, 0.2, 4.0
P_AB, GIVE_UP, WTTL, TICK, POLL, M = 0.1, 20.0, 5.0, 0.25, 0.5, 150


def next_tick(t):
    return (math.floor(t / TICK) + 1) * TICK


def dropped_at(j0, g):
    return next_tick(j0 + g + WTTL)


def run(arrivals, sess, give, now, ends, line, stop=None):
    """From now: ends [(t, kind)] (kind 0: slot given at once, 1: at the
    next tick), line [(i, joined)] in order, arrivals [(t, i)] after now.
    The admission time of each visitor admitted."""
    ends = list(ends)
    for _ in range(SLOTS - len(ends)):
        ends.append((now, 0))           # free slots
    heapq.heapify(ends)
    line, admitted, k = list(line), {}, 0
    while ends:
        t_e, kind = heapq.heappop(ends)
        at = max(t_e if kind == 0 else next_tick(t_e), now)
        # the line at 'at': those dropped by then are gone, arrivals in
        while k < len(arrivals) and arrivals[k][0] <= at:
            line.append((arrivals[k][1], arrivals[k][0]))
            k += 1
        line = [(i, j0) for i, j0 in line
                if give.get(i) is None or dropped_at(j0, give[i]) > at]
        if not line:
            if k >= len(arrivals):
                continue
            at = arrivals[k][0]         # a free slot: the next joiner
            line.append((arrivals[k][1], at))
            k += 1
        i, j0 = line.pop(0)
        admitted[i] = at
        if i == stop:
            break
        g = give.get(i)
        if g is not None and j0 + g < at:
            heapq.heappush(ends, (at + TTL, 1))      # gone: holds it
        else:
            s, kind = sess[i]
            heapq.heappush(ends, (at + s, kind))
    return admitted


def draw_session(rng):
    if rng.random() < P_EARLY:
        s = min(rng.expovariate(1 / MEAN_EARLY), TTL)
        if s < TTL:
            return s, 0
    return TTL, 1


def world(seed, span):
    rng = random.Random(seed)
    t, arrivals = 0.0, []
    while True:
        t += rng.expovariate(2.0)
        if t >= span:
            break
        arrivals.append((t, len(arrivals)))
    sess = {i: draw_session(rng) for _, i in arrivals}
    give = {i: (rng.uniform(0, GIVE_UP) if rng.random() < P_AB else None)
            for _, i in arrivals}
    return arrivals, sess, give


def seen_at(arrivals, sess, give, admitted, t0, rng):
    """What the oracle sees at t0, the unknowns redrawn: ends, line, give."""
    ends, line, g2 = [], [], {}
    for tj, j in arrivals:
        if tj >= t0:
            break
        a, g = admitted.get(j), give.get(j)
        if a is not None and a <= t0:
            if g is not None and tj + g < a:
                if a + TTL > t0 or next_tick(a + TTL) > t0:
                    ends.append((a + TTL, 1))
                continue
            s, kind = sess[j]
            if a + s <= t0 and (kind == 0 or next_tick(a + s) <= t0):
                continue                        # ended, slot given
            x = t0 - a
            if a + s <= t0:                     # expired, awaits the tick
                ends.append((a + s, kind))
                continue
            # inside, lasted x: ends early with its chance given that
            pe = P_EARLY * math.exp(-x / MEAN_EARLY)
            pe /= pe + (1 - P_EARLY)
            r = rng.expovariate(1 / MEAN_EARLY)
            if rng.random() < pe and x + r < TTL:
                ends.append((a + x + r, 0))
            else:
                ends.append((a + TTL, 1))
        else:
            if g is not None and dropped_at(tj, g) <= t0:
                continue
            age = t0 - tj
            line.append((j, tj))
            if g is not None and g <= age:
                g2[j] = g                       # seen to have stopped
            elif age < GIVE_UP:
                pa = P_AB * (1 - age / GIVE_UP)
                pa /= pa + (1 - P_AB)
                if rng.random() < pa:
                    g2[j] = rng.uniform(age, GIVE_UP)
    return ends, line, g2


def measured(t0, a):
    return (math.floor((a - t0) / POLL) + 0.5) * POLL



def main():
    span = float(sys.argv[1])
    pooled = []
    for seed in [int(s) for s in sys.argv[2:]]:
        arrivals, sess, give = world(seed, span)
        admitted = run(arrivals, sess, give, 0.0, [], [])
        rng, rows = random.Random(seed * 7 + 1), []
        for t0, i in arrivals:
            a = admitted.get(i)
            if a is None or give[i] is not None or measured(t0, a) < 2:
                continue
            w = measured(t0, a)
            samples = []
            for _ in range(M):
                ends, line, g2 = seen_at(arrivals, sess, give, admitted, t0,
                                         rng)
                s2 = {j: draw_session(rng) for j, _ in line}
                s2[i] = draw_session(rng)
                adm = run([(t0, i)], s2, g2, t0, ends, line, stop=i)
                samples.append(measured(t0, adm[i]))
            est, lo, hi = q(samples, .5), q(samples, .1), q(samples, .9)
            rows.append((est / w - 1, lo <= w <= hi))
        errs = [abs(e) for e, _ in rows]
        print("seed %4d n %3d  median %3.0f%%  p90 %3.0f%%  coverage %3.0f%%"
              % (seed, len(rows), 100 * q(errs, .5), 100 * q(errs, .9),
                 100 * sum(c for _, c in rows) / len(rows)), flush=True)
        pooled += rows
    errs = [abs(e) for e, _ in pooled]
    print("pooled    n %3d  median %3.0f%%  p90 %3.0f%%  coverage %3.0f%%" % (
        len(pooled), 100 * q(errs, .5), 100 * q(errs, .9),
        100 * sum(c for _, c in pooled) / len(pooled)))


if __name__ == "__main__":
    main()
