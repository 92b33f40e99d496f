-- config_init.lua: write a queue's configuration hash from the file.
-- The hash keeps a fingerprint of the file's section (file_sha): when an
-- instance starts with the section that was written last time, the hash
-- is left as it is, so restarting or adding an instance keeps what the
-- admin API changed; an edited section wins.
-- KEYS:
--   config       the queue's configuration hash
--   registry     the registry of queues (a set of names; every instance
--                ticks them)
--   draw         the queue's draw: once drawn, the hash keeps its opens_at
-- ARGV:
--   how          'replace' (at startup: an edited file wins) or 'missing'
--                (after a reconnect: only when Redis lost it, e.g.
--                restarted empty)
--   queue        the queue's name
--   fields...    field, value, field, value...
-- A write moves the hash's 'ver' (lib.lua's conf_version).
-- Reply: 1 when written, 0 when left as it was
local sha = redis.sha1hex(table.concat(A_fields, '\n'))
redis.call('SADD', K_registry, A_queue)
if redis.call('EXISTS', K_config) == 1 and (A_how == 'missing' or
    redis.call('HGET', K_config, 'file_sha') == sha) then
  return 0
end
local opened = redis.call('HGET', K_draw, 'state') == 'drawn' and
  redis.call('HGET', K_config, 'opens_at')
local ver = conf_version(K_config)
redis.call('DEL', K_config)
redis.call('HSET', K_config, unpack(A_fields))
if opened then
  redis.call('HSET', K_config, 'opens_at', opened)
end
redis.call('HSET', K_config, 'file_sha', sha, 'ver', ver)
return 1
