-- admin_kick.lua: remove one token, waiting or active, and tell its
-- streams on the events channel (event_gone: "gone removed <token>").
-- A removed session's entry pass is revoked, as leave.lua does.
-- KEYS: the queue's seven (lib.lua), then
--   revoked      the token's revoked key (keys.c)
-- ARGV:
--   token
--   channel      the events channel
--   leeway_ms    the leeway checkers allow a pass, in ms
-- Reply: { result, was }: { 'removed', 'waiting' | 'active' }; or
-- { 'no_queue' } / { 'gone' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local token, was = A_token, nil
if redis.call('ZREM', K_waiting, token) == 1 then
  redis.call('ZREM', K_seen, token)
  was = 'waiting'
elseif redis.call('ZSCORE', K_active, token) then
  local ttl = tonumber(redis.call('ZSCORE', K_active, token)) - now_ms() +
    (tonumber(A_leeway_ms) or 0)
  redis.call('ZREM', K_active, token)
  if ttl > 0 then
    redis.call('SET', K_revoked, '1', 'PX', ttl)
  end
  was = 'active'
else
  return { 'gone' }
end
redis.call('HINCRBY', K_stats, 'removed', 1)
redis.call('PUBLISH', A_channel, event_gone('removed', { token }))
return { 'removed', was }
