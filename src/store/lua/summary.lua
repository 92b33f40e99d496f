-- summary.lua: the public figures of a queue.
-- KEYS: see lib.lua
-- Reply: facts() with status 'summary' and n = active sessions;
--        or { 'no_queue' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
local now = now_ms()
return facts('ok', '', 'summary', active_count(now), now, c)
