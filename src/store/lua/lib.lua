-- lib.lua: helpers that embed.sh puts in front of every script, behind
-- the script's prelude. lib.lua and the scripts name KEYS and ARGV as
-- scripts.def does (K_config, A_token; a run, such as A_tokens, is a
-- list the prelude makes), and a default as conf.c's key table does
-- (DEFAULT_active_ttl; mode_cap): the build writes in their places and
-- values (script_lua.c), so no default is written down here.
--
-- Every queue script's KEYS start with the queue's ten, built by
-- keys.c: K_config K_seq K_waiting K_active K_seen K_stats K_tick
-- K_unchecked K_line K_places.
-- Time is Redis TIME, so every instance shares one clock.

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A time in ms as text, for a score that many members share: Redis writes
-- a Lua number argument out anew (printf %.17g) for every place it takes
-- in a call, so the text is written once instead.
local function ms_text(ms)
  return string.format('%d', ms)
end

-- The queue's configuration, or nil when there is no such queue. Built
-- whole by one constructor, in the order HMGET names the fields: a table
-- filled field by field grows five times, which cost every script run a
-- quarter of what reading the hash did. A field the hash lacks takes its
-- default; the times (unix s in the hash) are in ms, 0 for none.
local function load_conf(key)
  local v = redis.call('HMGET', key, 'state', 'mode', 'batch', 'interval',
    'max_active', 'active_ttl', 'waiting_ttl', 'max_waiting', 'redirect',
    'renew', 'access', 'opens_at', 'prequeue_from', 'closes_at',
    'beacon_round', 'ver', 'notice', 'fail_open_until', 'fail_open_prev',
    'noshow_after', 'noshow_refill')
  if not v[1] then
    return nil
  end
  local c = { state = v[1], mode = v[2] or DEFAULT_mode,
    batch = v[3] or DEFAULT_batch, interval = v[4] or DEFAULT_interval,
    max_active = v[5] or DEFAULT_max_active,
    active_ttl = v[6] or DEFAULT_active_ttl,
    waiting_ttl = v[7] or DEFAULT_waiting_ttl,
    max_waiting = v[8] or DEFAULT_max_waiting, redirect = v[9],
    renew = v[10] or DEFAULT_renew, access = v[11] or DEFAULT_access,
    opens_at = (tonumber(v[12]) or 0) * 1000,
    prequeue_from = (tonumber(v[13]) or 0) * 1000,
    closes_at = (tonumber(v[14]) or 0) * 1000, beacon_round = v[15] or '',
    ver = v[16] or '', notice = v[17] or '',
    fail_open_until = tonumber(v[18]) or 0, fail_open_prev = v[19],
    noshow_after = v[20] or DEFAULT_noshow_after,
    noshow_refill = v[21] or DEFAULT_noshow_refill }
  -- A cap of 0 is not set: the mode's own cap (mode_cap: batch in rate
  -- mode, max_active in capacity mode) then takes its value, and the
  -- other cap is off. What every script and the facts see is this.
  local field, value = mode_cap(c.mode)
  if field and (tonumber(c[field]) or 0) <= 0 then
    c[field] = value
  end
  return c
end

-- A new version of the configuration at key, for its 'ver' field: every
-- script that writes the hash moves it, so a daemon holding the facts of
-- one version (join.lua) knows them current while it stands. Later than
-- the last, and, being the clock's microseconds, than any version a
-- queue deleted and made again had.
local function conf_version(key)
  local t = redis.call('TIME')
  local us = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = tonumber(redis.call('HGET', key, 'ver') or '') or 0
  return string.format('%d', math.max(us, last + 1))
end

