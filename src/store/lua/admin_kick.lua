-- admin_kick.lua: remove one token, waiting or active, and tell its
-- streams on the events channel ("gone removed <token>").
-- KEYS: see lib.lua; KEYS[8] the token's revoked key (keys.c)
-- ARGV[1] token
-- ARGV[2] events channel
-- ARGV[3] leeway in ms
-- Removed as leave.lua removes one (lib.lua's remove_token): an ended
-- session's pass is revoked, and in a capacity queue it counts in the
-- mean session and its slot goes to the next waiter at once.
-- Reply: { 'removed', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local token = ARGV[1]
local was = remove_token(c, { waiting = KEYS[3], active = KEYS[4],
  seen = KEYS[5], revoked = KEYS[8] }, token, ARGV[2],
  tonumber(ARGV[3]) or 0)
if not was then
  return { 'gone' }
end
redis.call('HINCRBY', KEYS[6], 'removed', 1)
redis.call('PUBLISH', ARGV[2], 'gone removed ' .. token)
return { 'removed', was }
