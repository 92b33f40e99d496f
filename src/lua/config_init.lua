-- config_init.lua: write a queue's configuration hash from the file.
-- KEYS[1] config
-- KEYS[2] the registry of queues (a set of names; every instance ticks them)
-- ARGV[1] 'replace' (at startup: the file wins) or 'missing' (after a
--         reconnect: only when Redis lost it, e.g. restarted empty)
-- ARGV[2] the queue's name
-- ARGV[3..] field, value, field, value...
-- Reply: 1 when written, 0 when left as it was
if ARGV[1] == 'missing' and redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('SADD', KEYS[2], ARGV[2])
return 1
