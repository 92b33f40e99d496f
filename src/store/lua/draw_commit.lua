-- draw_commit.lua: a scheduled queue's seed and its commitment, written
-- once: the first instance to see the schedule stores the seed it drew;
-- later calls (moving opens_at before the draw) keep it.
-- KEYS: see lib.lua; KEYS[8] the draw's hash
-- ARGV[1] a fresh seed (hex)  ARGV[2] its commitment, hex(SHA-256(seed))
-- Reply: { 'ok', commit in force } or { 'none' } (no schedule) or
--        { 'no_queue' }
local c = load_conf(KEYS[1])
if not c then
  return { 'no_queue' }
end
if c.opens_at == 0 then
  return { 'none' }
end
if redis.call('HSETNX', KEYS[8], 'seed', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[8], 'commit', ARGV[2])
end
return { 'ok', redis.call('HGET', KEYS[8], 'commit') }
