#!/usr/bin/env python3
"""pow_solve.py CHALLENGE BITS [--wrong]: the nonce that solves a join's
proof of work as doc/api.md specifies it (SHA-256 of the ASCII string
challenge + nonce starts with BITS zero bits), written from the spec and
not from the daemon's code; with --wrong, the first nonce that does not."""
import hashlib
import sys


def zero_bits(digest):
    n = int.from_bytes(digest, "big")
    return 256 - n.bit_length()


def solve(challenge, bits, wrong=False):
    i = 0
    while True:
        nonce = str(i)
        ok = zero_bits(hashlib.sha256((challenge + nonce).encode()).digest()) >= bits
        if ok != wrong:
            return nonce
        i += 1


if __name__ == "__main__":
    print(solve(sys.argv[1], int(sys.argv[2]), "--wrong" in sys.argv[3:]))
