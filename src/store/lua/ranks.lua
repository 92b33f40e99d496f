-- ranks.lua: where each of a batch of streamed tokens stands, in one
-- round trip; waiting ones are marked as seen (an open stream is the best
-- "still here" signal).
-- KEYS: the queue's ten (lib.lua)
-- ARGV:
--   tokens...    the tokens
-- Reply: facts() of the queue (result 'batch'; lib.lua), then kinds, a
-- string with one letter per token (w: waiting, p: awaiting the draw, a:
-- active, g: gone), and values, an array with, per token, its 0-based
-- rank (w), the entrants (p), session expiry in ms (a) or 0 (g), and
-- lines, an array with, per token, its number in the line's parts
-- (lib.lua's line_gone): its ticket (w, p), or minus its drawn place (w),
-- or 0: { result, token, status, n, waiting, now_ms, last_tick_ms, rate,
-- mode, state, batch, interval, max_active, active_ttl, redirect,
-- opens_at, prequeue_from, entrants, waiting_ttl, keep, active, ends,
-- last_end, band, early, ended_ms, leavers, ages, kinds, values, lines }.
-- Or { 'no_queue' }.
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local now_s = ms_text(now)
local kinds, values, lines, seen, entrants = {}, {}, {}, {}, nil
for i, token in ipairs(A_tokens) do
  local rank = redis.call('ZRANK', K_waiting, token)
  local score = rank and tonumber(redis.call('ZSCORE', K_waiting, token))
  lines[i] = 0
  if score and score > PRE and score < PRE_TOP then
    entrants = entrants or undrawn()
    kinds[i], values[i], lines[i] = 'p', entrants, score - PRE
    seen[#seen + 1] = now_s
    seen[#seen + 1] = token
  elseif rank then
    kinds[i], values[i] = 'w', rank
    lines[i] = score < PRE and DRAWN - score or score
    seen[#seen + 1] = now_s
    seen[#seen + 1] = token
  else
    local expiry = tonumber(redis.call('ZSCORE', K_active, token))
    if expiry and expiry > now then
      kinds[i], values[i] = 'a', expiry
    else
      kinds[i], values[i] = 'g', 0
    end
  end
end
if #seen > 0 then
  redis.call('ZADD', K_seen, unpack(seen))
end
local r = facts('batch', '', 'batch', 0, now, c)
r[#r + 1] = table.concat(kinds)
r[#r + 1] = values
r[#r + 1] = lines
return r
