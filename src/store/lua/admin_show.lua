-- admin_show.lua: the configuration and live figures of one or more
-- queues, for the admin API and /metrics.
-- KEYS:
--   queues...    the queue's seven keys (lib.lua), of one queue after
--                another: K_queues[i].config...
-- ARGV: none
-- Reply: one entry per queue, in order: {} when there is no such queue,
-- else { config, waiting, active, totals, last_minute, prequeue, draw_ms }:
-- the configuration ({ field, value, ... }), waiting, active, totals
-- ({ joined, admitted, expired, left, abandoned, removed }), admitted in
-- the last minute, pre-queue entrants not yet drawn, ms the draw took (0:
-- none)
local TOTALS = { 'joined', 'admitted', 'expired', 'left', 'abandoned',
  'removed' }
local now = now_ms()
local out = {}
for i, q in ipairs(K_queues) do
  local config = redis.call('HGETALL', q.config)
  if #config == 0 then
    out[i] = {}
  else
    local totals = redis.call('HMGET', q.stats, unpack(TOTALS))
    for j = 1, #TOTALS do
      totals[j] = tonumber(totals[j]) or 0
    end
    out[i] = { config, redis.call('ZCARD', q.waiting),
      redis.call('ZCOUNT', q.active, '(' .. now, '+inf'), totals,
      admitted_last_minute(q.stats, now),
      redis.call('ZCOUNT', q.waiting, PRE_ABOVE, PRE_BELOW),
      tonumber(redis.call('HGET', q.stats, 'draw_ms')) or 0 }
  end
end
return out
