-- config_init.lua: write a queue's configuration hash from the file.
-- The hash keeps a fingerprint of the file's section (file_sha): when an
-- instance starts with the section that was written last time, the hash
-- is left as it is, so restarting or adding an instance keeps what the
-- admin API changed; an edited section wins.
-- KEYS[1] config
-- KEYS[2] the registry of queues (a set of names; every instance ticks them)
-- KEYS[3] the queue's draw: once drawn, the hash keeps its opens_at
-- ARGV[1] 'replace' (at startup: an edited file wins) or 'missing' (after
--         a reconnect: only when Redis lost it, e.g. restarted empty)
-- ARGV[2] the queue's name
-- ARGV[3..] field, value, field, value...
-- A write moves the hash's 'ver' (lib.lua's conf_version).
-- Reply: 1 when written, 0 when left as it was
local sha = redis.sha1hex(table.concat(ARGV, '\n', 3))
redis.call('SADD', KEYS[2], ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 1 and (ARGV[1] == 'missing' or
    redis.call('HGET', KEYS[1], 'file_sha') == sha) then
  return 0
end
local opened = redis.call('HGET', KEYS[3], 'state') == 'drawn' and
  redis.call('HGET', KEYS[1], 'opens_at')
local ver = conf_version(KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
if opened then
  redis.call('HSET', KEYS[1], 'opens_at', opened)
end
redis.call('HSET', KEYS[1], 'file_sha', sha, 'ver', ver)
return 1
