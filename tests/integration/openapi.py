#!/usr/bin/env python3
# openapi.py: doc/openapi.yaml against the router and a real daemon, for
# tests/integration/openapi.sh.
#
#   openapi.py SPEC ROUTES_DEF PUBLIC_URL ADMIN_URL ADMIN_TOKEN API_MD
#
# Prints one line per check, "ok<TAB>what" or "not ok<TAB>what<TAB>why":
# every route of routes.def is a path of the spec with the same methods
# and the other way round; every operation has x-checks; each x-check's
# request gets its status, a status the operation documents, a
# Content-Type it documents, and a JSON body valid against the schema it
# documents (the stream's events too, for an operation with x-events);
# every operation whose 400 is JSON refuses a malformed queue id or
# token; every admin operation refuses a call without the token with its
# documented 401; a method no path takes is its 405, an unknown path 404;
# and every error code of doc/api.md's table of errors is one of the
# spec's.
import http.client
import json
import re
import sys
import time
import urllib.parse
import uuid

import jsonschema
import jsonschema.exceptions
import yaml

SPEC_PATH, ROUTES_DEF, PUBLIC, ADMIN, ADMIN_TOKEN, API_MD = sys.argv[1:7]
spec = yaml.safe_load(open(SPEC_PATH))
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
RM = {"RM_GET": "get", "RM_POST": "post", "RM_PUT": "put",
      "RM_DELETE": "delete"}
PARAM = {":q": "{q}", ":t": "{t}", ":f": "{file}"}


def report(ok, what, why=""):
    line = ("ok\t" if ok else "not ok\t") + what
    if not ok:
        line += "\t" + " ".join(str(why).split())[:600]
    print(line, flush=True)


def routes():
    """{spec path: methods} of routes.def."""
    text = re.sub(r"/\*.*?\*/", "", open(ROUTES_DEF).read(), flags=re.S)
    out = {}
    for m in re.finditer(r'ROUTE\(\s*\w+\s*,\s*"([^"]+)"\s*,\s*([^,]+),', text):
        path = "/".join(PARAM.get(seg, seg) for seg in m.group(1).split("/"))
        out[path] = {RM[w.strip()] for w in m.group(2).split("|")}
    return out


def spec_ops():
    return {p: {k for k in item if k in METHODS}
            for p, item in spec["paths"].items()}


def deref(node):
    """A $ref'd response or parameter, followed to its target."""
    while isinstance(node, dict) and set(node) == {"$ref"}:
        target = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def validate(schema, value):
    """None when value is valid against schema (refs into the spec)."""
    root = dict(schema)
    root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    root["components"] = spec["components"]
    e = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(root).iter_errors(value))
    if e is None:
        return None
    while e.context:	# a oneOf: what the nearest branch lacks
        branches = {}
        for sub in e.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        e = min(branches.values(), key=len)[0]
    return "%s at %s" % (e.message, "/".join(map(str, e.path)) or "the top")


# ---- requests ----------------------------------------------------------

class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None