-- A scheduled sale (opens_at) splits the waiting set's scores in three
-- ranges, so one sorted set still holds one line (doc/design.md, "The
-- draw"): drawn entrants at DRAWN + place (place 1 first), pre-queue
-- entrants not yet drawn at PRE + ticket, below PRE_TOP, and joins after
-- the opening at their ticket, as without a schedule. All exact in a
-- double. (Lua writes a number into a string with 14 digits: the bounds
-- of ranges are given as text.)
local DRAWN = -2251799813685248	-- -2^51
local PRE = -1125899906842624	-- -2^50
local PRE_TOP = -562949953421312	-- -2^49
local PRE_ABOVE = '(-1125899906842624'
local PRE_BELOW = '(-562949953421312'

-- The line's two bitmaps of places that left it (doc/design.md, "Live
-- positions"), so that an instance can rank its own streams itself
-- (line.lua): each part of the line (drawn places, pre-queue tickets,
-- tickets) holds every number from its lowest member's to its highest's
-- but those whose bit is set, in K_places (by drawn place) or K_line (by
-- ticket). Who leaves from the middle sets its bit in the same run (a
-- leave, a kick, the abandoned); who leaves from the front (an admission)
-- needs none, nor a join, but for a ticket a batch took and did not place.
-- Sets the bits of the scores at scores[from], scores[from + step]...,
-- one BITFIELD a thousand; a score that is no number (ZMSCORE's nil: no
-- such member) is passed over, and a ticket past 2^32 - 1 has no bit
-- (line.lua then finds its part's count wrong, and ranks.lua ranks it).
local function line_gone(scores, from, step)
  local args = { [K_line] = {}, [K_places] = {} }
  local function flush(key)
    if #args[key] > 0 then
      redis.call('BITFIELD', key, unpack(args[key]))
    end
    args[key] = {}
  end
  for i = from, #scores, step do
    local s = tonumber(scores[i]) or -1
    local key, at = K_line, s
    if s < PRE then
      key, at = K_places, s - DRAWN
    elseif s < PRE_TOP then
      at = s - PRE
    end
    local a = args[key]
    if at >= 0 and at <= 4294967295 then
      a[#a + 1], a[#a + 2], a[#a + 3], a[#a + 4] = 'SET', 'u1',
        string.format('%d', at), 1
      if #a >= 4000 then
        flush(key)
      end
    end
  end
  flush(K_line)
  flush(K_places)
end

-- Pre-queue entrants not yet drawn.
local function undrawn()
  return redis.call('ZCOUNT', K_waiting, PRE_ABOVE, PRE_BELOW)
end

-- The state in force: closes_at closes the queue by itself.
local function state_at(c, now)
  if c.closes_at > 0 and now >= c.closes_at then
    return 'closed'
  end
  return c.state
end

-- A scheduled queue admits nobody before its opening, nor while pre-queue
-- entrants await the draw (whoever admits asks this: the tick, a DELETE's
-- refill of a capacity slot, a join admitted at once).
local function draw_holds(c, now)
  return c.opens_at > 0 and (now < c.opens_at or undrawn() > 0)
end

-- What of a scheduled queue's draw no admin call may change any more (a
-- promise holds against the operator too): 'draw_done' once drawn (the
-- whole record), 'draw_started' once the opening passed with a published
-- commitment (opens_at and beacon_round: the beacon is awaited, or the
-- order is being drawn), else nil. draw is the draw's hash.
local function draw_fixed(c, draw, now)
  local d = redis.call('HMGET', draw, 'seed', 'state')
  if d[2] == 'drawn' then
    return 'draw_done'
  end
  if d[1] and c.opens_at > 0 and now >= c.opens_at then
    return 'draw_started'
  end
  return nil
end

-- A schedule's secret seed and its commitment, written in the same run as
-- the schedule (opens_at, unix seconds as text), so nobody sees an
-- opening without its commitment; never replaced once written.
local function draw_seed(draw, opens_at, seed, commit)
  if (tonumber(opens_at) or 0) > 0 and
      redis.call('HSETNX', draw, 'seed', seed) == 1 then
    redis.call('HSET', draw, 'commit', commit)
  end
end

-- A join batch's mark in the seen set, '@first:last' (its tickets, the
-- scores its new places took in the line): one member, scored when the
-- batch ran, stands for all of them until each is seen on its own (a
-- status or a stream adds the token itself). tick.lua's sweep drops those
-- of its tickets still waiting and not seen since, once the mark is
-- waiting_ttl old. (After the opening only: a pre-queue entrant's score
-- changes at the draw, so each is marked on its own.) A token is never
-- '@'-led, so a mark is told from one by its first byte.
local function batch_mark(first, last)
  return string.format('@%d:%d', first, last)
end

-- Active sessions not yet ended at now.
local function active_count(now)
  return redis.call('ZCOUNT', K_active, '(' .. now, '+inf')
end

-- The mean session, in ms: a moving average over the sessions that
-- ended ('sess' in the stats hash), active_ttl until one has.
local function mean_session(c, sess)
  return tonumber(sess or '') or tonumber(c.active_ttl) * 1000
end

-- k sessions ended, each after ms: each moves the mean a twentieth of
-- the way (bench/eta: fast enough to follow a room's first minutes).
-- For the ETA's rate of early ends (eta.c), the time they were inside
-- ('sess_ms_sum', ms) and, when they ended before active_ttl, how many
-- did ('sess_early').
local function sessions_ended(k, ms, c)
  if k <= 0 then
    return
  end
  local st = redis.call('HMGET', K_stats, 'sess', 'sess_ms_sum',
    'sess_early')
  local sess = mean_session(c, st[1])
  sess = sess + (1 - (19 / 20) ^ k) * (ms - sess)
  local early = tonumber(st[3]) or 0
  if ms < tonumber(c.active_ttl) * 1000 then
    early = early + k
  end
  redis.call('HSET', K_stats, 'sess', string.format('%d', sess),
    'sess_ms_sum', string.format('%d', (tonumber(st[2]) or 0) + k * ms),
    'sess_early', string.format('%d', early))
end

-- What the line's speed and the ETA read of the stats hash, in one call:
-- { rate, sess, admitted, abandoned, eta_band, sess_early, sess_ms_sum,
--   eta_ages }.
local function line_stats()
  return redis.call('HMGET', K_stats, 'rate', 'sess', 'admitted',
    'abandoned', 'eta_band', 'sess_early', 'sess_ms_sum', 'eta_ages')
end

-- The stats hash's 'eta_ages', for eta.c's eta_young: 'head_at sum n',
-- when the line's first joined (unix ms, 0: unknown; admit() keeps it)
-- and the ages at which abandoners left the line (ms), added up, and
-- how many (tick.lua's sweep). One field, as every status reads it.
-- head: the new head_at (nil: as it was); sum and n: ages to add.
local function ages_put(head, sum, n)
  local was = redis.call('HGET', K_stats, 'eta_ages') or ''
  local h, s, k = string.match(was, '^(%d+) (%d+) (%d+)$')
  redis.call('HSET', K_stats, 'eta_ages', string.format('%s %s %d',
    head and ms_text(head) or (h or '0'), ms_text((tonumber(s) or 0) + sum),
    (tonumber(k) or 0) + n))
end

-- The share of the line's leavers admitted (the rest abandoned), from
-- line_stats() st: never below a half, 1 until anyone left.
local function line_keep(st)
  local adm, ab = tonumber(st[3]) or 0, tonumber(st[4]) or 0
  if adm + ab > 0 then
    return math.max(adm / (adm + ab), 0.5)
  end
  return 1
end

-- How fast the line moves, in places a second: the 'rate' of facts().
-- A capacity queue's slots turn over once every mean session, and the
-- places ahead of a waiter also go to those who abandon (their share of
-- the line's leavers so far), so it moves at max_active / mean session /
-- the share admitted: steady from the first join, where the measured
-- admission rate (a moving average over a minute) lagged the room by
-- a third (bench/eta). A rate queue's line moves batch / interval / the
-- share admitted. Any other queue: the measured admission rate. st:
-- line_stats(), read here when not given.
local function line_speed(c, st)
  st = st or line_stats()
  local keep = line_keep(st)
  local max, batch = tonumber(c.max_active), tonumber(c.batch)
  local interval = tonumber(c.interval)
  if c.mode == 'capacity' and max > 0 then
    return string.format('%.6f', max * 1000 / mean_session(c, st[2]) / keep)
  elseif c.mode == 'rate' and batch > 0 and interval > 0 then
    return string.format('%.6f', batch / interval / keep)
  end
  return st[1] or '0'
end

-- The sessions inside a capacity queue, for the ETA (eta.c): how many
-- have not ended by now, the ends of the soonest ETA_ENDS of them (ms,
-- ascending, one string of words: the scores as Redis wrote them, no
-- number made of each) and the end of the latest ('0' when the soonest
-- are all of them). One call when they are few, three when there are
-- more (the count, the latest): never a read of the whole set. Each end
-- read costs Redis about 6k instructions (bench/scripts' statuscap: a
-- waiter's status, 203k in rate mode, was 675k with 64): ETA_ENDS = 16
-- keeps the ETA exact in a room of up to 16 sessions. Nothing for a
-- status that needs no ETA (wants false: an active session's, a
-- pre-queue entrant's).
local ETA_ENDS = 16
local function session_ends(c, now, wants)
  if c.mode ~= 'capacity' or tonumber(c.max_active) <= 0 or
      wants == false then
    return 0, '', '0'
  end
  local soon = redis.call('ZRANGEBYSCORE', K_active, '(' .. ms_text(now),
    '+inf', 'WITHSCORES', 'LIMIT', 0, ETA_ENDS)
  local ends = {}
  for i = 2, #soon, 2 do
    ends[i / 2] = soon[i]
  end
  local n, last = #ends, '0'
  if n == ETA_ENDS then
    n = active_count(now)
    if n > ETA_ENDS then
      last = redis.call('ZRANGE', K_active, -1, -1, 'WITHSCORES')[2]
    end
  end
  return n, table.concat(ends, ' '), last
end

-- The part of facts() the ETA reads beyond the configuration (eta.c's
-- struct queue_facts): { keep, active, ends, last_end, band, early,
-- ended_ms, leavers, ages }: the share of leavers admitted (line_keep),
-- the sessions inside (session_ends), the queue's own band, 'p10 p90 n'
-- ('eta_band', room_beat.lua's; '' until written), of the sessions that
-- ended, how many ended early and how long all were inside (ms;
-- sessions_ended), the line's leavers so far (admitted and abandoned:
-- how much keep weighs against eta.c's prior), and 'eta_ages' (ages_put;
-- '' until written).
local function eta_facts(c, now, st, wants)
  local active, ends, last = session_ends(c, now, wants)
  return string.format('%.4f', line_keep(st)), active, ends, last,
    st[5] or '', st[6] or '0', st[7] or '0',
    (tonumber(st[3]) or 0) + (tonumber(st[4]) or 0), st[8] or ''
end

-- The reply every status-like script shares (scripts.def's FACTS, read
-- by qstore_reply.c; check_qstore_reply counts the fields of the table
-- returned here against it):
-- { result, token, status, n, waiting, now_ms, last_tick_ms, rate,
--   mode, state, batch, interval, max_active, active_ttl, redirect,
--   opens_at, prequeue_from, entrants, waiting_ttl, keep, active, ends,
--   last_end, band, early, ended_ms, leavers, ages }
-- n is the 0-based rank when waiting, the expiry in ms when active, the
-- entrants when 'prequeue', and the number of active sessions for a queue
-- summary. waiting, when the caller knows it, saves counting the line
-- again. opens_at and prequeue_from are unix seconds (0: none); entrants
-- the pre-queue entrants not yet drawn (0 without a schedule); waiting_ttl
-- the seconds a waiter may go unseen (the status object's poll_after);
-- the rest eta_facts()'s.
local function facts(result, token, status, n, now, c, waiting)
  local tick = redis.call('GET', K_tick) or '0'
  local st = line_stats()
  local rate = line_speed(c, st)
  local keep, active, ends, last, band, early, ended, leavers, ages =
    eta_facts(c, now, st, status ~= 'active' and status ~= 'prequeue')
  waiting = waiting or redis.call('ZCARD', K_waiting)
  return { result, token, status, n, waiting, now,
    tonumber(tick), rate, c.mode, state_at(c, now), c.batch, c.interval,
    c.max_active, c.active_ttl, c.redirect or '', c.opens_at / 1000,
    c.prequeue_from / 1000, c.opens_at > 0 and undrawn() or 0,
    c.waiting_ttl, keep, active, ends, last, band, early, ended, leavers,
    ages }
end

-- Where token stands: 'waiting' and its rank (and it is marked seen),
-- 'prequeue' and the entrants when it awaits the draw (c given), 'active'
-- and its expiry in ms, or nil when it is gone.
local function place(token, now, c)
  local rank = redis.call('ZRANK', K_waiting, token)
  if rank then
    redis.call('ZADD', K_seen, now, token)
    local score = c and c.opens_at > 0 and
      tonumber(redis.call('ZSCORE', K_waiting, token))
    if score and score > PRE and score < PRE_TOP then
      return 'prequeue', undrawn()
    end
    return 'waiting', rank
  end
  local expiry = tonumber(redis.call('ZSCORE', K_active, token))
  if expiry and expiry > now then
    return 'active', expiry
  end
  return nil
end

-- place() as facts(), or nil when the token is gone.
local function locate(token, now, c)
  local status, n = place(token, now, c)
  if status then
    return facts('ok', token, status, n, now, c)
  end
  return nil
end

-- Admissions of the last minute, in six 10 s windows kept in the stats
-- hash as fields m0..m5 = "<window>:<count>": bounded, nothing to sweep.
local function count_admitted(stats, n, now)
  local w = math.floor(now / 10000)
  local f = 'm' .. (w % 6)
  local v = redis.call('HGET', stats, f)
  local cw, cn = string.match(v or '', '^(%d+):(%d+)$')
  if tonumber(cw) == w then
    n = n + tonumber(cn)
  end
  redis.call('HSET', stats, f, w .. ':' .. n)
end

-- The sum of the windows above that lie within the last minute.
local function admitted_last_minute(stats, now)
  local w = math.floor(now / 10000)
  local v = redis.call('HMGET', stats, 'm0', 'm1', 'm2', 'm3', 'm4', 'm5')
  local sum = 0
  for i = 1, 6 do
    local cw, cn = string.match(v[i] or '', '^(%d+):(%d+)$')
    if cw and tonumber(cw) > w - 6 then
      sum = sum + tonumber(cn)
    end
  end
  return sum
end

-- Active sessions admitted at now and ending at expiry for tokens, which
-- leave the seen set and are unchecked until their pass is first checked
-- (qstore.c's qstore_lookup): a ZADD to each set and one ZREM per 1,000 tokens rather
-- than per token (a call's arguments come from unpack, which the Lua
-- stack bounds).
local function activate(tokens, now, expiry)
  local score, at = ms_text(expiry), ms_text(now)
  for first = 1, #tokens, 1000 do
    local last = math.min(first + 999, #tokens)
    local args, since, k = {}, {}, 0
    for i = first, last do
      args[k + 1], args[k + 2] = score, tokens[i]
      since[k + 1], since[k + 2] = at, tokens[i]
      k = k + 2
    end
    redis.call('ZADD', K_active, unpack(args))
    redis.call('ZADD', K_unchecked, unpack(since))
    redis.call('ZREM', K_seen, unpack(tokens, first, last))
  end
end

-- The report's two helpers, count_waits and history_row (below), made
-- only when asked for: lib.lua's closures are made on every run of every
-- script, a join's too (bench/scripts: one closure here instead of two).
local function report_fns()
  -- The report's histograms (doc/api.md, "The report"), cumulative in the
  -- stats hash: a field per bucket, 'w0'..'w15' the time in line of each
  -- admitted visitor (bucket i: up to 2^i s; w15 above 16384 s), 'e0'..'e15'
  -- the error of the ETA told at the join (told minus waited, s; bucket i:
  -- up to ERR_LE[i + 1]; e15 above 4096 s); report.c has the same bounds.
  -- 'w_max' and 'e_max' (ms): the minute's largest, which room_beat.lua
  -- moves into the minute's row.
  -- count_waits puts the admitted's times in line there: popped is
  -- ZPOPMIN's { token, score, ... } (ascending tickets), t the admission
  -- (ms). A ticket joined by the first join mark at or above it (joins: the
  -- marks, one a second, 'ms' or 'ms eta pos' with the ETA in s the
  -- reporting process last told a new waiter and that one's position:
  -- room_beat.lua), so a wait is within a second (mostly short), and was
  -- told the ETA per place the mark's joiner was; one with no mark yet joined
  -- within the last second;
  -- a pre-queue entrant waited from the opening and was told no ETA. One
  -- HINCRBY per bucket touched. The first and the last one's wait (ms).
  -- (Its tables and helpers live inside, made only when it runs.)
  -- The ETA's own errors ('eta_errs' in the stats hash): the signed error
  -- (told / waited - 1, in thousandths) of the last ETA_ERRS admitted
  -- who waited ETA_ERR_MIN_MS or more (a shorter wait makes a share of
  -- nothing), oldest first, one string of words; 'eta_errs_n' counts all
  -- ever added, so room_beat.lua, which makes their p10 and p90 the
  -- queue's band (eta_band), reads them again only when it moved.
  local ETA_ERRS, ETA_ERR_MIN_MS = 200, 2000
  -- rel: the last ETA_ERRS at least of the n new errors, as numbers.
  local function eta_errs_add(rel, n)
    if n == 0 then
      return
    end
    local was = redis.call('HMGET', K_stats, 'eta_errs', 'eta_errs_n')
    local all = {}
    if n < ETA_ERRS then
      for w in string.gmatch(was[1] or '', '%S+') do
        all[#all + 1] = w
      end
    end
    for i = math.max(#rel - ETA_ERRS + 1, 1), #rel do
      all[#all + 1] = string.format('%d', rel[i])
    end
    redis.call('HSET', K_stats, 'eta_errs',
      table.concat(all, ' ', math.max(#all - ETA_ERRS + 1, 1)),
      'eta_errs_n', (tonumber(was[2]) or 0) + n)
  end

  -- The queue's band from its own errors (eta_errs_add), into 'eta_band'
  -- of its stats hash stats: 'p10 p90 n' (thousandths; n the errors it
  -- rests on, out of eta_errs_n, which 'eta_band_at' keeps), once there
  -- are ETA_BAND_MIN; until then none, and eta.c's default holds.
  local ETA_BAND_MIN = 50
  local function eta_band(stats)
    local at = redis.call('HMGET', stats, 'eta_errs_n', 'eta_band_at')
    if not at[1] or at[1] == at[2] then
      return
    end
    local xs = {}
    for w in string.gmatch(redis.call('HGET', stats, 'eta_errs') or '',
        '%S+') do
      xs[#xs + 1] = tonumber(w)
    end
    if #xs < ETA_BAND_MIN then
      return
    end
    table.sort(xs)
    local function q(p)
      local at = (#xs - 1) * p
      local lo = math.floor(at)
      local hi = math.min(lo + 1, #xs - 1)
      return xs[lo + 1] + (xs[hi + 1] - xs[lo + 1]) * (at - lo)
    end
    redis.call('HSET', stats, 'eta_band', string.format('%d %d %d',
      math.floor(q(0.1)), math.ceil(q(0.9)), #xs), 'eta_band_at', at[1])
  end

  local function count_waits(joins, popped, t, c)
    local WAIT_LE = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
      4096, 8192, 16384 }
    local ERR_LE = { -4096, -1024, -256, -64, -16, -4, -1, 0, 1, 4, 16, 64,
      256, 1024, 4096 }
    local function bucket_of(bounds, s)
      for i = 1, #bounds do
        if s <= bounds[i] then
          return i - 1
        end
      end
      return #bounds
    end
    -- The last index x (even) of popped from lo to hi for which ok(x)
    -- holds, ok holding up to some x and not after it; lo - 2 if none.
    -- It gallops from lo (most runs are short), then halves.
    local function last_ok(lo, hi, ok)
      local good, bad, step = lo - 2, hi + 2, 2
      while good + step <= hi and ok(good + step) do
        good, step = good + step, step * 2
      end
      if good + step <= hi then
        bad = good + step
      end
      local a, b = good / 2, bad / 2 - 1
      while a < b do
        local m = math.ceil((a + b) / 2)
        if ok(2 * m) then
          a = m
        else
          b = m - 1
        end
      end
      return 2 * a
    end
    -- The end of the run from i: the last ticket below bound, or at it
    -- unless strict (popped[i]'s is; the tickets ascend).
    local function run_end(i, bound, strict)
      return last_ok(i, #popped, function(x)
        local s = tonumber(popped[x])
        return s < bound or (not strict and s == bound)
      end)
    end
    local first, last = tonumber(popped[2]), tonumber(popped[#popped])
    local marks = {}
    if last >= 0 then
      marks = redis.call('ZRANGEBYSCORE', joins, math.max(first, 0), last,
        'WITHSCORES')
      local above = redis.call('ZRANGEBYSCORE', joins, '(' .. ms_text(last),
        '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
      marks[#marks + 1], marks[#marks + 2] = above[1], above[2]
    end
    -- A run of the admitted shares one mark (or the opening), so one time
    -- in line, counted once for the run. The ETA was told at pos to the
    -- mark's ticket: one that many places ahead was told as much less
    -- (the same per place), so the error grows with the ticket along the
    -- run, and each bucket's share of it is found by binary search.
    local addw, adde, errs, reln = {}, {}, {}, 0
    local wfirst, wlast, wmax, emax, sum = nil, nil, -1, nil, 0
    local i, k = 2, 1
    while i <= #popped do
      local score, ms, j, mark, told, pos = tonumber(popped[i])
      if score < 0 then
        ms = math.max(t - c.opens_at, 0)
        j = run_end(i, 0, true)
      else
        while marks[k] and tonumber(marks[k + 1]) < score do
          k = k + 2
        end
        local at
        at, told, pos = string.match(marks[k] or '', '^(%d+) ?(%d*) ?(%d*)$')
        ms = math.max(t - (tonumber(at) or t), 0)
        told, pos, mark = tonumber(told), tonumber(pos), tonumber(marks[k + 1])
        j = mark and run_end(i, mark) or #popped
      end
      -- a run holds popped[i] at least: the loop always moves on, even
      -- on tickets out of order (a stuck loop would hold Redis)
      j = math.max(j, i)
      local b, n = bucket_of(WAIT_LE, ms / 1000), (j - i) / 2 + 1
      addw[b] = (addw[b] or 0) + n
      wfirst, wlast, wmax = wfirst or ms, ms, math.max(wmax, ms)
      sum = sum + ms * n
      if told and pos and pos > 0 then
        local function eta_of(x)
          return told * math.max(pos - (mark - tonumber(popped[x])), 1) / pos
        end
        local function err_of(x)
          return eta_of(x) * 1000 - ms
        end
        local e, top, done = bucket_of(ERR_LE, err_of(i) / 1000),
          bucket_of(ERR_LE, err_of(j) / 1000), i - 2
        for bucket = e, top - 1 do
          local upto = last_ok(done + 2, j, function(x)
            return err_of(x) / 1000 <= ERR_LE[bucket + 1]
          end)
          if upto > done then
            adde[bucket] = (adde[bucket] or 0) + (upto - done) / 2
            done = upto
          end
        end
        adde[top] = (adde[top] or 0) + (j - done) / 2
        emax = math.max(emax or err_of(j), err_of(j))
        if ms >= ETA_ERR_MIN_MS then
          errs[#errs + 1] = { i, j, eta_of, ms }
          reln = reln + n
        end
      end
      i = j + 2
    end
    for bucket, n in pairs(addw) do
      redis.call('HINCRBY', K_stats, 'w' .. bucket, n)
    end
    for bucket, n in pairs(adde) do
      redis.call('HINCRBY', K_stats, 'e' .. bucket, n)
    end
    -- the band's errors, of which only the last ETA_ERRS can be kept: a
    -- ticket ahead of the mark's waiter joined up to a second before it
    -- (half on average), so its wait is that much longer than counted
    -- from the mark and, told when it joined, its ETA too; both get the
    -- half second (the wait alone had it: waits of 2 to 8 s read 6 to
    -- 25% longer than told, bench/eta's first ones)
    local rel, r = {}, #errs
    while r > 0 and #rel < ETA_ERRS do
      local i, j, eta_of, ms = unpack(errs[r])
      for x = j, math.max(i, j - 2 * (ETA_ERRS - #rel - 1)), -2 do
        rel[#rel + 1] = ((eta_of(x) * 1000 + 500) / (ms + 500) - 1) * 1000
      end
      r = r - 1
    end
    for a = 1, math.floor(#rel / 2) do
      rel[a], rel[#rel - a + 1] = rel[#rel - a + 1], rel[a]
    end
    eta_errs_add(rel, reln)
    redis.call('HINCRBY', K_stats, 'w_sum', ms_text(sum))
    local was = redis.call('HMGET', K_stats, 'w_max', 'e_max')
    if wmax > (tonumber(was[1]) or -1) then
      redis.call('HSET', K_stats, 'w_max', ms_text(wmax))
    end
    if emax and emax > (tonumber(was[2]) or -math.huge) then
      redis.call('HSET', K_stats, 'e_max', ms_text(emax))
    end
    return wfirst, wlast
  end

  -- A minute's row of the queue's history (scripts.def's HISTORY_ROW: one
  -- string of words) from t (unix s) on, as its stats hash q stands now:
  -- t, the counters, the minute's peaks of waiting, active, streams and
  -- pre-queue entrants (from its samples in series, room_beat.lua's),
  -- its largest wait and ETA error (ms; -1 and 'n' for none), then the
  -- histograms' buckets w0..w15, e0..e15. now, when given, is a last
  -- sample ({ waiting, active }) the peaks take in too. Also true when the
  -- minute was idle: no peak, nobody admitted.
  local function history_row(q, series, t, now)
    local COUNTERS = { 'joined', 'admitted', 'abandoned', 'left', 'expired',
      'removed', 'noshows', 'refused_work', 'refused_invite', 'refused_rate',
      'refused_origin', 'w_max', 'e_max' }
    for i = 0, 15 do
      COUNTERS[#COUNTERS + 1] = 'w' .. i
    end
    for i = 0, 15 do
      COUNTERS[#COUNTERS + 1] = 'e' .. i
    end
    local peak = { 0, 0, 0, 0 }
    if now then
      peak[1], peak[2] = now[1], now[2]
    end
    for _, s in ipairs(redis.call('ZRANGEBYSCORE', series, t, t + 59)) do
      local ok, v = pcall(cjson.decode, s)
      if ok and type(v) == 'table' then
        peak[1] = math.max(peak[1], tonumber(v.waiting) or 0)
        peak[2] = math.max(peak[2], tonumber(v.active) or 0)
        peak[3] = math.max(peak[3], tonumber(v.streams) or 0)
        peak[4] = math.max(peak[4], tonumber(v.prequeue) or 0)
      end
    end
    local v = redis.call('HMGET', q.stats, unpack(COUNTERS))
    local row = { string.format('%d', t) }
    for j = 1, 11 do
      row[#row + 1] = v[j] or '0'
    end
    row[#row + 1] = string.format('%d %d %d %d %s %s', peak[1], peak[2],
      peak[3], peak[4], v[12] or '-1', v[13] or 'n')
    for j = 14, #COUNTERS do
      row[#row + 1] = v[j] or '0'
    end
    return table.concat(row, ' '), peak[1] + peak[2] + peak[3] + peak[4] == 0
      and not v[12]
  end
  return count_waits, history_row, eta_band
end

-- Move up to n of the first waiters into active sessions ending
-- active_ttl from now, and announce them on the events channel
-- (event_entered: "entered <expiry_ms> <token> <token>...") so every
-- instance can tell its streams at once. Returns how many moved,
-- the tokens in the order they were admitted, and the first and the last
-- one's score in the line (their tickets; nil when none moved), and,
-- given the join marks (joins), the first and the last one's wait (ms),
-- counted in the histograms (count_waits); 'eta_ages' (ages_put) follows
-- the line's first.
local function admit(n, now, c, channel, joins)
  if n <= 0 then
    return 0, {}
  end
  local popped = redis.call('ZPOPMIN', K_waiting, n)
  local empty = #popped > 0 and redis.call('ZCARD', K_waiting) == 0
  if empty then
    -- an empty line has no parts: its bitmaps of who left start afresh
    -- (every later ticket is above every bit in them), and no first
    redis.call('DEL', K_line, K_places)
    ages_put(0, 0, 0)
  end
  local expiry = now + tonumber(c.active_ttl) * 1000
  local tokens = {}
  for i = 1, #popped, 2 do
    tokens[#tokens + 1] = popped[i]
  end
  if #tokens > 0 then
    activate(tokens, now, expiry)
    redis.call('HINCRBY', K_stats, 'admitted', #tokens)
    redis.call('HINCRBY', K_stats, 'rate_n', #tokens)
    count_admitted(K_stats, #tokens, now)
    redis.call('PUBLISH', channel, event_entered(expiry, tokens))
  end
  local wfirst, wlast
  if joins and #tokens > 0 then
    local count_waits = report_fns()
    wfirst, wlast = count_waits(joins, popped, now, c)
    -- when the line's first joined, about: the last admitted's join
    -- mark's time (the first joined then or later), the age of its
    -- oldest place for the ETA (eta.c's eta_young)
    if wlast and not empty then
      ages_put(now - wlast, 0, 0)
    end
  end
  return #tokens, tokens, tonumber(popped[2]), tonumber(popped[#popped]),
    wfirst, wlast
end

-- Free slots of a capacity queue, never more than cap.
local function free_slots(now, c, cap)
  local free = tonumber(c.max_active) - active_count(now)
  if free > cap then
    return cap
  end
  return free
end

-- No-shows owed back to a rate queue with noshow_refill = yes (tick.lua
-- counts them into the stats hash's 'refill'): a new batch takes as many
-- as there are, at most another whole batch (a batch at most doubles);
-- the rest wait for the batches after.
local function refill_take(c, batch)
  if c.mode ~= 'rate' or c.noshow_refill ~= 'yes' then
    return 0
  end
  local owed = tonumber(redis.call('HGET', K_stats, 'refill') or '0')
  local take = math.min(owed, batch)
  if take > 0 then
    redis.call('HINCRBY', K_stats, 'refill', -take)
  end
  return take
end

-- How many may enter now under both caps, never more than cap: the
-- sessions (max_active, when set) and the admissions per interval (batch
-- every interval, when set; what the interval has left is 'owed' in the
-- stats hash, and a new interval grants a whole batch, nothing saved up,
-- keeping the cadence unless the queue sat idle). A passthrough queue has
-- neither. Whoever admits then calls took() with how many entered.
local function room(now, c, cap)
  if c.mode == 'passthrough' then
    return cap
  end
  local max = tonumber(c.max_active)
  if max > 0 then
    local free = max - active_count(now)
    if free < cap then
      cap = free > 0 and free or 0
    end
  end
  local batch = tonumber(c.batch)
  if batch <= 0 then
    return cap
  end
  -- The interval passes on its cadence whether or not a slot is free: an
  -- interval held back while the session cap was full would otherwise
  -- start late, and the next one (kept on the cadence) a tick after it,
  -- letting two batches in at once.
  local interval = tonumber(c.interval) * 1000
  local last = tonumber(redis.call('GET', K_tick) or '0')
  local owed = tonumber(redis.call('HGET', K_stats, 'owed') or '0')
  if last == 0 or now - last >= interval then
    owed = batch + refill_take(c, batch)
    local at = now
    if last > 0 and now - last < 2 * interval then
      at = last + interval
    end
    redis.call('SET', K_tick, ms_text(at))
    redis.call('HSET', K_stats, 'owed', owed)
  end
  if owed < cap then
    return owed
  end
  return cap
end

-- n entered through room(): the interval's allowance shrinks by n.
local function took(c, n)
  if n > 0 and c.mode ~= 'passthrough' and tonumber(c.batch) > 0 then
    redis.call('HINCRBY', K_stats, 'owed', -n)
  end
end

-- Remove token from queue c, whoever asks (leave.lua, admin_kick.lua,
-- each keeping its own counter): keys names the waiting, active, seen,
-- token's revoked and join marks' keys. A waiter leaves the line and the
-- seen set. An active session ends: its entry pass is revoked (the
-- revoked key lives until the pass would expire plus leeway ms; GET
-- /v1/check reads it),
-- and in a capacity queue its length counts in the mean session
-- (line_speed) and its slot goes to the next waiter at once, announced on
-- channel, as the batch cap (if set) allows, unless the queue is paused
-- or a scheduled opening's draw holds the line. Returns 'waiting' or
-- 'active', or nil when the token is in neither.
local function remove_token(c, keys, token, channel, leeway)
  local score = redis.call('ZSCORE', keys.waiting, token)
  if score then
    redis.call('ZREM', keys.waiting, token)
    redis.call('ZREM', keys.seen, token)
    line_gone({ score }, 1, 1)
    return 'waiting'
  end
  local expiry = tonumber(redis.call('ZSCORE', keys.active, token))
  if not expiry then
    return nil
  end
  redis.call('ZREM', keys.active, token)
  redis.call('ZREM', K_unchecked, token)
  local now = now_ms()
  local ttl = expiry - now + leeway
  if ttl > 0 then
    redis.call('SET', keys.revoked, '1', 'PX', ttl)
  end
  if c.mode ~= 'capacity' then
    return 'active'
  end
  local len = now - (expiry - tonumber(c.active_ttl) * 1000)
  sessions_ended(1, math.max(len, 0), c)
  if c.state ~= 'paused' and not draw_holds(c, now) then
    took(c, admit(room(now, c, 100), now, c, channel, keys.joins))
  end
  return 'active'
end

-- A renewing queue's session (renew = yes) ends active_ttl after its
-- last use: token's end (expiry, in ms) moves to now + active_ttl, but
-- only once it would move by a quarter of active_ttl or 5 s, whichever
-- is less, so a visitor checked many times a second costs one write
-- every few seconds on every instance together. The end in force.
local function renew(token, expiry, now, c)
  if c.renew ~= 'yes' then
    return expiry
  end
  local ttl = tonumber(c.active_ttl) * 1000
  local want = now + ttl
  if want - expiry < math.min(5000, ttl / 4) then
    return expiry
  end
  redis.call('ZADD', K_active, 'XX', ms_text(want), token)
  return want
end

-- One queue's entry of admin_show.lua (and room_read.lua), its keys q
-- (K_queues[i]): {} when there is no such queue, else { config, waiting,
-- active, totals, last_minute, prequeue, draw_ms, wait, eta_new }
-- (scripts.def's SHOW): wait the histogram of times in line ({ w0..w15,
-- their sum in ms }, count_waits), eta_new the ETA (s) last told a new
-- waiter (-1: none; room_beat.lua).
local SHOW_TOTALS = { 'joined', 'admitted', 'expired', 'left', 'abandoned',
  'removed', 'noshows' }
local function queue_show(q, now)
  local config = redis.call('HGETALL', q.config)
  if #config == 0 then
    return {}
  end
  local totals = redis.call('HMGET', q.stats, unpack(SHOW_TOTALS))
  for j = 1, #SHOW_TOTALS do
    totals[j] = tonumber(totals[j]) or 0
  end
  return { config, redis.call('ZCARD', q.waiting),
    redis.call('ZCOUNT', q.active, '(' .. now, '+inf'), totals,
    admitted_last_minute(q.stats, now),
    redis.call('ZCOUNT', q.waiting, PRE_ABOVE, PRE_BELOW),
    tonumber(redis.call('HGET', q.stats, 'draw_ms')) or 0,
    redis.call('HMGET', q.stats, 'w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6',
      'w7', 'w8', 'w9', 'w10', 'w11', 'w12', 'w13', 'w14', 'w15', 'w_sum'),
    tonumber(redis.call('HGET', q.stats, 'eta_new')) or -1 }
end

-- A script over many queues (room_read.lua) names the one at hand, its
-- keys q (K_queues[i]), as the helpers here read them.
local function use_queue(q)
  K_config, K_seq, K_waiting, K_active, K_seen, K_stats, K_tick,
    K_unchecked, K_line, K_places = q.config, q.seq, q.waiting, q.active,
    q.seen, q.stats, q.tick, q.unchecked, q.line, q.places
end

-- The trail (<prefix>:trail): every admin write, newest first, one JSON
-- text each, recorded by the script that makes the change and in the same
-- run, so a refused call records nothing. A script that records takes
-- KEY trail and ARG admin (the admin's name, from the daemon's
-- admin_token_file) and calls trail_add(K_trail, A_admin, queue, action,
-- changes, detail): changes maps a key to { before, after } (cjson.null
-- when absent), detail what else says what happened; either may be nil.
-- No secret goes in: no token, no seed before the draw. One function, its
-- bound inside: each closure of lib.lua is made on every run of every
-- script, a join's too (bench/scripts).
local function trail_add(key, admin, queue, action, changes, detail)
  local max = 10000	-- entries kept (doc/design.md: its size in bytes)
  redis.call('LPUSH', key, cjson.encode({ at = now_ms(), admin = admin,
    queue = queue, action = action, changes = changes or {},
    detail = detail or {} }))
  redis.call('LTRIM', key, 0, max - 1)
end
