-- leave.lua: leave the line, or end an active session (freeing its slot).
-- lib.lua's remove_token removes it, as it does for admin_kick.lua: in a
-- capacity queue, the freed slot goes to the next waiter at once (when
-- its batch cap, if set, allows, and no scheduled opening's draw holds
-- the line). An ended session's entry pass is revoked: K_revoked lives
-- until the pass expires plus the leeway checkers allow (GET /v1/check
-- reads it).
-- KEYS: the queue's ten (lib.lua), then
--   revoked      the token's revoked key (keys.c)
--   joins        the join marks (tick.lua), for a freed slot's admission
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
local was = remove_token(c, { waiting = K_waiting, active = K_active,
  seen = K_seen, revoked = K_revoked, joins = K_joins }, A_token, A_channel,
  tonumber(A_leeway_ms) or 0)
if not was then
  return { 'gone' }
end
redis.call('HINCRBY', K_stats, 'left', 1)
return { 'left', was }
