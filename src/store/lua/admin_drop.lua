-- admin_drop.lua: drop a queue and every token in it. UNLINK frees a long
-- line in the background instead of blocking Redis. User keys are left to
-- their TTL: join ignores a user key whose token is gone.
-- The drop is written down in KEYS[9], the time in ms, so GET /v1/check
-- refuses every pass the queue issued before (a queue created again under
-- the same name issues later ones). It lives until the last session's
-- pass expires plus the leeway checkers allow, and never shortens the
-- life of an earlier drop's.
-- KEYS: see lib.lua; KEYS[8] the registry of queues; KEYS[9] the queue's
-- dropped key (keys.c); KEYS[10..13] its draw's keys (a queue made again
-- under the name gets a new seed)
-- ARGV[1] the queue's name
-- ARGV[2] events channel
-- ARGV[3] leeway in ms
-- Reply: { 'dropped' } or { 'no_queue' }
if redis.call('EXISTS', KEYS[1]) == 0 then
  return { 'no_queue' }
end
local now = now_ms()
local last = redis.call('ZRANGE', KEYS[4], -1, -1, 'WITHSCORES')
local ttl = math.max((tonumber(last[2]) or now) - now, 0) +
  (tonumber(ARGV[3]) or 0)
ttl = math.max(ttl, redis.call('PTTL', KEYS[9]), 1)
redis.call('SET', KEYS[9], ms_text(now), 'PX', ms_text(ttl))
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6],
  KEYS[7], KEYS[10], KEYS[11], KEYS[12], KEYS[13])
redis.call('SREM', KEYS[8], ARGV[1])
redis.call('PUBLISH', ARGV[2], 'dropped')
return { 'dropped' }
