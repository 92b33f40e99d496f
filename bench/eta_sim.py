#!/usr/bin/env python3
"""bench/eta_sim.py: simulated visitors of one queue, for bench/eta.

Visitors arrive as a Poisson process (ARRIVALS a second for SPAN seconds),
join, and poll their status every POLL seconds until they are admitted;
a share ABANDON of them (chosen at random) stops polling at a random
moment of the first WAIT_GUESS seconds and is never seen again (the
daemon drops it after waiting_ttl). In a capacity queue a share EARLY of
the admitted end their session by DELETE after a time drawn from an
exponential distribution of mean SESSION seconds (at most active_ttl);
the others keep it until active_ttl ends it.

For each visitor admitted after waiting, the wait W they had (join to the
first poll that saw them active, less half a poll: the admission fell
somewhere in that poll's interval) is compared with the eta_seconds of
their join, and with the eta_seconds of the poll nearest W / 2 against
the wait they still had then. Prints one JSON object: the errors as a
share of the true wait (absolute: median, p90; signed, estimate less
truth: p10, p90), and the counts. Talks to BASE only (loopback).
"""
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse


def call(conn, method, path):
    conn.request(method, path, headers={"Content-Length": "0"} if method == "POST" else {})
    r = conn.getresponse()
    body = r.read()
    return r.status, (json.loads(body) if body else None)


def visitor(cfg, rng_seed, start, out):
    rng = random.Random(rng_seed)
    u = urllib.parse.urlparse(cfg["base"])
    q = cfg["queue"]
    abandon = rng.random() < cfg["abandon"]
    early = rng.random() < cfg["early"]
    session = min(rng.expovariate(1.0 / cfg["session"]), cfg["ttl"])
    give_up = rng.uniform(0, cfg["wait_guess"])
    delay = start - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    t0 = time.monotonic()
    st, s = call(conn, "POST", "/v1/queues/%s/tokens" % q)
    if st != 201:
        out.append({"kind": "refused", "status": st})
        return
    token, eta0 = s["token"], s.get("eta_seconds")
    polls, last = [], t0
    rec = {"kind": "abandoned" if abandon else "waited", "eta0": eta0,
           "range0": s.get("eta_range"), "t0": t0 - cfg["t_start"],
           "pos0": s.get("position")}
    if s["status"] == "active":
        rec["kind"], rec["wait"] = "at_once", 0.0
    while s["status"] != "active":
        if abandon and time.monotonic() - t0 >= give_up:
            out.append(rec)
            return
        time.sleep(cfg["poll"])
        t = time.monotonic()
        st, s = call(conn, "GET", "/v1/queues/%s/tokens/%s" % (q, token))
        if st != 200:
            rec["kind"] = "lost"
            out.append(rec)
            return
        if s["status"] == "active":
            rec["wait"] = (last - t0) + (t - last) / 2
        else:
            polls.append((t - t0, s.get("eta_seconds")))
        last = t
    rec["polls"] = polls
    out.append(rec)
    if cfg["mode"] == "capacity" and early:
        time.sleep(session)
        call(conn, "DELETE", "/v1/queues/%s/tokens/%s" % (q, token))


def quantile(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * p
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def main():
    cfg = json.loads(sys.argv[1])
    rng = random.Random(cfg["seed"])
    t, starts = time.monotonic() + 0.5, []
    cfg["t_start"] = t
    end = t + cfg["span"]
    while t < end:
        starts.append(t)
        t += rng.expovariate(cfg["arrivals"])
    out, threads = [], []
    for i, s in enumerate(starts):
        th = threading.Thread(target=visitor, args=(cfg, cfg["seed"] * 100003 + i, s, out))
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
    raw = {"join": [], "half": [], "inside": [], "waits": [], "visits": []}
    for r in out:
        w = r.get("wait")
        if r["kind"] != "waited" or w is None or w < cfg["min_wait"]:
            continue
        raw["waits"].append(w)
        if r["eta0"] is not None:
            raw["join"].append((r["eta0"] - w) / w)
            rg = r.get("range0")
            if rg:
                raw["inside"].append(1 if rg[0] <= w <= rg[1] else 0)
                raw["visits"].append([round(r["t0"], 2), r["eta0"], rg[0],
                                      rg[1], round(w, 2), r["pos0"]])
        left = [(abs(pt - w / 2), pt, e) for pt, e in r["polls"] if e is not None]
        if left:
            _, pt, e = min(left)
            if w - pt >= cfg["min_wait"] / 2:
                raw["half"].append((e - (w - pt)) / (w - pt))
    kinds = {}
    for r in out:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    head = {"mode": cfg["mode"], "seed": cfg["seed"], "visitors": len(out),
            "kinds": kinds}
    print(json.dumps(dict(head, **summary(raw), raw=raw)))


def summary(raw):
    """The figures of raw's signed errors (estimate / truth - 1), waits
    and coverage flags (1: the wait fell in the join's eta_range)."""
    join = [abs(x) for x in raw["join"]]
    half = [abs(x) for x in raw["half"]]
    waits, inside = raw["waits"], raw["inside"]
    return {
        "measured": len(join),
        "wait_median": quantile(waits, 0.5), "wait_max": max(waits) if waits else None,
        "join_median": quantile(join, 0.5), "join_p90": quantile(join, 0.9),
        "half_median": quantile(half, 0.5), "half_p90": quantile(half, 0.9),
        "join_p10_signed": quantile(raw["join"], 0.1),
        "join_p90_signed": quantile(raw["join"], 0.9),
        "half_p10_signed": quantile(raw["half"], 0.1),
        "half_p90_signed": quantile(raw["half"], 0.9),
        "coverage": sum(inside) / len(inside) if inside else None,
    }


def pool():
    """--pool: the runs' JSON lines (stdin) of one mode, pooled: one line
    with the figures over all their visitors, seed "pooled"."""
    runs = [json.loads(line) for line in sys.stdin if line.strip()]
    raw = {k: [x for r in runs for x in r["raw"][k]]
           for k in ("join", "half", "inside", "waits")}
    print(json.dumps(dict({"mode": runs[0]["mode"], "seed": "pooled",
                           "visitors": sum(r["visitors"] for r in runs)},
                          **summary(raw))))


if __name__ == "__main__":
    pool() if sys.argv[1:] == ["--pool"] else main()
