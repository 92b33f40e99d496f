-- lib.lua: helpers that embed.sh puts in front of every script.
--
-- Every queue script gets the same KEYS, built by keys.c:
--   KEYS[1] config  KEYS[2] seq   KEYS[3] waiting  KEYS[4] active
--   KEYS[5] seen    KEYS[6] stats KEYS[7] tick     [KEYS[8] user]
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
-- quarter of what reading the hash did.
local function load_conf(key)
  local v = redis.call('HMGET', key, 'state', 'mode', 'batch', 'interval',
    'max_active', 'active_ttl', 'waiting_ttl', 'max_waiting', 'redirect',
    'opens_at', 'prequeue_from', 'closes_at', 'beacon_round')
  if not v[1] then
    return nil
  end
  return { state = v[1], mode = v[2], batch = v[3], interval = v[4],
    max_active = v[5], active_ttl = v[6], waiting_ttl = v[7],
    max_waiting = v[8], redirect = v[9],
    opens_at = (tonumber(v[10]) or 0) * 1000,
    prequeue_from = (tonumber(v[11]) or 0) * 1000,
    closes_at = (tonumber(v[12]) or 0) * 1000, beacon_round = v[13] or '' }
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

-- Pre-queue entrants not yet drawn.
local function undrawn()
  return redis.call('ZCOUNT', KEYS[3], PRE_ABOVE, PRE_BELOW)
end

-- The state in force: closes_at closes the queue by itself.
local function state_at(c, now)
  if c.closes_at > 0 and now >= c.closes_at then
    return 'closed'
  end
  return c.state or 'open'
end

-- Active sessions not yet ended at now.
local function active_count(now)
  return redis.call('ZCOUNT', KEYS[4], '(' .. now, '+inf')
end

-- The reply every status-like script shares (read by qstore_reply.c,
-- whose enum facts_field names each field; check_qstore_reply counts the
-- fields of the table returned here against it):
-- { result, token, status, n, waiting, now_ms, last_tick_ms, rate,
--   mode, state, batch, interval, max_active, active_ttl, redirect,
--   opens_at, prequeue_from, entrants }
-- n is the 0-based rank when waiting, the expiry in ms when active, the
-- entrants when 'prequeue', and the number of active sessions for a queue
-- summary. waiting, when the caller knows it, saves counting the line
-- again. opens_at and prequeue_from are unix seconds (0: none); entrants
-- the pre-queue entrants not yet drawn (0 without a schedule).
local function facts(result, token, status, n, now, c, waiting)
  local tick = redis.call('GET', KEYS[7]) or '0'
  local rate = redis.call('HGET', KEYS[6], 'rate') or '0'
  waiting = waiting or redis.call('ZCARD', KEYS[3])
  return { result, token, status, n, waiting, now,
    tonumber(tick), rate, c.mode or 'rate', state_at(c, now),
    c.batch or '0', c.interval or '0', c.max_active or '0',
    c.active_ttl or '0', c.redirect or '', c.opens_at / 1000,
    c.prequeue_from / 1000, c.opens_at > 0 and undrawn() or 0 }
end

-- Where token stands: 'waiting' and its rank (and it is marked seen),
-- 'prequeue' and the entrants when it awaits the draw (c given), 'active'
-- and its expiry in ms, or nil when it is gone.
local function place(token, now, c)
  local rank = redis.call('ZRANK', KEYS[3], token)
  if rank then
    redis.call('ZADD', KEYS[5], now, token)
    local score = c and c.opens_at > 0 and
      tonumber(redis.call('ZSCORE', KEYS[3], token))
    if score and score > PRE and score < PRE_TOP then
      return 'prequeue', undrawn()
    end
    return 'waiting', rank
  end
  local expiry = tonumber(redis.call('ZSCORE', KEYS[4], token))
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

-- Active sessions ending at expiry for tokens, which leave the seen set:
-- one ZADD and one ZREM per 1,000 tokens rather than per token (a call's
-- arguments come from unpack, which the Lua stack bounds).
local function activate(tokens, expiry)
  local score = ms_text(expiry)
  for first = 1, #tokens, 1000 do
    local last = math.min(first + 999, #tokens)
    local args, k = {}, 0
    for i = first, last do
      args[k + 1], args[k + 2] = score, tokens[i]
      k = k + 2
    end
    redis.call('ZADD', KEYS[4], unpack(args))
    redis.call('ZREM', KEYS[5], unpack(tokens, first, last))
  end
end

-- Move up to n of the first waiters into active sessions ending
-- active_ttl from now, and announce them on the events channel as
--   "entered <expiry_ms> <token> <token>..."
-- so every instance can tell its streams at once. Returns how many moved,
-- and the tokens in the order they were admitted.
local function admit(n, now, c, channel)
  if n <= 0 then
    return 0, {}
  end
  local popped = redis.call('ZPOPMIN', KEYS[3], n)
  local expiry = now + (tonumber(c.active_ttl) or 300) * 1000
  local tokens = {}
  for i = 1, #popped, 2 do
    tokens[#tokens + 1] = popped[i]
  end
  if #tokens > 0 then
    activate(tokens, expiry)
    redis.call('HINCRBY', KEYS[6], 'admitted', #tokens)
    redis.call('HINCRBY', KEYS[6], 'rate_n', #tokens)
    count_admitted(KEYS[6], #tokens, now)
    redis.call('PUBLISH', channel,
      'entered ' .. expiry .. ' ' .. table.concat(tokens, ' '))
  end
  return #tokens, tokens
end

-- Free slots of a capacity queue, never more than cap.
local function free_slots(now, c, cap)
  local free = (tonumber(c.max_active) or 0) - active_count(now)
  if free > cap then
    return cap
  end
  return free
end
