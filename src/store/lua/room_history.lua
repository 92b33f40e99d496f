-- room_history.lua: the samples room_beat.lua kept of each queue, for a
-- console that connects (its `history` event).
-- KEYS:
--   series...    each queue's samples (sorted set: second -> JSON)
-- ARGV:
--   from         the first second wanted (unix s)
-- Reply: one entry per queue, in order: its samples from then on, oldest
-- first ({ JSON... })
local out = {}
for i, key in ipairs(K_series) do
  out[i] = redis.call('ZRANGEBYSCORE', key, A_from, '+inf')
end
return out
