-- admin_fail_open.lua: fail open (POST /v1/admin/queues/{q}/fail-open):
-- the queue admits every join at once, as mode = passthrough does, until
-- fail_open_until (unix s); the first tick at or after it, on any
-- instance, gives back the mode it had (tick.lua). Again while on: moves
-- the end, keeps the mode to return to. seconds = 0 ends it now (DELETE).
-- A scheduled queue admits nobody before its draw is done: no fail-open.
-- The mode change moves the hash's 'ver' (lib.lua's conf_version).
-- KEYS: the queue's ten (lib.lua), then
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   seconds      how long from now (Redis time), or 0 to end it
--   queue        the queue's name, for the trail
--   admin        who asked, for the trail
-- Reply: { 'ok', mode, until, previous } (until 0 and previous
-- '' once ended), { 'no_queue' }, { 'draw_pending' } or
-- { 'not_failing_open' } (seconds 0 when it was not on)
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local seconds = tonumber(A_seconds)
if seconds == 0 then
  if c.fail_open_until == 0 then
    return { 'not_failing_open' }
  end
  local mode = c.fail_open_prev or DEFAULT_mode
  redis.call('HSET', K_config, 'mode', mode, 'ver', conf_version(K_config))
  redis.call('HDEL', K_config, 'fail_open_until', 'fail_open_prev')
  trail_add(K_trail, A_admin, A_queue, 'fail_open', {
    mode = { c.mode, mode },
    fail_open_until = { tostring(c.fail_open_until), cjson.null } })
  return { 'ok', mode, 0, '' }
end
if draw_holds(c, now) then
  return { 'draw_pending' }
end
local prev = c.fail_open_prev
if c.fail_open_until == 0 then
  prev = c.mode
end
local untl = math.floor(now / 1000) + seconds
redis.call('HSET', K_config, 'mode', 'passthrough', 'fail_open_until', untl,
  'fail_open_prev', prev, 'ver', conf_version(K_config))
trail_add(K_trail, A_admin, A_queue, 'fail_open', {
  mode = { c.mode, 'passthrough' },
  fail_open_until = { c.fail_open_until > 0 and tostring(c.fail_open_until)
    or cjson.null, tostring(untl) } }, { seconds = seconds })
return { 'ok', 'passthrough', untl, prev }
