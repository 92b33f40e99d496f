-- admin_kick.lua: remove one token, waiting or active, and tell its
-- streams on the events channel (event_gone: "gone removed <token>").
-- Removed as leave.lua removes one (lib.lua's remove_token): an ended
-- session's pass is revoked, and in a capacity queue it counts in the
-- mean session and its slot goes to the next waiter at once.
-- KEYS: the queue's ten (lib.lua), then
--   revoked      the token's revoked key (keys.c)
--   joins        the join marks (tick.lua), for a freed slot's admission
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   token
--   channel      the events channel
--   leeway_ms    the leeway checkers allow a pass, in ms
--   queue        the queue's name
--   admin        the admin's name, for the trail
--   ticket       the token's ticket (ticket.h), what the trail says of the
--                token: never the token itself
-- Reply: { result, was }: { 'removed', 'waiting' | 'active' }; or
-- { 'no_queue' } / { 'gone' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local token = A_token
local was = remove_token(c, { waiting = K_waiting, active = K_active,
  seen = K_seen, revoked = K_revoked, joins = K_joins }, token, A_channel,
  tonumber(A_leeway_ms) or 0)
if not was then
  return { 'gone' }
end
redis.call('HINCRBY', K_stats, 'removed', 1)
redis.call('PUBLISH', A_channel, event_gone('removed', { token }))
trail_add(K_trail, A_admin, A_queue, 'kick', nil,
  { ticket = A_ticket, was = was })
return { 'removed', was }
