-- admin_state.lua: pause, resume, close or open a queue.
-- KEYS[1] config
-- ARGV[1] the state to set: open, paused or closed
-- ARGV[2] only from this state ('' for any): resume leaves a closed queue
--         closed, open leaves a paused one paused
-- A state set moves the hash's 'ver' (lib.lua's conf_version).
-- Reply: { 'ok', state before, state after } or { 'no_queue' }
local before = redis.call('HGET', KEYS[1], 'state')
if not before then
  return { 'no_queue' }
end
local after = before
if ARGV[2] == '' or ARGV[2] == before then
  after = ARGV[1]
  redis.call('HSET', KEYS[1], 'state', after, 'ver',
    conf_version(KEYS[1]))
end
return { 'ok', before, after }
