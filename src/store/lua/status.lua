-- status.lua: where a token stands; marks a waiting token as seen, and
-- renews an active one's session in a queue with renew = yes.
-- KEYS: see lib.lua
-- ARGV[1] token
-- Reply: facts() with result 'ok'; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local status, n = place(ARGV[1], now, c)
if not status then
  return { 'gone' }
end
if status == 'active' then
  n = renew(ARGV[1], n, now, c)
end
return facts('ok', ARGV[1], status, n, now, c)
