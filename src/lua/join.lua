-- join.lua: a batch of joins, in the order they came. Each gets a new
-- place at the end of the line, or the place its user already holds.
-- KEYS: see lib.lua; KEYS[8] on are the user keys of the joins that gave
--   a user, in the order of those joins
-- ARGV[1] seconds a user key lives (it is ignored once its token is gone)
-- ARGV[2] u, the number of joins that gave a user; ARGV[3] to ARGV[2 + u]
--   their join numbers (1-based, ascending: join ARGV[2 + j] has user key
--   KEYS[7 + j]); then one new token per join, in order
-- A capacity queue with a free slot and nobody waiting admits the joiner
-- at once: the entry's status is then 'active'.
-- Reply: { head, entry 1, ..., entry n }, where head is the part of
-- facts() every join shares (parsed by qstore_reply.c), led by the length of the
-- line before the batch:
--   { waiting, now_ms, last_tick_ms, rate, mode, state, batch, interval,
--     max_active, active_ttl, redirect }, or {} when there is no queue
-- and each entry is one string of words (one reply object where an array
-- took six, which the daemon's Redis client builds and frees one by one):
--   'new': the join's token took the next place at the end of the line
--     (its rank is the line's length before it: the head's waiting plus
--     the bare 'new' entries before it);
--   'result token status n waiting' otherwise, result 'new' (admitted at
--     once) or 'existing' (the user's place);
--   or 'no_queue' / 'closed' / 'full' / 'not_open' (before prequeue_from).
-- Before opens_at a new place is a pre-queue entrant's (scored PRE + its
-- ticket, lib.lua): 'new token prequeue entrants waiting'.
-- A number in an entry is written as Lua writes it, whole up to 10^14:
-- ranks and counts, and expiries in ms until the year 5138. Most joins
-- take a bare 'new': no number to write, nothing for the daemon to read.
local nu = tonumber(ARGV[2])
local n = #ARGV - 2 - nu
local out = { {} }
local c = load_conf(KEYS[1])
if not c then
  for i = 1, n do
    out[i + 1] = 'no_queue'
  end
  return out
end
local now = now_ms()
local ttl = tonumber(ARGV[1])
local waiting = redis.call('ZCARD', KEYS[3])
local waiting0 = waiting
local cap = tonumber(c.max_waiting) or 0
-- Scores for the batch at once: gaps (joins that got no new place) are
-- harmless, since only the order of scores counts.
local seq = redis.call('INCRBY', KEYS[2], n) - n
local state = state_at(c, now)
local pre = c.opens_at > 0 and now < c.opens_at
local entrants = pre and undrawn() or 0
if pre then
  seq = seq + PRE
end
local joined = 0
-- The new places go into the line with one ZADD at the end (and into the
-- seen set with another, all scored now_s); until then, pending[token] is
-- the rank of a token a user key names (no other token can be asked for
-- again within the batch).
local places, seen, pending, np = {}, {}, {}, 0
local now_s = ms_text(now)

-- An entry with a place (built as a string at once: cheaper than a table
-- Redis then walks).
local function entry(result, token, status, n)
  return result .. ' ' .. token .. ' ' .. status .. ' ' .. n .. ' ' ..
    waiting
end

-- The place token holds (one of this batch's, or place()'s), or nil.
local function existing(token)
  local rank = pending[token]
  if rank and rank < 0 then
    return entry('existing', token, 'prequeue', entrants)
  elseif rank then
    return entry('existing', token, 'waiting', rank)
  end
  local status, at = place(token, now, c)
  if status then
    return entry('existing', token, status, at)
  end
  return nil
end

local function admit_now(token)
  local expiry = now + (tonumber(c.active_ttl) or 300) * 1000
  redis.call('ZADD', KEYS[4], expiry, token)
  redis.call('HINCRBY', KEYS[6], 'admitted', 1)
  redis.call('HINCRBY', KEYS[6], 'rate_n', 1)
  count_admitted(KEYS[6], 1, now)
  return 'new ' .. token .. ' active ' .. expiry .. ' 0'
end

local function join_one(i, token, userkey)
  local held = userkey and redis.call('GET', userkey)
  local r = held and existing(held)
  if r then
    return r
  end
  if state == 'closed' then
    return 'closed'
  end
  if pre and now < c.prequeue_from then
    return 'not_open'
  end
  if cap > 0 and waiting >= cap then
    return 'full'
  end
  joined = joined + 1
  if userkey then
    redis.call('SET', userkey, token, 'EX', ttl)
  end
  if not pre and c.mode == 'capacity' and state == 'open' and
      waiting == 0 and free_slots(now, c, 1) > 0 then
    return admit_now(token)
  end
  places[np + 1], places[np + 2] = seq + i, token
  seen[np + 1], seen[np + 2] = now_s, token
  np = np + 2
  waiting = waiting + 1
  if pre then
    entrants = entrants + 1
    if userkey then
      pending[token] = -entrants
    end
    return entry('new', token, 'prequeue', entrants)
  end
  if userkey then
    pending[token] = waiting - 1
  end
  return 'new'
end

local user_of = {}
for j = 1, nu do
  user_of[tonumber(ARGV[2 + j])] = KEYS[7 + j]
end
for i = 1, n do
  out[i + 1] = join_one(i, ARGV[2 + nu + i], user_of[i])
end
if np > 0 then
  redis.call('ZADD', KEYS[3], unpack(places))
  redis.call('ZADD', KEYS[5], unpack(seen))
end
if joined > 0 then
  redis.call('HINCRBY', KEYS[6], 'joined', joined)
end
-- The head last: the tick and rate as they stand after the batch.
out[1] = { waiting0, now, tonumber(redis.call('GET', KEYS[7]) or '0'),
  redis.call('HGET', KEYS[6], 'rate') or '0', c.mode or 'rate',
  state, c.batch or '0', c.interval or '0',
  c.max_active or '0', c.active_ttl or '0', c.redirect or '',
  c.opens_at / 1000, c.prequeue_from / 1000, entrants }
return out
