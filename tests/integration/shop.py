#!/usr/bin/env python3
"""shop.py PORT LOG: the protected site of the fronts' tests.

Serves "welcome to the shop" for every GET on 127.0.0.1:PORT, and
appends one line per request to LOG, as the shop saw it:

    <X-Waitroom-Token> <X-Waitroom-Set-Cookie> <X-Waitroom-Bypass> GET /path

each header "-" when the request did not carry it. Ends on SIGTERM.
"""
import http.server
import signal
import sys


class Shop(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        seen = [self.headers.get(h) or "-" for h in
                ("X-Waitroom-Token", "X-Waitroom-Set-Cookie",
                 "X-Waitroom-Bypass")]
        with open(self.server.log, "a") as f:
            f.write(" ".join(seen + [self.command, self.path]) + "\n")
        body = b"welcome to the shop\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])),
                                          Shop)
    srv.daemon_threads = True
    srv.log = sys.argv[2]
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    srv.serve_forever()


if __name__ == "__main__":
    main()
