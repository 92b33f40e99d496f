-- leave.lua: leave the line, or end an active session (freeing its slot).
-- KEYS: see lib.lua
-- ARGV[1] token
-- Reply: { 'left', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
if not load_conf(KEYS[1]) then
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
  return { 'left', 'active' }
end
return { 'gone' }
