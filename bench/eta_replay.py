#!/usr/bin/env python3
"""bench/eta_replay.py: replay eta_range's rule on bench/eta's RAW files.

RAW keeps each measured visitor's join time, eta_seconds, eta_range,
wait and position, so a band rule can be tried on runs already made: for
each visitor, the default band D (p10,p90) (in capacity mode divided by
sqrt(eta / SESSION) when SC=1, eta.c's eta_rounds, SESSION seconds a
mean session), moved toward the p10 and p90 of the errors (told /
waited - 1) of the last 200 visitors admitted before it joined, once
there are MIN of them, by n / (n + K), as eta.c does. Prints the
coverage (waits inside the replayed band) per file and per seed. The
daemon counts its own errors a little differently (within a second),
so a replay matches a live run within a point or two, not exactly.

  python3 bench/eta_replay.py "D=-0.20,0.30;-0.12,0.28" K=100 MIN=50 \\
      SC=1,0 SESSION=9.1 FILE...

Each parameter takes a list (D separated by ';', the others by ',').
"""
import itertools
import json
import sys

from eta_sim import quantile as q  # bench/ is the script's directory



def band(eta, p10, p90):
    """eta.c's eta_range from p10 and p90."""
    p10 = max(p10, -0.95)
    lo, hi = int(eta / (1 + p90) + 0.5), int(eta / (1 + p10) + 0.5)
    return min(lo, eta), max(hi, eta)


def replay(run, d, k, least, sc, session):
    visits = sorted(run["raw"]["visits"], key=lambda v: v[0])
    admitted = sorted(visits, key=lambda v: v[0] + v[4])
    inside = 0
    for v in visits:
        before = [u for u in admitted if u[0] + u[4] < v[0]][-200:]
        p10, p90 = d
        if sc:
            r = max(v[1] / session, 1.0) ** 0.5
            p10, p90 = p10 / r, p90 / r
        if len(before) >= least:
            errs = [u[1] / u[4] - 1 for u in before]
            w = len(before) / (len(before) + k)
            p10 += w * (q(errs, .1) - p10)
            p90 += w * (q(errs, .9) - p90)
        lo, hi = band(v[1], p10, p90)
        inside += lo <= v[4] <= hi
    return inside, len(visits)


def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    files = [a for a in sys.argv[1:] if "=" not in a]
    grid = itertools.product(
        [tuple(map(float, d.split(","))) for d in args["D"].split(";")],
        [float(k) for k in args.get("K", "100").split(",")],
        [int(m) for m in args.get("MIN", "50").split(",")],
        [int(x) for x in args.get("SC", "0").split(",")])
    grid = list(grid)
    session = float(args.get("SESSION", "10"))
    for f in files:
        runs = [json.loads(line) for line in open(f) if line.strip()]
        print("==", f, runs[0]["mode"], len(runs), "runs")
        for d, k, least, sc in grid:
            got = [replay(r, d, k, least, sc, session) for r in runs]
            print("  D %+.2f/%+.2f K %g MIN %d SC %d  coverage %3d%%  "
                  "per seed %s" % (
                      d[0], d[1], k, least, sc,
                      round(100 * sum(a for a, _ in got) /
                            sum(n for _, n in got)),
                      [round(100 * a / n) for a, n in got]))


if __name__ == "__main__":
    main()
