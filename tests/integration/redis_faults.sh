#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# redis_faults.sh: Redis dies, hangs, comes back empty, forgets its scripts;
# the daemon answers 503 store_unavailable meanwhile and recovers by itself,
# without a restart.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

conf=$WR_TMP/faults.conf
cat >"$conf" <<'EOF'
[queue q]
mode  = rate
state = paused

[queue shut]
mode  = rate
state = closed

[queue tiny]
mode        = rate
state       = paused
max_waiting = 1
EOF

D=$WR_READY_DEADLINE	# seconds to recover

# unavailable DESC: the last answer is 503 store_unavailable + Retry-After.
unavailable() {
	check_error 503 store_unavailable "$1 -> 503 store_unavailable"
	check_header_match Retry-After '^[0-9]+$' "$1: Retry-After in seconds"
}

start_redis
start_waitroomd "$conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

join q '{"user":"before"}'
check_status 201 "a join with Redis up"
t1=$TOKEN

# ---- Redis dies ------------------------------------------------------------------

stop_redis KILL
wait_until 'http GET /readyz; [ "$STATUS" = 503 ]' "$D"
check_status 503 "GET /readyz -> 503 once Redis is gone"
http GET /healthz
check_status 200 "GET /healthz -> 200 without Redis"

join q
unavailable "join"
join q '{"user":"during"}'
unavailable "join as a user"
http GET "/v1/queues/q/tokens/$t1"
unavailable "status"
http DELETE "/v1/queues/q/tokens/$t1"
unavailable "leave"
http GET /v1/queues/q
unavailable "summary"
http GET /v1/queues/q/tokens/not-a-uuid
check_error 400 bad_token "a malformed token is still a 400 without Redis"
http GET /nope
check_error 404 not_found "an unknown path is still a 404 without Redis"

# ---- Redis comes back, empty, on the same port ------------------------------------------

restart_redis
wait_until 'join q; [ "$STATUS" = 201 ]' "$D"
check_status 201 "joins succeed again within $D s, without restarting the daemon"
check_json .position 1 "the new Redis is empty: position 1"
wait_ready
check_status 200 "GET /readyz -> 200 again"
http GET "/v1/queues/q/tokens/$t1"
check_error 404 token_not_found "a token of the lost Redis is not found"

# The queues' configuration came back with the connection.
http GET /v1/queues/q
check_jq '.state == "paused" and .waiting == 1' "summary: paused, waiting 1"
http POST /v1/queues/shut/tokens
check_error 409 queue_closed "a closed queue is still closed"
join tiny
check_status 201 "a queue with max_waiting 1 takes one"
join tiny
check_error 503 queue_full "and refuses the second: max_waiting came back too"

# ---- Redis forgets the scripts (NOSCRIPT) ------------------------------------------------

check_eq "$(rcli SCRIPT FLUSH)" OK "SCRIPT FLUSH"
join q '{"user":"after-flush"}'
check_status 201 "a join after SCRIPT FLUSH -> 201"
check_json .position 2 "at position 2"
t2=$TOKEN
check_eq "$(rcli SCRIPT FLUSH)" OK "SCRIPT FLUSH again"
http GET "/v1/queues/q/tokens/$t2"
check_status 200 "status after SCRIPT FLUSH -> 200"
check_json .position 2 "still at position 2"
check_eq "$(rcli SCRIPT FLUSH)" OK "SCRIPT FLUSH again"
http GET /v1/queues/q
check_status 200 "summary after SCRIPT FLUSH -> 200"
check_json .waiting 2 "waiting 2"
check_eq "$(rcli SCRIPT FLUSH)" OK "SCRIPT FLUSH again"
http DELETE "/v1/queues/q/tokens/$t2"
check_status 204 "leave after SCRIPT FLUSH -> 204"
check_eq "$(rcli SCRIPT FLUSH)" OK "SCRIPT FLUSH again"
join q '{"user":"after-flush"}'
check_status 201 "the user who left joins again -> 201"
join q '{"user":"after-flush"}'
check_status 200 "and again -> 200, same place"
wait_ready
check_status 200 "GET /readyz -> 200 after SCRIPT FLUSH"

# ---- Redis hangs --------------------------------------------------------------------------

# A Redis that stops answering must not hang the clients: the daemon's own
# command timeout answers them.
kill -STOP "$REDIS_PID"
start=$(now_ms)
WR_HTTP_TIMEOUT=20 join q
took=$(($(now_ms) - start))
kill -CONT "$REDIS_PID"
unavailable "a join while Redis hangs (answered in $took ms)"
http GET /healthz
check_status 200 "GET /healthz -> 200 after the hang"
wait_until 'http GET /v1/queues/q; [ "$STATUS" = 200 ]' "$D"
check_status 200 "the summary answers again once Redis does"

# ---- the daemon starts while Redis is down ------------------------------------------------------

stop_waitroomd
stop_redis
start_waitroomd "$conf"
http GET /healthz
check_status 200 "a daemon started without Redis: /healthz -> 200"
http GET /readyz
check_status 503 "... /readyz -> 503"
join q
unavailable "... join"
restart_redis
wait_ready
check_status 200 "... /readyz -> 200 within $D s of Redis starting"
join q
check_status 201 "... and joins succeed"
check_json .position 1 "... at position 1 of the new, empty Redis"
