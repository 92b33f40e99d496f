-- admin_promote.lua: admit the next n waiters now, in FIFO order, whatever
-- the queue's mode, state or free slots (an operator's override), but
-- never before a scheduled opening's draw, which decides who is first.
-- KEYS: the queue's seven (lib.lua)
-- ARGV:
--   channel      the events channel
--   count        how many to admit
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
local n, tokens = admit(tonumber(A_count), now, c, A_channel)
return { 'ok', tokens }
