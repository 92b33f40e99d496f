-- report_read.lua: a queue's history for its report (GET
-- /v1/admin/queues/{q}/report, doc/api.md): the minute rows room_beat.lua
-- wrote from one minute to another, the row before them (the baseline
-- the first minute's figures are counted from), the minute in progress as
-- a live row, and the draw's record. Writes nothing.
-- KEYS: the queue's ten (lib.lua), then
--   history      the queue's minute rows (sorted set: minute -> row)
--   series       its samples (room_beat.lua), for the live row's peaks
--   draw         the draw's hash
-- ARGV:
--   from         the first minute wanted (unix s); '': report_ttl ago
--   to           the last (unix s); '': now
--   limit        the most rows one run reads (a day's: a long range is
--                read a run at a time, so Redis is never held long)
-- Reply: { result, now_ms, from, to, base, rows, live, draw }
-- (scripts.def's REPORT): result 'ok' or 'no_queue'; from and to as
-- taken (unix s); base the row before from ('' when none); rows the rows
-- from from to to, oldest first, limit at most; live the minute in
-- progress, its peaks taking in the line as it is now ('' when it is
-- after to); draw { seed, commit, beacon, entrants, drawn_at,
-- order_sha256, ms } once drawn, else {}. A row is one string of words
-- (lib.lua's history_row): t joined admitted abandoned left expired
-- removed noshows refused_work refused_invite refused_rate refused_origin
-- peak_waiting peak_active peak_streams peak_prequeue wait_max_ms
-- error_max_ms, then the buckets
if redis.call('EXISTS', K_config) == 0 then
  return { 'no_queue' }
end
local _, history_row = report_fns()
local now = now_ms()
local ttl = tonumber(redis.call('HGET', K_config, 'report_ttl') or '') or
  DEFAULT_report_ttl
local from = tonumber(A_from) or math.floor(now / 1000) - ttl
local to = tonumber(A_to) or math.floor(now / 1000)
local base = redis.call('ZREVRANGEBYSCORE', K_history,
  '(' .. string.format('%d', from), '-inf', 'LIMIT', 0, 1)
local rows = redis.call('ZRANGEBYSCORE', K_history,
  string.format('%d', from), string.format('%d', to), 'LIMIT', 0, A_limit)
local minute = math.floor(now / 60000) * 60
local live = ''
if minute <= to and minute + 59 >= from then
  live = history_row({ stats = K_stats }, K_series, minute,
    { redis.call('ZCARD', K_waiting), active_count(now) })
end
local draw = {}
local d = redis.call('HMGET', K_draw, 'state', 'seed', 'commit', 'beacon',
  'entrants', 'drawn_at', 'order_sha256', 'ms')
if d[1] == 'drawn' then
  for i = 2, 8 do
    draw[i - 1] = d[i] or ''
  end
end
return { 'ok', now, from, to, base[1] or '', rows, live, draw }
