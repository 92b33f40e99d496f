-- admin_state.lua: pause, resume, close or open a queue.
-- KEYS:
--   config       the queue's configuration hash
-- ARGV:
--   to           the state to set: open, paused or closed
--   from         only from this state ('' for any): resume leaves a closed
--                queue closed, open leaves a paused one paused
-- A state set moves the hash's 'ver' (lib.lua's conf_version).
-- Reply: { result, before, after }: { 'ok', state before, state after } or
-- { 'no_queue' }
local before = redis.call('HGET', K_config, 'state')
if not before then
  return { 'no_queue' }
end
local after = before
if A_from == '' or A_from == before then
  after = A_to
  redis.call('HSET', K_config, 'state', after, 'ver',
    conf_version(K_config))
end
return { 'ok', before, after }
