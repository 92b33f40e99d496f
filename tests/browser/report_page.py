"""report_page.py: the console's report of a queue in a real browser
(headless Chromium), against the waitroomd and redis-server that
tests/integration/report_page.sh started after a small sale on queue
`sale` (see there). Prints one line per check, "PASS what" or "FAIL
what<TAB>why", which the wrapper turns into TAP.

Environment: ADMIN_URL (admin_listen), ADMIN_TOKEN, REPORT (the JSON the
API answered for the sale), CHROMIUM, ARTIFACTS, PROFILE."""

import json
import os
import sys

import cdp
from cdp import check

ADMIN = os.environ['ADMIN_URL']
TOKEN = os.environ['ADMIN_TOKEN']
ART = os.environ['ARTIFACTS']
API = json.loads(os.environ['REPORT'])


def js(v):
    return json.dumps(v)


def shown(page, selector):
    """Displayed (not hidden, laid out) as the current media shows it."""
    return page.eval('(function(){var e=document.querySelector(%s);'
                     'return !!e && getComputedStyle(e).display !== "none"'
                     ' && e.getClientRects().length > 0;})()' % js(selector))


def fact(page, name):
    return page.eval('(function(){var e=document.querySelector('
                     '"#c-report-totals [data-r=%s]");'
                     'return e ? e.textContent : null;})()' % name)


def run(b, pages):
    page = b.new_page(width=1100, height=820)
    pages.append(page)
    page.goto(ADMIN + '/admin')
    page.wait('document.readyState === "complete" && '
              '!document.getElementById("c-login").hidden')
    t = page.eval('JSON.parse(document.body.getAttribute("data-text"))')
    page.eval('document.getElementById("c-token").focus()')
    page.cmd('Input.insertText', {'text': TOKEN})
    page.eval('document.getElementById("c-login-form").requestSubmit()')
    check(page.wait('!!document.querySelector("[data-queue=sale] '
                    '[data-act=report]")'),
          'each queue\'s card has a Report button')
    check(page.eval('document.querySelector("[data-queue=sale] '
                    '[data-act=report]").textContent') == t['report'],
          '... named as the page\'s texts say')
    page.eval('document.querySelector("[data-queue=sale] '
              '[data-act=report]").click()')
    check(page.wait('!document.getElementById("c-report").hidden && '
                    '!!document.querySelector("#c-report-totals '
                    '[data-r=joined]")'),
          'Report opens the queue\'s report')
    check(page.eval('document.getElementById("c-report-h").textContent') ==
          t['report_of'].replace('{q}', 'sale'), '... titled with the queue')
    tt = API['totals']
    for name in ('joined', 'admitted', 'abandoned', 'left', 'kicked'):
        got = fact(page, name)
        check(got == str(tt[name]), 'the report shows %s %d, as the API '
              'says' % (name, tt[name]), got)
    wait = fact(page, 'wait') or ''
    check(wait.count(' s') == 4, '... the time in line at p50, p90, p99 '
          'and its longest', wait)

    charts = page.eval('Array.prototype.map.call(document.querySelectorAll('
                       '"#c-report-charts figure"), function (f) { return '
                       'f.getAttribute("data-rchart"); })')
    check(charts == ['flow', 'waiting', 'wait', 'error'], 'four charts '
          'drawn by the page: joins and admissions, the line, the two '
          'histograms', charts)
    bars = page.eval('Array.prototype.map.call(document.querySelectorAll('
                     '"[data-rchart=wait] rect.bar"), function (r) { '
                     'return Number(r.getAttribute("data-count")); })')
    want = [x['count'] for x in API['wait']['buckets']]
    check(bars == want, 'the time-in-line chart has a bar per bucket, with '
          'the API\'s counts', (bars, want))
    lines = page.eval('document.querySelectorAll("[data-rchart=flow] '
                      'polyline").length')
    check(lines == 2, 'the flow chart draws joined and admitted', lines)

    page.eval('document.querySelector("[data-rep=csv]").click()')
    note = page.wait('(function(){var s=document.getElementById('
                     '"c-report-note").textContent; return s.indexOf("CSV")'
                     ' >= 0 || s.indexOf("csv") >= 0 ? s : "";})()')
    # the API's report was read before: a minute may have turned since,
    # and the CSV then has one more
    n = len(API['minutes'])
    done = [t['csv_done'].replace('{q}', 'sale').replace('{n}', str(k))
            for k in (n, n + 1)]
    check(note in done, 'Download CSV fetches the CSV (%d minutes, or %d '
          'once a minute turned)' % (n, n + 1), note)
    calls = [p['request'] for _, m, p in list(b.events)
             if m == 'Network.requestWillBeSent']
    csv = [r for r in calls if r['url'].endswith('/report.csv')]
    check(csv and csv[0].get('headers', {}).get('Authorization') ==
          'Bearer ' + TOKEN, '... with the token in its header, not its '
          'address', [r['url'] for r in csv])

    # From after to: the server's 400, said on the page.
    page.eval('var f = document.getElementById("c-report-form").elements;'
              'f.from.value = "2026-12-02T00:00"; f.to.value = '
              '"2026-12-01T00:00"; document.getElementById('
              '"c-report-form").requestSubmit()')
    bad = page.wait('document.getElementById("c-report-note").textContent')
    check(bad and 'from' in bad, 'from after to: the page shows the '
          'server\'s refusal', bad)
    page.eval('var f = document.getElementById("c-report-form").elements;'
              'f.from.value = ""; f.to.value = ""; document.getElementById('
              '"c-report-form").requestSubmit()')
    page.wait('document.getElementById("c-report-note").textContent === ""')

    page.cmd('Emulation.setEmulatedMedia', {'media': 'print'})
    check(shown(page, '#c-report') and shown(page, '[data-rchart=wait] svg')
          and not shown(page, '.top') and not shown(page, '#c-queues') and
          not shown(page, '.trail') and not shown(page, '#c-report-form'),
          'printed, the report alone: no header, queues, trail or buttons')
    page.cmd('Emulation.setDeviceMetricsOverride', {
        'width': 900, 'height': 900, 'deviceScaleFactor': 1,
        'mobile': False})
    page.screenshot(os.path.join(ART, 'report.png'))
    page.cmd('Emulation.setEmulatedMedia', {'media': ''})
    check(shown(page, '#c-queues'), 'on screen again, the queues are back')
    page.eval('document.querySelector("[data-rep=close]").click()')
    check(page.wait('document.getElementById("c-report").hidden && '
                    '!document.body.hasAttribute("data-view")'),
          'Close the report hides it')


def main():
    return cdp.drive(run, 'no error in the browser console')


if __name__ == '__main__':
    sys.exit(main())
