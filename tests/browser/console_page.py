"""console_page.py: the operator's console in a real browser (headless
Chromium), against the waitroomd and redis-server that
tests/integration/console.sh started. Prints one line per check, "PASS
what" or "FAIL what<TAB>why", which the wrapper turns into TAP.

Environment: WR_BASE (the public port), ADMIN_URL (admin_listen),
ADMIN_TOKEN (alice's), B_URL and B_PID (a second instance on the same
Redis, which the test kills), REDIS_PORT, CHROMIUM, ARTIFACTS, PROFILE.
The queues (see console.sh): `line`, `spare` and `sale`, open, admitting
nobody by themselves (interval 600)."""

import json
import os
import subprocess
import sys
import time
import urllib.request

import cdp
from cdp import check

BASE = os.environ['WR_BASE']
ADMIN = os.environ['ADMIN_URL']
TOKEN = os.environ['ADMIN_TOKEN']
ART = os.environ['ARTIFACTS']


def public(method, path, body=None, base=BASE, headers=None):
    """A visitor's call on the public port: (status, JSON body)."""
    h = {'Content-Type': 'application/json'}
    h.update(headers or {})
    req = urllib.request.Request(base + path, method=method,
                                 data=None if body is None else
                                 json.dumps(body).encode(), headers=h)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read() or b'null')
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b'null')


def redis(*args):
    return subprocess.run(['redis-cli', '-p', os.environ['REDIS_PORT']] +
                          list(args), capture_output=True, text=True,
                          timeout=10).stdout.strip()


def js(v):
    return json.dumps(v)


def text(page, selector):
    return page.eval('(function(){var e=document.querySelector(%s);'
                     'return e ? e.textContent : null;})()' % js(selector))


def visible(page, selector):
    return page.eval('(function(){var e=document.querySelector(%s);'
                     'return !!e && !e.closest("[hidden]") && '
                     'e.getClientRects().length > 0;})()' % js(selector))


def texts(page):
    return page.eval('JSON.parse(document.body.getAttribute("data-text"))')


def key(page, name, code, text=''):
    """One key pressed and released, as a keyboard does."""
    for kind in ('keyDown', 'keyUp'):
        page.cmd('Input.dispatchKeyEvent', {
            'type': kind, 'key': name, 'code': name,
            'windowsVirtualKeyCode': code,
            'text': text if kind == 'keyDown' else ''})


def type_token(page, token):
    """The token typed into the form and Enter pressed, as a person does."""
    page.eval('document.getElementById("c-token").focus()')
    page.cmd('Input.insertText', {'text': token})
    key(page, 'Enter', 13, '\r')


def keyboard(page):
    """Every control named for a screen reader; a control used from the
    keyboard asks first, and Escape sends nothing."""
    unnamed = page.eval('''[].filter.call(document.querySelectorAll(
        "main input, main select, main textarea, main button"),
        function (e) {
          return !(e.labels && e.labels.length) &&
            !e.getAttribute("aria-label") && !e.textContent.trim();
        }).map(function (e) { return e.outerHTML.slice(0, 80); })''')
    check(unnamed == [], 'every control of the console has a name', unnamed)
    page.eval('document.querySelector("[data-queue=spare] '
              '[data-act=close]").focus()')
    key(page, 'Enter', 13, '\r')
    opened = page.wait('document.getElementById("c-confirm").open && '
                       'document.activeElement.id === "c-confirm-no"', 3)
    check(opened, 'Enter on Close: the question opens, focus on Cancel')
    key(page, 'Escape', 27)
    shut = page.wait('!document.getElementById("c-confirm").open', 3)
    st, summary = public('GET', '/v1/queues/spare')
    check(shut and summary.get('state') == 'open',
          '... Escape closes it and the queue stays open', summary)


def waiting_page(b, pages, base, queue):
    """A visitor's waiting page for queue (joined by the page itself),
    once its stream is live."""
    p = b.new_page(width=600, height=700)
    pages.append(p)
    p.goto(base + '/q/' + queue)
    check(p.wait('document.getElementById("wr-live") && document.'
                 'getElementById("wr-live").dataset.conn === "live"', 5),
          'a visitor\'s waiting page on %s is live' % base.split('/')[-1])
    return p


