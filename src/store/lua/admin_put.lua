-- admin_put.lua: create a queue, or change some fields of one (PUT
-- /v1/admin/queues/{q}). Every value was checked by conf.c's key table.
-- KEYS:
--   config       the queue's configuration hash
--   registry     the registry of queues
--   draw         the queue's draw (a hash): once it is drawn, opens_at is
--                fixed
-- ARGV:
--   queue        the queue's name
--   npairs       how many field/value pairs the caller gave
--   pairs...     the pairs given: what changes in an existing queue
--   fields...    every field with the given values over the defaults: a
--                new queue's whole configuration
-- The hash's 'ver' moves (lib.lua's conf_version).
-- Reply: { result, config }: { 'created' | 'updated', { field, value, ... }
-- (the hash after) } or { 'draw_done' } (opens_at given after the draw)
for i = 1, #A_pairs, 2 do
  if A_pairs[i] == 'opens_at' and
      redis.call('HGET', K_draw, 'state') == 'drawn' then
    return { 'draw_done' }
  end
end
local result = 'updated'
local ver = conf_version(K_config)
if redis.call('EXISTS', K_config) == 0 then
  result = 'created'
  redis.call('HSET', K_config, 'ver', ver, unpack(A_fields))
elseif #A_pairs > 0 then
  redis.call('HSET', K_config, 'ver', ver, unpack(A_pairs))
end
redis.call('SADD', K_registry, A_queue)
return { result, redis.call('HGETALL', K_config) }
