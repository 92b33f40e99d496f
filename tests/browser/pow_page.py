"""pow_page.py: the waiting page on a queue that asks for a proof of work
(pow_bits = 16), in headless Chromium, against the waitroomd and
redis-server that tests/integration/pow_browser.sh started; and on a queue
whose bits rise while the page solves (challenge_too_easy). Prints "PASS
what" or "FAIL what<TAB>why" per check, which the wrapper turns into TAP.

Environment: WR_BASE, REDIS_PORT, CHROMIUM, ARTIFACTS, PROFILE,
ADMIN_TOKEN. The queue `guarded` is paused, with 2 waiters ahead; the
queue `rising` is paused and empty, asking 8 bits."""

import json
import os
import re
import subprocess

import cdp
from cdp import check

BASE = os.environ['WR_BASE']
ART = os.environ['ARTIFACTS']
UUID = re.compile(r'^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')


def used_keys():
    out = subprocess.run(['redis-cli', '-p', os.environ['REDIS_PORT'],
                          '--scan', '--pattern', 'wr:{guarded}:used:pow:*'],
                         capture_output=True, text=True, timeout=10).stdout
    return sorted(out.split())


def position(page, secs):
    v = page.wait('(function(){var e=document.getElementById("wr-position");'
                  'return document.body.dataset.state === "waiting" && e && '
                  '/^[0-9]+$/.test(e.textContent) ? e.textContent : null;})()',
                  secs)
    return int(v) if v else None


def stored(page):
    v = page.eval('localStorage.getItem("waitroom:guarded")')
    try:
        return json.loads(v)['token']
    except (TypeError, ValueError, KeyError):
        return None


def run(b, pages):
    p = b.new_page()
    pages.append(p)
    # Record every state the page goes through.
    p.cmd('Page.addScriptToEvaluateOnNewDocument', {'source': '''
        window.__states = [];
        new MutationObserver(function () {
          window.__states.push(document.body.getAttribute("data-state"));
        }).observe(document, {attributes: true, subtree: true,
          attributeFilter: ["data-state"]});'''})
    before = used_keys()
    p.goto(BASE + '/q/guarded')
    pos = position(p, 30)
    check(pos == 3, 'the page solves the challenge and shows position 3 '
          'behind 2 waiters', pos)
    states = p.eval('window.__states') or []
    check('checking' in states, 'it said it was checking the browser first',
          states)
    token = stored(p)
    check(token and UUID.match(token), 'the token is kept in localStorage',
          token)
    used = used_keys()
    check(len(used) == len(before) + 1, 'its join spent one challenge',
          (before, used))
    p.screenshot(os.path.join(ART, 'pow-waiting.png'))

    p.reload()
    again = position(p, 15)
    check(again == 3 and stored(p) == token,
          'a reload keeps the place with the same token', (again, stored(p)))
    states = p.eval('window.__states') or []
    check('checking' not in states, '... and does not solve again', states)
    check(used_keys() == used, '... nor spend a challenge', used_keys())


# In the page, before its scripts: fetch wrapped so that the first join
# carrying a solved challenge waits until the admin has raised the queue
# from 8 to 12 bits (and the queue asks 12), as if the bits rose while the
# visitor solved; every join's answer is recorded in window.__joins.
RISE = '''
window.__joins = [];
(function () {
  var orig = window.fetch, raised = false;
  function record(p) {
    return p.then(function (r) {
      r.clone().json().then(function (j) {
        window.__joins.push(r.status + ' ' +
          (j.error ? j.error.code : j.status));
      }, function () {});
      return r;
    });
  }
  function poll(n) {
    return orig('/v1/queues/rising/challenge', {cache: 'no-store'})
      .then(function (r) { return r.json(); })
      .then(function (c) {
        if (c.bits === 12 || n > 200) return null;
        return new Promise(function (ok) { setTimeout(ok, 50); })
          .then(function () { return poll(n + 1); });
      });
  }
  function raise() {
    return orig('/v1/admin/queues/rising', {method: 'PUT',
      headers: {'Authorization': 'Bearer %s',
                'Content-Type': 'application/json'},
      body: '{"pow_bits":12}'}).then(function () { return poll(0); });
  }
  window.fetch = function (url, init) {
    if (!/\\/v1\\/queues\\/rising\\/tokens$/.test(String(url)))
      return orig(url, init);
    if (!raised && init && /"challenge"/.test(init.body || '')) {
      raised = true;
      return raise().then(function () { return record(orig(url, init)); });
    }
    return record(orig(url, init));
  };
})();
'''


def run_rise(b, pages):
    p = b.new_page()
    pages.append(p)
    p.cmd('Page.addScriptToEvaluateOnNewDocument',
          {'source': RISE % os.environ['ADMIN_TOKEN']})
    p.goto(BASE + '/q/rising')
    pos = position(p, 30)
    joins = p.eval('window.__joins')
    check(pos == 1, 'bits rising while the page solves: it still reaches '
          'position 1', (pos, joins))
    check(joins == ['403 challenge_required', '403 challenge_too_easy',
                    '201 waiting'],
          '... refused once as challenge_too_easy, then in with the fresh '
          'challenge', joins)


def run_all(b, pages):
    run(b, pages)
    run_rise(b, pages)


def main():
    return cdp.drive(run_all, 'no error in the console, no exception, no '
                     'CSP report')


if __name__ == '__main__':
    raise SystemExit(main())