def control(page, queue, selector, fill=None, secs=5):
    """Use a queue's control (filling its form's fields), then confirm in
    the page's dialog; the result line's text once it changed."""
    q = '[data-queue=%s] ' % js(queue)
    page.eval('document.getElementById("c-result").textContent = ""')
    for name, value in (fill or {}).items():
        page.eval('(function(){var e=document.querySelector(%s);'
                  'e.closest("details") && (e.closest("details").open = true);'
                  'e.value=%s;e.dispatchEvent(new Event("input", '
                  '{bubbles: true}));})()' % (js(q + '[name=%s]' % js(name)),
                                       js(str(value))))
    page.eval('document.querySelector(%s).click()' % js(q + selector))
    if not page.wait('document.getElementById("c-confirm").open', secs):
        return None
    page.eval('document.getElementById("c-confirm-ok").click()')
    return page.wait('document.getElementById("c-result").textContent', 5)


def sse_parser(page):
    """The page's SSE parser, fed one stream cut at every place."""
    stream = ('retry: 1000\r\n: a comment\r\nevent: room\r\ndata: {"a":\r\n'
              'data:  1}\r\n\r\nevent: history\ndata\n\n\rdata: x\r\r'
              'id: 7\nevent:\n\n')
    want = [['room', '{"a":\n 1}'], ['history', ''], ['message', 'x']]
    got = page.eval('''(function(s){
        var out = [];
        for (var cut = 0; cut <= s.length; cut++) {
          var seen = [], push = window.waitroomConsole.sseParser(
            function (n, d) { seen.push([n, d]); });
          push(s.slice(0, cut)); push(s.slice(cut));
          out.push(JSON.stringify(seen));
        }
        return out;
      })(%s)''' % js(stream))
    bad = [i for i, g in enumerate(got or []) if g != json.dumps(
        want, separators=(',', ':'))]
    check(got and not bad, 'the SSE parser reads a stream cut anywhere '
          '(CRLF, CR, LF, comments, multi-line data)',
          'cuts %s: %s' % (bad[:3], got[bad[0]] if bad else got))


def login(b, pages):
    page = b.new_page(width=1100, height=820)
    pages.append(page)
    page.goto(ADMIN + '/admin')
    check(page.wait('document.readyState === "complete" && '
                    '!document.getElementById("c-login").hidden'),
          'the console asks for the admin token')
    sse_parser(page)
    t = texts(page)

    type_token(page, 'not-the-token-0123456789')
    err = page.wait('document.getElementById("c-login-error").textContent')
    check(err == t['wrong_token'], 'a wrong token: the page says it was '
          'refused', err)
    check(visible(page, '#c-token') and not visible(page, '#c-main'),
          '... and asks again')
    check(page.eval('sessionStorage.length') == 0, '... and keeps nothing')

    type_token(page, TOKEN)
    check(page.wait('!document.getElementById("c-main").hidden && '
                    '!!document.querySelector("[data-queue=line]")'),
          'the admin token logs in: the queues are shown')
    check(page.eval('sessionStorage.getItem("waitroom:admin-token")') ==
          TOKEN, '... the token is kept in the tab\'s sessionStorage')
    check(page.eval('document.cookie') == '', '... and document.cookie is '
          'empty')
    page.reload()
    check(page.wait('document.readyState === "complete" && '
                    '!document.getElementById("c-main").hidden && '
                    '!!document.querySelector("[data-queue=line]")'),
          'a reload of the tab: still logged in, not asked again')
    return page, t


def stale_token(b, pages, t):
    """A token the server no longer takes, kept in a tab: forgotten on the
    first 401, and asked for again."""
    page = b.new_page(width=900, height=700)
    pages.append(page)
    page.goto(ADMIN + '/admin')
    page.wait('document.readyState === "complete"')
    page.eval('sessionStorage.setItem("waitroom:admin-token", '
              '"a-token-not-in-the-file-0123")')
    page.reload()
    err = page.wait('!document.getElementById("c-login").hidden && '
                    'document.getElementById("c-login-error").textContent')
    check(err == t['wrong_token'], 'a kept token answered 401: the page '
          'says so and asks again', err)
    check(page.eval('sessionStorage.length') == 0, '... and forgets it')


