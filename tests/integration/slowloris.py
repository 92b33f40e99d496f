#!/usr/bin/env python3
"""slowloris.py: many connections to waitroomd that send their request a
byte at a time, as the slow-connection attack does; one process, one
epoll loop. Every wait is bounded. Contacts 127.0.0.0/8 only.

  slowloris.py PORT OUT [option...]

  --conns N        connections to keep (default 100)
  --source A       bind them to source address A (default 127.0.0.2);
  --sources K      ... or to A, A+1, ... A+K-1 in turn
  --mode M         head: an endless header, one byte every EVERY s (the
                   first with the connection);
                   body: a whole head at once (POST, Content-Length:
                   1000), then one body byte every EVERY s;
                   trickle: GET /healthz, its head in four pieces EVERY s
                   apart, then its answer;
                   idle: GET /healthz whole, its answer, EVERY s of
                   silence, again, its answer (a kept-alive connection);
                   both end the connection once answered
  --every S        seconds between sends (default 2)
  --rate R         open at most R connections a second (default: at once)
  --reconnect      open a new connection for each one the server closes
  --duration S     stop after S seconds (default 60), or at SIGTERM
  --ready FILE     create FILE once every first connection is open

It stops once every connection ended (without --reconnect) or the
duration is over, then writes OUT (JSON): planned, connected, failed (the
connect failed), closed (by the server), open (at the end), answered
(connections that got an answer), statuses (every answer's status code),
lives (ms from connect to the server's close, sorted), early (of those,
closed within 500 ms of connect), connects_per_s.
"""
import heapq
import ipaddress
import json
import os
import resource
import selectors
import signal
import socket
import sys
import time

EARLY_S = 0.5


def options(argv):
    o = {"conns": 100, "source": "127.0.0.2", "sources": 1, "mode": "head",
         "every": 2.0, "rate": 0.0, "reconnect": False, "duration": 60.0,
         "ready": None}
    i = 0
    while i < len(argv):
        k = argv[i][2:]
        if k == "reconnect":
            o[k] = True
            i += 1
            continue
        if k not in o or i + 1 >= len(argv):
            sys.exit("slowloris.py: bad option %s" % argv[i])
        v = argv[i + 1]
        o[k] = type(o[k])(v) if o[k] is not None else v
        i += 2
    if not ipaddress.ip_address(o["source"]).is_loopback:
        sys.exit("slowloris.py: only loopback sources")
    return o


def script(mode):
    """The bytes a connection sends, and how many go at first."""
    if mode == "head":
        return b"GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: ", 1
    if mode == "body":
        head = (b"POST /v1/queues/q/tokens HTTP/1.1\r\nHost: slow\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000"
                b"\r\n\r\n")
        return head, len(head)
    return b"GET /healthz HTTP/1.1\r\nHost: slow\r\n\r\n", None


def answers(buf):
    """The status codes of the whole answers (head and Content-Length
    body) that buf holds."""
    codes = []
    while True:
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            return codes
        lines = buf[:end].split(b"\r\n")
        length = 0
        for line in lines[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v)
        if len(buf) < end + 4 + length:
            return codes
        codes.append(int(lines[0].split()[1]))
        buf = buf[end + 4 + length:]


class Conn:
    def __init__(self, sock, now):
        self.sock, self.start, self.sent, self.sends = sock, now, 0, 0
        self.next_send, self.answer, self.closed = None, b"", False


