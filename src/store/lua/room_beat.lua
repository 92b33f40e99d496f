-- room_beat.lua: one process's beat for the operator's console, once
-- a second (doc/design.md, "The console's feed"). It stores the beat
-- under the process's id with the time, forgets processes unseen for ten
-- minutes, adds the growth of the process's join refusals since its last
-- beat to each queue's stats hash ('refused_work'... : the beat's
-- counters are the process's since it started), and, if no process did
-- it yet this second, writes each queue's sample into its series (trimmed
-- to 30 minutes) and a join mark (the ticket reached by now, when it
-- moved, with the ETA this process last told a new waiter, at what
-- position and when: join_mark) for tick.lua's times in line, and the
-- queue's ETA band from its own errors when they moved (lib.lua's
-- eta_band). The first sample of a minute also writes the row of the
-- minute before into the queue's history (doc/design.md, "The report"),
-- kept report_ttl seconds and one row more, the baseline of the oldest;
-- an idle minute that changed nothing writes none.
-- KEYS:
--   room         the beats (hash: id -> JSON)
--   room_seen    when each id last beat (sorted set: id -> ms)
--   second       the last second whose samples were written
--   series...    each queue's samples (sorted set: second -> JSON)
--   joins...     each queue's join marks (sorted set: ms -> ticket)
--   history...   each queue's minute rows (sorted set: minute -> row)
--   queues...    each queue's ten keys (lib.lua), in the same order
-- ARGV:
--   nq           how many queues
--   id           the process's id, host:pid
--   beat         its beat (JSON); '' when the process stops: it is
--                forgotten at once instead of being shown missing
--   names...     the queues' names, in the same order
-- Reply: { wrote }: 1 when this call wrote the second's samples, else 0
local _, history_row, eta_band = report_fns()

