-- draw_commit.lua: a scheduled queue's seed and its commitment, written
-- once. The scripts that write a schedule (admin_put.lua, config_init.lua)
-- write them in the same run; this is the tick's fallback for a schedule
-- that has none (a hash written by hand, or by an older version).
-- KEYS: the queue's ten (lib.lua), then
--   draw         the draw's hash
-- ARGV:
--   seed         a fresh seed (hex)
--   commit       its commitment, hex(SHA-256(seed))
-- Reply: { 'ok', commit } (the commitment in force) or { 'none' } (no
-- schedule) or { 'no_queue' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
if c.opens_at == 0 then
  return { 'none' }
end
if redis.call('HSETNX', K_draw, 'seed', A_seed) == 1 then
  redis.call('HSET', K_draw, 'commit', A_commit)
end
return { 'ok', redis.call('HGET', K_draw, 'commit') }