def controls(b, pages, page, t):
    r = control(page, 'line', '[data-act=pause]')
    check(r == t['done'].replace('{q}', 'line').replace('{a}', t['pause']),
          'pause from the page: it says done', r)
    st, summary = public('GET', '/v1/queues/line')
    check(summary and summary.get('state') == 'paused',
          '... the public summary says paused', summary)
    st, joined = public('POST', '/v1/queues/line/tokens', {})
    check(st == 201 and joined.get('status') == 'waiting' and
          joined.get('eta_seconds') is None, '... and a join waits with no '
          'estimate, the queue being paused', (st, joined))
    check(page.wait('document.querySelector("[data-queue=line] '
                    '[data-f=state]").textContent === "paused"', 3),
          '... and the queue\'s card says paused')

    r = control(page, 'line', '[data-form=promote] [type=submit]',
                {'count': 1})
    check(r == t['done'].replace('{q}', 'line').replace('{a}', t['promote']),
          'promote 1 from the page: it says done', r)
    st, status = public('GET', '/v1/queues/line/tokens/' + joined['token'])
    check(status and status.get('status') == 'active',
          '... and the first in line is admitted', status)

    r = control(page, 'line', '[data-form=config] [type=submit]',
                {'batch': 7})
    check(r == t['done'].replace('{q}', 'line').replace('{a}', t['apply']),
          'batch set to 7 from the page: it says done', r)
    st, q = public('GET', '/v1/admin/queues/line', base=ADMIN,
                   headers={'Authorization': 'Bearer ' + TOKEN})
    check(q and q.get('config', {}).get('batch') == 7,
          '... and the admin API says batch 7', q)

    r = control(page, 'line', '[data-form=promote] [type=submit]',
                {'count': 0}, secs=1)
    check(r is None, 'promote 0: the form refuses it before any call', r)
    page.eval('document.querySelector("[data-queue=line] [name=count]")'
              '.value = "1"')
    st, w = public('POST', '/v1/queues/line/tokens', {})
    waiter = w.get('token')

    r = control(page, 'spare', '[data-form=beacon] [type=submit]',
                {'beacon': 'ab12'})
    check(r and r.startswith('spare: ' + t['beacon_post'] + ': ') and
          'no draw' in r,
          'a beacon for a queue without a draw: the page shows the '
          'server\'s refusal', r)

    visitor = waiting_page(b, pages, BASE, 'line')
    start = time.monotonic()
    r = control(page, 'line', '[data-form=notice] [type=submit]',
                {'text': 'Back in 5 minutes'})
    check(r == t['done'].replace('{q}', 'line').replace(
        '{a}', t['notice_set']), 'a notice from the page: it says done', r)
    shown = visitor.wait('(function(){var e=document.getElementById('
                         '"wr-notice");return !!e && e.offsetHeight > 0 && '
                         'e.textContent.indexOf("Back in 5 minutes") >= 0;'
                         '})()', 3)
    took = time.monotonic() - start
    check(shown and took < 2, '... and it appears on an open waiting page '
          'within 2 s of the click (%.2f s)' % took)
    st, j = public('GET', '/v1/queues/line/tokens/' + waiter)
    check(j and j.get('notice') == 'Back in 5 minutes',
          '... and a waiter\'s status carries it', j)

    r = control(page, 'sale', '[data-form=fail_open] [type=submit]',
                {'minutes': 1})
    check(r == t['done'].replace('{q}', 'sale').replace(
        '{a}', t['failopen']), 'fail-open for a minute from the page: '
        'it says done', r)
    st, j = public('POST', '/v1/queues/sale/tokens', {})
    check(st == 201 and j.get('status') == 'active' and
          j.get('active_until'), '... and a new join is admitted at once',
          (st, j))
    check(page.wait('!document.querySelector("[data-queue=sale] '
                    '[data-f=fail_open]").hidden', 3),
          '... and the card counts it down')
    # Not to wait the whole minute: the admin API moves its end to 10 s
    # from now (again while on: the mode to return to stays), and the
    # tick and the page then do the rest by themselves.
    st, j = public('POST', '/v1/admin/queues/sale/fail-open',
                   {'seconds': 10}, base=ADMIN,
                   headers={'Authorization': 'Bearer ' + TOKEN})
    ends = time.monotonic() + 10
    check(st == 200 and j.get('previous_mode') == 'rate', '... its end '
          'moved to 10 s from now, the mode to return to still rate',
          (st, j))

    r = control(page, 'spare', '[data-form=fail_open] [type=submit]',
                {'minutes': 1})
    check(r == t['done'].replace('{q}', 'spare').replace(
        '{a}', t['failopen']), 'fail-open on a second queue', r)
    r = control(page, 'spare', '[data-act=fail_open_end]')
    check(r == t['done'].replace('{q}', 'spare').replace(
        '{a}', t['failopen_end']), 'end fail-open from the page: it says '
        'done', r)
    st, j = public('POST', '/v1/queues/spare/tokens', {})
    check(st == 201 and j.get('status') == 'waiting',
          '... and a join waits again', (st, j))
    return ends


