// waitroom.js: the live part of the waiting page. It keeps one token per
// queue in localStorage (so a reload or a new tab keeps the place), follows
// the token's event stream and shows what comes: position, people ahead,
// the whole line, the wait in words, progress since arrival. Every value
// from the server is written with textContent, never as markup.
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

  function etaWords(sec) {
    if (sec === null || sec === undefined || sec < 0) return t('eta_none');
    if (sec < 60) return t('eta_soon');
    var m = Math.ceil(sec / 60);
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

  function render(st) {
    if (st.status === 'prequeue') { prequeue(st); return; }
    if (typeof st.position !== 'number') return;
    opened();
    var pos = st.position;
    if (!mine.first || pos > mine.first) { mine.first = pos; save(); }
    setState('waiting');
    text('wr-position', String(pos));
    text('wr-ahead', String(typeof st.ahead === 'number' ? st.ahead : pos - 1));
    text('wr-waiting', String(st.waiting));
    text('wr-eta', etaWords(st.eta_seconds));
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
    es.onerror = function () {
      if (redirecting) return;
      if (es && es.readyState === EventSource.CLOSED) { es = null; recheck(); } else connection(false);
    };
  }

  function join() {
    closeStream();
    setState('waiting');
    text('wr-live-text', t('joining'));
    fetch(api + '/tokens', { method: 'POST', cache: 'no-store' })
      .then(function (r) {
        if (r.status === 409) {
          return r.json().then(function (e) {
            stopped(e && e.error && e.error.code === 'queue_not_open' ? 'not_open' : 'closed');
          }, function () { stopped('closed'); });
        }
        if (r.status === 404) { stopped('notfound'); return null; }
        if (!r.ok) { retryLater(join); return null; }
        return r.json().then(function (st) {
          mine = { token: st.token, first: st.position || 0 };
          save();
          if (st.status === 'active') { entered(st); return; }
          render(st);
          follow();
        });
      })
      .catch(function () { retryLater(join); });
  }

  function start() {
    var state = body.getAttribute('data-state');
    var form = $('wr-join');
    if (form) {
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        forget();
        lastPosition = 0;
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
