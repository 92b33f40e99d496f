-- admin_state.lua: pause, resume, close or open a queue.
-- KEYS:
--   config       the queue's configuration hash
--   trail        the trail (lib.lua's trail_add)
-- ARGV:
--   to           the state to set: open, paused or closed
--   from         only from this state ('' for any): resume leaves a closed
--                queue closed, open leaves a paused one paused
--   queue        the queue's name
--   action       the trail's word: pause, resume, close or open
--   admin        the admin's name, for the trail (the state's change,
--                if any)
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
trail_add(K_trail, A_admin, A_queue, A_action,
  before ~= after and { state = { before, after } } or nil)
return { 'ok', before, after }
