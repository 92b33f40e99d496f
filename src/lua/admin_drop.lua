-- admin_drop.lua: drop a queue and every token in it. UNLINK frees a long
-- line in the background instead of blocking Redis. User keys are left to
-- their TTL: join ignores a user key whose token is gone.
-- KEYS: see lib.lua; KEYS[8] the registry of queues
-- ARGV[1] the queue's name
-- ARGV[2] events channel
-- Reply: { 'dropped' } or { 'no_queue' }
if redis.call('EXISTS', KEYS[1]) == 0 then
  return { 'no_queue' }
end
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6],
  KEYS[7])
redis.call('SREM', KEYS[8], ARGV[1])
redis.call('PUBLISH', ARGV[2], 'dropped')
return { 'dropped' }
