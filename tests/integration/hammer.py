#!/usr/bin/env python3
"""hammer.py: many requests at waitroomd, pipelined over a few keep-alive
connections, for the tests that must try a great many inputs in bounded
time. Prints one JSON object: status code -> count.

  hammer.py PORT random-tokens N QUEUE
      GET /v1/queues/QUEUE/tokens/<random uuid4> N times
  hammer.py PORT forged-passes N QUEUE KEYFILE
      GET /v1/check?queue=QUEUE N times, each with a different forged pass:
      signed with a key we do not hold, alg none or HS512, an unknown or
      missing kid, a tampered payload, another queue, expired, not yet
      valid, or random bytes (KEYFILE's keys sign the ones whose signature
      is right but whose claims are not)
"""
import asyncio
import base64
import hashlib
import hmac
import json
import os
import random
import sys
import time
import uuid

CONNS = 8
DEPTH = 64          # requests in flight per connection
TIMEOUT = 30        # seconds without progress before giving up


def b64(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def jws(header, payload, secret):
    h = b64(json.dumps(header, separators=(",", ":")).encode())
    p = b64(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(secret, (h + "." + p).encode(), hashlib.sha256).digest()
    return h + "." + p + "." + b64(sig)


def forged(i, queue, keys):
    kid, secret = keys[-1]
    now = int(time.time())
    claims = {"aud": queue, "sub": str(uuid.uuid4()), "iat": now,
              "nbf": now, "exp": now + 300}
    hdr = {"alg": "HS256", "kid": kid, "typ": "JWT"}
    kind = i % 10
    if kind == 0:       # a key we do not hold, under our kid
        return jws(hdr, claims, os.urandom(32))
    if kind == 1:       # alg none
        t = jws(dict(hdr, alg="none"), claims, b"x")
        return t.rsplit(".", 1)[0] + "."
    if kind == 2:       # HS512 header, HS256 signature
        return jws(dict(hdr, alg="HS512"), claims, secret)
    if kind == 3:       # unknown kid
        return jws(dict(hdr, kid="nope%d" % i), claims, secret)
    if kind == 4:       # no kid
        h = dict(hdr)
        del h["kid"]
        return jws(h, claims, secret)
    if kind == 5:       # payload swapped after signing
        t = jws(hdr, claims, secret).split(".")
        other = dict(claims, exp=claims["exp"] + 86400)
        t[1] = b64(json.dumps(other, separators=(",", ":")).encode())
        return ".".join(t)
    if kind == 6:       # another queue, correctly signed
        return jws(hdr, dict(claims, aud=queue + "-other"), secret)
    if kind == 7:       # expired, correctly signed
        return jws(hdr, dict(claims, exp=now - 3600), secret)
    if kind == 8:       # not valid before an hour from now
        return jws(hdr, dict(claims, nbf=now + 3600), secret)
    return b64(os.urandom(30)) + "." + b64(os.urandom(60)) + "." + \
        b64(os.urandom(32))


def requests(mode, n, queue, keys):
    for i in range(n):
        if mode == "random-tokens":
            yield ("GET /v1/queues/%s/tokens/%s HTTP/1.1\r\nHost: t\r\n\r\n"
                   % (queue, uuid.uuid4())).encode()
        else:
            yield ("GET /v1/check?queue=%s HTTP/1.1\r\nHost: t\r\n"
                   "Authorization: Bearer %s\r\n\r\n"
                   % (queue, forged(i, queue, keys))).encode()


async def response(reader):
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ")[1]
    length = 0
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    if length:
        await asyncio.wait_for(reader.readexactly(length), TIMEOUT)
    return status


async def worker(port, reqs, counts):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for i in range(0, len(reqs), DEPTH):
        batch = reqs[i:i + DEPTH]
        writer.write(b"".join(batch))
        await writer.drain()
        for _ in batch:
            s = await response(reader)
            counts[s] = counts.get(s, 0) + 1
    writer.close()


async def main():
    port, mode, n, queue = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), \
        sys.argv[4]
    keys = []
    if mode == "forged-passes":
        with open(sys.argv[5]) as f:
            keys = [tuple(l.split()) for l in f
                    if l.strip() and not l.startswith("#")]
        keys = [(k, s.encode()) for k, s in keys]
    elif mode != "random-tokens":
        sys.exit("hammer.py: unknown mode " + mode)
    reqs = list(requests(mode, n, queue, keys))
    random.shuffle(reqs)
    counts = {}
    await asyncio.gather(*(worker(port, reqs[c::CONNS], counts)
                           for c in range(CONNS)))
    print(json.dumps(counts, sort_keys=True))


asyncio.run(main())