-- The member of a join mark made now from f, the beat's figures of a
-- queue, after the last mark top ({ member, score }, or {}): 'ms' (now)
-- or 'ms eta pos' with the ETA (s) and position the process last told a
-- new waiter, ms then when it told it (Redis's clock at that join), so
-- the mark's waiter waited from ms exactly and those before it in the
-- run joined up to a second earlier. An ETA told before the last mark
-- was made belongs to no ticket of this run: none. A beat without the
-- time (an older process) marks now, as before.
local function join_mark(f, now, top)
  local eta, pos = tonumber(f.eta_told), tonumber(f.eta_position)
  local at = tonumber(f.eta_told_ms)
  if not (eta and pos) then
    return ms_text(now)
  elseif not at then
    return ms_text(now) .. string.format(' %d %d', eta, pos)
  elseif at > now or at <= (tonumber(string.match(top[1] or '',
      '^(%d+)')) or 0) then
    return ms_text(now)
  end
  return ms_text(at) .. string.format(' %d %d', eta, pos)
end
local FORGET_MS = 600000
local FRESH_MS = 5000	-- a beat this recent counts its streams
local KEEP_S = 1800
local REFUSED = { work = 'refused_work', invitation = 'refused_invite',
  rate = 'refused_rate', origin = 'refused_origin' }
local now = now_ms()
if A_beat == '' then
  redis.call('HDEL', K_room, A_id)
  redis.call('ZREM', K_room_seen, A_id)
  return { 0 }
end
local last = redis.call('HGET', K_room, A_id)
redis.call('HSET', K_room, A_id, A_beat)
redis.call('ZADD', K_room_seen, ms_text(now), A_id)
local old = redis.call('ZRANGEBYSCORE', K_room_seen, '-inf',
  now - FORGET_MS, 'LIMIT', 0, 100)
if #old > 0 then
  redis.call('HDEL', K_room, unpack(old))
  redis.call('ZREM', K_room_seen, unpack(old))
end

-- A beat's queues ({} when it has none).
local function queues_of(text)
  local ok, r = pcall(cjson.decode, text or '{}')
  return ok and type(r) == 'table' and type(r.queues) == 'table' and
    r.queues or {}
end
local mine, before = queues_of(A_beat), queues_of(last)
for i, q in ipairs(K_queues) do
  local now_r = type(mine[A_names[i]]) == 'table' and
    mine[A_names[i]].refused
  if type(now_r) == 'table' and redis.call('EXISTS', q.config) == 1 then
    local b = before[A_names[i]]
    local was = type(b) == 'table' and type(b.refused) == 'table' and
      b.refused or {}
    for reason, field in pairs(REFUSED) do
      local d = (tonumber(now_r[reason]) or 0) - (tonumber(was[reason]) or 0)
      if d > 0 then
        redis.call('HINCRBY', q.stats, field, d)
      end
    end
  end
end

local sec = math.floor(now / 1000)
local prev = tonumber(redis.call('GET', K_second)) or 0
if sec <= prev then
  return { 0 }
end
redis.call('SET', K_second, string.format('%d', sec), 'EX', 60)

-- Each queue's streams over the processes that beat lately.
local streams = {}
local fresh = redis.call('ZRANGEBYSCORE', K_room_seen, now - FRESH_MS,
  '+inf', 'LIMIT', 0, 1000)
if #fresh > 0 then
  for _, text in ipairs(redis.call('HMGET', K_room, unpack(fresh))) do
    if text then
      for name, f in pairs(queues_of(text)) do
        if type(f) == 'table' then
          streams[name] = (streams[name] or 0) + (tonumber(f.streams) or 0)
        end
      end
    end
  end
end

-- The row of queue q (its history key h) for the minute from t on
-- (lib.lua's history_row); the minute's largest wait and error start
-- anew. An idle minute whose counters are the last row's (or all 0, when
-- there is none) writes none: a queue nobody uses costs nothing. A row
-- older than report_ttl goes, but for the newest of them.
local function write_row(q, h, series, t)
  local row, idle = history_row(q, series, t)
  redis.call('HDEL', q.stats, 'w_max', 'e_max')
  local last = redis.call('ZRANGE', h, -1, -1)[1]
  local rest = string.match(row, '^%d+ (.*)$')
  if idle and (last and string.match(last, '^%d+ (.*)$') == rest or
      not last and string.find(rest, '^[0 ]+%-1 n[0 ]+$')) then
    return
  end
  redis.call('ZREMRANGEBYSCORE', h, t, t)
  redis.call('ZADD', h, t, row)
  local ttl = tonumber(redis.call('HGET', q.config, 'report_ttl') or '') or
    DEFAULT_report_ttl
  local older = redis.call('ZCOUNT', h, '-inf', '(' .. (t - ttl))
  if older > 1 then
    redis.call('ZREMRANGEBYRANK', h, 0, older - 2)
  end
end

local minute = math.floor(sec / 60) * 60
local ended = math.floor(prev / 60) * 60
for i, q in ipairs(K_queues) do
  if redis.call('EXISTS', q.config) == 1 then
    local st = redis.call('HMGET', q.stats, 'joined', 'admitted')
    local f = type(mine[A_names[i]]) == 'table' and mine[A_names[i]] or {}
    local sample = string.format(
      '{"t":%d,"joined":%d,"admitted":%d,"waiting":%d,"active":%d,' ..
      '"streams":%d,"prequeue":%d}', sec,
      tonumber(st[1]) or 0, tonumber(st[2]) or 0,
      redis.call('ZCARD', q.waiting),
      redis.call('ZCOUNT', q.active, '(' .. ms_text(now), '+inf'),
      streams[A_names[i]] or 0,
      redis.call('ZCOUNT', q.waiting, PRE_ABOVE, PRE_BELOW))
    if prev > 0 and ended < minute then
      write_row(q, K_history[i], K_series[i], ended)
    end
    eta_band(q.stats)
    redis.call('ZADD', K_series[i], sec, sample)
    redis.call('ZREMRANGEBYSCORE', K_series[i], '-inf', sec - KEEP_S)
    local seq = tonumber(redis.call('GET', q.seq)) or 0
    local top = redis.call('ZREVRANGE', K_joins[i], 0, 0, 'WITHSCORES')
    if seq > (tonumber(top[2]) or 0) then
      local eta = tonumber(f.eta_told)
      redis.call('ZADD', K_joins[i], seq, join_mark(f, now, top))
      if eta then
        redis.call('HSET', q.stats, 'eta_new', string.format('%d', eta))
      end
      -- a line that never moves: a day of marks at most
      redis.call('ZREMRANGEBYRANK', K_joins[i], 0, -86401)
    end
  end
end
return { 1 }
