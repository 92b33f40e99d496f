#!/usr/bin/env python3
"""burst.py: requests that must reach waitroomd at the same moment, or
while Redis is stalled. Every wait is bounded; prints JSON.

  burst.py PORT joins FILE SENT [READY PID]
      FILE holds one join per line: QUEUE [USER]. Opens one connection per
      line, sends every POST /v1/queues/QUEUE/tokens, then creates the file
      SENT and reads the answers. (The caller stops the daemon with SIGSTOP
      first and lets it go on once SENT exists: the joins then land in one
      pass of its loop.) With READY and the daemon's PID, it creates that
      file once the daemon took every one of its connections (accepted
      them: each is a descriptor of PID's), and sends only when READY.go
      exists, so that the caller can stop the daemon after it took them.
      Prints a list, in FILE's order, of {"status": code, "body": parsed
      JSON or null}.
  burst.py PORT stalled RPORT MS ACTION QUEUE LOG
      Stalls Redis (on RPORT) for MS milliseconds with a busy script, and
      meanwhile sends a join for QUEUE, then once the daemon's LOG (at
      debug level) says the join went to Redis:
        pipeline  a GET /healthz on the same connection; prints
                  {"answers": [status, ...]} in the order they came
        hangup    nothing: closes the connection; prints {"closed": true}
        flood     pipelined GET /healthz, as fast as the daemon takes
                  them (at most FLOOD_MAX bytes), until 100 ms before
                  the stall ends; prints {"sent": bytes, "answers":
                  [the first status]}
  burst.py PORT held RPORT MS QUEUE LOG FIRST LATER
      Stalls Redis as above; meanwhile sends FIRST joins of QUEUE, each
      once the one before went to Redis (the log says so), then LATER
      joins, each once the daemon read the one before (its socket's
      receive queue is empty); one connection each. Prints {"answers":
      [[status, position], ...] in the order sent, "runs": script runs
      of QUEUE's joins the log names meanwhile}.
"""
import json
import os
import socket
import sys
import time

TIMEOUT = 30
FLOOD_MAX = 128 << 20   # bytes


