-- leave.lua: leave the line, or end an active session (freeing its slot).
-- KEYS: see lib.lua; KEYS[8] the token's revoked key (keys.c)
-- lib.lua's remove_token removes it, as it does for admin_kick.lua: in a
-- capacity queue, the freed slot goes to the next waiter at once (when
-- its batch cap, if set, allows, and no scheduled opening's draw holds
-- the line). An ended session's entry pass is revoked: KEYS[8] lives
-- until the pass expires plus the leeway checkers allow (GET /v1/check
-- reads it).
-- ARGV[1] token
-- ARGV[2] events channel
-- ARGV[3] leeway in ms
-- Reply: { 'left', 'waiting' | 'active' }; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local was = remove_token(c, { waiting = KEYS[3], active = KEYS[4],
  seen = KEYS[5], revoked = KEYS[8] }, ARGV[1], ARGV[2],
  tonumber(ARGV[3]) or 0)
if not was then
  return { 'gone' }
end
redis.call('HINCRBY', KEYS[6], 'left', 1)
return { 'left', was }
