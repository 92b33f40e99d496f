-- admin_promote.lua: admit the next n waiters now, in FIFO order, whatever
-- the queue's mode, state or free slots (an operator's override), but
-- never before a scheduled opening's draw, which decides who is first.
-- KEYS: the queue's ten (lib.lua), then
--   joins        the join marks (tick.lua): the admitted's times in line
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   channel      the events channel
--   count        how many to admit
--   queue        the queue's name
--   admin        the admin's name, for the trail ('promote', how many
--                were admitted)
-- Reply: { result, tokens }: { 'ok', { token, ... } (admitted, in order) },
-- { 'no_queue' }, or { 'draw_pending' } before the opening or while it is
-- drawn
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
if draw_holds(c, now) then
  return { 'draw_pending' }
end
local n, tokens = admit(tonumber(A_count), now, c, A_channel,
  K_joins)
trail_add(K_trail, A_admin, A_queue, 'promote', nil, { admitted = #tokens })
return { 'ok', tokens }
