#!/usr/bin/env python3
"""burst.py: requests that must reach waitroomd at the same moment.
Every wait is bounded; prints JSON.

  burst.py PORT joins FILE SENT
      FILE holds one join per line: QUEUE [USER]. Opens one connection per
      line, sends every POST /v1/queues/QUEUE/tokens, then creates the file
      SENT and reads the answers. (The caller stops the daemon with SIGSTOP
      first and lets it go on once SENT exists: the joins then land in one
      pass of its loop.) Prints a list, in FILE's order, of {"status":
      code, "body": parsed JSON or null}.
"""
import asyncio
import json
import sys

TIMEOUT = 30


def join_request(queue, user=None):
    body = json.dumps({"user": user}) if user else ""
    return ("POST /v1/queues/%s/tokens HTTP/1.1\r\nHost: t\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (queue, len(body), body)).encode()


async def response(reader):
    """(status, body bytes) of the next answer, or (None, b"") at EOF."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    except asyncio.IncompleteReadError:
        return None, b""
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    body = await asyncio.wait_for(reader.readexactly(length), TIMEOUT)
    return int(lines[0].split(" ")[1]), body


async def joins(port, path, sent):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    conns = [await asyncio.open_connection("127.0.0.1", port) for _ in lines]
    for (_, w), words in zip(conns, lines):
        w.write(join_request(words[0], words[1] if len(words) > 1 else None))
        await w.drain()
    open(sent, "w").close()
    out = []
    for r, w in conns:
        status, body = await response(r)
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        out.append({"status": status, "body": parsed})
        w.close()
    return out


async def main():
    port, mode = int(sys.argv[1]), sys.argv[2]
    if mode == "joins":
        out = await joins(port, sys.argv[3], sys.argv[4])
    else:
        sys.exit("burst.py: unknown mode " + mode)
    print(json.dumps(out))


asyncio.run(main())
