-- room_read.lua: what the operator's console shows, read once a second by
-- a process with a feed open, however many feeds it serves: every
-- process's last report and how long ago it came, Redis's memory and role,
-- and each queue's figures (admin_show.lua's), how fast its line moves and
-- the times in line of the last five minutes' admissions (tick.lua).
-- KEYS:
--   room         the reports (hash: id -> JSON)
--   room_seen    when each id last reported (sorted set: id -> ms)
--   waits...     each queue's times in line (list, tick.lua)
--   queues...    each queue's ten keys (lib.lua), in the same order
-- ARGV:
--   nq           how many queues
-- Reply: { now_ms, instances, redis, queues }: instances { { id, report,
-- seen_ms }... } (the 1,000 seen last, by id); redis { used_memory,
-- maxmemory, role };
-- queues one entry each: {} when there is no such queue, else { show,
-- rate, waits, last_tick_ms, facts, eta }: show admin_show.lua's entry ({
-- config, waiting, active, totals, last_minute, prequeue, draw_ms, wait,
-- eta_new }, wait { buckets... }),
-- rate lib.lua's line_speed (text), waits the times in line of the last
-- five minutes' admission runs ({ "at first_ms last_ms count"... },
-- tick.lua's), last_tick_ms, and facts the configuration as the scripts
-- read it (lib.lua's load_conf): { mode, state (closes_at applied),
-- batch, interval, max_active, active_ttl, opens_at (s), closes_at (s),
-- held (1 while a scheduled opening's draw holds the line) }, and eta
-- what the ETA of a visitor joining now reads beyond that, lib.lua's
-- eta_facts(): { keep, active, ends, last_end, band, early, ended_ms,
-- leavers, ages }
local WINDOW_MS = 300000
local now = now_ms()
local instances = {}
local seen = redis.call('ZREVRANGE', K_room_seen, 0, 999, 'WITHSCORES')
for i = 1, #seen, 2 do
  local report = redis.call('HGET', K_room, seen[i])
  if report then
    instances[#instances + 1] = { seen[i], report, seen[i + 1] }
  end
end
-- by id, so a console's list keeps its order from one second to the next
table.sort(instances, function(a, b) return a[1] < b[1] end)
local info = redis.call('INFO', 'memory', 'replication')
local redis_facts = { string.match(info, 'used_memory:(%d+)') or '0',
  string.match(info, 'maxmemory:(%d+)') or '0',
  string.match(info, 'role:(%a+)') or '' }
local queues = {}
for i, q in ipairs(K_queues) do
  local show = queue_show(q, now)
  if #show == 0 then
    queues[i] = {}
  else
    use_queue(q)
    local waits, all = {}, redis.call('LRANGE', K_waits[i], 0, 255)
    for j = 1, #all do
      local at = tonumber(string.match(all[j], '^(%d+)'))
      if not at or at < now - WINDOW_MS then
        break
      end
      waits[j] = all[j]
    end
    local c, st = load_conf(q.config), line_stats()
    queues[i] = { show, line_speed(c, st), waits,
      tonumber(redis.call('GET', q.tick)) or 0,
      { c.mode, state_at(c, now), tonumber(c.batch), tonumber(c.interval),
        tonumber(c.max_active), tonumber(c.active_ttl), c.opens_at / 1000,
        c.closes_at / 1000, draw_holds(c, now) and 1 or 0 },
      { eta_facts(c, now, st, true) } }
  end
end
return { now, instances, redis_facts, queues }
