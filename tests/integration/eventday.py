#!/usr/bin/env python3
"""eventday.py: the client side of a rehearsed sale (bench/eventday,
tests/integration/eventday.sh). It plays visitors against one or more
waitroomd instances and writes down, with a timestamp, every answer that
matters, so that `report` can tell afterwards what was lost, reordered,
left untold or given twice. Standard library only; one asyncio loop per
process; contacts 127.0.0.0/8 only.

  eventday.py join      --bases URL,URL --queue Q --log FILE --count N
                        [--first I] [--prefix P] [--conns C] [--source A]
                        [--leave-every K] [--no-work] [--deadline S]
  eventday.py streams   --bases ... --queue Q --log FILE --tokens FILE
                        [--source A [--sources K]] [--rate R]
                        [--stop FILE] [--deadline S]
  eventday.py probe     --bases ... --queue Q --log FILE --stop FILE
                        [--ctl 'waitroomctl ...'] [--every S]
  eventday.py positions --bases ... --queue Q --tokens FILE --out FILE
  eventday.py report    --dir D --queue Q --bases ... --redis PORT
                        --active-ttl S [--json FILE]

join: entrant i (users P-I .. P-(I+N-1)) joins through instance i mod n,
with the proof of work its queue asks (GET .../challenge, solved as
doc/api.md says; a 403 that carries error.challenge is solved and tried
again), retrying 503s and dropped connections under its own user (so a
retry finds the place a lost answer took) until DEADLINE. Log lines:
"ack T USER TOKEN CODE INSTANCE STATUS", "left T USER TOKEN",
"fail T USER CODE ERROR", and for a leave never answered 204 (nor 404
after a try that got no answer or a 503) "stayed T USER TOKEN";
--no-work (bots): "bot T CODE ERROR", and an ack when one got in.

streams: one Server-Sent Events stream per token, followed as the
waiting page does (src/page/waitroom.js): a dropped stream is opened
again 3 s later (with Last-Event-ID), through the next instance when its
own refuses the connection (a load balancer's health check); a stream
answered with an error makes the page ask GET .../tokens/T, which tells
it it entered (active), is gone (404) or should follow again. Log lines:
"open T TOKEN INSTANCE", "entered T TOKEN stream|recheck INSTANCE",
"gone T TOKEN REASON", "drop T TOKEN WHY". It ends when every stream got
its last word, at the STOP file, at SIGTERM or at the deadline. It
opens at most R streams a second (default 1000), reopened ones too. Stream
i binds to source address A + i mod K (default 127.0.0.1, K 1), as
visitors come from many addresses (max_conns_per_ip).

probe: every EVERY s (default 0.2), for each instance, GET /readyz and
one join (with its work): "probe T INSTANCE READY_CODE READY_ERROR
JOIN_CODE TOKEN"; every second the operator's view: "ctl T RC TEXT"
(the --ctl command's exit status and last line) and "metric T INSTANCE
JOIN_5XX RECONNECTS" from /metrics.

positions: GET .../tokens/T of each token: "TOKEN CODE STATUS POSITION".

report: the figures (bench/README, "bench/eventday", defines each).
"""
import argparse
import asyncio
import calendar
import hashlib
import ipaddress
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def loopback(url):
    u = urllib.parse.urlsplit(url)
    if not ipaddress.ip_address(u.hostname).is_loopback:
        sys.exit("eventday.py: %s is not on 127.0.0.0/8" % url)
    return u.hostname, u.port


def now():
    return time.time()


def ticket(token):
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def solve(challenge, bits):
    """doc/api.md's solver: decimal nonces from 0."""
    i = 0
    while True:
        h = hashlib.sha256((challenge + str(i)).encode()).digest()
        if int.from_bytes(h, "big") >> (256 - bits) == 0:
            return str(i)
        i += 1


class Log:
    def __init__(self, path):
        self.f = open(path, "a", buffering=1)

    def put(self, *fields):
        self.f.write(" ".join(str(x) for x in fields) + "\n")


