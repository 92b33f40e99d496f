-- draw_step.lua: one step of a queue's draw (doc/design.md, "The draw").
-- The daemon that holds the lock drives it: Lua has no SHA-256, and a
-- sort of a million entrants is a fraction of a second in C but many
-- seconds of sorted-set inserts, so the daemon reads the undrawn
-- entrants, hashes and sorts them itself, and hands them back in that
-- order a chunk at a time; this script places each one still undrawn.
-- What is placed is written down in the draw's hash ('placed') and the
-- order (K_order), so whichever instance holds the lock next goes on from
-- there: it reads the entrants still undrawn, whose sorted order is the
-- rest of the same order. A draw once 'drawn' is never redone.
-- Phases (the hash's 'phase'): walk (placing), sum (the daemon reads
-- K_order piece by piece and hashes it), then 'drawn'. A 'hash' phase of
-- an older version is a walk: its places are a prefix of the order too.
-- KEYS: the queue's ten (lib.lua), then
--   draw         the draw's hash
--   sorted       an older version's sorted set, dropped on sight
--   order        the order (a list of pieces, each the tickets of one
--                place step, one a line)
--   lock         the lock
-- ARGV:
--   owner        this instance's id
--   lock_ms      the lock's lifetime (ms)
--   chunk        entrants handed over per step
--   op           'go' (operand ''); 'read' (operand: the score cursor,
--                the last score read); 'place' (members: the piece, the
--                entrants' tickets one a line (33 bytes each), then their
--                tokens, in the drawn order); 'placed' (the
--                daemon handed over every entrant it read); 'piece'
--                (operand: the index of a piece of the order); 'summed'
--                (operand: the order's SHA-256, hex)
--   operand
--   members...
-- Reply: { 'busy' } (another instance holds the lock), { 'idle' } (no
-- draw is due), { kind, seed, beacon, last, tokens } as { 'hash', seed,
-- beacon, last, token, ... } (undrawn entrants after the cursor, in
-- score order, and the last one's score; none and '' when all were
-- read), { kind, piece, index } as
-- { 'more', piece, index } (the piece of the order this step added and
-- its index, -1 when none), { kind, pieces } as { 'sum', pieces } (hash
-- the order: the daemon that saw every piece from index 0 has it
-- already), { kind, text } as { 'bytes', text } (a piece of the order;
-- '' past the end), { kind, entrants, started_ms, now_ms } as { 'drawn',
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
if not d[4] then
  d[4] = 'walk'
  redis.call('HSET', K_draw, 'phase', 'walk', 'placed', 0, 'started_ms', now)
  redis.call('UNLINK', K_order)
elseif d[4] == 'hash' then
  d[4] = 'walk'
  redis.call('HSET', K_draw, 'phase', 'walk')
end
redis.call('UNLINK', K_sorted)
local chunk = tonumber(A_chunk)

-- The undrawn entrants after from (a ZRANGE BYSCORE minimum), the last
-- one's score, and the draw's key material. Their scores stay in Redis:
-- the daemon needs only the last, as the next cursor.
local function read(from)
  local r = redis.call('ZRANGE', K_waiting, from, PRE_BELOW,
    'BYSCORE', 'LIMIT', 0, chunk)
  local sb = redis.call('HMGET', K_draw, 'seed', 'beacon')
  local last = ''
  if #r > 0 then
    last = redis.call('ZSCORE', K_waiting, r[#r])
  end
  local out = { 'hash', sb[1], sb[2] or '', last }
  -- not unpack(r): Lua's stack takes about 8,000 values
  for i = 1, #r do
    out[i + 4] = r[i]
  end
  return out
end

-- The entrants handed over whose line at place + i is still theirs: the
-- piece's lines of those, and how many; the places after one that was
-- not (it left, or another instance placed it) close up behind it.
local function close_up(placed, piece, n)
  local tokens = {}
  for i = 1, n do
    tokens[i] = A_members[i + 1]
  end
  local scores = redis.call('ZMSCORE', K_waiting, unpack(tokens))
  local lines, args, k = {}, {}, 0
  for i = 1, n do
    if tonumber(scores[i]) == DRAWN + placed + i then
      k = k + 1
      lines[k] = string.sub(piece, 33 * i - 32, 33 * i)
      if k < i then
        args[#args + 1] = DRAWN + placed + k
        args[#args + 1] = tokens[i]
      end
    end
  end
  for i = 1, #args, 4000 do
    redis.call('ZADD', K_waiting, 'XX', unpack(args, i,
      math.min(i + 3999, #args)))
  end
  return table.concat(lines), k
end

-- Each entrant handed over that is still undrawn gets the next place,
-- and its ticket a line of this step's piece of the order. All at once:
-- an undrawn score lies above every drawn one, so ZADD LT moves only
-- the undrawn, and CH counts them; a member gone is not added (XX).
local function place()
  local placed = tonumber(redis.call('HGET', K_draw, 'placed'))
  local piece, n = A_members[1], #A_members - 1
  if #piece ~= 33 * n then
    return redis.error_reply('draw_step: a piece of ' .. #piece ..
      ' bytes for ' .. n .. ' entrants')
  end
  local args, moved = {}, 0
  for i = 1, n do
    args[2 * i - 1] = DRAWN + placed + i
    args[2 * i] = A_members[i + 1]
  end
  for i = 1, #args, 4000 do
    moved = moved + redis.call('ZADD', K_waiting, 'XX', 'LT', 'CH',
      unpack(args, i, math.min(i + 3999, #args)))
  end
  if moved < n then
    piece, n = close_up(placed, piece, n)
  end
  local at = -1
  if n > 0 then
    -- a list of pieces: appending to one long string copies it
    at = redis.call('RPUSH', K_order, piece) - 1
    redis.call('HSET', K_draw, 'placed', placed + n)
  else
    piece = ''
  end
  return { 'more', piece, at }
end

local op = A_op
if d[4] == 'walk' then
  if op == 'read' then
    return read('(' .. A_operand)
  elseif op == 'place' and #A_members > 1 then
    return place()
  elseif op == 'placed' then
    redis.call('HSET', K_draw, 'phase', 'sum')
    d[4] = 'sum'
  else
    return read(PRE_ABOVE)
  end
end
if op == 'piece' then
  return { 'bytes', redis.call('LINDEX', K_order, A_operand) or '' }
elseif op == 'summed' then
  local f = redis.call('HMGET', K_draw, 'placed', 'started_ms')
  redis.call('HSET', K_draw, 'state', 'drawn', 'order_sha256', A_operand,
    'entrants', f[1], 'drawn_at', math.floor(now / 1000),
    'ms', now - tonumber(f[2]))
  redis.call('HDEL', K_draw, 'phase', 'cursor', 'walked')
  redis.call('HSET', K_stats, 'draw_ms', now - tonumber(f[2]))
  redis.call('UNLINK', K_lock)
  return { 'drawn', tonumber(f[1]), tonumber(f[2]), now }
end
return { 'sum', redis.call('LLEN', K_order) }
