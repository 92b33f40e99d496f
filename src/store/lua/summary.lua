-- summary.lua: the public figures of a queue.
-- KEYS: the queue's ten (lib.lua)
-- ARGV: none
-- Reply: facts() ({ result, token, status, n, waiting, now_ms,
-- last_tick_ms, rate, mode, state, batch, interval, max_active,
-- active_ttl, redirect, opens_at, prequeue_from, entrants, waiting_ttl,
-- keep, active, ends, last_end, band, early, ended_ms, leavers, ages }:
-- lib.lua)
-- with status 'summary' and n = active sessions, then fail_open_until
-- (unix s, 0 when the queue is not failing open: the hash's, so an admin
-- call's fail-open or its end shows in the next summary on any
-- instance); or { 'no_queue' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local r = facts('ok', '', 'summary', active_count(now), now, c)
r[#r + 1] = c.fail_open_until
return r