# ---- HTTP/1.1, kept alive, one request at a time per connection ----------

class Http:
    def __init__(self, base, source=None, timeout=5.0):
        self.host, self.port = loopback(base)
        self.source = source
        self.timeout = timeout
        self.r = self.w = None

    def close(self):
        if self.w is not None:
            self.w.close()
        self.r = self.w = None

    async def open(self):
        local = (self.source, 0) if self.source else None
        self.r, self.w = await asyncio.wait_for(asyncio.open_connection(
            self.host, self.port, local_addr=local), self.timeout)

    async def head(self):
        """Status line and headers of an answer: (code, {name: value})."""
        line = await self.r.readline()
        m = re.match(rb"HTTP/1\.[01] (\d{3})", line)
        if not m:
            raise ConnectionError("no status line")
        hdr = {}
        while True:
            line = await self.r.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            hdr[k.strip().lower()] = v.strip()
        return int(m.group(1)), hdr

    async def chunk(self):
        """The next chunk of a chunked body; b'' at its end."""
        line = await self.r.readline()
        if not line:
            raise EOFError("closed")
        size = int(line.split(b";")[0], 16)
        data = await self.r.readexactly(size) if size else b""
        await self.r.readline()
        return data

    async def body(self, code, hdr):
        if code in (204, 304) or code < 200:
            return b""
        if "content-length" in hdr:
            return await self.r.readexactly(int(hdr["content-length"]))
        if hdr.get("transfer-encoding", "").lower() == "chunked":
            out = b""
            while True:
                c = await self.chunk()
                if not c:
                    return out
                out += c
        data = await self.r.read()
        self.close()
        return data

    def send(self, method, path, body=None, extra=""):
        req = "%s %s HTTP/1.1\r\nHost: %s:%d\r\n%s" % (
            method, path, self.host, self.port, extra)
        if body is not None:
            data = json.dumps(body).encode()
            req += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(data)
        else:
            data = b""
        self.w.write(req.encode() + b"\r\n" + data)

    async def call(self, method, path, body=None):
        """(code, parsed JSON or None); code 0 when there was no answer."""
        try:
            if self.w is None:
                await self.open()
            self.send(method, path, body)
            code, hdr = await asyncio.wait_for(self.head(), self.timeout)
            raw = await asyncio.wait_for(self.body(code, hdr), self.timeout)
            if hdr.get("connection", "").lower() == "close":
                self.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                ConnectionError, ValueError, EOFError):
            self.close()
            return 0, None
        try:
            return code, json.loads(raw) if raw else None
        except ValueError:
            return code, None


def err_code(doc):
    try:
        return doc["error"]["code"]
    except (TypeError, KeyError):
        return "-"


# ---- join ------------------------------------------------------------------

RETRIES = {}


def retried(code, doc):
    k = "%d:%s" % (code, err_code(doc))
    RETRIES[k] = RETRIES.get(k, 0) + 1


async def join_one(h, q, user, work, deadline, retry=0.5, posts=1 << 30):
    """Join as user until acknowledged, refused for good, DEADLINE or
    POSTS tries: (code, doc, error word)."""
    path = "/v1/queues/%s/tokens" % q
    ch, code, doc = None, 0, None
    while now() < deadline and posts > 0:
        if work and ch is None:
            c, d = await h.call("GET", "/v1/queues/%s/challenge" % q)
            if c != 200:
                code, doc = c, d
                retried(c, d)
                await asyncio.sleep(retry)
                continue
            ch = d
        body = {"user": user}
        if ch is not None and ch.get("bits", 0) > 0:
            body["challenge"] = ch["challenge"]
            body["nonce"] = solve(ch["challenge"], ch["bits"])
        code, doc = await h.call("POST", path, body)
        posts -= 1
        if code in (200, 201):
            return code, doc, "-"
        e = err_code(doc)
        retried(code, doc)
        if code == 403 and work and isinstance(
                (doc or {}).get("error", {}).get("challenge"), dict):
            ch = doc["error"]["challenge"]
            continue
        if code == 403 and work and e in ("challenge_used", "challenge_failed"):
            ch = None
            continue
        if code in (0, 429, 503) or (code == 409 and e == "queue_not_open"):
            await asyncio.sleep(retry)
            continue
        return code, doc, e
    return code, doc, err_code(doc)


