-- draw_show.lua: a scheduled queue's draw, as GET /v1/queues/{q}/draw
-- shows it: 'committed' before the opening, 'drawing' from then until
-- the order is whole (while a beacon_round awaits its beacon too), then
-- 'drawn' with the seed. The seed is never read out before.
-- KEYS: the queue's ten (lib.lua), then
--   draw         the draw's hash
-- ARGV: none
-- Reply: { 'ok', state, commit, opens_at, entrants, beacon_round, seed,
-- beacon, drawn_at, order_sha256, ms } (seed '' until drawn; entrants: so
-- far until drawn), { 'none' } (no schedule, or one cleared before its
-- opening: the seed is kept for a schedule set again) or { 'no_queue' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local d = redis.call('HMGET', K_draw, 'commit', 'state', 'seed', 'beacon',
  'entrants', 'drawn_at', 'order_sha256', 'ms')
if not d[1] then
  return { 'none' }
end
local now = now_ms()
if d[2] == 'drawn' then
  return { 'ok', 'drawn', d[1], c.opens_at / 1000, tonumber(d[5]),
    c.beacon_round, d[3], d[4] or '', tonumber(d[6]), d[7],
    tonumber(d[8]) }
end
-- A schedule cleared before its opening (its seed kept for another).
if c.opens_at == 0 then
  return { 'none' }
end
local state = 'committed'
if c.opens_at > 0 and now >= c.opens_at then
  state = 'drawing'
end
return { 'ok', state, d[1], c.opens_at / 1000, undrawn(), c.beacon_round,
  '', d[4] or '', 0, '', 0 }
