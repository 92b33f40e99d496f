-- admin_notice.lua: set or clear the message to everyone waiting in a
-- queue (PUT/DELETE /v1/admin/queues/{q}/notice). It lives in the
-- configuration hash's 'notice' field, so it survives a restart; every
-- instance's tick reads it (tick.lua) and its streams push it. The text
-- was checked by the daemon (1 to 280 characters, no control characters).
-- KEYS:
--   config       the queue's configuration hash
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   text         the notice, '' to clear it
--   queue        the queue's name, for the trail
--   admin        who asked, for the trail
-- Reply: { 'ok', notice before, notice after } ('' for none) or
-- { 'no_queue' }
if not redis.call('HGET', K_config, 'state') then
  return { 'no_queue' }
end
local before = redis.call('HGET', K_config, 'notice') or ''
if A_text == '' then
  redis.call('HDEL', K_config, 'notice')
else
  redis.call('HSET', K_config, 'notice', A_text)
end
trail_add(K_trail, A_admin, A_queue, 'notice', { notice = {
  before ~= '' and before or cjson.null,
  A_text ~= '' and A_text or cjson.null } })
return { 'ok', before, A_text }