async def leave(h, q, user, token, log, deadline):
    """DELETE the token until 204, or 404 once a try got no answer or a
    503 (that try took it): "left"; else "stayed" (still in line)."""
    unanswered = False
    while now() < deadline:
        c, _ = await h.call("DELETE", "/v1/queues/%s/tokens/%s" % (q, token))
        if c == 204 or (c == 404 and unanswered):
            log.put("left", "%.3f" % now(), user, token)
            return
        if c not in (0, 503):
            break
        unanswered = True  # a 503 or no answer: it may have been done
        await asyncio.sleep(0.5)
    log.put("stayed", "%.3f" % now(), user, token)


async def cmd_join(a):
    log = Log(a.log)
    log.put("start", "%.3f" % now())
    bases = a.bases.split(",")
    todo = list(range(a.first, a.first + a.count))
    deadline = now() + a.deadline

    async def worker(k):
        conns = [Http(b, a.source) for b in bases]
        while todo:
            i = todo.pop()
            inst = i % len(bases)
            user = "%s-%d" % (a.prefix, i)
            code, doc, e = await join_one(conns[inst], a.queue, user,
                                          not a.no_work, deadline)
            if code in (200, 201):
                log.put("ack", "%.3f" % now(), user, doc["token"], code, inst,
                        doc.get("status", "-"))
                if a.leave_every and i % a.leave_every == 0:
                    await leave(conns[inst], a.queue, user, doc["token"], log, deadline)
            elif a.no_work:
                log.put("bot", "%.3f" % now(), code, e)
            else:
                log.put("fail", "%.3f" % now(), user, code, e)
        for c in conns:
            c.close()

    await asyncio.gather(*(worker(k) for k in range(a.conns)))
    log.put("retries", "%.3f" % now(), *("%s=%d" % kv for kv in sorted(RETRIES.items())))


# ---- streams ---------------------------------------------------------------

