-- config_init.lua: write a queue's configuration hash from the file.
-- The hash keeps a fingerprint of the file's section (file_sha): when an
-- instance starts with the section that was written last time, the hash
-- is left as it is, so restarting or adding an instance keeps what the
-- admin API changed; an edited section wins, but for what a draw fixed
-- (as an admin PUT is refused it: lib.lua's draw_fixed) and an opening
-- its pre-queue's entrants were promised, which the hash keeps.
-- KEYS:
--   config       the queue's configuration hash
--   registry     the registry of queues (a set of names; every instance
--                ticks them)
--   draw         the queue's draw (its seed and commitment)
--   waiting      the queue's line (the pre-queue's entrants)
-- ARGV:
--   how          'replace' (at startup: an edited file wins) or 'missing'
--                (after a reconnect: only when Redis lost it, e.g.
--                restarted empty)
--   queue        the queue's name
--   seed         a fresh seed (hex), kept when the queue has a schedule
--                and no seed yet
--   commit       its commitment, hex(SHA-256(seed))
--   fields...    field, value, field, value...
-- A write moves the hash's 'ver' (lib.lua's conf_version).
-- Reply: { written, why, kept... }: written 1 when written, 0 when left
-- as it was; why 'draw_done', 'draw_started' or 'draw_has_entrants' when
-- the hash kept its own value of the keys kept (opens_at, beacon_round)
-- over a different one of the file's, else ''
local sha = redis.sha1hex(table.concat(A_fields, '\n'))
redis.call('SADD', K_registry, A_queue)
local exists = redis.call('EXISTS', K_config) == 1
if exists and (A_how == 'missing' or
    redis.call('HGET', K_config, 'file_sha') == sha) then
  draw_seed(K_draw, redis.call('HGET', K_config, 'opens_at'), A_seed,
    A_commit)
  return { 0, '' }
end
local file = {}
for i = 1, #A_fields, 2 do
  file[A_fields[i]] = A_fields[i + 1]
end
local why, keep = nil, {}
if exists then
  local c = load_conf(K_config)
  why = draw_fixed(c, K_draw, now_ms())
  if why then
    keep = { 'opens_at', 'beacon_round' }
  elseif c.opens_at > 0 and (tonumber(file.opens_at) or 0) == 0 and
      undrawn() > 0 then
    why, keep = 'draw_has_entrants', { 'opens_at' }
  end
end
-- The hash's own values where the file's differ.
local kept, held = {}, {}
for _, f in ipairs(keep) do
  local v = redis.call('HGET', K_config, f) or ''
  if v ~= (file[f] or '') then
    kept[#kept + 1], held[f] = f, v
  end
end
local ver = conf_version(K_config)
redis.call('DEL', K_config)
redis.call('HSET', K_config, unpack(A_fields))
for f, v in pairs(held) do
  if v == '' then
    redis.call('HDEL', K_config, f)
  else
    redis.call('HSET', K_config, f, v)
  end
end
redis.call('HSET', K_config, 'file_sha', sha, 'ver', ver)
draw_seed(K_draw, redis.call('HGET', K_config, 'opens_at'), A_seed, A_commit)
if #kept == 0 then
  why = ''
end
return { 1, why, unpack(kept) }
