-- epoch.lua: the marker of this Redis's data. Written once, by the first
-- instance to find none; an instance that knew another value, or finds
-- none where it knew one, knows Redis lost everything (a restart without
-- persistence, FLUSHALL).
-- Also the challenges' HMAC key (<prefix>:powkey), written once the same
-- way (qstore_powkey).
-- KEYS[1] the marker (<prefix>:epoch) or the key (<prefix>:powkey)
-- ARGV[1] a fresh random value, used when there is none
-- Reply: { value, 1 when written now else 0 }
local v = redis.call('GET', KEYS[1])
if v then
  return { v, 0 }
end
redis.call('SET', KEYS[1], ARGV[1])
return { ARGV[1], 1 }
