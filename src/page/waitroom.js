// waitroom.js: the live part of the waiting page. It keeps one token per
// queue in localStorage (so a reload or a new tab keeps the place), follows
// the token's event stream and shows what comes: position, people ahead,
// the whole line, the wait in words, progress since arrival. A queue that
// asks for a proof of work answers the join with a challenge, which a Web
// Worker (pow.js) solves while the page says so; then it joins again. Every
// value from the server is written with textContent, never as markup.
(function () {
  'use strict';

  var body = document.body;
  var T = {};
  try { T = JSON.parse(body.getAttribute('data-text') || '{}'); } catch (e) { T = {}; }
  var queue = body.getAttribute('data-queue') || '';
  var api = '/v1/queues/' + encodeURIComponent(queue);
  var storeKey = 'waitroom:' + queue;
  var es = null;
  var retryTimer = null;
  var mine = null; // { token: ..., first: position at arrival }
  var lastPosition = 0;
  var redirecting = false;
  var solving = null; // the Worker of a proof of work, while it runs
  var challenges = 0; // challenges met since the last join that got in

  function $(id) { return document.getElementById(id); }
  function text(id, value) { var el = $(id); if (el) el.textContent = value; }
  function setState(s) { body.setAttribute('data-state', s); }
  function t(key, n) { return String(T[key] || '').replace('{n}', String(n)); }

  function load() {
    try {
      var v = JSON.parse(localStorage.getItem(storeKey) || 'null');
      return v && typeof v.token === 'string' ? v : null;
    } catch (e) { return null; }
  }
  function save() { try { localStorage.setItem(storeKey, JSON.stringify(mine)); } catch (e) { /* private mode */ } }
  function forget() { mine = null; try { localStorage.removeItem(storeKey); } catch (e) { /* private mode */ } }

  // With eta_range [low, high] (api.md): "about 4–6 minutes".
  function etaWords(sec, range) {
    if (sec === null || sec === undefined || sec < 0) return t('eta_none');
    if (sec < 60) return t('eta_soon');
    var m = Math.ceil(sec / 60);
    if (range && range.length === 2 && range[0] >= 60) {
      var lo = Math.ceil(range[0] / 60), hi = Math.ceil(range[1] / 60);
      if (lo < hi && hi < 90) return t('eta_minutes', lo + '\u2013' + hi);
    }
    if (m === 1) return t('eta_minute');
    if (m < 90) return t('eta_minutes', m);
    var h = Math.round(m / 60);
    return h === 1 ? t('eta_hour') : t('eta_hours', h);
  }

  function connection(live) {
    var el = $('wr-live');
    if (el) el.setAttribute('data-conn', live ? 'live' : 'reconnecting');
    text('wr-live-text', live ? t('live') : t('reconnecting'));
  }

  // Before a scheduled opening: when, how long, how many, and the draw's
  // commitment (short, linked to the draw's JSON), fetched once.
  var opensAt = 0, tickTimer = null, commitShown = false;
  function countdown() {
    var s = Math.max(0, Math.ceil((opensAt * 1000 - Date.now()) / 1000));
    var m = Math.floor(s / 60) % 60, sec = s % 60;
    text('wr-countdown', Math.floor(s / 3600) + ':' + (m < 10 ? '0' : '') + m +
      ':' + (sec < 10 ? '0' : '') + sec);
  }
  function prequeue(st) {
    setState('prequeue');
    text('wr-heading', t('pre_heading'));
    text('wr-entrants', String(st.entrants));
    if (st.opens_at !== opensAt) {
      opensAt = st.opens_at;
      var d = new Date(opensAt * 1000);
      text('wr-opens', d.toLocaleString(document.documentElement.lang || undefined,
        { dateStyle: 'medium', timeStyle: 'short' }));
    }
    countdown();
    if (!tickTimer) tickTimer = setInterval(countdown, 1000);
    if (!commitShown) {
      commitShown = true;
      fetch(api + '/draw', { cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          if (d && typeof d.commit === 'string') text('wr-commit', d.commit.slice(0, 16) + '…');
          else commitShown = false; // asked again with the next status
        })
        .catch(function () { commitShown = false; });
    }
  }
  function opened() {
    if (tickTimer) { clearInterval(tickTimer); tickTimer = null; }
    if (opensAt) { opensAt = 0; text('wr-heading', T.heading || ''); }
  }

  // The operator's notice (a string, or none): into the live region.
  function notice(n) {
    var el = $('wr-notice');
    var s = typeof n === 'string' ? n : '';
    if (!el || el.getAttribute('data-notice') === s) return;
    el.setAttribute('data-notice', s);
    text('wr-notice-text', s);
  }

  function render(st) {
    notice(st.notice);
    if (st.status === 'prequeue') { prequeue(st); return; }
    if (typeof st.position !== 'number') return;
    opened();
    var pos = st.position;
    if (!mine.first || pos > mine.first) { mine.first = pos; save(); }
    setState('waiting');
    text('wr-position', String(pos));
    text('wr-ahead', String(typeof st.ahead === 'number' ? st.ahead : pos - 1));
    text('wr-waiting', String(st.waiting));
    text('wr-eta', etaWords(st.eta_seconds, st.eta_range));
    var bar = $('wr-progress');
    if (bar) {
      var span = mine.first - 1;
      bar.value = span > 0 ? Math.round(100 * (mine.first - pos) / span) : (pos === 1 ? 100 : 0);
    }
    if (pos !== lastPosition) {
      lastPosition = pos;
      text('wr-announce', t('announce', pos));
    }
  }

  function closeStream() {
    if (es) { es.close(); es = null; }
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
  }

  function entered(st) {
    closeStream();
    setState('active');
    text('wr-message', t('entered'));
    text('wr-announce', t('entered'));
    if (!st.redirect) return;
    var url = new URL(st.redirect, location.href);
    url.searchParams.set('waitroom_token', st.token);
    if (st.pass) url.searchParams.set('waitroom_pass', st.pass);
    var link = $('wr-continue');
    if (link) link.setAttribute('href', url.href);
    redirecting = true;
    location.replace(url.href);
  }

  function gone() {
    closeStream();
    forget();
    setState('gone');
    text('wr-message', t('gone'));
    text('wr-announce', t('gone'));
  }

  function stopped(key) {
    closeStream();
    setState(key);
    text('wr-message', t(key));
  }

  function retryLater(fn) {
    connection(false);
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; fn(); }, 3000);
  }

  // The stream ended for good (an HTTP error, not a dropped connection):
  // ask what became of the token.
  function recheck() {
    fetch(api + '/tokens/' + encodeURIComponent(mine.token), { cache: 'no-store' })
      .then(function (r) {
        if (r.status === 404) {
          return r.json().then(function (e) {
            if (e && e.error && e.error.code === 'queue_not_found') stopped('notfound');
            else gone();
          });
        }
        if (!r.ok) { retryLater(recheck); return null; }
        return r.json().then(function (st) {
          if (st.status === 'active') entered(st);
          else { render(st); follow(); }
        });
      })
      .catch(function () { retryLater(recheck); });
  }

  function follow() {
    closeStream();
    es = new EventSource(api + '/tokens/' + encodeURIComponent(mine.token) + '/events');
    es.onopen = function () { connection(true); };
    es.addEventListener('status', function (ev) {
      connection(true);
      try { render(JSON.parse(ev.data)); } catch (e) { /* a malformed event changes nothing */ }
    });
    es.addEventListener('entered', function (ev) {
      try { entered(JSON.parse(ev.data)); } catch (e) { recheck(); }
    });
    es.addEventListener('gone', function () { gone(); });
    es.addEventListener('notice', function (ev) {
      try { notice(JSON.parse(ev.data).notice); } catch (e) { /* a malformed event changes nothing */ }
    });
    es.onerror = function () {
      if (redirecting) return;
      if (es && es.readyState === EventSource.CLOSED) { es = null; recheck(); } else connection(false);
    };
  }

  // "Checking your browser… about N seconds", and how likely it is done.
  function checking(secs, done) {
    setState('checking');
    text('wr-check-text', t('checking', Math.max(1, Math.round(secs))));
    var bar = $('wr-check-progress');
    if (bar) bar.value = Math.round(100 * done);
  }

  // Solve challenge c ({challenge, bits}) in a Worker, then join with it.
  // Each try succeeds with chance 2^-bits, so the tries left are 2^bits on
  // average however many were made: the estimate only learns the speed.
  function work(c) {
    if (!c.bits) { join({ challenge: c.challenge, nonce: '0' }); return; }
    if (typeof Worker === 'undefined') { stopped('needs_js'); return; }
    var expected = Math.pow(2, c.bits), rate = 1000000, started = Date.now();
    checking(expected / rate, 0);
    if (solving) solving.terminate();
    solving = new Worker('/assets/pow.js');
    solving.onmessage = function (ev) {
      var d = ev.data || {};
      if (typeof d.nonce !== 'string') {
        rate = d.progress / Math.max((Date.now() - started) / 1000, 0.001);
        checking(expected / rate, 1 - Math.exp(-d.progress / expected));
        return;
      }
      solving.terminate();
      solving = null;
      join({ challenge: c.challenge, nonce: d.nonce });
    };
    solving.onerror = function () {
      if (solving) solving.terminate();
      solving = null;
      stopped('needs_js');
    };
    solving.postMessage({ challenge: c.challenge, bits: c.bits });
  }

  // A join refused for its proof of work: solve the challenge that came
  // with the refusal, or a new one (challenge_too_easy: the line asks
  // more than when ours was issued). A few in a row (each used, failed or
  // too easy) mean something is wrong or moving fast: wait, start over.
  function challenged(err) {
    var code = err && err.code;
    if (!/^challenge_/.test(code || '')) { stopped('unavailable'); return; }
    if (++challenges > 3) { challenges = 0; retryLater(join); return; }
    if (err.challenge) { work(err.challenge); return; }
    fetch(api + '/challenge', { cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) { if (c) work(c); else retryLater(join); })
      .catch(function () { retryLater(join); });
  }

  function join(proof) {
    closeStream();
    setState('waiting');
    text('wr-live-text', t('joining'));
    var init = { method: 'POST', cache: 'no-store' };
    if (proof) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(proof);
    }
    fetch(api + '/tokens', init)
      .then(function (r) {
        if (r.status === 409) {
          return r.json().then(function (e) {
            stopped(e && e.error && e.error.code === 'queue_not_open' ? 'not_open' : 'closed');
          }, function () { stopped('closed'); });
        }
        if (r.status === 404) { stopped('notfound'); return null; }
        if (r.status === 403) return r.json().then(function (e) { challenged(e && e.error); });
        if (!r.ok) { retryLater(function () { join(proof); }); return null; }
        return r.json().then(function (st) {
          challenges = 0;
          mine = { token: st.token, first: st.position || 0 };
          save();
          if (st.status === 'active') { entered(st); return; }
          render(st);
          follow();
        });
      })
      .catch(function () { retryLater(function () { join(proof); }); });
  }

  function start() {
    var state = body.getAttribute('data-state');
    var form = $('wr-join');
    if (form) {
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        forget();
        lastPosition = 0;
        challenges = 0;
        join();
      });
    }
    if (state === 'notfound' || state === 'bad_token') return;
    if (typeof EventSource === 'undefined' || typeof fetch === 'undefined') return;
    var given = body.getAttribute('data-token');
    mine = load();
    if (given && (!mine || mine.token !== given)) { mine = { token: given, first: 0 }; save(); }
    if (mine) { if (state !== 'prequeue') setState('waiting'); follow(); return; }
    if (state === 'closed' || state === 'not_open') return;
    join();
  }

  window.addEventListener('pagehide', closeStream);
  window.addEventListener('pageshow', function (ev) {
    if (ev.persisted && mine && !es && !redirecting) follow();
  });
  start();
}());
