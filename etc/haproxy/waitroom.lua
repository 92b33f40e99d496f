-- waitroom.lua: the question HAProxy asks waitroomd before every request
-- to the protected site (etc/haproxy/haproxy.cfg loads it).
--
--   http-request lua.waitroom_check <backend> <queue>
--
-- sends the visitor's pass (its Cookie and Authorization headers) to
-- GET /v1/check?queue=<queue> of a waitroomd of <backend> that its health
-- checks say is up, with HAProxy's own HTTP client, and sets for the
-- rules that follow:
--
--   txn.waitroom         "pass"     the check answered 2xx: let it in
--                        "refused"  a 4xx (401, or 400 for a request it
--                                   cannot read): the waiting page
--                        "down"     no waitroomd up, no answer, or a 5xx
--                                   (no check was made): the policy
--   txn.waitroom_token   X-Waitroom-Token of a 2xx, for the site
--   txn.waitroom_cookie  X-Waitroom-Set-Cookie of a 2xx (a renewed
--                        pass, as a whole cookie), for the browser

-- How long one attempt waits for the answer, in milliseconds. Debian's
-- 2.6 client makes up to 4 attempts (3 retries) each as long, so a
-- waitroomd that hangs holds a visitor at most 5 s, as nginx's and
-- Caddy's examples do; a check takes microseconds. (The backend's health
-- checks find such a waitroomd down within about 2 s, and from then on no
-- check is sent to it.)
local TIMEOUT_MS = 1250

-- The values of a request header as a list (HAProxy numbers them from 0).
local function values(headers, name)
	local list, v = {}, headers[name]
	if v then
		for i = 0, #v do
			if v[i] then list[#list + 1] = v[i] end
		end
	end
	return list
end

-- The first value of a header of the check's answer, or nil.
local function answered(res, name)
	local v = res.headers and res.headers[name]
	if type(v) ~= "table" then return v end
	return v[0] or v[1]
end

-- The address of a server of the backend that is up (or not checked),
-- taken at random, or nil when there is none.
local function pick(backend)
	local px, up = core.backends[backend], {}
	if not px then return nil end
	for _, sv in pairs(px.servers) do
		local st = sv:get_stats().status or ""
		if st:sub(1, 2) == "UP" or st == "no check" then
			up[#up + 1] = sv:get_addr()
		end
	end
	if #up == 0 then return nil end
	return up[math.random(#up)]
end

local function check(txn, backend, queue)
	local server = pick(backend)
	if not server then
		txn:set_var("txn.waitroom", "down")
		return
	end
	local req = txn.http:req_get_headers()
	local headers = {}
	local cookies = values(req, "cookie")
	if #cookies > 0 then headers["cookie"] = { table.concat(cookies, "; ") } end
	local auth = values(req, "authorization")
	if #auth > 0 then headers["authorization"] = auth end

	local ok, res = pcall(function()
		return core.httpclient():get{
			url = "http://" .. server .. "/v1/check?queue=" .. queue,
			headers = headers,
			timeout = TIMEOUT_MS,
		}
	end)
	local status = ok and res and tonumber(res.status) or 0
	if status == 0 or status >= 500 then
		txn:set_var("txn.waitroom", "down")
	elseif status >= 200 and status < 300 then
		txn:set_var("txn.waitroom", "pass")
		txn:set_var("txn.waitroom_token", answered(res, "x-waitroom-token") or "")
		local cookie = answered(res, "x-waitroom-set-cookie")
		if cookie then txn:set_var("txn.waitroom_cookie", cookie) end
	else
		txn:set_var("txn.waitroom", "refused")
	end
end

core.register_action("waitroom_check", { "http-req" }, check, 2)
