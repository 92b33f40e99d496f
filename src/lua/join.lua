-- join.lua: a batch of joins, in the order they came. Each gets a new
-- place at the end of the line, or the place its user already holds.
-- KEYS: see lib.lua; KEYS[8] on are the user keys of the joins that gave
--   a user
-- ARGV[1] seconds a user key lives (it is ignored once its token is gone)
-- ARGV[2i], ARGV[2i+1]: join i's new token, and the KEYS index of its
--   user key (0: no user)
-- A capacity queue with a free slot and nobody waiting admits the joiner
-- at once: the entry's status is then 'active'.
-- Reply: one entry per join: facts() with result 'new' or 'existing';
--        or { 'no_queue' } / { 'closed' } / { 'full' }
local n = (#ARGV - 1) / 2
local out = {}
local c = load_conf(KEYS[1])
if not c then
  for i = 1, n do
    out[i] = { 'no_queue' }
  end
  return out
end
local now = now_ms()
local ttl = tonumber(ARGV[1])
local tr = tick_rate()
local waiting = redis.call('ZCARD', KEYS[3])
local cap = tonumber(c.max_waiting) or 0
-- Scores for the batch at once: gaps (joins that got no new place) are
-- harmless, since only the order of scores counts.
local seq = redis.call('INCRBY', KEYS[2], n) - n
local joined = 0

local function existing(userkey)
  local held = redis.call('GET', userkey)
  if held then
    local r = locate(held, now, c, tr)
    if r then
      r[1] = 'existing'
      return r
    end
  end
  return nil
end

local function admit_now(token)
  local expiry = now + (tonumber(c.active_ttl) or 300) * 1000
  redis.call('ZADD', KEYS[4], expiry, token)
  redis.call('HINCRBY', KEYS[6], 'admitted', 1)
  redis.call('HINCRBY', KEYS[6], 'rate_n', 1)
  count_admitted(KEYS[6], 1, now)
  return facts('new', token, 'active', expiry, now, c, 0, tr)
end

local function join_one(i, token, userkey)
  local r = userkey and existing(userkey)
  if r then
    return r
  end
  if c.state == 'closed' then
    return { 'closed' }
  end
  if cap > 0 and waiting >= cap then
    return { 'full' }
  end
  joined = joined + 1
  if userkey then
    redis.call('SET', userkey, token, 'EX', ttl)
  end
  if c.mode == 'capacity' and c.state == 'open' and waiting == 0 and
      free_slots(now, c, 1) > 0 then
    return admit_now(token)
  end
  redis.call('ZADD', KEYS[3], seq + i, token)
  redis.call('ZADD', KEYS[5], now, token)
  waiting = waiting + 1
  return facts('new', token, 'waiting', waiting - 1, now, c, waiting, tr)
end

for i = 1, n do
  local k = tonumber(ARGV[2 * i + 1])
  out[i] = join_one(i, ARGV[2 * i], k > 0 and KEYS[k] or nil)
end
if joined > 0 then
  redis.call('HINCRBY', KEYS[6], 'joined', joined)
end
return out