class Follower:
    """One visitor's page: its stream, reopened as EventSource does."""

    def __init__(self, run, token, home, source):
        self.run, self.token, self.home = run, token, home
        self.source = source
        self.last_id = None
        self.done = False

    def base(self, shift):
        b = self.run.bases
        return b[(self.home + shift) % len(b)]

    async def events(self, h):
        """Read SSE frames until the stream ends; the final event or None."""
        ev, buf = None, b""
        idle = self.run.idle
        while True:
            c = await asyncio.wait_for(h.chunk(), idle)
            if not c:
                return None
            buf += c
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                line = line.rstrip(b"\r").decode()
                if line.startswith("id:"):
                    self.last_id = line[3:].strip()
                elif line.startswith("event:"):
                    ev = line[6:].strip()
                elif line == "" and ev in ("entered", "gone"):
                    return ev
                elif line == "":
                    ev = None

    async def once(self, shift):
        """One stream: 'final', 'drop' (come back) or 'error' (recheck)."""
        h = Http(self.base(shift), self.source, timeout=10)
        inst = (self.home + shift) % len(self.run.bases)
        try:
            await self.run.pace()
            await h.open()
            extra = "Accept: text/event-stream\r\n"
            if self.last_id:
                extra += "Last-Event-ID: %s\r\n" % self.last_id
            h.send("GET", "/v1/queues/%s/tokens/%s/events" %
                   (self.run.queue, self.token), extra=extra)
            code, hdr = await asyncio.wait_for(h.head(), 10)
            if code != 200:
                self.run.log.put("drop", "%.3f" % now(), self.token, "http_%d" % code)
                return "error"
            self.run.log.put("open", "%.3f" % now(), self.token, inst)
            ev = await self.events(h)
            if ev == "entered":
                self.run.log.put("entered", "%.3f" % now(), self.token, "stream", inst)
                return "final"
            if ev == "gone":
                self.run.log.put("gone", "%.3f" % now(), self.token, "stream")
                return "final"
            self.run.log.put("drop", "%.3f" % now(), self.token, "ended")
            return "drop"
        except ConnectionRefusedError:
            self.run.log.put("drop", "%.3f" % now(), self.token, "refused")
            return "refused"
        except EOFError:
            self.run.log.put("drop", "%.3f" % now(), self.token, "closed")
            return "drop"
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                ConnectionError, ValueError) as e:
            self.run.log.put("drop", "%.3f" % now(), self.token, type(e).__name__)
            return "drop"
        finally:
            h.close()

    async def recheck(self, shift):
        """The page's question after a stream error: 'final' or 'follow'."""
        h = Http(self.base(shift), self.source)
        code, doc = await h.call("GET", "/v1/queues/%s/tokens/%s" %
                                 (self.run.queue, self.token))
        h.close()
        if code == 404:
            self.run.log.put("gone", "%.3f" % now(), self.token, err_code(doc))
            return "final"
        if code == 200 and doc.get("status") == "active":
            self.run.log.put("entered", "%.3f" % now(), self.token, "recheck",
                             (self.home + shift) % len(self.run.bases))
            return "final"
        return "follow" if code == 200 else "retry"

    async def follow(self):
        shift = 0
        while not self.run.stopping:
            r = await self.once(shift)
            while r == "error" and not self.run.stopping:
                r = await self.recheck(shift)
                if r == "retry":
                    await asyncio.sleep(3)
            if r == "final":
                break
            if r == "refused":
                shift += 1
            if r != "follow":
                await asyncio.sleep(3)
        self.done = True


class StreamRun:
    def __init__(self, a):
        self.bases = a.bases.split(",")
        self.queue, self.source = a.queue, a.source
        self.log = Log(a.log)
        self.idle = a.idle
        self.stopping = False
        self.rate = a.rate
        self.next_at = 0.0

    async def pace(self):
        """At most RATE new streams a second (a timer, not a semaphore:
        nothing to leak when a connect times out)."""
        t = max(now(), self.next_at)
        self.next_at = t + 1.0 / self.rate
        if t > now():
            await asyncio.sleep(t - now())


async def cmd_streams(a):
    run = StreamRun(a)
    tokens = [t.split()[0] for t in open(a.tokens) if t.strip()]
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, lambda: setattr(run, "stopping", True))
    first = ipaddress.ip_address(a.source or "127.0.0.1")
    fs = [Follower(run, t, i % len(run.bases), str(first + i % a.sources))
          for i, t in enumerate(tokens)]
    tasks = []
    for k, f in enumerate(fs):
        tasks.append(asyncio.ensure_future(f.follow()))
        if k % 500 == 499:
            await asyncio.sleep(0.05)
    end = now() + a.deadline
    while not run.stopping and now() < end and not all(f.done for f in fs):
        if a.stop and os.path.exists(a.stop):
            break
        await asyncio.sleep(0.2)
    run.stopping = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    run.log.put("end", "%.3f" % now(), sum(f.done for f in fs), len(fs))


# ---- probe: what a visitor and the operator saw, every moment ---------------

async def probe_one(a, log, i, base):
    ready, joins = Http(base, a.source, 2), Http(base, a.source, 3)
    n = 0
    while not (a.stop and os.path.exists(a.stop)):
        t0 = now()
        rc, rd = await ready.call("GET", "/readyz")
        ready.close()
        n += 1
        jc, jd, _ = await join_one(joins, a.queue, "probe-%d-%d" % (i, n),
                                   True, now() + 2, retry=0, posts=2)
        token = jd["token"] if jc in (200, 201) else "-"
        log.put("probe", "%.3f" % t0, i, rc,
                err_code(rd) if rc else "no_answer", jc, token)
        await asyncio.sleep(max(0, a.every - (now() - t0)))
    ready.close()
    joins.close()


