"""waiting_page.py: the waiting page in a real browser (headless Chromium),
against the waitroomd and redis-server that tests/integration/browser.sh
started. Prints one line per check, "PASS what" or "FAIL what<TAB>why",
which the wrapper turns into TAP.

Environment: WR_BASE (http://127.0.0.1:PORT), REDIS_PORT, CHROMIUM,
ARTIFACTS (where screenshots go), PROFILE (a fresh, empty directory).
The queues (see browser.sh): `line`, paused, with 3 waiters already in it;
`other`, paused; `sale`, paused, given an opening some seconds ahead."""

import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request

import cdp
from cdp import check

BASE = os.environ['WR_BASE']
ART = os.environ['ARTIFACTS']
UUID = re.compile(r'^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')


def redis(*args):
    return subprocess.run(['redis-cli', '-p', os.environ['REDIS_PORT']] +
                          list(args), capture_output=True, text=True,
                          timeout=10).stdout.strip()


class Shop(http.server.BaseHTTPRequestHandler):
    """The protected site: records what arrives, shows the token it got."""
    seen = []

    def do_GET(self):
        Shop.seen.append(self.path)
        m = re.search(r'waitroom_token=([0-9a-f-]+)', self.path)
        body = ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
                '<title>Shop</title></head><body style="font:18px system-ui;'
                'padding:40px"><h1>Welcome to the shop</h1>'
                '<p>You came through the waiting room with token</p>'
                '<p><code>%s</code></p></body></html>' %
                (m.group(1) if m else 'none')).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def shown(page, id_):
    return page.eval('(function(){var e=document.getElementById(%s);'
                     'return e ? e.textContent : null;})()' % json.dumps(id_))


def number(page, id_='wr-position', secs=10):
    """The number shown in #id_ once there is one."""
    v = page.wait('(function(){var e=document.getElementById(%s);'
                  'return e && /^[0-9]+$/.test(e.textContent) ? '
                  'e.textContent : null;})()' % json.dumps(id_), secs)
    return int(v) if v else None


def stored(page, queue):
    v = page.eval('localStorage.getItem(%s)' % json.dumps('waitroom:' + queue))
    try:
        return json.loads(v)['token']
    except (TypeError, ValueError, KeyError):
        return None


def notice_shown(page, text, secs):
    """Once the notice region (a polite live region) shows text, visibly:
    the seconds it took, else None."""
    t0 = time.time()
    ok = page.wait('(function(){var e=document.getElementById("wr-notice");'
                   'return !!e && e.getAttribute("role") === "status" && '
                   'e.getAttribute("aria-live") === "polite" && '
                   'e.offsetHeight > 0 && e.textContent.indexOf(%s) >= 0;})()'
                   % json.dumps(text), secs)
    return round(time.time() - t0, 2) if ok else None


def main():
    shop = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Shop)
    threading.Thread(target=shop.serve_forever, daemon=True).start()
    shop_url = 'http://127.0.0.1:%d/shop' % shop.server_address[1]
    redis('HSET', 'wr:{line}:config', 'redirect', shop_url)

    try:
        return cdp.drive(run, 'the page\'s script logs no error and throws '
                         'no exception', shop_url)
    finally:
        shop.shutdown()


