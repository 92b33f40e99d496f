-- leave.lua: leave the line, or end an active session (freeing its slot).
-- KEYS: see lib.lua
-- In a capacity queue, the freed slot goes to the next waiter at once.
-- ARGV[1] token
-- ARGV[2] events channel
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
if redis.call('ZREM', KEYS[4], token) == 1 then
  redis.call('HINCRBY', KEYS[6], 'left', 1)
  if c.mode == 'capacity' and c.state ~= 'paused' then
    local now = now_ms()
    admit(free_slots(now, c, 100), now, c, ARGV[2])
  end
  return { 'left', 'active' }
end
return { 'gone' }
