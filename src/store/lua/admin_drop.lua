-- admin_drop.lua: drop a queue and every token in it. UNLINK frees a long
-- line in the background instead of blocking Redis. User keys are left to
-- their TTL: join ignores a user key whose token is gone.
-- The drop is written down in K_dropped, the time in ms, so GET /v1/check
-- refuses every pass the queue issued before (a queue created again under
-- the same name issues later ones). It lives until the last session's
-- pass expires plus the leeway checkers allow, and never shortens the
-- life of an earlier drop's. The streams hear event_dropped().
-- KEYS: the queue's ten (lib.lua), then
--   registry     the registry of queues
--   dropped      the queue's dropped key (keys.c)
--   draw         the draw's hash, then its other keys (a queue made again
--                under the name gets a new seed)
--   sorted
--   order
--   lock
--   series       the console's keys of the queue (keys.c's room_keys)
--   joins
--   waits
--   history
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   queue        the queue's name
--   channel      the events channel
--   leeway_ms    the leeway checkers allow a pass, in ms
--   admin        the admin's name, for the trail ('drop', the state it had)
-- Reply: { result }: { 'dropped' } or { 'no_queue' }
if redis.call('EXISTS', K_config) == 0 then
  return { 'no_queue' }
end
local state = redis.call('HGET', K_config, 'state')
local now = now_ms()
local last = redis.call('ZRANGE', K_active, -1, -1, 'WITHSCORES')
local ttl = math.max((tonumber(last[2]) or now) - now, 0) +
  (tonumber(A_leeway_ms) or 0)
ttl = math.max(ttl, redis.call('PTTL', K_dropped), 1)
redis.call('SET', K_dropped, ms_text(now), 'PX', ms_text(ttl))
redis.call('UNLINK', K_config, K_seq, K_waiting, K_active, K_seen, K_stats,
  K_tick, K_unchecked, K_line, K_places, K_draw, K_sorted, K_order, K_lock,
  K_series, K_joins, K_waits, K_history)
redis.call('SREM', K_registry, A_queue)
redis.call('PUBLISH', A_channel, event_dropped())
trail_add(K_trail, A_admin, A_queue, 'drop',
  { state = { state or cjson.null, cjson.null } })
return { 'dropped' }
