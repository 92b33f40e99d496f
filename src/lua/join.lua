-- join.lua: a new place at the end of the line, or the place the user
-- already holds.
-- KEYS: see lib.lua (KEYS[8] is the user key when a user is given)
-- ARGV[1] the new token
-- ARGV[2] seconds the user key lives (it is ignored once its token is gone)
-- A capacity queue with a free slot and nobody waiting admits the joiner
-- at once: the reply's status is then 'active'.
-- Reply: facts() with result 'new' or 'existing';
--        or { 'no_queue' } / { 'closed' } / { 'full' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local now = now_ms()
if KEYS[8] then
  local held = redis.call('GET', KEYS[8])
  if held then
    local r = locate(held, now, c)
    if r then
      r[1] = 'existing'
      return r
    end
  end
end
if c.state == 'closed' then
  return { 'closed' }
end
local waiting = redis.call('ZCARD', KEYS[3])
local cap = tonumber(c.max_waiting) or 0
if cap > 0 and waiting >= cap then
  return { 'full' }
end
local token = ARGV[1]
redis.call('HINCRBY', KEYS[6], 'joined', 1)
if KEYS[8] then
  redis.call('SET', KEYS[8], token, 'EX', tonumber(ARGV[2]))
end
if c.mode == 'capacity' and c.state == 'open' and waiting == 0 and
    free_slots(now, c, 1) > 0 then
  local expiry = now + (tonumber(c.active_ttl) or 300) * 1000
  redis.call('ZADD', KEYS[4], expiry, token)
  redis.call('HINCRBY', KEYS[6], 'admitted', 1)
  redis.call('HINCRBY', KEYS[6], 'rate_n', 1)
  count_admitted(KEYS[6], 1, now)
  return facts('new', token, 'active', expiry, now, c, 0)
end
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[2]), token)
redis.call('ZADD', KEYS[5], now, token)
return facts('new', token, 'waiting', waiting, now, c, waiting + 1)
