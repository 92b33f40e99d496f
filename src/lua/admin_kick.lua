-- admin_kick.lua: remove one token, waiting or active, and tell its
-- streams on the events channel ("gone removed <token>").
-- KEYS: see lib.lua
-- ARGV[1] token
-- ARGV[2] events channel
-- Reply: { 'removed', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local token, was = ARGV[1], nil
if redis.call('ZREM', KEYS[3], token) == 1 then
  redis.call('ZREM', KEYS[5], token)
  was = 'waiting'
elseif redis.call('ZREM', KEYS[4], token) == 1 then
  was = 'active'
else
  return { 'gone' }
end
redis.call('HINCRBY', KEYS[6], 'removed', 1)
redis.call('PUBLISH', ARGV[2], 'gone removed ' .. token)
return { 'removed', was }
