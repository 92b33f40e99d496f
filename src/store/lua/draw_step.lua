-- draw_step.lua: one step of a queue's draw (doc/design.md, "The draw").
-- The daemon that holds the lock drives it: Lua has no SHA-256, so the
-- daemon hashes each chunk of entrants it is handed and hands back the
-- members of the draw's sorted set; this script does the rest in chunks
-- small enough that no call holds Redis for long. Every step is written
-- down in the draw's hash, so whichever instance holds the lock next
-- goes on from there; a draw once 'drawn' is never redone.
-- Phases (the hash's 'phase'): hash (members into K_sorted, after the
-- score 'cursor'), walk (K_sorted in order: each entrant still undrawn
-- gets the next place and its ticket a line of K_order), sum (the
-- daemon reads K_order piece by piece and hashes it), then 'drawn'.
-- KEYS: the queue's eight (lib.lua), then
--   draw         the draw's hash
--   sorted       the draw's sorted set (score 0, member hmac (64 hex) ..
--                ticket (32 hex) .. token)
--   order        the order (a list of pieces, each the tickets of one
--                walk step, one a line)
--   lock         the lock
-- ARGV:
--   owner        this instance's id
--   lock_ms      the lock's lifetime (ms)
--   chunk        entrants per step
--   op           'go'; 'hashed' (operand: the cursor, the last score
--                hashed; members: the members); 'read' (operand: the
--                index of a piece of the order); or 'summed' (operand:
--                the order's SHA-256, hex)
--   operand      '' for 'go'
--   members...
-- Reply: { 'busy' } (another instance holds the lock), { 'idle' } (no
-- draw is due), { kind, seed, beacon, entrants } as { 'hash', seed,
-- beacon, token, score, ... } (hash these), { kind, piece, index } as
-- { 'more', piece, index } (call again; the piece of the order this step
-- added and its index, -1 when none), { kind, pieces } as { 'sum', pieces }
-- (hash the order: the daemon that saw every piece from index 0 has it
-- already), { kind, text } as { 'bytes', text } (a piece of the order; ''
-- past the end), { kind, entrants, started_ms, now_ms } as { 'drawn',
-- entrants, started_ms, now_ms }
local c = load_conf(K_config)
local d = redis.call('HMGET', K_draw, 'seed', 'state', 'beacon', 'phase')
local now = now_ms()
if not c or c.opens_at == 0 or not d[1] or d[2] == 'drawn' or
    now < c.opens_at or (c.beacon_round ~= '' and not d[3]) then
  return { 'idle' }
end
local owner = redis.call('GET', K_lock)
if owner and owner ~= A_owner then
  return { 'busy' }
end
redis.call('SET', K_lock, A_owner, 'PX', A_lock_ms)
local chunk = tonumber(A_chunk)
local op = A_op
if not d[4] then
  d[4] = 'hash'
  redis.call('HSET', K_draw, 'phase', 'hash', 'cursor', PRE, 'walked', 0,
    'placed', 0, 'started_ms', now)
  redis.call('UNLINK', K_sorted, K_order)
end

if op == 'hashed' and d[4] == 'hash' then
  if #A_members > 0 then
    local args = {}
    for i = 1, #A_members do
      args[#args + 1] = 0
      args[#args + 1] = A_members[i]
    end
    redis.call('ZADD', K_sorted, unpack(args))
  end
  redis.call('HSET', K_draw, 'cursor', A_operand)
elseif op == 'read' and d[4] == 'sum' then
  return { 'bytes', redis.call('LINDEX', K_order, A_operand) or '' }
elseif op == 'summed' and d[4] == 'sum' then
  local f = redis.call('HMGET', K_draw, 'placed', 'started_ms')
  redis.call('HSET', K_draw, 'state', 'drawn', 'order_sha256', A_operand,
    'entrants', f[1], 'drawn_at', math.floor(now / 1000),
    'ms', now - tonumber(f[2]))
  redis.call('HDEL', K_draw, 'phase', 'cursor', 'walked')
  redis.call('HSET', K_stats, 'draw_ms', now - tonumber(f[2]))
  -- UNLINK: a million members are freed in the background
  redis.call('UNLINK', K_sorted, K_lock)
  return { 'drawn', tonumber(f[1]), tonumber(f[2]), now }
end

if d[4] == 'hash' then
  local cursor = redis.call('HGET', K_draw, 'cursor')
  local r = redis.call('ZRANGE', K_waiting, '(' .. cursor, PRE_BELOW,
    'BYSCORE', 'LIMIT', 0, chunk, 'WITHSCORES')
  if #r > 0 then
    local seedbeacon = redis.call('HMGET', K_draw, 'seed', 'beacon')
    return { 'hash', seedbeacon[1], seedbeacon[2] or '', unpack(r) }
  end
  redis.call('HSET', K_draw, 'phase', 'walk')
  d[4] = 'walk'
end

if d[4] == 'walk' then
  local f = redis.call('HMGET', K_draw, 'walked', 'placed')
  local walked, placed = tonumber(f[1]), tonumber(f[2])
  local m = redis.call('ZRANGE', K_sorted, walked, walked + chunk - 1)
  if #m > 0 then
    local args, lines, tokens = {}, {}, {}
    for i = 1, #m do
      tokens[i] = string.sub(m[i], 97)
    end
    -- one call for the chunk's scores: who is still undrawn
    local scores = redis.call('ZMSCORE', K_waiting, unpack(tokens))
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
      redis.call('ZADD', K_waiting, 'XX', unpack(args))
      -- a list of pieces: appending to one long string copies it
      at = redis.call('RPUSH', K_order, piece) - 1
    end
    redis.call('HSET', K_draw, 'walked', walked + #m, 'placed', placed)
    return { 'more', piece, at }
  end
  redis.call('HSET', K_draw, 'phase', 'sum')
end
return { 'sum', redis.call('LLEN', K_order) }