def metric_sum(text, name, want):
    s = 0
    for line in text.splitlines():
        if line.startswith(name) and all(w in line for w in want):
            s += float(line.split()[-1])
    return int(s)


async def ops(a, log):
    bases = a.bases.split(",")
    while not (a.stop and os.path.exists(a.stop)):
        t0 = now()
        if a.ctl:
            try:
                p = await asyncio.create_subprocess_shell(
                    a.ctl, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.STDOUT)
                out, _ = await asyncio.wait_for(p.communicate(), 5)
                last = out.decode(errors="replace").strip().splitlines() or ["-"]
                log.put("ctl", "%.3f" % t0, p.returncode, " ".join(last[-1].split())[:160])
            except asyncio.TimeoutError:
                p.kill()
                await p.wait()
                log.put("ctl", "%.3f" % t0, "timeout", "-")
        for i, b in enumerate(bases):
            h = Http(b, a.source, 2)
            code = 0
            try:
                await h.open()
                h.send("GET", "/metrics")
                code, hdr = await asyncio.wait_for(h.head(), 2)
                text = (await asyncio.wait_for(h.body(code, hdr), 2)).decode()
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                    ConnectionError, ValueError, EOFError):
                code = 0
            h.close()
            if code == 200:
                log.put("metric", "%.3f" % t0, i,
                        metric_sum(text, "waitroom_http_requests_total",
                                   ['route="join"', 'code="5xx"']),
                        metric_sum(text, "waitroom_redis_reconnects_total", []))
            else:
                log.put("metric", "%.3f" % t0, i, "-", "-")
        await asyncio.sleep(max(0, 1 - (now() - t0)))


async def cmd_probe(a):
    log = Log(a.log)
    bases = a.bases.split(",")
    await asyncio.gather(ops(a, log),
                         *(probe_one(a, log, i, b) for i, b in enumerate(bases)))


# ---- positions -------------------------------------------------------------

async def cmd_positions(a):
    tokens = [t.split()[0] for t in open(a.tokens) if t.strip()]
    bases = a.bases.split(",")
    out = open(a.out, "w")
    todo = list(enumerate(tokens))

    async def worker():
        hs = [Http(b, a.source) for b in bases]
        while todo:
            i, t = todo.pop()
            code, doc = await hs[i % len(hs)].call(
                "GET", "/v1/queues/%s/tokens/%s" % (a.queue, t))
            st = doc.get("status", "-") if code == 200 else err_code(doc)
            pos = doc.get("position", "-") if code == 200 else "-"
            out.write("%s %d %s %s\n" % (t, code, st, pos))
        for h in hs:
            h.close()

    await asyncio.gather(*(worker() for _ in range(a.conns)))
    out.close()


# ---- report ----------------------------------------------------------------

def lines(d, suffix):
    for name in sorted(os.listdir(d)):
        if name.endswith(suffix):
            for line in open(os.path.join(d, name)):
                f = line.split()
                if f:
                    yield f


def redis_zset(port, key):
    out = subprocess.run(["redis-cli", "-p", str(port), "ZRANGE", key, "0",
                          "-1", "WITHSCORES"], capture_output=True,
                         text=True, timeout=60, check=True).stdout.split()
    return {out[i]: float(out[i + 1]) for i in range(0, len(out) - 1, 2)}


