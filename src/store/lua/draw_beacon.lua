-- draw_beacon.lua: the value of the announced beacon_round (POST
-- /v1/admin/queues/{q}/draw), taken once, after the opening and before
-- the draw; the same value again is harmless.
-- KEYS: the queue's ten (lib.lua), then
--   draw         the draw's hash
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   beacon       the beacon, hex (checked by the daemon)
--   queue        the queue's name
--   admin        the admin's name, for the trail ('beacon', the value)
-- Reply: { 'ok' }, { 'not_due' } (before the opening, or no beacon_round
-- announced, or another beacon already taken), { 'draw_done' },
-- { 'none' } (no schedule) or { 'no_queue' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local d = redis.call('HMGET', K_draw, 'seed', 'state', 'beacon')
if c.opens_at == 0 or not d[1] then
  return { 'none' }
end
if d[2] == 'drawn' then
  return { 'draw_done' }
end
if c.beacon_round == '' or now_ms() < c.opens_at or
    (d[3] and d[3] ~= A_beacon) then
  return { 'not_due' }
end
redis.call('HSET', K_draw, 'beacon', A_beacon)
trail_add(K_trail, A_admin, A_queue, 'beacon', nil, { beacon = A_beacon })
return { 'ok' }
