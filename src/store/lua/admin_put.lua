-- admin_put.lua: create a queue, or change some fields of one (PUT
-- /v1/admin/queues/{q}). Every value was checked by conf.c's key table;
-- what the values must be together (the schedule's order) and what a
-- draw has fixed is checked here, against the hash, in the same run that
-- writes, and a refusal writes nothing.
-- KEYS:
--   config       the queue's configuration hash
--   registry     the registry of queues
--   draw         the queue's draw (a hash): once the opening passed its
--                opens_at and beacon_round are fixed
--   waiting      the queue's line (the pre-queue's entrants)
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   queue        the queue's name
--   seed         a fresh seed (hex), kept when the queue gets a schedule
--                and has none yet
--   commit       its commitment, hex(SHA-256(seed))
--   admin        the admin's name, for the trail
--   npairs       how many field/value pairs the caller gave
--   pairs...     the pairs given: what changes in an existing queue
--   fields...    every field with the given values over the defaults: a
--                new queue's whole configuration
-- The hash's 'ver' moves (lib.lua's conf_version). The trail records
-- 'put' with each given key whose value changed, [before, after]. A mode
-- given while the queue fails open ends the fail-open.
-- Reply: { result, config }: { 'created' | 'updated', { field, value, ... }
-- (the hash after) }; { 'draw_done' } or { 'draw_started' } (opens_at or
-- beacon_round given once drawn, or once the opening passed);
-- { 'draw_has_entrants' } (opens_at cleared while the pre-queue has
-- entrants); { result, field, value, opens_at }: { 'bad_schedule', key,
-- its value, opens_at } (prequeue_from after opens_at, or closes_at
-- before it, unix seconds)
local given, whole = {}, {}
for i = 1, #A_pairs, 2 do
  given[A_pairs[i]] = A_pairs[i + 1]
end
for i = 1, #A_fields, 2 do
  whole[A_fields[i]] = A_fields[i + 1]
end
local exists = redis.call('EXISTS', K_config) == 1

-- A key's value once written, in unix seconds (0: none).
local function secs(key)
  local v = given[key]
  if v == nil then
    v = exists and redis.call('HGET', K_config, key) or whole[key]
  end
  return tonumber(v) or 0
end

if given.opens_at or given.beacon_round then
  local c = exists and load_conf(K_config) or { opens_at = 0 }
  local fixed = draw_fixed(c, K_draw, now_ms())
  if fixed then
    return { fixed }
  end
  if c.opens_at > 0 and given.opens_at and secs('opens_at') == 0 and
      undrawn() > 0 then
    return { 'draw_has_entrants' }
  end
end
if given.opens_at or given.prequeue_from or given.closes_at then
  local o, p, e = secs('opens_at'), secs('prequeue_from'), secs('closes_at')
  if o > 0 and p > o then
    return { 'bad_schedule', 'prequeue_from', p, o }
  elseif o > 0 and e > 0 and e < o then
    return { 'bad_schedule', 'closes_at', e, o }
  end
end

-- The given keys whose value changes: { before, after } each.
local function changed()
  local out = {}
  for k, v in pairs(given) do
    local was = exists and redis.call('HGET', K_config, k) or nil
    if was ~= v then
      out[k] = { was or cjson.null, v }
    end
  end
  return out
end

local changes = changed()
local result = 'updated'
local ver = conf_version(K_config)
if not exists then
  result = 'created'
  redis.call('HSET', K_config, 'ver', ver, unpack(A_fields))
elseif #A_pairs > 0 then
  redis.call('HSET', K_config, 'ver', ver, unpack(A_pairs))
end
-- A mode given while the queue fails open is the operator's choice now:
-- fail-open ends, and its end will not bring back the mode it had.
local until_was = exists and redis.call('HGET', K_config, 'fail_open_until')
if given.mode and until_was then
  redis.call('HDEL', K_config, 'fail_open_until', 'fail_open_prev')
  changes.fail_open_until = { until_was, cjson.null }
end
draw_seed(K_draw, redis.call('HGET', K_config, 'opens_at'), A_seed, A_commit)
redis.call('SADD', K_registry, A_queue)
trail_add(K_trail, A_admin, A_queue, 'put', changes)
return { result, redis.call('HGETALL', K_config) }