def out_of_order(rank, admitted_at, waiting):
    """Admitted tokens with someone ahead (a lower rank) admitted in a
    later tick or still waiting. rank: token -> place (post-opening
    joiners share one rank behind every entrant)."""
    late = float("inf")
    bad = 0
    by_rank = {}
    for t, r in rank.items():
        by_rank.setdefault(r, []).append(t)
    ahead_max = float("-inf")
    for r in sorted(by_rank):
        group = by_rank[r]
        for t in group:
            if t in admitted_at and admitted_at[t] < ahead_max:
                bad += 1
        for t in group:
            if t in admitted_at:
                ahead_max = max(ahead_max, admitted_at[t])
            elif t in waiting:
                ahead_max = late
    return bad


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def dup_positions(path):
    seen, dup = {}, 0
    for f in (line.split() for line in open(path)):
        if len(f) == 4 and f[1] == "200" and f[3] != "-":
            seen[f[3]] = seen.get(f[3], 0) + 1
    for n in seen.values():
        dup += n - 1
    return dup, len(seen)


def dup_scores(path):
    vals = open(path).read().split()[1::2]
    return len(vals) - len(set(vals)), len(vals)


def fault_windows(d):
    fs = [(f[0], float(f[1])) for f in lines(d, ".faults")]
    end = now()
    return [(n, t, fs[i + 1][1] if i + 1 < len(fs) else end)
            for i, (n, t) in enumerate(fs) if n != "end"]


def logged_events(logs, t0, t1):
    """level=warn|error event=... lines of the daemons' logs in [t0, t1]."""
    seen = {}
    for path in logs:
        for line in open(path, errors="replace"):
            m = re.match(r"t=(\S+) level=(warn|error)\S* .*?event=(\S+)", line)
            if not m:
                continue
            t = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%SZ"))
            if t0 - 1 <= t <= t1:
                seen[m.group(3)] = seen.get(m.group(3), 0) + 1
    return seen


def fault_figures(a, name, t0, t1, probes, ctls, metrics):
    win = [p for p in probes if t0 <= p[0] < t1]
    refused = [p for p in win if p[4] not in (200, 201)]
    last_refused = max((p[0] for p in refused), default=None)
    resumed = None
    if last_refused is not None:
        resumed = min((p[0] for p in win if p[0] > last_refused and
                       p[4] in (200, 201)), default=None)
    lying = sum(1 for p in win if p[2] == 200 and p[4] not in (200, 201))
    said_no = sorted({"%s" % p[3] for p in win if p[2] != 200})
    c = [x for x in ctls if t0 <= x[0] < t1]
    cbad = [x for x in c if x[1] != "0"]
    m = [x for x in metrics if t0 - 1.5 <= x[0] < t1 and x[2] != "-"]
    deltas, last = {}, {}
    for x in m:
        v = (int(x[2]), int(x[3]))
        if x[1] in last:
            d = deltas.setdefault(x[1], [0, 0])
            for k in (0, 1):  # a restarted instance counts from 0 again
                p = last[x[1]][k]
                d[k] += v[k] - p if v[k] >= p else v[k]
        last[x[1]] = v
    return {
        "fault": name,
        "joins_refused_probes": len(refused),
        "joins_404_probes": sum(1 for p in win if p[4] == 404),
        "joins_resume_s": None if last_refused is None else
        (round(resumed - t0, 2) if resumed else None),
        "readyz_200_while_refused_s": round(lying * a.every, 2),
        "readyz_said": said_no,
        "ctl_failed": len(cbad), "ctl_seen": len(c),
        "ctl_said": cbad[0][2] if cbad else (c[-1][2] if c else "-"),
        "metrics": {i: {"join_5xx": d[0], "redis_reconnects": d[1]}
                    for i, d in deltas.items()},
        "logs": logged_events(a.logs.split(",") if a.logs else [], t0, t1),
    }


