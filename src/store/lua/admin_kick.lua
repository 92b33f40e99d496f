-- admin_kick.lua: remove one token, waiting or active, and tell its
-- streams on the events channel ("gone removed <token>").
-- KEYS: see lib.lua; KEYS[8] the token's revoked key (keys.c)
-- ARGV[1] token
-- ARGV[2] events channel
-- ARGV[3] leeway in ms
-- A removed session's entry pass is revoked, as leave.lua does.
-- Reply: { 'removed', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local token, was = ARGV[1], nil
if redis.call('ZREM', KEYS[3], token) == 1 then
  redis.call('ZREM', KEYS[5], token)
  was = 'waiting'
elseif redis.call('ZSCORE', KEYS[4], token) then
  local ttl = tonumber(redis.call('ZSCORE', KEYS[4], token)) - now_ms() +
    (tonumber(ARGV[3]) or 0)
  redis.call('ZREM', KEYS[4], token)
  if ttl > 0 then
    redis.call('SET', KEYS[8], '1', 'PX', ttl)
  end
  was = 'active'
else
  return { 'gone' }
end
redis.call('HINCRBY', KEYS[6], 'removed', 1)
redis.call('PUBLISH', ARGV[2], 'gone removed ' .. token)
return { 'removed', was }
