-- status.lua: where a token stands; marks a waiting token as seen, and
-- renews an active one's session in a queue with renew = yes.
-- KEYS: the queue's ten (lib.lua)
-- ARGV:
--   token
-- Reply: facts() with result 'ok' ({ result, token, status, n, waiting,
-- now_ms, last_tick_ms, rate, mode, state, batch, interval, max_active,
-- active_ttl, redirect, opens_at, prequeue_from, entrants, waiting_ttl,
-- keep, active, ends, last_end, band, early, ended_ms, leavers, ages }:
-- lib.lua); or
-- { 'no_queue' } / { 'gone' }
local c = load_conf(K_config)
if not c then
  return { 'no_queue' }
end
local now = now_ms()
local status, n = place(A_token, now, c)
if not status then
  return { 'gone' }
end
if status == 'active' then
  n = renew(A_token, n, now, c)
end
return facts('ok', A_token, status, n, now, c)