def trail(page, t):
    for action in ('pause', 'promote', 'notice', 'fail_open'):
        ok = page.wait('[].some.call(document.querySelectorAll('
                       '"#c-trail tbody tr"), function (r) {'
                       'return /alice/.test(r.textContent) && '
                       'r.textContent.indexOf(%s) >= 0; })' % js(action), 5)
        check(ok, 'the trail lists the %s with its admin, alice' % action,
              text(page, '#c-trail tbody'))


def figure(page, queue, name):
    return page.eval('document.querySelector("[data-queue=%s] [data-f=%s]")'
                     '.textContent' % (queue, name))


def live(page, t):
    """The live view, from the real feed: figures, charts kept across a
    reload, instances, Redis and an alert."""
    check(page.wait('document.getElementById("c-conn")'
                    '.getAttribute("data-conn") === "live"', 5),
          'the feed is open: the page says live')
    st, summary = public('GET', '/v1/queues/spare')
    before = summary['waiting']
    page.wait('document.querySelector("[data-queue=spare] [data-f=waiting]")'
              '.textContent === "%d"' % before, 3)
    for _ in range(3):
        public('POST', '/v1/queues/spare/tokens', {})
    start = time.monotonic()
    shown = page.wait('document.querySelector("[data-queue=spare] '
                      '[data-f=waiting]").textContent === "%d"' %
                      (before + 3), 2)
    check(shown, 'three joins show in the waiting count within 2 s '
          '(%.1f s)' % (time.monotonic() - start),
          'it says %s' % figure(page, 'spare', 'waiting'))

    rows = page.eval('document.querySelectorAll("#c-instances tbody tr")'
                     '.length')
    check(rows == 2, 'both instances are listed', rows)
    role = page.eval('document.querySelector("#c-redis [data-f=role]")'
                     '.textContent')
    check(role == 'master', 'Redis is shown as master', role)

    # The charts across a reload: seeded from what the server holds.
    page.reload()
    start = time.monotonic()
    pts = page.wait('(function(){var p=document.querySelector("[data-queue='
                    'spare] [data-chart=waiting] polyline");var n=p&&p'
                    '.getAttribute("points");return n&&n.split(" ").length'
                    '>=5&&n.split(" ").length;})()', 3)
    check(pts and time.monotonic() - start < 3, 'after a reload the waiting '
          'chart has %s points at once, from the history' % pts)

    redis('CONFIG', 'SET', 'maxmemory', '1')
    try:
        full = page.wait('document.getElementById("c-alerts").textContent'
                         '.indexOf(%s) >= 0' % js(t['alert_redis_full']), 4)
        check(full, 'Redis full: the alert shows within 4 s')
    finally:
        redis('CONFIG', 'SET', 'maxmemory', '0')
    gone = page.wait('document.getElementById("c-alerts").textContent'
                     '.indexOf(%s) < 0' % js(t['alert_redis_full']), 4)
    check(gone, '... and goes once Redis has room again')


def instance_rows(page):
    """The console's instances table: [[id, streams], ...], a missing one's
    id with its mark."""
    return page.eval('[].map.call(document.querySelectorAll("#c-instances '
                     'tbody tr"), function (r) { return [r.cells[0]'
                     '.textContent, r.cells[1].textContent, r.className]; })')


def two_instances(b, pages, page, t):
    """A second instance on the same Redis: the console on the first shows
    both instances' streams; the second killed is shown missing within
    3 s."""
    waiting_page(b, pages, os.environ['B_URL'], 'spare')
    both = page.wait('(function(){var r=document.querySelectorAll('
                     '"#c-instances tbody tr");return r.length === 2 && '
                     '[].every.call(r, function (x) { return +x.cells[1]'
                     '.textContent >= 1 && !x.className; });})()', 5)
    check(both, 'two instances: the console shows both, each with its '
          'open stream', instance_rows(page))
    os.kill(int(os.environ['B_PID']), 9)
    start = time.monotonic()
    gone = page.wait('[].filter.call(document.querySelectorAll("#c-instances '
                     'tbody tr"), function (x) { return x.className === '
                     '"missing"; }).length === 1 && document.getElementById('
                     '"c-alerts").textContent.indexOf(%s) >= 0' %
                     js(t['alert_missing'].split('{i}')[-1]), 4)
    took = time.monotonic() - start
    check(gone and took <= 3, 'the second instance killed: shown missing, '
          'with its alert, within 3 s (%.1f s)' % took, instance_rows(page))


