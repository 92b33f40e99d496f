-- draw_step.lua: one step of a queue's draw (doc/design.md, "The draw").
-- The daemon that holds the lock drives it: Lua has no SHA-256, so the
-- daemon hashes each chunk of entrants it is handed and hands back the
-- members of the draw's sorted set; this script does the rest in chunks
-- small enough that no call holds Redis for long. Every step is written
-- down in the draw's hash, so whichever instance holds the lock next
-- goes on from there; a draw once 'drawn' is never redone.
-- Phases (the hash's 'phase'): hash (members into KEYS[9], after the
-- score 'cursor'), walk (KEYS[9] in order: each entrant still undrawn
-- gets the next place and its ticket a line of KEYS[10]), sum (the
-- daemon reads KEYS[10] piece by piece and hashes it), then 'drawn'.
-- KEYS: see lib.lua; KEYS[8] the draw's hash; KEYS[9] the draw's sorted
--   set (score 0, member hmac (64 hex) .. ticket (32 hex) .. token);
--   KEYS[10] the order (a list of pieces, each the tickets of one walk
--   step, one a line); KEYS[11] the lock
-- ARGV[1] this instance's id  ARGV[2] lock lifetime (ms)  ARGV[3] chunk
-- ARGV[4] 'go'; or 'hashed', ARGV[5] the cursor (last score hashed) and
--         ARGV[6..] the members; or 'read', ARGV[5] the index of a piece
--         of the order; or 'summed', ARGV[5] the order's SHA-256 (hex)
-- Reply: { 'busy' } (another instance holds the lock), { 'idle' } (no
-- draw is due), { 'hash', seed, beacon, token, score, ... } (hash these),
-- { 'more', piece, index } (call again; the piece of the order this
-- step added and its index, -1 when none), { 'sum', pieces } (hash the
-- order: the daemon that saw every piece from index 0 has it already),
-- { 'bytes', text } (a piece of the order; '' past the end),
-- { 'drawn', entrants, started_ms, now_ms }
local c = load_conf(KEYS[1])
local d = redis.call('HMGET', KEYS[8], 'seed', 'state', 'beacon', 'phase')
local now = now_ms()
if not c or c.opens_at == 0 or not d[1] or d[2] == 'drawn' or
    now < c.opens_at or (c.beacon_round ~= '' and not d[3]) then
  return { 'idle' }
end
local owner = redis.call('GET', KEYS[11])
if owner and owner ~= ARGV[1] then
  return { 'busy' }
end
redis.call('SET', KEYS[11], ARGV[1], 'PX', ARGV[2])
local chunk = tonumber(ARGV[3])
local op = ARGV[4]
if not d[4] then
  d[4] = 'hash'
  redis.call('HSET', KEYS[8], 'phase', 'hash', 'cursor', PRE, 'walked', 0,
    'placed', 0, 'started_ms', now)
  redis.call('UNLINK', KEYS[9], KEYS[10])
end

if op == 'hashed' and d[4] == 'hash' then
  if #ARGV > 5 then
    local args = {}
    for i = 6, #ARGV do
      args[#args + 1] = 0
      args[#args + 1] = ARGV[i]
    end
    redis.call('ZADD', KEYS[9], unpack(args))
  end
  redis.call('HSET', KEYS[8], 'cursor', ARGV[5])
elseif op == 'read' and d[4] == 'sum' then
  return { 'bytes', redis.call('LINDEX', KEYS[10], ARGV[5]) or '' }
elseif op == 'summed' and d[4] == 'sum' then
  local f = redis.call('HMGET', KEYS[8], 'placed', 'started_ms')
  redis.call('HSET', KEYS[8], 'state', 'drawn', 'order_sha256', ARGV[5],
    'entrants', f[1], 'drawn_at', math.floor(now / 1000),
    'ms', now - tonumber(f[2]))
  redis.call('HDEL', KEYS[8], 'phase', 'cursor', 'walked')
  redis.call('HSET', KEYS[6], 'draw_ms', now - tonumber(f[2]))
  -- UNLINK: a million members are freed in the background
  redis.call('UNLINK', KEYS[9], KEYS[11])
  return { 'drawn', tonumber(f[1]), tonumber(f[2]), now }
end

if d[4] == 'hash' then
  local cursor = redis.call('HGET', KEYS[8], 'cursor')
  local r = redis.call('ZRANGE', KEYS[3], '(' .. cursor, PRE_BELOW,
    'BYSCORE', 'LIMIT', 0, chunk, 'WITHSCORES')
  if #r > 0 then
    local seedbeacon = redis.call('HMGET', KEYS[8], 'seed', 'beacon')
    return { 'hash', seedbeacon[1], seedbeacon[2] or '', unpack(r) }
  end
  redis.call('HSET', KEYS[8], 'phase', 'walk')
  d[4] = 'walk'
end

if d[4] == 'walk' then
  local f = redis.call('HMGET', KEYS[8], 'walked', 'placed')
  local walked, placed = tonumber(f[1]), tonumber(f[2])
  local m = redis.call('ZRANGE', KEYS[9], walked, walked + chunk - 1)
  if #m > 0 then
    local args, lines, tokens = {}, {}, {}
    for i = 1, #m do
      tokens[i] = string.sub(m[i], 97)
    end
    -- one call for the chunk's scores: who is still undrawn
    local scores = redis.call('ZMSCORE', KEYS[3], unpack(tokens))
    for i = 1, #m do
      local token = tokens[i]
      local score = tonumber(scores[i])
      if score and score > PRE and score < PRE_TOP then
        placed = placed + 1
        args[#args + 1] = DRAWN + placed
        args[#args + 1] = token
        lines[#lines + 1] = string.sub(m[i], 65, 96) .. '\n'
      end
    end
    local piece, at = table.concat(lines), -1
    if #args > 0 then
      redis.call('ZADD', KEYS[3], 'XX', unpack(args))
      -- a list of pieces: appending to one long string copies it
      at = redis.call('RPUSH', KEYS[10], piece) - 1
    end
    redis.call('HSET', KEYS[8], 'walked', walked + #m, 'placed', placed)
    return { 'more', piece, at }
  end
  redis.call('HSET', KEYS[8], 'phase', 'sum')
end
return { 'sum', redis.call('LLEN', KEYS[10]) }
