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
--                the last score read); 'place' (operand: 'base count':
--                base, the score of the last place before this step as
--                the daemon counts, and count, the entrants it handed
--                over since its last read; members: the piece, the
--                entrants' tickets one a line (33 bytes each) in the
--                drawn order, then a score, token pair for each, base +
--                its place in the step, in any order); 'placed'
--                (operand: count; the daemon handed over every entrant
--                it read); 'piece' (operand: the index of a piece of the
--                order); 'summed' (operand: the order's SHA-256, hex)
--   operand
--   members...
-- Reply: { 'busy' } (another instance holds the lock), { 'idle' } (no
-- draw is due), { kind, seed, beacon, last, base, tokens } as { 'hash',
-- seed, beacon, last, base, token, ... } (undrawn entrants after the
-- cursor, in score order, the last one's score, and base: the score of
-- the last place given, the next place's less 1; none and '' when all
-- were read), { kind, piece, index, base } as { 'more', piece, index,
-- base } (the piece of the order this step added, its index, -1 when
-- none, and base after it), { kind, pieces } as { 'sum', pieces } (hash
-- the order: the daemon that saw every piece from index 0 has it
-- already), { kind, text } as { 'bytes', text } (a piece of the order;
-- '' past the end), { kind, entrants, started_ms, now_ms } as { 'drawn',
-- entrants, started_ms, now_ms }. A 'place' or 'placed' whose count is
-- not the draw's own ('handed', zeroed by every read) is an error reply
-- and changes nothing: the daemon sends place steps ahead of the
-- answers, and one sent behind a step that failed must not place its
-- entrants before that step's.
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
-- one's score, the last place's score, and the draw's key material. Their
-- scores stay in Redis: the daemon needs only the last, as the next
-- cursor.
local function read(from)
  local r = redis.call('ZRANGE', K_waiting, from, PRE_BELOW,
    'BYSCORE', 'LIMIT', 0, chunk)
  local sb = redis.call('HMGET', K_draw, 'seed', 'beacon', 'placed')
  redis.call('HSET', K_draw, 'handed', 0)
  local last = ''
  if #r > 0 then
    last = redis.call('ZSCORE', K_waiting, r[#r])
  end
  local out = { 'hash', sb[1], sb[2] or '', last,
    DRAWN + (tonumber(sb[3]) or 0) }
  -- not unpack(r): Lua's stack takes about 8,000 values
  for i = 1, #r do
    out[i + 5] = r[i]
  end
  return out
end

-- ZADD XX of the score, token pairs args[from..to], 2,000 pairs a call
-- (Lua's stack takes about 8,000 values); with lt, LT CH: only to a
-- lower score, and how many moved.
local function zadd(args, from, to, lt)
  local moved = 0
  for i = from, to, 4000 do
    local j = math.min(i + 3999, to)
    if lt then
      moved = moved + redis.call('ZADD', K_waiting, 'XX', 'LT', 'CH',
        unpack(args, i, j))
    else
      redis.call('ZADD', K_waiting, 'XX', unpack(args, i, j))
    end
  end
  return moved
end

-- After a place step's ZADD, when fewer moved than were handed over (one
-- left since it was read, or another instance placed it): those whose
-- score is still the place they were given here moved; the places after
-- one that did not close up behind it, in the drawn order, and the piece
-- keeps the moved ones' lines. The piece, and how many moved. base is
-- the score of the last place before this step's; the pairs are
-- args[first..].
local function close_up(base, piece, args, first, n)
  local tokens, at = {}, {}
  for j = 1, n do
    tokens[j] = args[first + 2 * j - 1]
  end
  local scores = redis.call('ZMSCORE', K_waiting, unpack(tokens))
  for j = 1, n do
    local sent = tonumber(args[first + 2 * j - 2])
    if tonumber(scores[j]) == sent then
      at[sent - base] = tokens[j]
    end
  end
  local lines, moves, k = {}, {}, 0
  for i = 1, n do
    if at[i] then
      k = k + 1
      lines[k] = string.sub(piece, 33 * i - 32, 33 * i)
      if k < i then
        moves[#moves + 1] = base + k
        moves[#moves + 1] = at[i]
      end
    end
  end
  zadd(moves, 1, #moves)
  return table.concat(lines), k
end

-- The score, token pairs of a place step and the index of the first:
-- as the daemon sent them when it counted from the same place as Redis
-- (the common case: no copy), else moved to follow base (the daemon's
-- count was behind: it took over, or an instance it raced placed some;
-- or ahead: a step it sent before this one placed fewer than it handed
-- over).
-- sent is the base the daemon counted from.
local function pairs_at(base, sent, n)
  if sent == base then
    return A_members, 2
  end
  local args = {}
  for j = 1, n do
    args[2 * j - 1] = tonumber(A_members[2 * j]) - sent + base
    args[2 * j] = A_members[2 * j + 1]
  end
  return args, 1
end

-- Each entrant handed over that is still undrawn gets the next place,
-- and its ticket a line of this step's piece of the order. The daemon
-- sends the pairs ordered by the entrants' old scores (Redis then finds
-- one after another in the same part of the set), each scored base + its
-- place in the step, and the piece in the drawn order. One ZADD LT moves
-- them all: an undrawn score lies above every drawn one, so only the
-- undrawn move, and CH counts them; none that left comes back (XX).
-- The daemon's count of entrants handed over since its read, when it is
-- the draw's own; else an error reply (a step before it failed).
local function in_step(count)
  local handed = tonumber(redis.call('HGET', K_draw, 'handed')) or 0
  if tonumber(count) ~= handed then
    return nil, redis.error_reply('draw_step: out of step: ' ..
      tostring(count) .. ' handed over, the draw has ' .. handed)
  end
  return handed
end

local function place()
  local placed = tonumber(redis.call('HGET', K_draw, 'placed'))
  local sent, count = string.match(A_operand, '^(%S+) (%S+)$')
  local handed, err = in_step(count)
  if not handed then
    return err
  end
  local piece, n = A_members[1], (#A_members - 1) / 2
  if n ~= math.floor(n) or #piece ~= 33 * n then
    return redis.error_reply('draw_step: a piece of ' .. #piece ..
      ' bytes for ' .. (#A_members - 1) .. ' members')
  end
  local args, first = pairs_at(DRAWN + placed, tonumber(sent), n)
  handed = handed + n
  if zadd(args, first, first + 2 * n - 1, true) < n then
    piece, n = close_up(DRAWN + placed, piece, args, first, n)
  end
  local at = -1
  if n > 0 then
    -- a list of pieces: appending to one long string copies it
    at = redis.call('RPUSH', K_order, piece) - 1
    placed = placed + n
  else
    piece = ''
  end
  redis.call('HSET', K_draw, 'placed', placed, 'handed', handed)
  return { 'more', piece, at, DRAWN + placed }
end

local op = A_op
if d[4] == 'walk' then
  if op == 'read' then
    return read('(' .. A_operand)
  elseif op == 'place' and #A_members > 2 then
    return place()
  elseif op == 'placed' then
    local handed, err = in_step(A_operand)
    if not handed then
      return err
    end
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
  redis.call('HDEL', K_draw, 'phase', 'cursor', 'walked', 'handed')
  redis.call('HSET', K_stats, 'draw_ms', now - tonumber(f[2]))
  redis.call('UNLINK', K_lock)
  return { 'drawn', tonumber(f[1]), tonumber(f[2]), now }
end
return { 'sum', redis.call('LLEN', K_order) }
