-- room_report.lua: one process's report for the operator's console, once
-- a second (doc/design.md, "The console's feed"). It stores the report
-- under the process's id with the time, forgets processes unseen for ten
-- minutes, and, if no process did it yet this second, writes each
-- queue's sample into its series (trimmed to 30 minutes) and a join mark
-- (the ticket reached by now, when it moved) for tick.lua's times in line.
-- KEYS:
--   room         the reports (hash: id -> JSON)
--   room_seen    when each id last reported (sorted set: id -> ms)
--   second       the last second whose samples were written
--   series...    each queue's samples (sorted set: second -> JSON)
--   joins...     each queue's join marks (sorted set: ms -> ticket)
--   queues...    each queue's eight keys (lib.lua), in the same order
-- ARGV:
--   nq           how many queues
--   id           the process's id, host:pid
--   report       its report (JSON); '' when the process stops: it is
--                forgotten at once instead of being shown missing
-- Reply: { wrote }: 1 when this call wrote the second's samples, else 0
local FORGET_MS = 600000
local KEEP_S = 1800
local now = now_ms()
if A_report == '' then
  redis.call('HDEL', K_room, A_id)
  redis.call('ZREM', K_room_seen, A_id)
  return { 0 }
end
redis.call('HSET', K_room, A_id, A_report)
redis.call('ZADD', K_room_seen, ms_text(now), A_id)
local old = redis.call('ZRANGEBYSCORE', K_room_seen, '-inf',
  now - FORGET_MS, 'LIMIT', 0, 100)
if #old > 0 then
  redis.call('HDEL', K_room, unpack(old))
  redis.call('ZREM', K_room_seen, unpack(old))
end
local sec = math.floor(now / 1000)
if sec <= (tonumber(redis.call('GET', K_second)) or 0) then
  return { 0 }
end
redis.call('SET', K_second, string.format('%d', sec), 'EX', 60)
for i, q in ipairs(K_queues) do
  if redis.call('EXISTS', q.config) == 1 then
    local st = redis.call('HMGET', q.stats, 'joined', 'admitted')
    local sample = string.format(
      '{"t":%d,"joined":%d,"admitted":%d,"waiting":%d,"active":%d}', sec,
      tonumber(st[1]) or 0, tonumber(st[2]) or 0,
      redis.call('ZCARD', q.waiting),
      redis.call('ZCOUNT', q.active, '(' .. ms_text(now), '+inf'))
    redis.call('ZADD', K_series[i], sec, sample)
    redis.call('ZREMRANGEBYSCORE', K_series[i], '-inf', sec - KEEP_S)
    local seq = tonumber(redis.call('GET', q.seq)) or 0
    local top = redis.call('ZREVRANGE', K_joins[i], 0, 0, 'WITHSCORES')
    if seq > (tonumber(top[2]) or 0) then
      redis.call('ZADD', K_joins[i], seq, ms_text(now))
      -- a line that never moves: a day of marks at most
      redis.call('ZREMRANGEBYRANK', K_joins[i], 0, -86401)
    end
  end
end
return { 1 }
