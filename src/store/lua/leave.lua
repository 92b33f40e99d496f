-- leave.lua: leave the line, or end an active session (freeing its slot).
-- KEYS: see lib.lua; KEYS[8] the token's revoked key (keys.c)
-- In a capacity queue, the freed slot goes to the next waiter at once
-- (when its batch cap, if set, allows, and no scheduled opening's draw
-- holds the line).
-- An ended session's entry pass is revoked: KEYS[8] lives until the pass
-- expires plus the leeway checkers allow (GET /v1/check reads it).
-- ARGV[1] token
-- ARGV[2] events channel
-- ARGV[3] leeway in ms
-- Reply: { 'left', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local token = ARGV[1]
if redis.call('ZREM', KEYS[3], token) == 1 then
  redis.call('ZREM', KEYS[5], token)
  redis.call('HINCRBY', KEYS[6], 'left', 1)
  return { 'left', 'waiting' }
end
local expiry = tonumber(redis.call('ZSCORE', KEYS[4], token))
if expiry then
  redis.call('ZREM', KEYS[4], token)
  redis.call('HINCRBY', KEYS[6], 'left', 1)
  local now = now_ms()
  if c.mode == 'capacity' then
    -- how long it lasted, for the ETA (lib.lua's line_speed)
    local len = now - (expiry - (tonumber(c.active_ttl) or 300) * 1000)
    sessions_ended(1, math.max(len, 0), c)
  end
  local ttl = expiry - now + (tonumber(ARGV[3]) or 0)
  if ttl > 0 then
    redis.call('SET', KEYS[8], '1', 'PX', ttl)
  end
  if c.mode == 'capacity' and c.state ~= 'paused' and
      not draw_holds(c, now) then
    took(c, admit(room(now, c, 100), now, c, ARGV[2]))
  end
  return { 'left', 'active' }
end
return { 'gone' }