def fail_open_ends(page, ends):
    """The fail-open on sale runs out (at ends, monotonic): the card's
    countdown goes, the queue has its mode again and a join waits."""
    ended = page.wait('document.querySelector("[data-queue=sale] '
                      '[data-f=fail_open]").hidden',
                      max(ends - time.monotonic(), 0) + 5)
    check(ended and time.monotonic() >= ends - 1, 'the fail-open runs '
          'out: the countdown leaves the card (%.1f s after its end)' %
          (time.monotonic() - ends))
    deadline = time.monotonic() + 5
    while True:
        st, j = public('POST', '/v1/queues/sale/tokens', {})
        if j.get('status') == 'waiting' or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check(st == 201 and j.get('status') == 'waiting', '... and the queue is '
          'back in its mode: a join waits', (st, j))
    st, q = public('GET', '/v1/admin/queues/sale', base=ADMIN,
                   headers={'Authorization': 'Bearer ' + TOKEN})
    check(q and q.get('config', {}).get('mode') == 'rate' and
          not q.get('fail_open_until'), '... and the admin API says mode '
          'rate, no fail-open', q)


def contract_calls(b):
    """The calls the controls made are the contract's, with the token."""
    made = set()
    for _, m, p in list(b.events):
        r = p.get('request', {})
        if m == 'Network.requestWillBeSent' and r.get('headers', {}).get(
                'Authorization') == 'Bearer ' + TOKEN:
            made.add(r['method'] + ' ' + r['url'][len(ADMIN):])
    for want in ('POST /v1/admin/queues/line/pause',
                 'POST /v1/admin/queues/line/promote',
                 'PUT /v1/admin/queues/line',
                 'PUT /v1/admin/queues/line/notice',
                 'POST /v1/admin/queues/spare/fail-open',
                 'DELETE /v1/admin/queues/spare/fail-open',
                 'POST /v1/admin/queues/spare/draw',
                 'GET /v1/admin/audit?limit=100',
                 'GET /v1/admin/events'):
        check(want in made, 'the page called ' + want, sorted(made))


def run(b, pages):
    page, t = login(b, pages)
    stale_token(b, pages, t)
    keyboard(page)
    ends = controls(b, pages, page, t)
    trail(page, t)
    live(page, t)
    two_instances(b, pages, page, t)
    contract_calls(b)
    page.eval('document.activeElement.blur(); window.scrollTo(0, 0); '
              'document.querySelectorAll("details").forEach(function (d) '
              '{ d.open = false; })')
    # The first queue and its charts: doc/console.png, kept small.
    page.cmd('Emulation.setDeviceMetricsOverride', {
        'width': 1100, 'height': 660, 'deviceScaleFactor': 1,
        'mobile': False})
    page.screenshot(os.path.join(ART, 'console.png'))
    ko = b.new_page(width=900, height=700)
    pages.append(ko)
    ko.goto(ADMIN + '/admin?lang=ko')
    check(ko.wait('document.documentElement.lang === "ko" && '
                  '!document.getElementById("c-login").hidden && '
                  'document.getElementById("c-login-h").textContent === '
                  '"로그인"'), 'the page in Korean (?lang=ko), a new tab: it '
          'asks for the token again')
    type_token(ko, TOKEN)
    check(ko.wait('!!document.querySelector("[data-queue=line] '
                  '[data-act=pause]") && document.querySelector('
                  '"[data-queue=line] [data-act=pause]").textContent === '
                  '"일시 중지"'), '... and its controls are in Korean')
    urls = [p['request']['url'] for _, m, p in list(b.events)
            if m == 'Network.requestWillBeSent']
    check(urls and not [u for u in urls if TOKEN in u],
          'the token is in none of the %d URLs the browser asked for' %
          len(urls), [u for u in urls if TOKEN in u][:2])
    bearer = [p['request']['url'] for _, m, p in list(b.events)
              if m == 'Network.requestWillBeSent' and
              p['request'].get('headers', {}).get('Authorization') ==
              'Bearer ' + TOKEN]
    check(any('/v1/admin/queues' in u for u in bearer),
          'the admin calls carry it as Authorization: Bearer')
    warnings = [p['entry'].get('text') for s, m, p in list(b.events)
                if m == 'Log.entryAdded' and
                p['entry'].get('level') == 'warning'] + [
        ' '.join(str(a.get('value', '')) for a in p.get('args', []))
        for s, m, p in list(b.events)
        if m == 'Runtime.consoleAPICalled' and p.get('type') == 'warning']
    check(not warnings, 'no warning in the browser console', warnings[:3])
    fail_open_ends(page, ends)


def main():
    return cdp.drive(run, 'no error in the browser console')


if __name__ == '__main__':
    sys.exit(main())
