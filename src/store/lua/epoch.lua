-- epoch.lua: the marker of this Redis's data. Written once, by the first
-- instance to find none; an instance that knew another value, or finds
-- none where it knew one, knows Redis lost everything (a restart without
-- persistence, FLUSHALL).
-- Also the challenges' HMAC key (<prefix>:powkey), written once the same
-- way (qstore_powkey).
-- KEYS:
--   key          the marker (<prefix>:epoch) or the key (<prefix>:powkey)
-- ARGV:
--   fresh        a fresh random value, used when there is none
-- Reply: { value, created }: the value, and 1 when written now else 0
local v = redis.call('GET', K_key)
if v then
  return { v, 0 }
end
redis.call('SET', K_key, A_fresh)
return { A_fresh, 1 }
