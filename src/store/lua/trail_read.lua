-- trail_read.lua: the newest entries of the trail (GET /v1/admin/audit),
-- of every queue or of one. An entry is cjson's text of lib.lua's
-- trail_add, where "queue":"<name>" stands only as the queue's own field
-- (a quote inside a value is written \"), and a queue's name needs no
-- escaping, so a plain find picks one queue's entries without decoding.
-- KEYS:
--   trail        the trail (a list, newest first)
-- ARGV:
--   queue        only this queue's entries ('' for every queue)
--   limit        at most this many (1 to 1000: the daemon checks it)
-- Reply: the entries, { text, ... }: their JSON texts, newest first
local limit = tonumber(A_limit)
if A_queue == '' then
  return redis.call('LRANGE', K_trail, 0, limit - 1)
end
local want, out, from, chunk = '"queue":"' .. A_queue .. '"', {}, 0, 1000
while #out < limit do
  local part = redis.call('LRANGE', K_trail, from, from + chunk - 1)
  for i = 1, #part do
    if string.find(part[i], want, 1, true) then
      out[#out + 1] = part[i]
      if #out == limit then
        break
      end
    end
  end
  if #part < chunk then
    break
  end
  from = from + chunk
end
return out