def join_request(queue, user=None):
    body = json.dumps({"user": user}) if user else ""
    return ("POST /v1/queues/%s/tokens HTTP/1.1\r\nHost: t\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (queue, len(body), body)).encode()


def poll(done, until, failure):
    """Poll done() every 10 ms until it is true; exit with failure once
    the monotonic clock passes until."""
    while not done():
        if time.monotonic() >= until:
            sys.exit("burst.py: " + failure)
        time.sleep(0.01)


def wait_file(path):
    poll(lambda: os.path.exists(path), time.monotonic() + TIMEOUT,
         "no %s within %d s" % (path, TIMEOUT))


def joins(port, path, sent, ready=None, pid=None):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    conns = [socket.create_connection(("127.0.0.1", port), TIMEOUT)
             for _ in lines]
    if ready:
        poll(lambda: taken(port, conns, pid), time.monotonic() + TIMEOUT,
             "the daemon did not take all %d connections within %d s"
             % (len(conns), TIMEOUT))
        open(ready, "w").close()
        wait_file(ready + ".go")
    for s, words in zip(conns, lines):
        s.sendall(join_request(words[0], words[1] if len(words) > 1
                               else None))
    open(sent, "w").close()
    out = []
    for s in conns:
        status, body, _ = answer(s)
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        out.append({"status": status, "body": parsed})
        s.close()
    return out


def stall_redis(rport, ms):
    """Start a script that keeps Redis busy for ms; returns its socket."""
    script = ("local t = redis.call('TIME') "
              "local stop = t[1] * 1000000 + t[2] + %d * 1000 "
              "repeat t = redis.call('TIME') "
              "until t[1] * 1000000 + t[2] >= stop return 1" % ms)
    r = socket.create_connection(("127.0.0.1", rport), TIMEOUT)
    r.sendall(("*3\r\n$4\r\nEVAL\r\n$%d\r\n%s\r\n$1\r\n0\r\n"
               % (len(script), script)).encode())
    # A busy Redis answers nobody, but once it has read the EVAL it runs
    # it before reading anything else.
    wait_read(rport, r, time.monotonic() + ms / 2000)
    return r


def flood(s, until):
    """Pipelined GET /healthz as fast as s takes them, until the deadline
    or FLOOD_MAX bytes; returns the bytes sent."""
    sent, chunk = 0, b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n" * 1024
    s.setblocking(False)
    while time.monotonic() < until and sent < FLOOD_MAX:
        try:
            sent += s.send(chunk)
        except BlockingIOError:
            time.sleep(0.002)   # the socket is full: a poll interval
    s.settimeout(TIMEOUT)
    return sent


def answer(s, buf=b""):
    """(status, body, bytes past the answer) of the next answer on s, buf
    being what was read of it already; status None at EOF."""
    while b"\r\n\r\n" not in buf:
        data = s.recv(65536)
        if not data:
            return None, b"", b""
        buf += data
    head, _, buf = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    while len(buf) < length:
        data = s.recv(65536)
        if not data:
            return None, b"", b""
        buf += data
    return int(lines[0].split(" ")[1]), buf[:length], buf[length:]


def batches(log, queue):
    """How many script runs of joins of queue the daemon's log names."""
    with open(log, errors="replace") as f:
        return f.read().count("event=join_batch queue=%s " % queue)


def wait_sent(log, queue, before, until):
    """Until a new run of queue's joins shows in log, or the deadline."""
    poll(lambda: batches(log, queue) != before, until,
         "the join never went to Redis")


def stalled(port, rport, ms, action, queue, log):
    end = time.monotonic() + ms / 1000
    r = stall_redis(rport, ms)
    s = socket.create_connection(("127.0.0.1", port), TIMEOUT)
    before = batches(log, queue)
    s.sendall(join_request(queue))
    wait_sent(log, queue, before, end - 0.2)
    out = {}
    if action == "hangup":
        s.close()
        out["closed"] = True
    else:
        if action == "pipeline":
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        else:
            out["sent"] = flood(s, end - 0.1)
        answers, rest = [], b""
        for _ in range(2 if action == "pipeline" else 1):
            status, _, rest = answer(s, rest)
            if status is None:
                break
            answers.append(status)
        out["answers"] = answers
        s.close()
    stall_over(r)
    return out


def loopback(port):
    """127.0.0.1:port as /proc/net/tcp writes it."""
    return "0100007F:%04X" % port


def server_ends(port):
    """The rows of /proc/net/tcp, split, of the server's end of each
    connection to 127.0.0.1:port (the listening socket's too)."""
    with open("/proc/net/tcp") as f:
        return [w for w in (line.split() for line in f)
                if w[1] == loopback(port)]


def unread(port, s):
    """Bytes the server on port has not yet read from the connection s,
    from its socket's receive queue in /proc/net/tcp; None if not found."""
    remote = loopback(s.getsockname()[1])
    for w in server_ends(port):
        if w[2] == remote:
            return int(w[4].split(":")[1], 16)
    return None


def taken(port, conns, pid):
    """Whether process pid holds the server's end of every connection of
    conns to port: each such socket (established: state 01) has an inode
    in /proc/net/tcp once accepted (0 while in the listen queue), and is
    one of pid's descriptors."""
    ours = {loopback(s.getsockname()[1]) for s in conns}
    inodes = {w[9] for w in server_ends(port)
              if w[2] in ours and w[3] == "01"}
    if len(inodes) < len(conns) or "0" in inodes:
        return False
    fds = "/proc/%d/fd" % pid
    held = set()
    for fd in os.listdir(fds):
        try:
            held.add(os.readlink(os.path.join(fds, fd)))
        except OSError:
            pass        # closed meanwhile
    return all("socket:[%s]" % i in held for i in inodes)


def wait_read(port, s, until):
    """Until the server on port has read everything sent on s, or the
    deadline."""
    poll(lambda: unread(port, s) == 0, until,
         "the server on port %d never read what was sent" % port)


def stall_over(r):
    """Wait for the stalling script's answer, and close its socket."""
    r.settimeout(TIMEOUT)
    r.recv(64)
    r.close()


def held(port, rport, ms, queue, log, first, later):
    end = time.monotonic() + ms / 1000
    r = stall_redis(rport, ms)
    start = batches(log, queue)
    conns = []
    for i in range(first + later):
        s = socket.create_connection(("127.0.0.1", port), TIMEOUT)
        s.sendall(join_request(queue))
        conns.append(s)
        if i < first:
            wait_sent(log, queue, start + i, end - 0.5)
        else:
            # A held join leaves no trace in the log: once the daemon
            # has read it, the next one comes in a pass of its own.
            wait_read(port, s, end - 0.5)
    if time.monotonic() >= end:
        sys.exit("burst.py: the stall ended before every join was sent")
    answers = []
    for s in conns:
        status, body, _ = answer(s)
        pos = json.loads(body).get("position") if status == 201 else None
        answers.append([status, pos])
        s.close()
    stall_over(r)
    return {"answers": answers, "runs": batches(log, queue) - start}


def main():
    port, mode = int(sys.argv[1]), sys.argv[2]
    if mode == "joins":
        out = joins(port, sys.argv[3], sys.argv[4],
                    sys.argv[5] if len(sys.argv) > 6 else None,
                    int(sys.argv[6]) if len(sys.argv) > 6 else None)
    elif mode == "stalled":
        out = stalled(port, int(sys.argv[3]), int(sys.argv[4]),
                      sys.argv[5], sys.argv[6], sys.argv[7])
    elif mode == "held":
        out = held(port, int(sys.argv[3]), int(sys.argv[4]), sys.argv[5],
                   sys.argv[6], int(sys.argv[7]), int(sys.argv[8]))
    else:
        sys.exit("burst.py: unknown mode " + mode)
    print(json.dumps(out))


main()
