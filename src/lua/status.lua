-- status.lua: where a token stands; marks a waiting token as seen.
-- KEYS: see lib.lua
-- ARGV[1] token
-- Reply: facts() with result 'ok'; or { 'no_queue' } / { 'gone' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
return locate(ARGV[1], now_ms(), c) or { 'gone' }