def run(b, pages, shop_url):
    p = b.new_page()
    pages.append(p)
    p.cmd('Emulation.setEmulatedMedia', {'features': [
        {'name': 'prefers-reduced-motion', 'value': 'reduce'}]})

    # ---- a place in line, live ------------------------------------------
    p.goto(BASE + '/q/line')
    pos = number(p)
    check(pos == 4, 'the page shows position 4 behind 3 waiters', pos)
    check(shown(p, 'wr-ahead') == '3', 'it shows 3 people ahead',
          shown(p, 'wr-ahead'))
    check(shown(p, 'wr-waiting') == '4', 'it shows 4 waiting in all',
          shown(p, 'wr-waiting'))
    token = stored(p, 'line')
    check(token and UUID.match(token), 'the token is kept in localStorage',
          token)
    check(p.wait('document.getElementById("wr-live").dataset.conn === '
                 '"live" && document.getElementById("wr-live-text")'
                 '.textContent'), 'the page says it is live')
    check(p.eval('document.getElementById("wr-eta").textContent') ==
          'no estimate while admissions are paused',
          'a paused line has no estimate, in words', shown(p, 'wr-eta'))

    # ---- the operator's notice, in a polite live region -------------------
    check(p.eval('document.getElementById("wr-notice").offsetHeight') < 2,
          'without a notice its region takes no room')
    redis('HSET', 'wr:{line}:config', 'notice', 'Doors open at 10:05')
    took = notice_shown(p, 'Doors open at 10:05', 3)
    check(took is not None and took < 2, 'a notice appears on the open page '
          'within 2 s, in its polite live region', took)
    check('Message from the organizer' in (shown(p, 'wr-notice') or ''),
          'it is labelled as the organizer\'s message', shown(p, 'wr-notice'))
    p.screenshot(os.path.join(ART, 'notice.png'))
    redis('HDEL', 'wr:{line}:config', 'notice')
    check(p.wait('document.getElementById("wr-notice-text").textContent === '
                 '"" && document.getElementById("wr-notice").offsetHeight < 2',
                 3), 'a notice cleared leaves the page within 2 s')

    # ---- reload keeps the place -----------------------------------------
    p.eval('document.getElementById("wr-position").textContent = "?"')
    p.reload()
    again = number(p)
    check(stored(p, 'line') == token, 'a reload keeps the same token',
          stored(p, 'line'))
    check(again is not None and again <= 4,
          'after a reload the position is no worse', again)

    # ---- admissions: positions fall, then the shop ------------------------
    redis('HSET', 'wr:{line}:config', 'state', 'open')
    fell = p.wait('(function(){var n=+document.getElementById("wr-position")'
                  '.textContent; return n > 0 && n < 4 ? n : 0;})()', 15)
    check(fell, 'the position falls as others are admitted', fell)
    if fell:
        p.screenshot(os.path.join(ART, 'waiting.png'))
        check(re.search(r'minute', shown(p, 'wr-eta') or ''),
              'an open line shows the wait in words', shown(p, 'wr-eta'))
        bar = p.eval('document.getElementById("wr-progress").value')
        check(bar and bar > 0, 'the progress bar moved', bar)
    href = p.wait('location.href.indexOf(%s) === 0 && location.href'
                  % json.dumps(shop_url), 20)
    check(href and ('waitroom_token=' + str(token)) in href,
          'when admitted the browser lands on the redirect with its token',
          href)
    check(any(token and token in s for s in Shop.seen),
          'the protected site received the token', Shop.seen)
    if href:
        p.wait('document.readyState === "complete"', 5)
        p.screenshot(os.path.join(ART, 'entered.png'))

    # ---- a long wait: its range, in minutes (api.md's eta_range) -----------
    s = b.new_page()
    pages.append(s)
    s.goto(BASE + '/q/slow')
    eta = s.wait('(function(){var t=document.getElementById("wr-eta")'
                 '.textContent; return /[0-9]\u2013[0-9]/.test(t) && t;})()', 10)
    m = re.match(r'^about (\d+)\u2013(\d+) minutes$', eta or '')
    stoken = stored(s, 'slow')
    with urllib.request.urlopen('%s/v1/queues/slow/tokens/%s' %
                                (BASE, stoken), timeout=5) as r:
        rng = json.load(r).get('eta_range') or [0, 0]
    want = [-(-x // 60) for x in rng]
    # the page read it a moment before: each end may be a minute more
    check(m and int(m.group(1)) - want[0] in (0, 1) and
          int(m.group(2)) - want[1] in (0, 1),
          'a wait of minutes shows eta_range as "about A\u2013B minutes"',
          '%s vs eta_range %s' % (eta, rng))

    # ---- Korean, on a phone ------------------------------------------------
    k = b.new_page(390, 780, True)
    pages.append(k)
    k.headers({'Accept-Language': 'ko-KR,ko;q=0.9,en;q=0.5'})
    k.cmd('Emulation.setEmulatedMedia', {'features': [
        {'name': 'prefers-reduced-motion', 'value': 'reduce'}]})
    k.goto(BASE + '/q/other')
    kpos = number(k)
    check(kpos == 1, 'a page on a phone shows position 1', kpos)
    check(k.eval('document.documentElement.lang') == 'ko',
          'Accept-Language: ko gives <html lang="ko">')
    check(shown(k, 'wr-heading') == '대기열에 계십니다',
          'the heading is in Korean', shown(k, 'wr-heading'))
    check(shown(k, 'wr-eta') == '입장 일시 중지 중 (예상 불가)',
          'the wait is in Korean words', shown(k, 'wr-eta'))
    redis('HSET', 'wr:{other}:config', 'notice', '10시 5분에 엽니다')
    took = notice_shown(k, '10시 5분에 엽니다', 3)
    check(took is not None and '운영자 안내' in (shown(k, 'wr-notice') or ''),
          'the Korean page shows the notice under its Korean label', took)
    redis('HDEL', 'wr:{other}:config', 'notice')
    k.wait('document.getElementById("wr-notice-text").textContent === ""', 3)
    k.screenshot(os.path.join(ART, 'waiting-ko-phone.png'))

    # ---- gone, and joining again ---------------------------------------------
    ktoken = stored(k, 'other')
    req = urllib.request.Request('%s/v1/queues/other/tokens/%s' %
                                 (BASE, ktoken), method='DELETE')
    urllib.request.urlopen(req, timeout=5).close()
    st = k.wait('document.body.dataset.state === "gone" && '
                'document.getElementById("wr-message").textContent', 10)
    gone_text = k.eval('JSON.parse(document.body.dataset.text).gone')
    check(st and st == gone_text, 'a token that is gone shows the '
          'rejoin message', st)
    check(k.eval('!!document.querySelector("#wr-join button").offsetParent'),
          'and offers to join again')
    k.screenshot(os.path.join(ART, 'gone-ko-phone.png'))
    k.eval('document.getElementById("wr-position").textContent = "?"')
    k.eval('document.querySelector("#wr-join button").click()')
    rpos = number(k)
    rtoken = k.wait('(function(){var v=JSON.parse(localStorage.getItem('
                    '"waitroom:other")||"null"); return v && v.token;})()')
    check(rpos == 1 and rtoken not in (None, ktoken),
          'joining again gives a new token and a position', (rpos, rtoken))

    # ---- a scheduled opening: the pre-queue, then a place -------------------
    opens = int(time.time()) + 8
    redis('HSET', 'wr:{sale}:config', 'opens_at', str(opens))
    s = b.new_page()
    pages.append(s)
    s.goto(BASE + '/q/sale')
    cd = s.wait('document.body.dataset.state === "prequeue" && '
                '/^[0-9]+:[0-9]{2}:[0-9]{2}$/.test(document.getElementById('
                '"wr-countdown").textContent) && document.getElementById('
                '"wr-countdown").textContent', 10)
    check(cd, 'before the opening the page shows the pre-queue and a '
          'countdown', shown(s, 'wr-countdown'))
    later = s.wait('document.getElementById("wr-countdown").textContent '
                   '!== %s && document.getElementById("wr-countdown")'
                   '.textContent' % json.dumps(cd or ''), 5)
    check(later and later < (cd or ''), 'the countdown counts down',
          (cd, later))
    check(shown(s, 'wr-entrants') == '1', 'it shows 1 in the pre-queue',
          shown(s, 'wr-entrants'))
    commit = redis('HGET', 'wr:{sale}:draw', 'commit')
    shown_commit = s.wait('(function(){var t=document.getElementById('
                          '"wr-commit").textContent; return /^[0-9a-f]{16}/'
                          '.test(t) && t;})()', 5)
    check(commit and shown_commit and commit.startswith(
          shown_commit.rstrip('…')), 'it shows the draw\'s commitment, '
          'short', (commit, shown_commit))
    check(s.eval('!!document.getElementById("wr-position").offsetParent')
          is False, 'and no position')
    s.screenshot(os.path.join(ART, 'prequeue.png'))
    s.eval('window.__noReload = 1')
    spos = number(s, 'wr-position', opens - time.time() + 15)
    check(spos == 1 and s.eval('document.body.dataset.state') == 'waiting',
          'at the opening the drawn position appears', spos)
    check(s.eval('window.__noReload') == 1, 'without a reload')


if __name__ == '__main__':
    sys.exit(main())