def request(base, method, path, body=None, headers=None, stream=None):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    hdrs = dict(headers or {})
    if body is not None and "Content-Type" not in hdrs:
        hdrs["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=body, headers=hdrs)
    except (BrokenPipeError, ConnectionResetError):
        pass			# answered before the whole body went out
    r = conn.getresponse()
    if stream is not None and (r.getheader("Content-Type") or "").startswith(
            "text/event-stream"):
        data = read_stream(conn, r, stream)
    else:
        data = r.read()
    conn.close()
    return Answer(r.status, r.getheaders(), data)


def read_stream(conn, r, until, secs=3.0):
    """A stream's text, until its first event of kind until (any kind when
    "") or its end, at most secs."""
    conn.sock.settimeout(0.5)
    out, end = b"", time.monotonic() + secs
    while time.monotonic() < end:
        try:
            line = r.fp.readline()
        except (TimeoutError, OSError):
            continue
        if not line:
            break
        out += line
        if line in (b"\n", b"\r\n") and any(
                not until or ev == until for ev, _ in events_of(
                    out.decode().replace("\r\n", "\n"))):
            break
    return out


def events_of(text):
    """[(event, data)] of a stream's text, complete events only."""
    out = []
    for block in text.split("\n\n")[:-1]:
        ev, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                ev = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
        if data:
            out.append((ev, "\n".join(data)))
    return out


# ---- the fixture's tokens ---------------------------------------------

cache = {}


def join(q):
    a = request(PUBLIC, "POST", "/v1/queues/%s/tokens" % q)
    if a.status not in (200, 201):
        raise RuntimeError("join %s: %s %s" % (q, a.status, a.body[:200]))
    return json.loads(a.body)


def active():
    if "active" not in cache:
        cache["active"] = join("open")
    return cache["active"]


def fill(value, q):
    if value == "$token":
        return join(q)["token"]
    if value == "$active":
        return active()["token"]
    if value == "$unknown":
        return str(uuid.uuid4())
    if isinstance(value, str) and "$pass" in value:
        return value.replace("$pass", active().get("pass", ""))
    return value


# ---- one check -------------------------------------------------------------

def base_of(path):
    return ADMIN if path.startswith("/admin") or \
        path.startswith("/v1/admin") else PUBLIC


def build(path, op, check):
    params = dict(check.get("params", {}))
    params.setdefault("q", "concert")
    q = params["q"]
    url = path
    for name, value in params.items():
        url = url.replace("{%s}" % name, urllib.parse.quote(
            str(fill(value, q)), safe="@"))
    if check.get("query"):
        url += "?" + check["query"]
    headers = {k: fill(v, q) for k, v in check.get("headers", {}).items()}
    if op.get("security") and check.get("auth") != "none":
        headers.setdefault("Authorization", "Bearer " + ADMIN_TOKEN)
    body = None
    if "body" in check:
        body = json.dumps(check["body"]).encode()
    elif "raw" in check:
        body = check["raw"].encode()
    elif "rawsize" in check:
        body = b"x" * check["rawsize"]
    return url, headers, body


def judge(op, check, a):
    """Why the answer a breaks the spec, or None."""
    want = check.get("status")
    if want is not None and a.status != want:
        return "status %d, expected %d: %s" % (a.status, want, a.body[:300])
    resp = deref(op["responses"].get(str(a.status)))
    if resp is None:
        return "status %d is not documented" % a.status
    content = resp.get("content")
    ctype = (a.header("Content-Type") or "").split(";")[0].strip()
    if not content:
        if a.status == 204 and a.body:
            return "a 204 with a body"
        return None
    if ctype not in content:
        return "Content-Type %r, documented: %s" % (ctype, list(content))
    schema = content[ctype].get("schema", {})
    if ctype == "application/json":
        try:
            value = json.loads(a.body)
        except ValueError as e:
            return "not JSON (%s): %r" % (e, a.body[:200])
        why = validate(schema, value)
        if why:
            return "%s; body %s" % (why, a.body[:300].decode())
        code = check.get("code")
        if code and value.get("error", {}).get("code") != code:
            return "error code %r, expected %r" % (
                value.get("error", {}).get("code"), code)
        return None
    if check.get("code"):
        return "expected a JSON error %s, got %s" % (check["code"], ctype)
    text = a.body.decode("utf-8", "replace")
    why = validate(schema, text)
    if why:
        return why
    if ctype == "text/event-stream":
        return judge_events(op, text)
    return None


def judge_events(op, text):
    schemas = op.get("x-events", {})
    events = events_of(text)
    if not events:
        return "no event within the time allowed: %r" % text[:200]
    for ev, data in events:
        if ev not in schemas:
            return "event %r is not documented" % ev
        why = validate(schemas[ev], json.loads(data))
        if why:
            return "event %s: %s" % (ev, why)
    return None


def run(path, method, op, check):
    what = "%s %s -> %s" % (method.upper(), path, check.get("status"))
    try:
        url, headers, body = build(path, op, check)
    except Exception as e:  # a check that cannot run fails, saying why
        report(False, what, "%s: %s" % (type(e).__name__, e))
        return
    base = base_of(path)
    stream = None
    if "text/event-stream" in (
            deref(op["responses"].get("200", {})).get("content") or {}):
        stream = op.get("x-stream-until", "")
    what = "%s %s -> %s" % (method.upper(), url, check.get("status"))
    if check.get("code"):
        what += " " + check["code"]
    try:
        a = request(base, method.upper(), url, body, headers, stream)
        why = judge(op, check, a)
    except Exception as e:  # a check that cannot run fails, saying why
        why = "%s: %s" % (type(e).__name__, e)
    report(why is None, what, why)


def id_checks(path, op, checks):
    """A malformed queue id and token, on each operation whose 400 is a
    JSON error: bad_queue_id and bad_token, whatever else it takes."""
    bad = deref(op["responses"].get("400")) or {}
    if "application/json" not in (bad.get("content") or {}):
        return []
    first = checks[0] if checks else {}
    out = []
    for name, value, code in (("q", "b@d", "bad_queue_id"),
                              ("t", "not-a-token", "bad_token")):
        if "{%s}" % name in path and not any(
                c.get("code") == code for c in checks):
            params = dict(first.get("params", {}))
            params[name] = value
            if name == "q" and "{t}" in path:
                params["t"] = "$unknown"	# no join into a bad queue
            out.append(dict(first, params=params, status=400, code=code))
    return out


# Words in backquotes in api.md's rows of errors that are no error code.
NOT_CODES = {"max_uses", "max_body", "redis_wait_replicas", "opens_at",
             "prequeue_from", "beacon_round"}


def api_md_codes():
    """The error codes of doc/api.md: those of its table of errors (the
    rows that start with a 4xx or 5xx status), and each `4xx code` or
    `5xx code` anywhere."""
    codes = set()
    for line in open(API_MD):
        if re.match(r"\s*\|\s*[45]\d\d\s*\|", line):
            codes |= set(re.findall(r"`([a-z]+(?:_[a-z]+)*)`", line))
        codes |= set(re.findall(r"`[45]\d\d ([a-z]+(?:_[a-z]+)*)`", line))
    return codes - NOT_CODES


def main():
    enum = set(spec["components"]["schemas"]["Error"]["properties"]["error"]
               ["properties"]["code"]["enum"])
    for code in sorted(api_md_codes()):
        report(code in enum, "doc/api.md's error %s is in the spec" % code,
               "components/schemas/Error's code lacks it")
    have, spec_paths = routes(), spec_ops()
    for path, methods in sorted(have.items()):
        got = spec_paths.get(path)
        report(got == methods, "routes.def's %s (%s) is in the spec with "
               "those methods" % (path, ", ".join(sorted(methods))),
               "the spec has %s" % (sorted(got) if got else "no such path"))
    for path in sorted(set(spec_paths) - set(have)):
        report(False, "the spec's %s is a route of routes.def" % path,
               "routes.def has no such route")
    for path, item in spec["paths"].items():
        for method in (m for m in METHODS if m in item):
            op = item[method]
            checks = op.get("x-checks") or []
            if not checks:
                report(False, "%s %s has x-checks" % (method.upper(), path),
                       "none: the test cannot fetch it")
            for check in checks:
                run(path, method, op, check)
            for check in id_checks(path, op, checks):
                run(path, method, op, check)
            if op.get("security"):
                run(path, method, op, {"status": 401, "auth": "none",
                                       "code": "unauthorized",
                                       **({"params": checks[0]["params"]}
                                          if checks and "params" in checks[0]
                                          else {})})
    # what no operation answers: an undeclared method, an unknown path
    anyop = {"responses": {
        "405": spec["components"]["responses"]["MethodNotAllowed"],
        "404": spec["components"]["responses"]["NotFound"]}}
    for path, item in spec["paths"].items():
        if "patch" in item:
            continue
        ops = [item[m] for m in METHODS if m in item]
        run(path, "patch", dict(anyop, security=ops[0].get("security")),
            {"status": 405, "code": "method_not_allowed",
             "params": {"t": "$unknown", "file": "x.js"}})
    run("/nothing/here", "get", anyop, {"status": 404, "code": "not_found"})


main()
