"""pow_page.py: the waiting page on a queue that asks for a proof of work
(pow_bits = 16), in headless Chromium, against the waitroomd and
redis-server that tests/integration/pow_browser.sh started. Prints "PASS
what" or "FAIL what<TAB>why" per check, which the wrapper turns into TAP.

Environment: WR_BASE, REDIS_PORT, CHROMIUM, ARTIFACTS, PROFILE. The queue
`guarded` is paused, with 2 waiters ahead."""

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


def main():
    return cdp.drive(run, 'no error in the console, no exception, no CSP '
                     'report')


if __name__ == '__main__':
    raise SystemExit(main())
