-- admin_promote.lua: admit the next n waiters now, in FIFO order, whatever
-- the queue's mode, state or free slots (an operator's override).
-- KEYS: see lib.lua
-- ARGV[1] events channel
-- ARGV[2] n
-- Reply: { 'ok', { token, ... } (admitted, in order) } or { 'no_queue' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local n, tokens = admit(tonumber(ARGV[2]), now_ms(), c, ARGV[1])
return { 'ok', tokens }
