/*
 * console.js: the operator's console. The admin token is asked once and
 * kept in this tab's sessionStorage, sent as "Authorization: Bearer" on
 * every call and nowhere else (no cookie, no address); a 401 forgets it
 * and asks again. The live feed (GET /v1/admin/events) is read with
 * fetch(), since EventSource cannot send that header, and its
 * Server-Sent Events are parsed here. Every control is one admin call,
 * confirmed first; what the server answers is shown as it said it.
 */
(function () {
  'use strict';

  var KEY = 'waitroom:admin-token';
  var WINDOW_S = 1800;          // the charts' 30 minutes
  var STALE_MS = 5000;          // a feed silent this long is reopened
  var RETRY_MS = 2000;
  var SERIES = ['joins_per_s', 'admitted_per_s', 'waiting', 'active'];
  var SVGNS = 'http://www.w3.org/2000/svg';

  var T = {};
  var lang = document.documentElement.lang || 'en';
  var numFmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  var token = null;
  var cards = {};               // queue name -> card
  var feedCtl = null;           // AbortController of the open feed
  var feedTimer = null;         // the next try at the feed
  var watchTimer = null;        // the check that the feed still speaks
  var lastEvent = 0;
  var skew = 0;                 // server ms - local ms, from the feed
  var alertsKey = '';

  function $(id) { return document.getElementById(id); }

  // text of key with {name} replaced by vars' values
  function t(key, vars) {
    var s = T[key] || key;
    Object.keys(vars || {}).forEach(function (k) {
      s = s.split('{' + k + '}').join(String(vars[k]));
    });
    return s;
  }

  function num(v) {
    return typeof v === 'number' && isFinite(v) ? numFmt.format(v) : '–';
  }

  function duration(s) {
    if (typeof s !== 'number' || !isFinite(s) || s < 0) return '–';
    s = Math.round(s);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    return (h ? h + ':' + (m < 10 ? '0' : '') : '') + m + ':' +
      (x < 10 ? '0' : '') + x;
  }

  // ---- Server-Sent Events -------------------------------------------------

  /*
   * A parser of an event stream's text, fed in pieces as they come:
   * push(text) calls onEvent(name, data) for each complete event. Lines
   * end with CRLF, LF or CR; "data" lines join with LF; comments and
   * other fields are skipped; an event without data is not one.
   */
  function sseParser(onEvent) {
    var buf = '', name = '', data = [];

    function line(l) {
      if (l === '') {
        if (data.length) onEvent(name || 'message', data.join('\n'));
        name = '';
        data = [];
        return;
      }
      var i = l.indexOf(':');
      var field = i < 0 ? l : l.slice(0, i);
      var value = i < 0 ? '' : l.slice(i + 1);
      if (value.charAt(0) === ' ') value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }

    return function push(text) {
      var re = /\r\n|\r|\n/g, start = 0, m;
      buf += text;
      while ((m = re.exec(buf)) !== null) {
        // a CR at the end may be the first half of a CRLF
        if (m[0] === '\r' && re.lastIndex === buf.length) break;
        line(buf.slice(start, m.index));
        start = re.lastIndex;
      }
      buf = buf.slice(start);
    };
  }

  // ---- calls ------------------------------------------------------------

  function headers(body) {
    var h = { Authorization: 'Bearer ' + token };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    return h;
  }

  // One admin call: resolves to {status, body} (body: JSON or null).
  function call(method, path, body) {
    return fetch(path, {
      method: method, headers: headers(body), cache: 'no-store',
      credentials: 'omit', referrerPolicy: 'no-referrer',
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (r) {
      return r.text().then(function (text) {
        var json = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch (e) {
          json = null;
        }
        if (r.status === 401) refused();
        return { status: r.status, body: json };
      });
    });
  }

  function errorOf(res) {
    var e = res.body && res.body.error;
    return e && e.message ? e.message : 'HTTP ' + res.status;
  }

  function qpath(q, rest) {
    return '/v1/admin/queues/' + encodeURIComponent(q) + (rest || '');
  }

  // ---- login --------------------------------------------------------------

  function showLogin(message) {
    $('c-main').hidden = true;
    $('c-logout').hidden = true;
    $('c-login').hidden = false;
    $('c-login-error').textContent = message || '';
    $('c-token').value = '';
    $('c-token').focus();
    setConn('off');
  }

  function stopAll() {
    if (feedCtl) feedCtl.abort();
    feedCtl = null;
    clearTimeout(feedTimer);
    clearTimeout(watchTimer);
  }

  // A 401: the token is forgotten and asked for again.
  function refused() {
    if (token === null) return;
    token = null;
    sessionStorage.removeItem(KEY);
    stopAll();
    showLogin(T.wrong_token);
  }

  function logout() {
    token = null;
    sessionStorage.removeItem(KEY);
    stopAll();
    showLogin('');
  }

  /*
   * Try a token: the list of queues is the first call and the check. Any
   * answer but a 401 took the token: with Redis down the list is a 503,
   * and the feed is then what says so.
   */
  function start(candidate) {
    token = candidate;
    call('GET', '/v1/admin/queues').then(function (res) {
      if (res.status === 401) return;
      sessionStorage.setItem(KEY, candidate);
      $('c-login').hidden = true;
      $('c-main').hidden = false;
      $('c-logout').hidden = false;
      if (res.status === 200 && res.body)
        (res.body.queues || []).forEach(function (q) { fromAdmin(q); });
      else
        say(errorOf(res), true);
      trail();
      feed();
    }, function () {
      token = null;
      showLogin(T.conn_retry);
    });
  }

  // ---- the live feed -----------------------------------------------------

  function setConn(state) {
    $('c-conn').setAttribute('data-conn', state);
    $('c-conn-text').textContent = T['conn_' + state] || state;
  }

  function feed() {
    var ctl = new AbortController();
    if (token === null) return;
    feedCtl = ctl;
    lastEvent = Date.now();
    fetch('/v1/admin/events', {
      headers: headers(), cache: 'no-store', credentials: 'omit',
      signal: ctl.signal
    }).then(function (r) {
      if (r.status === 401) { refused(); return null; }
      if (!r.ok || !r.body)
        return r.json().catch(function () { return null; }).then(refusedFeed);
      setConn('live');
      $('c-feed-note').textContent = '';
      watch(ctl);
      return read(r.body.getReader(), sseParser(onEvent));
    }).catch(function () {
      if (ctl.signal.aborted && feedCtl !== ctl) return;
      ctl.abort();
      setConn('retry');
      feedTimer = setTimeout(feed, RETRY_MS);
    });
  }

  function read(reader, push) {
    var dec = new TextDecoder();
    function next() {
      return reader.read().then(function (x) {
        if (x.done) throw new Error('the feed ended');
        push(dec.decode(x.value, { stream: true }));
        return next();
      });
    }
    return next();
  }

  // A feed that goes silent (a proxy holding it, a server gone) is reopened.
  function watch(ctl) {
    watchTimer = setTimeout(function () {
      if (feedCtl !== ctl) return;
      if (Date.now() - lastEvent > STALE_MS) ctl.abort();
      else watch(ctl);
    }, 1000);
  }

  // A feed refused (64 open on that process already...): why, then retry.
  function refusedFeed(body) {
    var e = body && body.error;
    $('c-feed-note').textContent = t('no_feed',
      { m: e && e.message ? e.message : '?' });
    throw new Error('feed refused');
  }

  function onEvent(name, data) {
    var ev;
    lastEvent = Date.now();
    try { ev = JSON.parse(data); } catch (e) { return; }
    if (name === 'history') history(ev);
    else if (name === 'room') room(ev);
  }

  function history(ev) {
    var qs = ev.queues || {};
    Object.keys(qs).forEach(function (name) {
      var h = qs[name], c = card(name), step = h.step || 1;
      SERIES.forEach(function (s) {
        c.series[s] = (h[s] || []).map(function (v, i) {
          return [h.from + i * step, v];
        });
      });
      draw(c);
    });
  }

  function room(ev) {
    var at = Math.floor(ev.at / 1000);
    skew = ev.at - Date.now();
    (ev.queues || []).forEach(function (q) {
      var c = card(q.queue);
      figures(c, q);
      SERIES.forEach(function (s) {
        var pts = c.series[s];
        if (pts.length && pts[pts.length - 1][0] >= at) return;
        pts.push([at, q[s]]);
        while (pts.length && pts[0][0] < at - WINDOW_S) pts.shift();
      });
      draw(c);
    });
    gone(ev.queues || []);
    instances(ev);
    alerts(ev.alerts || []);
  }

  // The cards of queues the feed no longer has (dropped) go.
  function gone(queues) {
    var names = queues.map(function (q) { return q.queue; });
    Object.keys(cards).forEach(function (n) {
      if (names.indexOf(n) >= 0) return;
      cards[n].el.remove();
      delete cards[n];
      var opt = $('c-trail-queue').querySelector('option[value="' + n + '"]');
      if (opt) opt.remove();
    });
  }

  // ---- what is shown ------------------------------------------------------

  function field(root, name) {
    return root.querySelector('[data-f="' + name + '"]');
  }

  function put(root, name, text) {
    var el = field(root, name);
    if (el && el.textContent !== text) el.textContent = text;
  }

  // The card of a queue, made from the template the first time.
  function card(name) {
    if (cards[name]) return cards[name];
    var el = $('c-queue').content.firstElementChild.cloneNode(true);
    var c = { name: name, el: el, config: {}, series: {}, until: 0 };
    SERIES.forEach(function (s) { c.series[s] = []; });
    el.setAttribute('data-queue', name);
    el.setAttribute('aria-labelledby', 'c-q-' + name);
    field(el, 'queue').id = 'c-q-' + name;
    put(el, 'queue', name);
    field(el, 'controls').setAttribute('aria-label',
      t('controls', { q: name }));
    Array.prototype.forEach.call(el.querySelectorAll('figure'), chart);
    wire(c);
    cards[name] = c;
    var names = Object.keys(cards).sort();
    var after = cards[names[names.indexOf(name) + 1]];
    $('c-queues').insertBefore(el, after ? after.el : null);
    var opt = document.createElement('option');
    opt.value = opt.textContent = name;
    $('c-trail-queue').appendChild(opt);
    return c;
  }

  function chart(fig) {
    var svg = document.createElementNS(SVGNS, 'svg');
    var line = document.createElementNS(SVGNS, 'polyline');
    svg.setAttribute('viewBox', '0 0 300 60');
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('aria-hidden', 'true');   // the caption says it
    line.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.appendChild(line);
    fig.appendChild(svg);
  }

  /*
   * The charts of a card. Time runs over the last 30 minutes, or over
   * what there is when the server holds less (at least a minute), so a
   * room that just started is not a sliver at the right edge.
   */
  function draw(c) {
    var now = Math.floor((Date.now() + skew) / 1000), first = now;
    SERIES.forEach(function (s) {
      if (c.series[s].length) first = Math.min(first, c.series[s][0][0]);
    });
    var span = Math.min(WINDOW_S, Math.max(60, now - first));
    Array.prototype.forEach.call(c.el.querySelectorAll('figure'),
      function (fig) {
        drawChart(fig, c.series[fig.getAttribute('data-chart')] || [],
          now, span);
      });
  }

  function drawChart(fig, pts, now, span) {
    var max = 0, last = null, xy = [];
    pts.forEach(function (p) {
      if (typeof p[1] === 'number' && p[1] > max) max = p[1];
    });
    pts.forEach(function (p) {
      if (typeof p[1] !== 'number') return;
      last = p[1];
      xy.push(((p[0] - now + span) / span * 300).toFixed(1) + ',' +
        (58 - p[1] / (max || 1) * 56).toFixed(1));
    });
    var text = t('chart', { c: fig.getAttribute('data-name'),
      v: num(last), m: num(max) });
    fig.querySelector('polyline').setAttribute('points', xy.join(' '));
    if (fig.firstElementChild.textContent !== text)
      fig.firstElementChild.textContent = text;
  }

  /*
   * A queue as the admin API shows it: its configuration, some figures.
   * A field the operator has typed in keeps what they typed.
   */
  function fromAdmin(q) {
    var c = card(q.queue);
    c.config = q.config || {};
    ['batch', 'interval', 'max_active'].forEach(function (k) {
      var input = c.el.querySelector('[data-form="config"] [name="' +
        k + '"]');
      if (document.activeElement !== input &&
          !input.hasAttribute('data-typed'))
        input.value = c.config[k] === undefined ? '' : c.config[k];
    });
    figures(c, { state: q.state, mode: c.config.mode, waiting: q.waiting,
      active: q.active, streams: q.streams, notice: q.notice,
      fail_open_until: q.fail_open_until });
  }

  function figures(c, q) {
    var el = c.el, pm = q.per_minute, rf = q.refused_per_s;
    put(el, 'state', q.state || '–');
    el.setAttribute('data-state', q.state || '');
    put(el, 'mode', q.mode || '–');
    field(el, 'draw').hidden = !q.draw || q.draw === 'none';
    put(el, 'draw', q.draw || '');
    ['waiting', 'active', 'entrants', 'joins_per_s', 'admitted_per_s',
      'pow_bits', 'invites_used', 'streams'].forEach(function (k) {
      put(el, k, num(q[k]));
    });
    put(el, 'eta_new_s', duration(q.eta_new_s));
    put(el, 'wait_p', q.wait_p50_s === undefined ? '–' :
      duration(q.wait_p50_s) + ' / ' + duration(q.wait_p90_s));
    put(el, 'per_minute', pm ? [pm.abandoned, pm.expired, pm.left]
      .map(num).join(' / ') : '–');
    put(el, 'refused_per_s', rf ? [rf.work, rf.invitation, rf.rate,
      rf.origin].map(num).join(' / ') : '–');
    if (q.notice !== undefined) {
      field(el, 'notice').hidden = !q.notice;
      put(el, 'notice', q.notice ? t('notice_now', { m: q.notice }) : '');
    }
    if (q.fail_open_until !== undefined) c.until = q.fail_open_until || 0;
    countdown(c);
  }

  function countdown(c) {
    var left = c.until - (Date.now() + skew) / 1000;
    field(c.el, 'fail_open').hidden = left <= 0;
    put(c.el, 'fail_open', left > 0 ?
      t('failopen_until', { t: duration(left) }) : '');
  }

  function instances(ev) {
    var body = $('c-instances').tBodies[0], r = ev.redis || {};
    var rows = (ev.instances || []).map(function (i) {
      var tr = document.createElement('tr');
      if (i.missing) tr.className = 'missing';
      [i.id + (i.missing ? ' (' + T.missing + ')' : ''), num(i.streams),
        num(i.connections), num(i.requests_per_s), num(i.errors_per_s),
        t('ago', { n: num((i.seen_ms_ago || 0) / 1000) })]
        .forEach(function (v, n) {
          var td = document.createElement(n ? 'td' : 'th');
          if (!n) td.scope = 'row';
          td.textContent = v;
          tr.appendChild(td);
        });
      return tr;
    });
    body.replaceChildren.apply(body, rows);
    var redis = $('c-redis');
    put(redis, 'role', r.reachable === false ? T.unreachable : r.role || '–');
    put(redis, 'memory', mib(r.used_memory) + ' / ' +
      (r.maxmemory ? mib(r.maxmemory) : '∞'));
    put(redis, 'latency', typeof r.latency_ms === 'number' ?
      num(r.latency_ms) + ' ms' : '–');
    put(redis, 'streams', num(ev.streams));
  }

  function mib(bytes) {
    return typeof bytes === 'number' ? num(bytes / 1048576) + ' MiB' : '–';
  }

  function alertText(a) {
    if (a.kind === 'stalled')
      return t('alert_stalled', { q: a.queue, t: a.since ?
        new Date(a.since * 1000).toLocaleTimeString(lang) : '?' });
    if (a.kind === 'instance_missing')
      return t('alert_missing', { i: a.instance });
    return T['alert_' + a.kind] || a.kind;
  }

  // Rewritten only when they change, so a reader hears each one once.
  function alerts(list) {
    var texts = list.map(alertText), key = texts.join('\n');
    if (key === alertsKey) return;
    alertsKey = key;
    var ul = $('c-alerts');
    ul.replaceChildren.apply(ul, texts.map(function (s) {
      var li = document.createElement('li');
      li.textContent = s;
      return li;
    }));
  }

  // ---- controls -------------------------------------------------------------

  var confirmDone = null;

  // The question in the page's own dialog; resolves true on Confirm.
  function ask(text) {
    var d = $('c-confirm');
    if (d.open) return Promise.resolve(false);
    $('c-confirm-text').textContent = text;
    return new Promise(function (resolve) {
      confirmDone = resolve;
      d.showModal();
      $('c-confirm-no').focus();   // Enter twice does nothing rash
    });
  }

  function answer(yes) {
    var d = $('c-confirm'), done = confirmDone;
    confirmDone = null;
    if (d.open) d.close();
    if (done) done(yes);
  }

  function say(text, bad) {
    var p = $('c-result');
    p.textContent = text;
    p.className = bad ? 'result error' : 'result';
  }

  // Confirm, call, say how it went; after a change, the queue and the
  // trail are read again.
  function act(c, label, question, method, rest, body) {
    return ask(question).then(function (yes) {
      if (!yes) return;
      return call(method, qpath(c.name, rest), body).then(function (res) {
        if (res.status === 401) return;
        if (res.status >= 300) {
          say(t('failed', { q: c.name, a: label, m: errorOf(res) }), true);
          return;
        }
        say(t('done', { q: c.name, a: label }));
        if (res.body && res.body.until) c.until = res.body.until;
        refresh(c);
        trail();
      });
    }).catch(function (e) {
      say(t('failed', { q: c.name, a: label, m: e.message }), true);
    });
  }

  function refresh(c) {
    call('GET', qpath(c.name)).then(function (res) {
      if (res.status === 200 && res.body) fromAdmin(res.body);
    }, function () {});
  }

  function label(c, sel) {
    var el = c.el.querySelector(sel);
    return el ? el.textContent.trim() : sel;
  }

  var STATES = ['pause', 'resume', 'close', 'open'];

  function onButton(c, what) {
    var l = label(c, '[data-act="' + what + '"]');
    if (STATES.indexOf(what) >= 0)
      return act(c, l, t('ask_' + what, { q: c.name }), 'POST', '/' + what);
    if (what === 'notice_clear')
      return act(c, l, t('ask_notice_clear', { q: c.name }), 'DELETE',
        '/notice');
    if (what === 'fail_open_end')
      return act(c, l, t('ask_failopen_end', { q: c.name }), 'DELETE',
        '/fail-open');
  }

  function onForm(c, form) {
    var kind = form.getAttribute('data-form');
    var l = label(c, '[data-form="' + kind + '"] [type="submit"]');
    var v = function (n) { return form.elements[n].value.trim(); };
    if (kind === 'config') return configForm(c, form, l);
    if (kind === 'promote')
      return act(c, l, t('ask_promote', { q: c.name, n: v('count') }),
        'POST', '/promote', { count: Number(v('count')) });
    if (kind === 'notice')
      return act(c, l, t('ask_notice', { q: c.name }) + '\n' + v('text'),
        'PUT', '/notice', { text: v('text') });
    if (kind === 'fail_open')
      return act(c, l, t('ask_failopen', { q: c.name, n: v('minutes') }),
        'POST', '/fail-open', { minutes: Number(v('minutes')) });
    if (kind === 'beacon')
      return act(c, l, t('ask_beacon', { q: c.name, v: v('beacon') }),
        'POST', '/draw', { beacon: v('beacon') });
  }

  // Only the fields that differ from the queue's configuration are sent.
  function configForm(c, form, l) {
    var body = {}, said = [];
    ['batch', 'interval', 'max_active'].forEach(function (k) {
      var s = form.elements[k].value.trim();
      if (s === '' || String(c.config[k]) === s) return;
      body[k] = Number(s);
      said.push(k + ' ' + (c.config[k] === undefined ? '–' : c.config[k]) +
        ' → ' + s);
    });
    if (!said.length) {
      say(t('nothing', { q: c.name }));
      return;
    }
    // sent: from now on the server's values are shown again
    Array.prototype.forEach.call(form.elements, function (e) {
      e.removeAttribute('data-typed');
    });
    return act(c, l, t('ask_config', { q: c.name, c: said.join(', ') }),
      'PUT', '', body);
  }

  function wire(c) {
    c.el.addEventListener('input', function (e) {
      if (e.target.closest('[data-form="config"]'))
        e.target.setAttribute('data-typed', '');
    });
    c.el.addEventListener('click', function (e) {
      var b = e.target.closest('[data-act]');
      if (b && b.getAttribute('data-act') === 'report') openReport(c.name);
      else if (b) onButton(c, b.getAttribute('data-act'));
    });
    c.el.addEventListener('submit', function (e) {
      e.preventDefault();
      onForm(c, e.target);
    });
  }

  // ---- the trail ------------------------------------------------------------

  function changesText(e) {
    var ch = e.changes || {}, out = Object.keys(ch).map(function (k) {
      var v = ch[k] || [];
      return k + ': ' + (v[0] === null ? '–' : v[0]) + ' → ' +
        (v[1] === null ? '–' : v[1]);
    });
    if (e.detail && Object.keys(e.detail).length)
      out.push(JSON.stringify(e.detail));
    return out.join('; ');
  }

  function trail() {
    var q = $('c-trail-queue').value;
    call('GET', '/v1/admin/audit?limit=100' +
      (q ? '&queue=' + encodeURIComponent(q) : '')).then(function (res) {
      var body = $('c-trail').tBodies[0], note = $('c-trail-note');
      if (res.status === 401) return;
      if (res.status !== 200 || !res.body) {
        note.textContent = t('no_trail', { m: errorOf(res) });
        body.replaceChildren();
        return;
      }
      var entries = res.body.entries || [];
      note.textContent = entries.length ? '' : T.trail_empty;
      body.replaceChildren.apply(body, entries.map(function (e) {
        var tr = document.createElement('tr');
        [new Date(e.at).toISOString().replace('T', ' ').slice(0, 19),
          e.admin, e.queue, e.action, changesText(e)].forEach(function (v) {
          var td = document.createElement('td');
          td.textContent = v === undefined || v === null ? '' : v;
          tr.appendChild(td);
        });
        return tr;
      }));
    }, function () {});
  }

  // ---- the report ----------------------------------------------------------

  /*
   * A queue's report (GET .../report, doc/api.md "The report"), read when
   * asked, never live: its totals, and charts this page draws of its
   * minutes and histograms. Printing the page while it is open prints it
   * alone (console.css's print rules, body[data-view=report]).
   */
  var reportQueue = null;
  var REFUSED = ['refused_work', 'refused_invitation', 'refused_rate',
    'refused_origin'];

  // A datetime-local value, read as UTC, as RFC 3339; '' when empty.
  function utcOf(v) {
    return v ? v + (v.length === 16 ? ':00' : '') + 'Z' : '';
  }

  function reportPath(csv) {
    var f = $('c-report-form').elements, q = [];
    var from = utcOf(f.from.value), to = utcOf(f.to.value);
    if (from) q.push('from=' + encodeURIComponent(from));
    if (to) q.push('to=' + encodeURIComponent(to));
    return qpath(reportQueue, csv ? '/report.csv' : '/report') +
      (q.length ? '?' + q.join('&') : '');
  }

  function openReport(name) {
    reportQueue = name;
    $('c-report').hidden = false;
    document.body.setAttribute('data-view', 'report');
    $('c-report-h').textContent = t('report_of', { q: name });
    loadReport();
    $('c-report').scrollIntoView();
  }

  function closeReport() {
    reportQueue = null;
    $('c-report').hidden = true;
    document.body.removeAttribute('data-view');
  }

  function loadReport() {
    var q = reportQueue;
    $('c-report-note').textContent = '';
    call('GET', reportPath(false)).then(function (res) {
      if (res.status === 401 || q !== reportQueue) return;
      if (res.status !== 200 || !res.body) {
        $('c-report-note').textContent = t('no_report', { m: errorOf(res) });
        return;
      }
      showReport(res.body);
    }, function () {});
  }

  function utcText(s) {
    return new Date(s * 1000).toISOString().slice(0, 16).replace('T', ' ');
  }

  function secs(v) {
    return typeof v === 'number' ? num(v) + ' s' : '–';
  }

  function showReport(r) {
    var tt = r.totals || {}, w = r.wait || {}, e = r.eta_error || {};
    var m = r.minutes || [];
    var refused = REFUSED.reduce(function (a, k) { return a + (tt[k] || 0); },
      0);
    $('c-report-range').textContent = t('report_range', { a: utcText(r.from),
      b: utcText(r.to), n: m.length, s: (r.step || 60) / 60 });
    $('c-report-note').textContent = m.length ? '' : T.report_empty;
    var facts = [['joined', num(tt.joined)], ['admitted', num(tt.admitted)],
      ['abandoned', num(tt.abandoned)], ['left', num(tt.left)],
      ['expired', num(tt.expired)], ['kicked', num(tt.kicked)],
      ['noshows', num(tt.noshows)], ['refused', num(refused)],
      ['peak_waiting', num(tt.peak_waiting)],
      ['peak_active', num(tt.peak_active)],
      ['peak_streams', num(tt.peak_streams)],
      ['wait', [w.p50, w.p90, w.p99, w.max].map(secs).join(' / ')],
      ['eta_error', [e.p50, e.p90].map(secs).join(' / ')]];
    $('c-report-totals').replaceChildren.apply($('c-report-totals'),
      facts.map(function (f) {
        var div = document.createElement('div');
        var dt = document.createElement('dt'), dd = document.createElement('dd');
        dt.textContent = T['r_' + f[0]] || f[0];
        dd.textContent = f[1];
        dd.setAttribute('data-r', f[0]);
        div.appendChild(dt);
        div.appendChild(dd);
        return div;
      }));
    var charts = $('c-report-charts');
    charts.replaceChildren(
      lineFigure('flow', [m.map(function (x) { return x.joined; }),
        m.map(function (x) { return x.admitted; })]),
      lineFigure('waiting', [m.map(function (x) { return x.peak_waiting; })]),
      barFigure('wait', w.buckets || []),
      barFigure('error', e.buckets || []));
  }

  function svgOf(fig) {
    var svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', '0 0 300 80');
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('aria-hidden', 'true');
    fig.appendChild(svg);
    return svg;
  }

  function figureOf(kind, caption) {
    var fig = document.createElement('figure');
    var cap = document.createElement('figcaption');
    fig.setAttribute('data-rchart', kind);
    cap.textContent = caption;
    fig.appendChild(cap);
    return fig;
  }

  // Series of numbers, one a minute (or step), each as a line.
  function lineFigure(kind, series) {
    var max = 0, fig, svg;
    series.forEach(function (s) {
      s.forEach(function (v) { if (v > max) max = v; });
    });
    fig = figureOf(kind, T['c_' + kind] + ' (max ' + num(max) + ')');
    svg = svgOf(fig);
    series.forEach(function (s, k) {
      var line = document.createElementNS(SVGNS, 'polyline');
      if (s.length === 1) s = [s[0], s[0]];     // one minute: a level line
      line.setAttribute('points', s.map(function (v, i) {
        var x = s.length > 1 ? i * 300 / (s.length - 1) : 150;
        return x.toFixed(1) + ',' + (78 - (max ? v / max : 0) * 74).toFixed(1);
      }).join(' '));
      if (k) line.setAttribute('class', 'alt');
      svg.appendChild(line);
    });
    return fig;
  }

  // A histogram's buckets ({le, count}), a bar each.
  function barFigure(kind, buckets) {
    var max = 0, total = 0, fig, svg, width = 300 / (buckets.length || 1);
    buckets.forEach(function (b) {
      total += b.count;
      if (b.count > max) max = b.count;
    });
    fig = figureOf(kind, T['c_' + kind] + ' (' + num(total) + ')');
    svg = svgOf(fig);
    buckets.forEach(function (b, i) {
      var h = max ? b.count / max * 74 : 0;
      var bar = document.createElementNS(SVGNS, 'rect');
      var tip = document.createElementNS(SVGNS, 'title');
      bar.setAttribute('x', (i * width + 1).toFixed(1));
      bar.setAttribute('width', Math.max(width - 2, 1).toFixed(1));
      bar.setAttribute('y', (78 - h).toFixed(1));
      bar.setAttribute('height', h.toFixed(1));
      bar.setAttribute('class', 'bar');
      bar.setAttribute('data-count', b.count);
      tip.textContent = '≤ ' + b.le + ': ' + b.count;
      bar.appendChild(tip);
      svg.appendChild(bar);
    });
    return fig;
  }

  // The CSV through the same call (the token in its header), saved.
  function downloadCsv() {
    var q = reportQueue;
    fetch(reportPath(true), { headers: headers(), cache: 'no-store',
      credentials: 'omit', referrerPolicy: 'no-referrer' }).then(function (r) {
      if (r.status === 401) { refused(); return null; }
      return r.text().then(function (text) {
        if (!r.ok) {
          $('c-report-note').textContent = t('no_report',
            { m: 'HTTP ' + r.status });
          return;
        }
        var a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
        a.download = q + '-report.csv';
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
        $('c-report-note').textContent = t('csv_done',
          { q: q, n: Math.max(text.trim().split('\n').length - 1, 0) });
      });
    }, function () {});
  }

  // ---- start ----------------------------------------------------------------

  function init() {
    try {
      T = JSON.parse(document.body.getAttribute('data-text'));
    } catch (e) {
      T = {};
    }
    $('c-login-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var v = $('c-token').value.trim();
      $('c-token').value = '';
      if (v) start(v);
    });
    $('c-logout').addEventListener('click', logout);
    $('c-trail-form').addEventListener('submit', function (e) {
      e.preventDefault();
      trail();
    });
    $('c-report-form').addEventListener('submit', function (e) {
      e.preventDefault();
      loadReport();
    });
    $('c-report-form').addEventListener('click', function (e) {
      var b = e.target.closest('[data-rep]');
      var what = b && b.getAttribute('data-rep');
      if (what === 'csv') downloadCsv();
      else if (what === 'print') window.print();
      else if (what === 'close') closeReport();
    });
    $('c-confirm-ok').addEventListener('click', function () { answer(true); });
    $('c-confirm-no').addEventListener('click', function () { answer(false); });
    $('c-confirm').addEventListener('close', function () { answer(false); });
    setInterval(function () {
      Object.keys(cards).forEach(function (n) { countdown(cards[n]); });
    }, 1000);
    var kept = sessionStorage.getItem(KEY);
    if (kept) start(kept);
    else showLogin('');
  }

  window.waitroomConsole = { sseParser: sseParser };
  init();
}());