def cmd_report(a):
    d = a.dir
    acked, left, bots = {}, set(), {}
    for f in lines(d, ".join.log"):
        if f[0] == "ack":
            acked[f[3]] = (float(f[1]), f[6])
        elif f[0] == "left":
            left.add(f[3])
        elif f[0] == "bot":
            bots[f[2]] = bots.get(f[2], 0) + 1
    probes, ctls, metrics = [], [], []
    for f in lines(d, ".probe.log"):
        if f[0] == "probe":
            p = (float(f[1]), f[2], int(f[3]), f[4], int(f[5]), f[6])
            probes.append(p)
            if p[4] in (200, 201):
                acked[p[5]] = (p[0], "probe")
        elif f[0] == "ctl":
            ctls.append((float(f[1]), f[2], " ".join(f[3:])))
        elif f[0] == "metric":
            metrics.append((float(f[1]), f[2], f[3], f[4]))
    streamers, entered, told_by, gone_s = set(), {}, {}, set()
    opened, cut, refused = set(), 0, 0
    for f in lines(d, ".stream.log"):
        if f[0] in ("open", "drop"):
            streamers.add(f[2])
        if f[0] == "open":
            opened.add(f[2])
        elif f[0] == "drop" and f[2] in opened:
            cut += 1
        elif f[0] == "drop":
            refused += 1
        elif f[0] == "entered":
            entered.setdefault(f[2], float(f[1]))
            told_by[f[3]] = told_by.get(f[3], 0) + 1
        elif f[0] == "gone":
            gone_s.add(f[2])
    for f in lines(d, ".tokens"):
        streamers.add(f[0])
    waiting = redis_zset(a.redis, "wr:{%s}:waiting" % a.queue)
    active = redis_zset(a.redis, "wr:{%s}:active" % a.queue)
    admitted_at = {t: s - a.active_ttl * 1000 for t, s in active.items()}
    lost = sorted(t for t in acked if t not in left and t not in waiting
                  and t not in active)
    base = a.bases.split(",")[0]
    order = urllib.request.urlopen(base + "/v1/queues/%s/draw/order" % a.queue,
                                   timeout=30).read().decode().split()
    place = {tk: i for i, tk in enumerate(order)}
    rank = {}
    for t in set(acked) | set(waiting) | set(active):
        if t in left:
            continue
        rank[t] = place.get(ticket(t), len(order))
    disorder = out_of_order(rank, admitted_at, waiting)
    untold = sorted(t for t in streamers if t in active and t not in entered)
    lags = sorted(((entered[t] * 1000 - admitted_at[t]), t) for t in entered
                  if t in admitted_at)
    lag = [x[0] for x in lags]
    slowest = [{"admitted_at": round(admitted_at[t] / 1000, 3),
                "lag_ms": round(x), "token": t[:8]} for x, t in lags[-5:]]
    dups = {}
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if name.startswith("positions.") and name.endswith(".txt"):
            dups[name] = dup_positions(p)
        elif name.startswith("redispos.") and name.endswith(".txt"):
            dups[name] = dup_scores(p)
    faults = [fault_figures(a, n, t0, t1, probes, ctls, metrics)
              for n, t0, t1 in fault_windows(d)]
    pre = sum(1 for t in acked if acked[t][1] == "prequeue")
    r = {
        "acknowledged": len(acked), "prequeue_acknowledged": pre,
        "left": len(left), "in_draw": len(order),
        "admitted": len(active), "still_waiting": len(waiting),
        "lost": len(lost), "lost_sample": lost[:5],
        "out_of_order": disorder,
        "streamers": len(streamers), "entered_told": len(entered),
        "told_by": told_by, "streams_cut": cut,
        "stream_tries_failed_before_open": refused, "streamers_gone": len(gone_s),
        "untold": len(untold), "untold_sample": untold[:5],
        "positions_twice": sum(v[0] for v in dups.values()),
        "position_samples": {k: {"twice": v[0], "seen": v[1]} for k, v in dups.items()},
        "entered_p50_ms": pct(lag, 50), "entered_p99_ms": pct(lag, 99),
        "entered_max_ms": max(lag) if lag else None,
        "entered_slowest": slowest,
        "bots": bots, "faults": faults,
    }
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f)
    show(r)


