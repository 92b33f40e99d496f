-- admin_put.lua: create a queue, or change some fields of one (PUT
-- /v1/admin/queues/{q}). Every value was checked by conf.c's key table.
-- KEYS[1] config
-- KEYS[2] the registry of queues
-- KEYS[3] the queue's draw (a hash): once it is drawn, opens_at is fixed
-- ARGV[1] the queue's name
-- ARGV[2] n, the number of field/value pairs given by the caller
-- ARGV[3 .. 2n+2] the pairs given: what changes in an existing queue
-- ARGV[2n+3 ..] every field with the given values over the defaults: a
--               new queue's whole configuration
-- The hash's 'ver' moves (lib.lua's conf_version).
-- Reply: { 'created' | 'updated', { field, value, ... } (the hash after) }
--        or { 'draw_done' } (opens_at given after the draw)
local n = tonumber(ARGV[2])
for i = 3, 2 * n + 2, 2 do
  if ARGV[i] == 'opens_at' and
      redis.call('HGET', KEYS[3], 'state') == 'drawn' then
    return { 'draw_done' }
  end
end
local result = 'updated'
local ver = conf_version(KEYS[1])
if redis.call('EXISTS', KEYS[1]) == 0 then
  result = 'created'
  redis.call('HSET', KEYS[1], 'ver', ver, unpack(ARGV, 2 * n + 3))
elseif n > 0 then
  redis.call('HSET', KEYS[1], 'ver', ver, unpack(ARGV, 3, 2 * n + 2))
end
redis.call('SADD', KEYS[2], ARGV[1])
return { result, redis.call('HGETALL', KEYS[1]) }
