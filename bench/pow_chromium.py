"""pow_chromium.py: what the waiting page's proof of work costs a visitor
in headless Chromium: for each of BITS, N solves by /assets/pow.js, each
in a fresh Web Worker as the page starts one, of a fresh challenge-shaped
string; prints "bits median_ms p90_ms" per line. Run by bench/pow against
the waitroomd it started (WR_BASE); CHROMIUM, PROFILE as for the tests."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'tests',
                                'browser'))
from cdp import Browser  # noqa: E402

JS = '''(async function (bits, n) {
  function rand(k) {
    var a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    var s = '';
    for (var i = 0; i < k; i++) s += a[Math.floor(Math.random() * 64)];
    return s;
  }
  var times = [];
  for (var i = 0; i < n; i++) {
    var ch = '1.bench.' + bits + '.' + (Math.floor(Date.now() / 1000) + 300) +
      '.' + rand(22) + '.' + rand(22);
    var t0 = performance.now();
    var w = new Worker('/assets/pow.js');
    await new Promise(function (done) {
      w.onmessage = function (ev) { if (typeof ev.data.nonce === 'string') done(); };
      w.postMessage({ challenge: ch, bits: bits });
    });
    w.terminate();
    times.push(performance.now() - t0);
  }
  return times;
})(%d, %d)'''


def main():
    bits_list = [int(b) for b in os.environ.get('BITS', '12 16 18 20 22').split()]
    n = int(os.environ.get('SOLVES', '20'))
    b = Browser(os.environ['CHROMIUM'], os.environ['PROFILE'])
    try:
        p = b.new_page()
        p.goto(os.environ['WR_BASE'] + '/q/bench-nosuch')
        p.wait('document.readyState === "complete"')
        for bits in bits_list:
            r = b.send('Runtime.evaluate', {'expression': JS % (bits, n),
                                            'awaitPromise': True,
                                            'returnByValue': True},
                       p.s, timeout=600)
            t = sorted(r.get('result', {}).get('value') or [])
            if not t:
                print('%d - -' % bits, json.dumps(r)[:200], flush=True)
                continue
            print('%d %.0f %.0f' % (bits, t[(len(t) - 1) // 2],
                                   t[(9 * len(t) + 9) // 10 - 1]), flush=True)
    finally:
        b.close()


if __name__ == '__main__':
    main()
