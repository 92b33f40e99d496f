#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# tokens.sh: a visitor's life in the line: join, where am I, leave, the
# queue summary, re-joining as the same user, and the order of places.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

conf=$WR_TMP/tokens.conf
cat >"$conf" <<'EOF'
[queue line]
mode     = rate
batch    = 10
interval = 5
state    = paused

[queue other]
mode     = rate
state    = paused
EOF

start_redis
start_waitroomd "$conf"
wait_ready ||
    bail "the daemon is ready" "$(wr_last)"

http GET /v1/queues/line
check_status 200 "summary of a new queue"
check_jq '.queue == "line" and .state == "paused" and .waiting == 0 and
    .active == 0 and has("eta_seconds_for_new")' \
    "a new queue: {queue, state paused, waiting 0, active 0, eta_seconds_for_new}"
check_header_match Content-Type '^application/json' "the summary is JSON"

# ---- join -----------------------------------------------------------------

# A join without a body, as `curl -X POST URL` sends it.
join line
check_status 201 "join without a body -> 201"
check_header_match Content-Type '^application/json' "the status object is JSON"
t1=$TOKEN
check_match "$t1" "$UUID4_RE" "the token is a lower-case v4 UUID"
check_jq '.queue == "line" and .status == "waiting" and .position == 1 and
    .ahead == 0 and .waiting == 1' \
    "first join: waiting, position 1, ahead 0, waiting 1"
check_jq '(.eta_seconds | type) as $t | $t == "number" or $t == "null"' \
    "the status object has eta_seconds"
check_jq '(has("active_until") or has("redirect") or has("pass")) | not' \
    "a waiting status has no active_until, redirect or pass"

join line '{"user":"u-1"}'
check_status 201 "join as user u-1 -> 201"
t2=$TOKEN
check_jq '.position == 2 and .ahead == 1 and .waiting == 2' \
    "second join: position 2, ahead 1, waiting 2"

join line '{"user":"u-2"}'
check_status 201 "join as user u-2 -> 201"
t3=$TOKEN
check_json .position 3 "third join: position 3"

join line '{}'
check_status 201 "join with an empty object -> 201"
t4=$TOKEN
check_json .position 4 "fourth join: position 4"

distinct=$(printf '%s\n' "$t1" "$t2" "$t3" "$t4" | sort -u | grep -c .)
check_eq "$distinct" 4 "four joins, four distinct tokens"

# ---- the same user again ----------------------------------------------------

join line '{"user":"u-1"}'
check_status 200 "u-1 joins again -> 200"
check_eq "$TOKEN" "$t2" "u-1 gets the same token again"
check_jq '.position == 2 and .waiting == 4 and .status == "waiting"' \
    "u-1 keeps position 2 and the line does not grow"
check_waiting line 4 "the summary still says 4 waiting"

# A user is per queue: u-1 in another queue is a new place there.
join other '{"user":"u-1"}'
check_status 201 "u-1 joins another queue -> 201"
check "with another token" test "$TOKEN" != "$t2"
check_json .position 1 "at position 1 of that queue"
t_other=$TOKEN

# ---- where am I -------------------------------------------------------------

http GET "/v1/queues/line/tokens/$t1"
check_status 200 "status of the first token -> 200"
check_jq ".token == \"$t1\" and .queue == \"line\" and .status == \"waiting\"
    and .position == 1 and .ahead == 0 and .waiting == 4" \
    "status: its token, waiting, position 1, ahead 0, waiting 4"
http GET "/v1/queues/line/tokens/$t3"
check_jq '.position == 3 and .ahead == 2' "status of the third: position 3, ahead 2"

# A token belongs to its queue.
http GET "/v1/queues/line/tokens/$t_other"
check_error 404 token_not_found "a token of another queue is not found here"

http GET /v1/queues/line
check_jq '.waiting == 4 and .active == 0 and .state == "paused"' \
    "summary: waiting 4, active 0"

# ---- leave ------------------------------------------------------------------

http DELETE "/v1/queues/line/tokens/$t1"
check_status 204 "leave -> 204"
check_eq "$BODY" "" "204 has no body"
http GET "/v1/queues/line/tokens/$t1"
check_error 404 token_not_found "status of a token that left -> 404 token_not_found"
http GET "/v1/queues/line/tokens/$t2"
check_jq '.position == 1 and .ahead == 0 and .waiting == 3' \
    "the one behind moves up: position 1, waiting 3"
http GET "/v1/queues/line/tokens/$t4"
check_json .position 3 "the last moves up to position 3"
check_waiting line 3 "the summary says 3 waiting"

http DELETE "/v1/queues/line/tokens/$t1"
check_match "$STATUS" '^(204|404)$' "leaving twice is harmless (204 or 404)"
check_waiting line 3 "leaving twice changes nothing"

# Leaving from the middle.
http DELETE "/v1/queues/line/tokens/$t3"
check_status 204 "the third leaves -> 204"
http GET "/v1/queues/line/tokens/$t4"
check_json .position 2 "the last moves up to position 2"

# A user who left is not held to the old place: a new join is a new token
# at the end of the line.
http DELETE "/v1/queues/line/tokens/$t2"
check_status 204 "u-1 leaves -> 204"
join line '{"user":"u-1"}'
check_status 201 "u-1 joins after leaving -> 201"
check "with a new token" test "$TOKEN" != "$t2"
check_jq '.position == 2 and .waiting == 2' "at the end of the line (position 2)"
t5=$TOKEN

# ---- order --------------------------------------------------------------------

order_ok=1
prev=2
toks=()
for i in $(seq 1 20); do
	join line "{\"user\":\"order-$i\"}"
	pos=$(json .position)
	if [ "$STATUS" != 201 ] || [ "$pos" != $((prev + 1)) ]; then
		order_ok=0
		diag "join $i: $(wr_last)"
		break
	fi
	prev=$pos
	toks+=("$TOKEN")
done
check_eq "$order_ok" 1 "20 more joins get positions 3..22 in order"
check_waiting line 22 "the summary says 22 waiting"

# Every token still knows its place.
places_ok=1
for i in "${!toks[@]}"; do
	http GET "/v1/queues/line/tokens/${toks[$i]}"
	if [ "$(json .position)" != $((i + 3)) ]; then
		places_ok=0
		diag "token $i: $(wr_last)"
		break
	fi
done
check_eq "$places_ok" 1 "a status request of each gives the same position"

# ---- a restart of the daemon loses no place -----------------------------------

stop_waitroomd
start_waitroomd "$conf"
wait_ready
http GET "/v1/queues/line/tokens/$t5"
check_status 200 "after a daemon restart the token is still known"
check_json .position 2 "and keeps its position"
check_waiting line 22 "and the line is as long as before"
join line '{"user":"u-1"}'
check_status 200 "and u-1 still holds the same place"
check_eq "$TOKEN" "$t5" "u-1 gets the same token after the restart"
