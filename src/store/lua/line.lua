-- line.lua: what one instance needs to rank its own streams of a queue
-- itself (src/stream/line_view.c; doc/design.md, "Live positions"), read
-- once a second instead of a rank per stream per push, and the seen marks
-- of its streams that are due (an open stream is the best "still here"
-- signal; one a waiting_ttl / 4 keeps a waiter in line).
-- KEYS: the queue's ten (lib.lua)
-- ARGV:
--   line_to      the highest ticket the instance asks about (0: none)
--   places_to    the highest drawn place it asks about (0: none)
--   marks...     tokens to mark seen, those that still wait
-- Reply: facts() of the queue (result 'batch'), then each part of the
-- line (lib.lua's line_gone: d the drawn, by place; p the pre-queue, by
-- ticket; t the rest, by ticket): its lowest and highest number (0 when
-- empty), its members, and 1 when its numbers from low to high less the
-- bits set are exactly its members (else 0: ask ranks.lua); then
-- line_from (the first byte read of K_line, that of the lowest ticket)
-- and line_bytes (up to line_to's byte), places_from and places_bytes
-- (the same of K_places, up to places_to): { result, token, status, n,
-- waiting, now_ms, last_tick_ms, rate, mode, state, batch, interval,
-- max_active, active_ttl, redirect, opens_at, prequeue_from, entrants,
-- waiting_ttl, keep, active, ends, last_end, band, early, ended_ms, leavers,
-- ages, d_low, d_high, d_count, d_exact, p_low, p_high, p_count,
-- p_exact, t_low, t_high, t_count, t_exact, line_from, line_bytes,
-- places_from, places_bytes }. Or { 'no_queue' }.
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
if #A_marks > 0 then
  local scores = redis.call('ZMSCORE', K_waiting, unpack(A_marks))
  local now_s, seen = ms_text(now), {}
  for i = 1, #A_marks do
    if scores[i] then
      seen[#seen + 1], seen[#seen + 2] = now_s, A_marks[i]
    end
  end
  if #seen > 0 then
    redis.call('ZADD', K_seen, unpack(seen))
  end
end

-- One part of the line, its scores in (min, max) and numbered from base
-- in key: { low, high, count, exact }.
local function part(min, max, base, key)
  local first = redis.call('ZRANGE', K_waiting, min, max, 'BYSCORE',
    'LIMIT', 0, 1, 'WITHSCORES')
  if not first[2] then
    return { 0, 0, 0, 1 }
  end
  local last = redis.call('ZRANGE', K_waiting, max, min, 'BYSCORE', 'REV',
    'LIMIT', 0, 1, 'WITHSCORES')
  local low, high = tonumber(first[2]) - base, tonumber(last[2]) - base
  local count = redis.call('ZCOUNT', K_waiting, min, max)
  local gone = redis.call('BITCOUNT', key, string.format('%d', low),
    string.format('%d', high), 'BIT')
  return { low, high, count, high - low + 1 - gone == count and 1 or 0 }
end

-- key's bytes from the one of number low to the one of high.
local function bytes(key, low, high)
  if low <= 0 or high < low then
    return 0, ''
  end
  local from = math.floor(low / 8)
  return from, redis.call('GETRANGE', key, from, math.floor(high / 8))
end

local d = part('-inf', PRE_ABOVE, DRAWN, K_places)
local p = part(PRE_ABOVE, PRE_BELOW, PRE, K_line)
local t = part(PRE_BELOW, '+inf', 0, K_line)
local low = p[1] > 0 and p[1] or t[1]
local line_from, line_bytes = bytes(K_line, low, tonumber(A_line_to))
local places_from, places_bytes = bytes(K_places, d[1],
  tonumber(A_places_to))
local r = facts('batch', '', 'batch', 0, now, c, d[3] + p[3] + t[3])
for _, v in ipairs({ d, p, t }) do
  for k = 1, 4 do
    r[#r + 1] = v[k]
  end
end
r[#r + 1] = line_from
r[#r + 1] = line_bytes
r[#r + 1] = places_from
r[#r + 1] = places_bytes
return r
