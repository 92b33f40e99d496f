-- admin_show.lua: the configuration and live figures of one or more
-- queues, for the admin API and /metrics.
-- KEYS:
--   queues...    the queue's ten keys (lib.lua), of one queue after
--                another: K_queues[i].config...
-- ARGV: none
-- Reply: one entry per queue, in order: {} when there is no such queue,
-- else { config, waiting, active, totals, last_minute, prequeue, draw_ms,
-- wait, eta_new }: the configuration ({ field, value, ... }), waiting,
-- active, totals ({ joined, admitted, expired, left, abandoned, removed,
-- noshows }), admitted in the last minute, pre-queue entrants not yet
-- drawn, ms the draw took (0: none), the histogram of times in line
-- (wait: { buckets }: w0..w15 and their sum in ms, lib.lua's count_waits)
-- and the ETA last told a new waiter (s, -1: none)
local now = now_ms()
local out = {}
for i, q in ipairs(K_queues) do
  out[i] = queue_show(q, now)
end
return out
