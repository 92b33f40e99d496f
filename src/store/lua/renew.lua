-- renew.lua: a visitor used their pass (GET /v1/check): in a queue with
-- renew = yes their session's end slides to active_ttl from now (lib.lua's
-- renew(), at most once every few seconds).
-- KEYS: the queue's ten (lib.lua)
-- ARGV:
--   token
-- Reply: { result, expiry_ms }: { 'renewed', expiry_ms } (a renewing
-- queue: the end in force), { 'fixed', expiry_ms } (the queue does not
-- renew), or { 'gone' } (no such session) / { 'no_queue' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local expiry = tonumber(redis.call('ZSCORE', K_active, A_token))
if not expiry or expiry <= now then
  return { 'gone' }
end
if c.renew ~= 'yes' then
  return { 'fixed', expiry }
end
return { 'renewed', renew(A_token, expiry, now, c) }