class Loris:
    def __init__(self, port, o):
        self.port, self.o = port, o
        self.sel = selectors.DefaultSelector()
        self.data, self.first = script(o["mode"])
        self.conns, self.opened, self.failed = {}, 0, 0
        self.lives, self.statuses, self.early, self.answered = [], [], 0, 0
        self.due, self.seq, self.stop = [], 0, False    # sends, by time
        base = ipaddress.ip_address(o["source"])
        self.sources = [str(base + k) for k in range(o["sources"])]

    def open_one(self, now):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((self.sources[self.opened % len(self.sources)], 0))
            s.connect_ex(("127.0.0.1", self.port))
        except OSError:
            s.close()
            self.failed += 1
            return
        self.opened += 1
        c = Conn(s, now)
        self.conns[s.fileno()] = c
        self.sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
        self.schedule(c, now)

    def schedule(self, c, t):
        c.next_send = t
        self.seq += 1
        heapq.heappush(self.due, (t, self.seq, c))

    def send_due(self, now):
        while self.due and self.due[0][0] <= now:
            t, _, c = heapq.heappop(self.due)
            if not c.closed and c.next_send == t:
                self.send(c, now)

    def piece(self, c):
        """The next bytes of c's script, or None when it has no more."""
        mode, n = self.o["mode"], len(self.data)
        if mode in ("head", "body"):
            if c.sent < n:
                return self.data[c.sent:c.sent + (self.first if c.sent == 0
                                                  else 1)]
            return b"a"
        if mode == "trickle":
            q = -(-n // 4)
            return self.data[c.sent:c.sent + q] if c.sent < n else None
        return self.data if c.sends < 2 else None

    def send(self, c, now):
        p = self.piece(c)
        if p is None:
            return
        try:
            c.sock.send(p)
        except OSError:     # not connected yet (tried again), or gone
            self.schedule(c, now + 0.05)
            return
        c.sent += len(p)
        c.sends += 1
        if self.o["mode"] != "idle":        # idle: after the answer
            self.schedule(c, now + self.o["every"])

    def read(self, c, now):
        try:
            b = c.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            b = b""
        if not b:
            self.close(c, now, True)
            return
        c.answer += b
        got = len(answers(c.answer))
        if self.o["mode"] == "idle" and got == 1 and c.sends == 1 and \
                c.next_send < now:
            self.schedule(c, now + self.o["every"])
        if got == {"trickle": 1, "idle": 2}.get(self.o["mode"]):
            self.close(c, now, False)

    def close(self, c, now, by_server):
        c.closed = True
        self.sel.unregister(c.sock)
        del self.conns[c.sock.fileno()]
        c.sock.close()
        if c.answer:
            self.answered += 1
            self.statuses += answers(c.answer)
        if not by_server:
            return
        life = now - c.start
        self.lives.append(round(life * 1000))
        self.early += life < EARLY_S

    def run(self, out):
        o, t0 = self.o, time.monotonic()
        end, planned, ready = t0 + o["duration"], o["conns"], o["ready"]
        while True:
            now = time.monotonic()
            due = planned if o["rate"] <= 0 else min(
                planned, int((now - t0) * o["rate"]) + 1)
            while self.opened + self.failed < due:
                self.open_one(now)
            if ready and self.opened + self.failed >= planned:
                open(ready, "w").close()
                ready = None
            if self.stop or now >= end or (
                    not self.conns and not o["reconnect"]
                    and self.opened + self.failed >= planned):
                break
            wait = min(0.05, self.due[0][0] - now) if self.due else 0.05
            for key, ev in self.sel.select(max(wait, 0)):
                c = key.data
                if ev & selectors.EVENT_WRITE:
                    self.sel.modify(c.sock, selectors.EVENT_READ, c)
                if ev & selectors.EVENT_READ:
                    self.read(c, now)
            self.send_due(time.monotonic())
            if o["reconnect"]:
                planned = self.opened + self.failed + (
                    o["conns"] - len(self.conns))
        self.report(out, time.monotonic() - t0)

    def report(self, out, took):
        r = {"planned": self.opened + self.failed, "connected": self.opened,
             "failed": self.failed, "closed": len(self.lives),
             "open": len(self.conns), "answered": self.answered,
             "statuses": self.statuses, "lives": sorted(self.lives),
             "early": self.early,
             "connects_per_s": round(self.opened / took, 1)}
        with open(out + ".tmp", "w") as f:
            json.dump(r, f)
        os.rename(out + ".tmp", out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loris = Loris(int(sys.argv[1]), options(sys.argv[3:]))
    signal.signal(signal.SIGTERM, lambda *_: setattr(loris, "stop", True))
    loris.run(sys.argv[2])


if __name__ == "__main__":
    main()
