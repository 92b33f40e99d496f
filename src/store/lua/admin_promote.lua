-- admin_promote.lua: admit the next n waiters now, in FIFO order, whatever
-- the queue's mode, state or free slots (an operator's override), but
-- never before a scheduled opening's draw, which decides who is first.
-- KEYS: see lib.lua
-- ARGV[1] events channel
-- ARGV[2] n
-- Reply: { 'ok', { token, ... } (admitted, in order) }, { 'no_queue' },
-- or { 'draw_pending' } before the opening or while it is drawn
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local now = now_ms()
if draw_holds(c, now) then
  return { 'draw_pending' }
end
local n, tokens = admit(tonumber(ARGV[2]), now, c, ARGV[1])
return { 'ok', tokens }
