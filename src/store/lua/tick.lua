-- tick.lua: one admission tick of a queue, run by every instance. In the
-- order of the code below, it (0) sees whether Redis takes writes, (1)
-- ends sessions whose time is up, (2) sees whether a draw is due, (3)
-- ends a fail-open whose time is up, (4) counts the no-shows (and ends
-- them in a capacity queue), (5) drops waiters not seen for waiting_ttl,
-- (6) admits the next waiters in FIFO order and publishes them, (7)
-- keeps the measured admission rate and (8) works out the proof of work
-- a join needs now; the stats hash's counters are kept as it goes.
-- Work per call is capped; what is left is done on the next tick.
--
-- A full Redis (maxmemory, noeviction) refuses the "last seen" writes of
-- status.lua and ranks.lua but not the ZREMs of (5), which would then drop
-- waiters whose clients were there all along. So (5) runs only when
-- Redis takes writes and has taken them for waiting_ttl since any
-- instance last saw it full: K_full keeps that time for every instance.
-- While Redis is full the tick answers after (2), with (8) read but not
-- written: only (1) writes, which frees memory.
-- A scheduled queue admits nobody before its opening, nor while
-- pre-queue entrants await the draw (draw_step.lua), which the reply
-- asks for once it is due (2): at opens_at, and once the beacon is given
-- when one was announced (K_draw, the draw's hash).
-- The console's wait p50/p90 (room_read.lua) wants each admission's time
-- in line: (6) keeps it for the first and the last admitted of each run
-- in K_waits, from the join marks of K_joins (room_beat.lua writes one
-- a second: by that time the tickets had reached that score), and drops
-- the marks no ticket still in line needs; every admitted's time in line
-- and ETA error go into the report's histograms (lib.lua's count_waits).
-- No-shows (noshow_after > 0): sessions admitted noshow_after or more
-- ago whose pass was never checked, the oldest of K_unchecked (the pass
-- check's lookup, qstore.c's qstore_lookup, takes a session out at its
-- first check), are counted in the stats hash's 'noshows' and leave the
-- set, once each. A capacity queue ends them as a DELETE does: the pass
-- refused on every instance (each token's revoked key, named by
-- revoked_prefix and the token: the tokens are found here, so the keys
-- cannot be given, but they lie in the queue's hash slot), and their
-- slots go to the next waiters in (6) of the same run. A rate queue with
-- noshow_refill = yes owes them back: the stats hash's 'refill', which
-- lib.lua's room() adds to the next batches, at most doubling one.
-- KEYS: the queue's ten (lib.lua), then
--   full         when Redis was last seen full (ms)
--   draw         the draw's hash
--   joins        the join marks (sorted set: ms -> ticket reached)
--   waits        the last admissions' times in line (list)
-- ARGV:
--   channel      the events channel
--   cap          most tokens moved or swept per kind in one call
--   full_ago_ms  how long ago (ms) this instance last saw Redis refuse a
--                write for memory; -1: never
--   revoked_prefix  a token's revoked key less the token (keys.c)
--   leeway_ms    the leeway checkers allow a pass, in ms
-- Reply: { expired, abandoned, admitted, waiting, full, pow_bits, pow_ttl,
-- draw, rate, ver, notice, fail_open_until, noshows, draw_in } (full: now when
-- Redis refused a write, else 0;
-- pow_bits: the proof of work a join needs now, -1 when join_challenge is
-- off, see pow_now; draw: 1 when a draw is due, 2 when the schedule has no
-- seed yet, else 0; rate: lib.lua's line_speed after the tick, as text,
-- which the daemon gives the joins it answers from held facts (join.lua),
-- with ver, the configuration's version it was worked out at, '' when
-- none, notice: the queue's notice, '' when none, fail_open_until: unix s,
-- 0 when the queue is not failing open; noshows: the no-shows this run
-- counted; draw_in: the ms until the opening when it comes within
-- DRAW_SOON_MS and its draw can start then, else -1, so that the daemon
-- starts the draw at the opening, not at its next tick) or { 'no_queue' }
--
-- A queue failing open (admin_fail_open.lua) runs in passthrough mode
-- until fail_open_until; the first tick at or after that time, on any
-- instance, gives it back the mode it had (fail_open_prev).
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local channel, cap = A_channel, tonumber(A_cap)
local now = now_ms()
local ttl = tonumber(c.waiting_ttl) * 1000

-- (0) Does Redis take writes? Before any other write of this run, since
-- Redis refuses a script's writes for memory only until its first one.
local full = type(redis.pcall('INCRBY', K_seq, 0)) == 'table'

-- (1) sessions that ended; the active set is scored by expiry
local ended = redis.call('ZRANGEBYSCORE', K_active, '-inf', now,
  'LIMIT', 0, cap)
if #ended > 0 then
  redis.call('ZREM', K_active, unpack(ended))
  redis.call('ZREM', K_unchecked, unpack(ended))
  redis.call('HINCRBY', K_stats, 'expired', #ended)
end

-- The bits of work a join needs now (8), and how long a challenge lives.
-- pow_bits = auto follows the joins of the last 10 s, as every instance
-- counts them (the stats hash's 'joined'): the field 'pow_win' keeps up to
-- six "ms joined" marks, one written every 2 s by whichever instance ticks
-- (not while Redis is full), and the rate is the joins since the oldest
-- mark over at least 10 s. At or below pow_calm_rate: 0 (no work); above
-- it, pow_start_bits plus one per doubling, up to pow_max_bits.
local function pow_now(writable)
  local p = redis.call('HMGET', K_config, 'join_challenge', 'pow_bits',
    'pow_ttl', 'pow_start_bits', 'pow_max_bits', 'pow_calm_rate')
  local ttl = tonumber(p[3] or DEFAULT_pow_ttl)
  if (p[1] or DEFAULT_join_challenge) ~= 'pow' then
    return -1, ttl
  end
  local fixed = tonumber(p[2] or DEFAULT_pow_bits)
  if fixed > 0 then
    return fixed, ttl
  end
  local st = redis.call('HMGET', K_stats, 'joined', 'pow_win')
  local joined, marks = tonumber(st[1]) or 0, {}
  for m in string.gmatch(st[2] or '', '%d+') do
    marks[#marks + 1] = tonumber(m)
  end
  local t = now_ms()
  if writable and (#marks == 0 or t - marks[#marks - 1] >= 2000) then
    marks[#marks + 1], marks[#marks + 2] = t, joined
    while #marks > 12 do
      table.remove(marks, 1)
      table.remove(marks, 1)
    end
    local out = {}
    for i = 1, #marks do
      out[i] = string.format('%d', marks[i])
    end
    redis.call('HSET', K_stats, 'pow_win', table.concat(out, ' '))
  end
  local rate = 0
  if #marks >= 2 then
    rate = (joined - marks[2]) / math.max(10, (t - marks[1]) / 1000)
  end
  local calm = tonumber(p[6] or DEFAULT_pow_calm_rate)
  if rate <= calm then
    return 0, ttl
  end
  local bits = tonumber(p[4] or DEFAULT_pow_start_bits) +
    math.floor(math.log(rate / calm) / math.log(2))
  return math.min(bits, tonumber(p[5] or DEFAULT_pow_max_bits)), ttl
end

-- (2) The draw: due from the opening until drawn; a seed first.
local DRAW_SOON_MS = 2000
local draw, held, draw_in = 0, false, -1
if c.opens_at > 0 then
  local d = redis.call('HMGET', K_draw, 'seed', 'state', 'beacon')
  held = draw_holds(c, now)
  if not d[1] then
    draw = 2
  elseif d[2] ~= 'drawn' and (d[3] or c.beacon_round == '') then
    if now >= c.opens_at then
      draw = 1
    elseif c.opens_at - now <= DRAW_SOON_MS then
      draw_in = c.opens_at - now
    end
  end
end

if full then
  local bits, pttl = pow_now(false)
  return { #ended, 0, 0, redis.call('ZCARD', K_waiting), now, bits, pttl,
    draw, line_speed(c), c.ver, c.notice, c.fail_open_until, 0, draw_in }
end

-- (3) A fail-open whose time is up: the queue's mode before it again.
if c.fail_open_until > 0 and now >= c.fail_open_until * 1000 then
  redis.call('HSET', K_config, 'mode', c.fail_open_prev or DEFAULT_mode,
    'ver', conf_version(K_config))
  redis.call('HDEL', K_config, 'fail_open_until', 'fail_open_prev')
  c = load_conf(K_config)
end
-- (1)'s sessions, which ran their whole active_ttl, for the ETA (lib.lua's
-- line_speed), now that Redis takes writes
if c.mode == 'capacity' then
  sessions_ended(#ended, tonumber(c.active_ttl) * 1000, c)
end

-- A capacity queue's no-shows end as a DELETE ends a session: the pass is
-- refused until it would have expired plus the leeway, and each counts
-- in the mean session with the time it held its slot.
local function end_noshows(tokens, after)
  local leeway = tonumber(A_leeway_ms) or 0
  local ends = redis.call('ZMSCORE', K_active, unpack(tokens))
  for i = 1, #tokens do
    local ttl = (tonumber(ends[i]) or now) - now + leeway
    if ttl > 0 then
      redis.call('SET', A_revoked_prefix .. tokens[i], '1', 'PX',
        ms_text(ttl))
    end
  end
  redis.call('ZREM', K_active, unpack(tokens))
  sessions_ended(#tokens, after, c)
end

-- (4) no-shows (see the top)
local noshows = 0
local after = tonumber(c.noshow_after) * 1000
if after > 0 then
  local gone = redis.call('ZRANGEBYSCORE', K_unchecked, '-inf',
    ms_text(now - after), 'LIMIT', 0, cap)
  noshows = #gone
  if noshows > 0 then
    redis.call('ZREM', K_unchecked, unpack(gone))
    redis.call('HINCRBY', K_stats, 'noshows', noshows)
    if c.mode == 'capacity' then
      end_noshows(gone, after)
    elseif c.mode == 'rate' and c.noshow_refill == 'yes' then
      redis.call('HINCRBY', K_stats, 'refill', noshows)
    end
  end
end

-- The waiters of old, the seen set's members not seen for waiting_ttl:
-- its tokens, and for each join batch's mark (lib.lua's batch_mark) those
-- of its tickets still in the line and not in the seen set, never seen
-- since they joined. A mark is taken only while the tokens taken stay
-- within cap (one batch is at most 64), and leaves the seen set here; the
-- rest wait for the next tick.
local function quiet_waiters(old, cap)
  local quiet, done, budget = {}, {}, cap
  for i = 1, #old do
    if string.byte(old[i]) ~= 64 then
      quiet[#quiet + 1] = old[i]
      budget = budget - 1
    end
  end
  for i = 1, #old do
    local first, last = string.match(old[i], '^@(%d+):(%d+)$')
    if string.byte(old[i]) == 64 and (not first or
        last - first + 1 <= budget) then
      done[#done + 1] = old[i]
      local batch = first and
        redis.call('ZRANGEBYSCORE', K_waiting, first, last) or {}
      budget = budget - #batch
      if #batch > 0 then
        local at = redis.call('ZMSCORE', K_seen, unpack(batch))
        for k = 1, #batch do
          if not at[k] then
            quiet[#quiet + 1] = batch[k]
          end
        end
      end
    end
  end
  if #done > 0 then
    redis.call('ZREM', K_seen, unpack(done))
  end
  return quiet
end

-- (5) waiters whose client has gone quiet, unless Redis was full lately
local was_full = tonumber(redis.call('GET', K_full) or '0')
local ago = tonumber(A_full_ago_ms) or -1
local seen_full = ago >= 0 and now - ago or 0
if seen_full > was_full then
  was_full = seen_full
  redis.call('SET', K_full, ms_text(was_full), 'PX', ttl + 60000)
end
local quiet = {}
if now - was_full >= ttl then
  quiet = quiet_waiters(redis.call('ZRANGEBYSCORE', K_seen, '-inf',
    now - ttl, 'LIMIT', 0, cap), cap)
end
-- The ages at which the quiet leave the line (now less their join mark's
-- time: the mark made after their ticket), the first AGED_MAX of them,
-- added to the stats hash's 'eta_ages' (lib.lua's ages_put): the ETA
-- counts the places ahead of a waiter by age (eta.c's eta_young).
local AGED_MAX = 16
local function count_ages(scores)
  local sum, n = 0, 0
  for i = 1, math.min(#scores, AGED_MAX) do
    local score = tonumber(scores[i])
    local mark = score and score >= 0 and redis.call('ZRANGEBYSCORE',
      K_joins, score, '+inf', 'LIMIT', 0, 1)[1]
    local at = tonumber(string.match(mark or '', '^(%d+)'))
    if at and at <= now then
      sum, n = sum + (now - at), n + 1
    end
  end
  if n > 0 then
    ages_put(nil, sum, n)
  end
end
if #quiet > 0 then
  local scores = redis.call('ZMSCORE', K_waiting, unpack(quiet))
  line_gone(scores, 1, 1)
  count_ages(scores)
  redis.call('ZREM', K_waiting, unpack(quiet))
  redis.call('ZREM', K_seen, unpack(quiet))
  redis.call('HINCRBY', K_stats, 'abandoned', #quiet)
end

-- One admission run's times in line (its first's and last's, ms):
-- "at first_ms last_ms count", the last 256 runs kept (room_read.lua
-- reads the last five minutes).
local function keep_waits(n, last, wfirst, wlast, t)
  if n <= 0 then
    return
  end
  redis.call('LPUSH', K_waits, string.format('%d %d %d %d', t, wfirst,
    wlast, n))
  redis.call('LTRIM', K_waits, 0, 255)
  if last > 0 then
    redis.call('ZREMRANGEBYSCORE', K_joins, '-inf', '(' .. ms_text(last))
  end
end

-- (6) admissions, as many as both caps allow (lib.lua's room()),
-- published on the events channel by lib.lua's admit()
local admitted = 0
if c.state ~= 'paused' and not held then
  local n, t = room(now, c, cap), now_ms()
  local _, last, wfirst, wlast
  admitted, _, _, last, wfirst, wlast = admit(n, t, c, channel, K_joins)
  keep_waits(admitted, last, wfirst, wlast, t)
  took(c, admitted)
  if c.mode == 'rate' and admitted < n then
    -- the line ran out: a batch is not saved up
    redis.call('HSET', K_stats, 'owed', 0)
  end
end

-- (7) the admission rate, an exponentially weighted moving average over
-- windows of at least 5 s in which someone was waiting, so an empty line
-- does not read as a slow one.
local waiting = redis.call('ZCARD', K_waiting)
local st = redis.call('HMGET', K_stats, 'rate', 'rate_at', 'rate_n')
local rate, at, n = tonumber(st[1]) or 0, tonumber(st[2]), tonumber(st[3]) or 0
local t = now_ms()
if not at then
  redis.call('HSET', K_stats, 'rate_at', t, 'rate_n', 0)
elseif t - at >= 5000 then
  if waiting > 0 or admitted > 0 then
    local inst = n / ((t - at) / 1000)
    local alpha = 1 - math.exp(-(t - at) / 60000)
    if rate == 0 then
      rate = inst
    else
      rate = alpha * inst + (1 - alpha) * rate
    end
    redis.call('HSET', K_stats, 'rate', tostring(rate))
  end
  redis.call('HSET', K_stats, 'rate_at', t, 'rate_n', 0)
end
-- (8) the proof of work (pow_now, above), its marks written now
local bits, pttl = pow_now(true)
return { #ended, #quiet, admitted, waiting, 0, bits, pttl, draw,
  line_speed(c), c.ver, c.notice, c.fail_open_until, noshows, draw_in }
