-- join.lua: a batch of joins, in the order they came. Each gets a new
-- place at the end of the line, or the place its user already holds.
-- KEYS: the queue's ten (lib.lua), then
--   users...          the user keys of the joins that gave a user, in the
--                     order of those joins
--   uses...           the use keys of the joins that carry one (keys.c's
--                     keys_used), in the order of those joins
-- ARGV:
--   user_ttl          seconds a user key lives (it is ignored once its
--                     token is gone)
--   nusers            how many joins gave a user
--   nuses             how many joins carry a use key
--   held_ver          the configuration's version whose facts the daemon
--                     holds (0: none; a version is the clock's
--                     microseconds); see "held" below
--   held_max_waiting  that version's max_waiting
--   held_closes_at    its closes_at (unix ms, 0: none)
--   user_joins...     the join numbers of the nusers (1-based,
--                     ascending: join user_joins[j] has user key
--                     users[j])
--   use_joins...      the join numbers of the nuses (ascending: join
--                     use_joins[k] carries use key uses[k])
--   use_kinds...      each use key's kind (keys_used's: 'pow', 'invite')
--   use_limits...     the uses each allows
--   use_expiries...   when each expires (unix ms)
--   tokens...         one new token per join, in order
-- Held facts: the daemon caches what the head of a run that read the
-- whole configuration said of it, with the version (the hash's 'ver',
-- lib.lua's conf_version) it was read at, when that version is a rate
-- queue open to all with no schedule. While ver stays that version, a run
-- reads the version and the state (the field operators set by hand: an
-- HSET of state closed refuses the next join at once) instead of the
-- whole hash, takes max_waiting and closes_at from ARGV, and answers the
-- short head; the daemon adds the rest, and the line's speed from its own
-- ticks (tick.lua). A queue closed, made full, rescheduled or changed in
-- any way through the admin API or the file moves ver, and the next run
-- reads the hash again (doc/design.md, "Held facts").
-- A use key counts the joins that carried it (a proof of work's
-- challenge, kind 'pow'; an invitation, kind 'invite', the one kind that
-- opens a queue with access = invite): a join whose key has reached its limit is
-- refused ('used') before anything else, even when its user holds a
-- place; a join that is answered with a place, new or the user's own,
-- counts one use (INCR, PEXPIREAT) at once, so a second join carrying the
-- same key later in the batch sees it; any other answer counts none. One
-- exception: a join whose user holds a place that the same invitation
-- bought (a retry) gets that place and counts no use, however used up the
-- invitation is; the user key says which invitation bought its place
-- (user_value below). A
-- key of limit 1 (a challenge: every join of a drop carries one) is
-- checked and claimed in one call (SET NX GET PXAT) and deleted again
-- when the join gets no place: one call per join instead of three.
-- A capacity queue with room under its caps and nobody waiting, and a
-- passthrough queue, admit the joiner at once: the entry's status is then
-- 'active'.
-- Reply: { head, entry 1, ..., entry n }: the head, then the entries,
-- where head is the part of facts() every join shares (parsed by
-- qstore_reply.c), led by the length of the line before the batch:
--   { waiting, now_ms, last_tick_ms, rate, mode, state, batch, interval,
--     max_active, active_ttl, redirect, opens_at, prequeue_from,
--     entrants, waiting_ttl, held_ver, max_waiting, closes_at_ms, keep,
--     active, ends, last_end, band, early, ended_ms, leavers, ages }
--   after reading the whole configuration (held_ver: its version when
--   the daemon may hold its facts, else ''; the last nine lib.lua's
--   eta_facts()),
--   { waiting, now_ms, last_tick_ms, state, band, ages } with held facts
--   (what of eta_facts() moves with the line), or {} when there is no
--   queue
-- and each entry is one string of words (one reply object where an array
-- took six, which the daemon's Redis client builds and frees one by one):
--   'new': the join's token took the next place at the end of the line
--     (its rank is the line's length before it: the head's waiting plus
--     the bare 'new' entries before it);
--   'result token status n waiting' otherwise, result 'new' (admitted at
--     once) or 'existing' (the user's place);
--   or 'no_queue' / 'closed' / 'full' / 'used' / 'invite_required' (a
--   queue with access = invite, and the join carries no invitation) /
--   'not_open' (before prequeue_from).
-- Before opens_at a new place is a pre-queue entrant's (scored PRE + its
-- ticket, lib.lua): 'new token prequeue entrants waiting'.
-- A number in an entry is written as Lua writes it, whole up to 10^14:
-- ranks and counts, and expiries in ms until the year 5138. Most joins
-- take a bare 'new': no number to write, nothing for the daemon to read.
local n = #A_tokens
local out = { {} }
local held, v = false
if A_held_ver ~= '0' then
  v = redis.call('HMGET', K_config, 'ver', 'state')
  held = v[1] == A_held_ver
end
local c, cap
if held then
  -- What the scripts below ask of a held version (a rate queue, open to
  -- all, no schedule); its max_waiting and closes_at from the daemon.
  c = { mode = 'rate', access = '', opens_at = 0, prequeue_from = 0,
    closes_at = tonumber(A_held_closes_at), state = v[2] }
  cap = tonumber(A_held_max_waiting)
else
  c = load_conf(K_config)
  if not c then
    for i = 1, n do
      out[i + 1] = 'no_queue'
    end
    return out
  end
  cap = tonumber(c.max_waiting)
end
local now = now_ms()
local ttl = tonumber(A_user_ttl)
local waiting = redis.call('ZCARD', K_waiting)
local waiting0 = waiting
local state = state_at(c, now)
local pre = c.opens_at > 0 and now < c.opens_at
-- Scores for the batch at once, taken with one INCRBY when the first
-- join takes a place (a batch of refusals writes nothing): gaps (joins
-- that got no new place) are harmless, since only the order of scores
-- counts.
local seq
local entrants = pre and undrawn() or 0
local joined = 0
-- The new places go into the line with one ZADD at the end, and into the
-- seen set with another, scored now_s: one mark for the batch's tickets
-- (lib.lua's batch_mark) after the opening, each token before it (a
-- pre-queue entrant's score changes at the draw); until then,
-- pending[token] is the rank of a token a user key names (no other token
-- can be asked for again within the batch).
local places, seen, pending, np = {}, {}, {}, 0
local now_s = ms_text(now)

-- An entry with a place (built as a string at once: cheaper than a table
-- Redis then walks).
local function entry(result, token, status, n)
  return result .. ' ' .. token .. ' ' .. status .. ' ' .. n .. ' ' ..
    waiting
end

-- The place token holds (one of this batch's, or place()'s), or nil.
local function existing(token)
  local rank = pending[token]
  if rank and rank < 0 then
    return entry('existing', token, 'prequeue', entrants)
  elseif rank then
    return entry('existing', token, 'waiting', rank)
  end
  local status, at = place(token, now, c)
  if status then
    return entry('existing', token, status, at)
  end
  return nil
end

-- Admitted at once: no time in line (the report's histogram, lib.lua's
-- count_waits: its first bucket, once for the batch) and no ETA told.
local at_once = 0
local function admit_now(token)
  at_once = at_once + 1
  local expiry = now + tonumber(c.active_ttl) * 1000
  redis.call('ZADD', K_active, expiry, token)
  redis.call('ZADD', K_unchecked, now, token)
  redis.call('HINCRBY', K_stats, 'admitted', 1)
  redis.call('HINCRBY', K_stats, 'rate_n', 1)
  count_admitted(K_stats, 1, now)
  return 'new ' .. token .. ' active ' .. expiry .. ' 0'
end

-- A user key holds the token of the user's place and, when an invitation
-- bought it, a space and that invitation's use key.
local function user_value(token, guard)
  if guard and guard.kind == 'invite' then
    return token .. ' ' .. guard.key
  end
  return token
end

-- The token a user key holds, and the use key of the invitation that
-- bought its place (nil: none); nil when there is no user key.
local function user_held(userkey)
  local v = userkey and redis.call('GET', userkey)
  if not v then
    return nil
  end
  local token, bought = string.match(v, '^(%S+) (.+)$')
  if token then
    return token, bought
  end
  return v
end

-- join_one's answer, and true when it is a retry that counts no use.
local function join_one(i, token, userkey, guard)
  -- An invite-only queue: the join's use key must be an invitation's
  -- (kind 'invite'); the daemon checked its signature.
  local invited = guard and guard.kind == 'invite'
  if c.access == 'invite' and not invited then
    return 'invite_required'
  end
  local held, bought = user_held(userkey)
  if invited and held and bought == guard.key then
    local r = existing(held)
    if r then
      return r, true
    end
    held = nil	-- its place is gone: asked once is enough
  end
  if guard and guard.limit == 1 then
    if redis.call('SET', guard.key, '1', 'NX', 'GET', 'PXAT',
        guard.expires) then
      return 'used'
    end
    guard.claimed = true
  elseif guard and tonumber(redis.call('GET', guard.key) or '0') >=
      guard.limit then
    return 'used'
  end
  local r = held and existing(held)
  if r then
    return r
  end
  if state == 'closed' then
    return 'closed'
  end
  if pre and now < c.prequeue_from then
    return 'not_open'
  end
  if cap > 0 and waiting >= cap then
    return 'full'
  end
  joined = joined + 1
  if userkey then
    redis.call('SET', userkey, user_value(token, guard), 'EX', ttl)
  end
  if not pre and c.mode ~= 'rate' and state == 'open' and waiting == 0 and
      room(now, c, 1) > 0 then
    took(c, 1)
    return admit_now(token)
  end
  if not seq then
    seq = redis.call('INCRBY', K_seq, n) - n + (pre and PRE or 0)
  end
  places[np + 1], places[np + 2] = seq + i, token
  np = np + 2
  waiting = waiting + 1
  if pre then
    local k = #seen
    seen[k + 1], seen[k + 2] = now_s, token
    entrants = entrants + 1
    if userkey then
      pending[token] = -entrants
    end
    return entry('new', token, 'prequeue', entrants)
  end
  if userkey then
    pending[token] = waiting - 1
  end
  return 'new'
end

-- A use counts for any answer with a place ('new...', 'existing...');
-- a claimed key of a join that got none ('closed', 'full') goes again.
local function count_use(guard, r)
  local w = string.sub(r, 1, 3)
  local placed = w == 'new' or w == 'exi'
  if guard.claimed then
    if not placed then
      redis.call('DEL', guard.key)
    end
  elseif placed then
    redis.call('INCR', guard.key)
    redis.call('PEXPIREAT', guard.key, guard.expires)
  end
end

local user_of, guard_of = {}, {}
for j = 1, #A_user_joins do
  user_of[tonumber(A_user_joins[j])] = K_users[j]
end
for k = 1, #A_use_joins do
  guard_of[tonumber(A_use_joins[k])] = { key = K_uses[k],
    kind = A_use_kinds[k], limit = tonumber(A_use_limits[k]),
    expires = A_use_expiries[k] }
end
-- Most joins name no user, carry no use key and, in a queue that admits
-- nobody at once, take the next place unless the line is full: join_one()
-- in short, for them.
local plain = c.access ~= 'invite' and state ~= 'closed' and not pre and
  (c.mode == 'rate' or state ~= 'open')
for i = 1, n do
  local guard, user = guard_of[i], user_of[i]
  if plain and not guard and not user then
    if cap > 0 and waiting >= cap then
      out[i + 1] = 'full'
    else
      if not seq then
        seq = redis.call('INCRBY', K_seq, n) - n
      end
      local token = A_tokens[i]
      places[np + 1], places[np + 2] = seq + i, token
      np = np + 2
      joined = joined + 1
      waiting = waiting + 1
      out[i + 1] = 'new'
    end
  else
    local r, retry = join_one(i, A_tokens[i], user, guard)
    out[i + 1] = r
    if guard and r ~= 'used' and not retry then
      count_use(guard, r)
    end
  end
end
-- The tickets the batch took and did not place (a join refused, or
-- admitted at once, after the first one that took a place) leave the
-- line's numbering (lib.lua's line_gone).
local function unplaced()
  local taken, gone = {}, {}
  for k = 1, np, 2 do
    taken[places[k]] = true
  end
  for i = 1, n do
    if not taken[seq + i] then
      gone[#gone + 1] = seq + i
    end
  end
  line_gone(gone, 1, 1)
end
if np > 0 then
  redis.call('ZADD', K_waiting, unpack(places))
  if np < n * 2 then
    unplaced()
  end
  if pre then
    redis.call('ZADD', K_seen, unpack(seen))
  else
    redis.call('ZADD', K_seen, now_s, batch_mark(seq + 1, seq + n))
  end
end
if joined > 0 then
  redis.call('HINCRBY', K_stats, 'joined', joined)
end
if at_once > 0 then
  redis.call('HINCRBY', K_stats, 'w0', at_once)
end
-- The head last: the tick and rate as they stand after the batch.
local tick = tonumber(redis.call('GET', K_tick) or '0')
if held then
  local st = redis.call('HMGET', K_stats, 'eta_band', 'eta_ages')
  out[1] = { waiting0, now, tick, state, st[1] or '', st[2] or '' }
  return out
end
local holdable = c.mode == 'rate' and c.access ~= 'invite' and
  c.opens_at == 0
local st = line_stats()
local keep, active, ends, last, band, early, ended, leavers, ages =
  eta_facts(c, now, st)
out[1] = { waiting0, now, tick, line_speed(c, st), c.mode, state, c.batch,
  c.interval, c.max_active, c.active_ttl, c.redirect or '',
  c.opens_at / 1000, c.prequeue_from / 1000, entrants, c.waiting_ttl,
  holdable and c.ver or '', cap, ms_text(c.closes_at), keep, active, ends,
  last, band, early, ended, leavers, ages }
return out
