#!/usr/bin/env python3
"""joinload.py URL SECONDS OUT [STOP]: join the line at URL (POST .../tokens)
one join after another for SECONDS, and write one line per join to OUT:
"<unix time> <status> <token or -> <position or ->". Connection errors and
timeouts are written as status 000; the next join opens a new connection.
Stops by itself, or sooner once the file STOP exists."""
import http.client
import json
import os
import sys
import time
import urllib.parse


def main():
    url, seconds, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    stop = sys.argv[4] if len(sys.argv) > 4 else None
    u = urllib.parse.urlsplit(url)
    end = time.time() + seconds
    conn = None
    with open(out, "w", buffering=1) as f:
        while time.time() < end and not (stop and os.path.exists(stop)):
            status, token, pos = "000", "-", "-"
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(u.hostname, u.port,
                                                      timeout=5)
                conn.request("POST", u.path, body=b"",
                             headers={"Content-Length": "0"})
                r = conn.getresponse()
                body = r.read()
                status = "%03d" % r.status
                if r.status in (200, 201):
                    doc = json.loads(body)
                    token = doc["token"]
                    pos = str(doc.get("position", "-"))
            except (OSError, http.client.HTTPException, ValueError):
                if conn is not None:
                    conn.close()
                conn = None
            f.write("%.3f %s %s %s\n" % (time.time(), status, token, pos))
            if status == "000":
                time.sleep(0.05)  # a refused connect returns at once


main()
