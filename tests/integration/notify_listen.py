#!/usr/bin/env python3
"""notify_listen.py ADDR OUT: stand in for the service manager.

Bind a unix datagram socket at ADDR ("/path", or "@name" for the abstract
namespace), then append every notify message to OUT, one a line, its
newlines shown as spaces. Ends after 600 s without a message.
"""
import socket
import sys


def main():
    addr, out = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind("\0" + addr[1:] if addr.startswith("@") else addr)
    s.settimeout(600)
    with open(out + ".bound", "w"):
        pass
    with open(out, "a") as f:
        while True:
            try:
                data = s.recv(4096)
            except socket.timeout:
                return
            f.write(data.decode("utf-8", "replace").replace("\n", " ") + "\n")
            f.flush()


if __name__ == "__main__":
    main()