def show(r):
    p = print
    p("acknowledged joins          %d (%d in the pre-queue; %d left on purpose)" %
      (r["acknowledged"], r["prequeue_acknowledged"], r["left"]))
    p("bots without work           %s" % (", ".join("%s x%d" % kv for kv in r["bots"].items()) or "none"))
    p("drawn / admitted / waiting  %d / %d / %d" % (r["in_draw"], r["admitted"], r["still_waiting"]))
    p("acknowledged joins lost     %d %s" % (r["lost"], " ".join(r["lost_sample"])))
    p("admitted out of drawn order %d" % r["out_of_order"])
    p("streamers untold            %d of %d streamers (told: %s; %d drops after a first"
      " open; %d tries failed before it)" %
      (r["untold"], r["streamers"], r["told_by"], r["streams_cut"],
       r["stream_tries_failed_before_open"]))
    p("positions given twice       %d (%s)" % (r["positions_twice"], ", ".join(
        "%s: %d of %d" % (k, v["twice"], v["seen"]) for k, v in r["position_samples"].items())))
    fmt = lambda x: "-" if x is None else "%.0f" % x
    p("entered after admission     p50 %s ms, p99 %s ms, max %s ms" % (
        fmt(r["entered_p50_ms"]), fmt(r["entered_p99_ms"]), fmt(r["entered_max_ms"])))
    for f in r["faults"]:
        p("fault %-18s joins refused by %d probes (%d of them 404); joins resume %s; readyz 200 while joins refused: %.1f s (said otherwise: %s)" % (
            f["fault"], f["joins_refused_probes"], f["joins_404_probes"],
            "never stopped" if f["joins_resume_s"] is None and not f["joins_refused_probes"]
            else ("+%.1f s" % f["joins_resume_s"] if f["joins_resume_s"] is not None else "not within the window"),
            f["readyz_200_while_refused_s"], ",".join(f["readyz_said"]) or "-"))
        p("  operator: waitroomctl failed %d of %d (%s); metrics %s; logs %s" % (
            f["ctl_failed"], f["ctl_seen"], f["ctl_said"],
            "; ".join("instance %s join 5xx +%d, redis reconnects +%d" % (
                i, m["join_5xx"], m["redis_reconnects"]) for i, m in f["metrics"].items()) or "-",
            ", ".join("%s x%d" % kv for kv in f["logs"].items()) or "-"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["join", "streams", "probe", "positions", "report"])
    ap.add_argument("--bases", required=True)
    ap.add_argument("--queue", required=True)
    ap.add_argument("--log")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--prefix", default="u")
    ap.add_argument("--conns", type=int, default=32)
    ap.add_argument("--source")
    ap.add_argument("--sources", type=int, default=1)
    ap.add_argument("--leave-every", type=int, default=0)
    ap.add_argument("--no-work", action="store_true")
    ap.add_argument("--deadline", type=float, default=60)
    ap.add_argument("--tokens")
    ap.add_argument("--stop")
    ap.add_argument("--idle", type=float, default=40)
    ap.add_argument("--rate", type=float, default=1000)
    ap.add_argument("--ctl")
    ap.add_argument("--every", type=float, default=0.2)
    ap.add_argument("--out")
    ap.add_argument("--dir")
    ap.add_argument("--redis", type=int)
    ap.add_argument("--active-ttl", type=int, default=0)
    ap.add_argument("--logs")
    ap.add_argument("--json")
    a = ap.parse_args()
    for b in a.bases.split(","):
        loopback(b)
    if a.source and not ipaddress.ip_address(a.source).is_loopback:
        sys.exit("eventday.py: --source must be on 127.0.0.0/8")
    if a.cmd == "report":
        cmd_report(a)
    else:
        asyncio.run({"join": cmd_join, "streams": cmd_streams, "probe": cmd_probe,
                     "positions": cmd_positions}[a.cmd](a))


if __name__ == "__main__":
    main()
