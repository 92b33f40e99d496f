"""cdp.py: Chromium driven over the DevTools protocol, from the standard
library only. Chromium runs with --remote-debugging-pipe: it reads
commands from descriptor 3 and writes answers and events to descriptor 4,
one JSON message each, ended by a NUL byte. No WebSocket, no npm."""

import base64
import fcntl
import json
import os
import subprocess
import threading
import time

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
         '--disable-background-networking', '--disable-component-update',
         '--disable-sync', '--disable-dev-shm-usage', '--no-default-browser-check',
         '--remote-debugging-pipe']


class CDPError(Exception):
    pass


# The browser scripts' results, one line each for the shell test that
# runs them (lib.sh's wr_browser): "PASS what" or "FAIL what<TAB>why".
failed = 0


def check(ok, what, why=''):
    global failed
    if ok:
        print('PASS ' + what, flush=True)
    else:
        failed += 1
        print('FAIL %s\t%s' % (what, str(why).replace('\n', ' ')), flush=True)
    return ok


def drive(run, no_errors, *args):
    """A browser script's main: run(browser, pages, *args) in Chromium
    (CHROMIUM, with the profile PROFILE), pages being the tabs it opens;
    then the check no_errors, that none of them logged an error. Returns
    the script's exit status."""
    b = Browser(os.environ['CHROMIUM'], os.environ['PROFILE'])
    pages = []
    try:
        run(b, pages, *args)
    except CDPError as e:
        check(False, 'the browser answers', e)
    finally:
        errs = [e for p in pages for e in p.errors()]
        check(not errs, no_errors, '; '.join(errs[:5]))
        b.close()
    return 1 if failed else 0


class Browser:
    """One Chromium process; commands are synchronous with a deadline."""

    def __init__(self, executable, profile_dir, timeout=10):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Chromium's ends above 4: a pipe that came out as fd 3 or 4 would
        # be overwritten by the other's dup2, or keep its close-on-exec.
        for fd in (to_chrome_r, from_chrome_w):
            high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            if fd == to_chrome_r:
                to_chrome_r = high
            else:
                from_chrome_w = high

        def child_fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [executable] + FLAGS + ['--user-data-dir=' + profile_dir,
                                    'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile_dir, 'chromium.log'), 'wb'),
            preexec_fn=child_fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.timeout = timeout
        self._next = 0
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._answers = {}
        self.events = []          # (sessionId, method, params), all of them
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        buf = b''
        while True:
            try:
                chunk = os.read(self._from_chrome, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                with self._cond:
                    self._answers['closed'] = True
                    self._cond.notify_all()
                return
            buf += chunk
            while b'\0' in buf:
                msg, buf = buf.split(b'\0', 1)
                m = json.loads(msg)
                with self._cond:
                    if 'id' in m:
                        self._answers[m['id']] = m
                    else:
                        self.events.append((m.get('sessionId'),
                                            m.get('method'),
                                            m.get('params', {})))
                    self._cond.notify_all()

    def send(self, method, params=None, session=None, timeout=None):
        with self._lock:
            self._next += 1
            mid = self._next
        m = {'id': mid, 'method': method, 'params': params or {}}
        if session:
            m['sessionId'] = session
        os.write(self._to_chrome, json.dumps(m).encode() + b'\0')
        end = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while mid not in self._answers:
                left = end - time.monotonic()
                if left <= 0 or self._answers.get('closed'):
                    raise CDPError('%s: no answer' % method)
                self._cond.wait(left)
            a = self._answers.pop(mid)
        if 'error' in a:
            raise CDPError('%s: %s' % (method, a['error'].get('message')))
        return a.get('result', {})

    def new_page(self, width=900, height=760, mobile=False):
        target = self.send('Target.createTarget', {'url': 'about:blank'})
        s = self.send('Target.attachToTarget',
                      {'targetId': target['targetId'], 'flatten': True})
        return Page(self, s['sessionId'], target['targetId'], width, height,
                    mobile)

    def close(self):
        try:
            self.send('Browser.close', timeout=3)
        except CDPError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Page:
    """One tab: navigation, script evaluation, polling, screenshots."""

    def __init__(self, browser, session, target, width, height, mobile):
        self.b, self.s, self.target = browser, session, target
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            self.cmd(domain + '.enable')
        self.cmd('Emulation.setDeviceMetricsOverride',
                 {'width': width, 'height': height, 'deviceScaleFactor': 1,
                  'mobile': mobile})

    def cmd(self, method, params=None):
        return self.b.send(method, params, self.s)

    def headers(self, headers):
        self.cmd('Network.setExtraHTTPHeaders', {'headers': headers})

    def goto(self, url):
        self.cmd('Page.navigate', {'url': url})

    def reload(self):
        self.cmd('Page.reload', {'ignoreCache': True})

    def eval(self, expr):
        r = self.cmd('Runtime.evaluate', {'expression': expr,
                                          'returnByValue': True})
        if 'exceptionDetails' in r:
            return None
        return r.get('result', {}).get('value')

    def wait(self, expr, secs=10):
        """Poll expr until it is truthy; its value, or None at the deadline."""
        end = time.monotonic() + secs
        while True:
            try:
                v = self.eval(expr)
            except CDPError:
                v = None          # a navigation in progress
            if v:
                return v
            if time.monotonic() >= end:
                return None
            time.sleep(0.05)

    def screenshot(self, path):
        r = self.cmd('Page.captureScreenshot', {'format': 'png'})
        with open(path, 'wb') as f:
            f.write(base64.b64decode(r['data']))

    def errors(self):
        """Script errors: exceptions and console.error of this tab."""
        out = []
        for sid, method, p in list(self.b.events):
            if sid != self.s:
                continue
            if method == 'Runtime.exceptionThrown':
                d = p.get('exceptionDetails', {})
                out.append('exception: %s %s' % (
                    d.get('text'), d.get('exception', {}).get('description', '')))
            elif method == 'Runtime.consoleAPICalled' and p.get('type') in (
                    'error', 'assert'):
                out.append('console.%s: %s' % (p['type'], ' '.join(
                    str(a.get('value', a.get('description', '')))
                    for a in p.get('args', []))))
            elif method == 'Log.entryAdded':
                e = p.get('entry', {})
                if e.get('level') == 'error' and e.get('source') not in (
                        'network',):
                    out.append('log %s: %s' % (e.get('source'), e.get('text')))
        return out

    def network_errors(self):
        return [p['entry'].get('text') for sid, m, p in list(self.b.events)
                if sid == self.s and m == 'Log.entryAdded'
                and p.get('entry', {}).get('source') == 'network']
