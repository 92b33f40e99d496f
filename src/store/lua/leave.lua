-- leave.lua: leave the line, or end an active session (freeing its slot).
-- In a capacity queue, the freed slot goes to the next waiter at once
-- (when its batch cap, if set, allows, and no scheduled opening's draw
-- holds the line).
-- An ended session's entry pass is revoked: K_revoked lives until the
-- pass expires plus the leeway checkers allow (GET /v1/check reads it).
-- KEYS: the queue's seven (lib.lua), then
--   revoked      the token's revoked key (keys.c)
-- ARGV:
--   token
--   channel      the events channel
--   leeway_ms    the leeway checkers allow a pass, in ms
-- Reply: { result, was }: { 'left', 'waiting' | 'active' }; or
-- { 'no_queue' } / { 'gone' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local token = A_token
if redis.call('ZREM', K_waiting, token) == 1 then
  redis.call('ZREM', K_seen, token)
  redis.call('HINCRBY', K_stats, 'left', 1)
  return { 'left', 'waiting' }
end
local expiry = tonumber(redis.call('ZSCORE', K_active, token))
if expiry then
  redis.call('ZREM', K_active, token)
  redis.call('HINCRBY', K_stats, 'left', 1)
  local now = now_ms()
  if c.mode == 'capacity' then
    -- how long it lasted, for the ETA (lib.lua's line_speed)
    local len = now - (expiry - tonumber(c.active_ttl) * 1000)
    sessions_ended(1, math.max(len, 0), c)
  end
  local ttl = expiry - now + (tonumber(A_leeway_ms) or 0)
  if ttl > 0 then
    redis.call('SET', K_revoked, '1', 'PX', ttl)
  end
  if c.mode == 'capacity' and c.state ~= 'paused' and
      not draw_holds(c, now) then
    took(c, admit(room(now, c, 100), now, c, A_channel))
  end
  return { 'left', 'active' }
end
return { 'gone' }
