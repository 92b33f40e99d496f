-- admin_show.lua: the configuration and live figures of one or more
-- queues, for the admin API and /metrics.
-- KEYS: the keys of lib.lua's layout (config .. tick, 7 keys) once per
--       queue, one queue after another
-- Reply: one entry per queue, in order: {} when there is no such queue,
-- else { { field, value, ... } (config), waiting, active,
--        { joined, admitted, expired, left, abandoned, removed },
--        admitted in the last minute, pre-queue entrants not yet drawn,
--        ms the draw took (0: none) }
local TOTALS = { 'joined', 'admitted', 'expired', 'left', 'abandoned',
  'removed' }
local now = now_ms()
local out = {}
for i = 1, #KEYS, 7 do
  local config = redis.call('HGETALL', KEYS[i])
  if #config == 0 then
    out[#out + 1] = {}
  else
    local totals = redis.call('HMGET', KEYS[i + 5], unpack(TOTALS))
    for j = 1, #TOTALS do
      totals[j] = tonumber(totals[j]) or 0
    end
    out[#out + 1] = { config, redis.call('ZCARD', KEYS[i + 2]),
      redis.call('ZCOUNT', KEYS[i + 3], '(' .. now, '+inf'), totals,
      admitted_last_minute(KEYS[i + 5], now),
      redis.call('ZCOUNT', KEYS[i + 2], PRE_ABOVE, PRE_BELOW),
      tonumber(redis.call('HGET', KEYS[i + 5], 'draw_ms')) or 0 }
  end
end
return out
