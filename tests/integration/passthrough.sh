#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# passthrough.sh: a passthrough queue admits every join at once, with its
# pass, counted in the same figures and metrics; an admin PUT to rate
# mode makes a line at the next join and leaves the active sessions as
# they were; back in passthrough, the line is let in by the next tick.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

printf 'k1 %s\n' 'pass-secret-0123456789abcdefghijklmn' >"$WR_TMP/keys"
wr_admin_conf "$WR_TMP/gate.conf"
cat >>"$WR_TMP/gate.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue gate]
mode        = passthrough
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/gate.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

tokens=() ends=()
for i in 1 2 3 4 5; do
	join gate
	tokens+=("$TOKEN")
	if [ "$STATUS" != 201 ] || [ "$(json .status)" != active ] ||
	    [ -z "$(json '.pass // empty')" ]; then
		break
	fi
	ends+=("$(json .active_until)")
done
check_eq "${#ends[@]}" 5 "5 joins: each 201, active at once, with a pass"
v1_check "$(json .pass)"
check_status 204 "the pass of a passthrough join opens /v1/check"
http GET /v1/queues/gate
check_jq '.active == 5 and .waiting == 0' "summary: 5 active, nobody waits"
http GET /metrics
check_contains "$BODY" 'waitroom_queue_admitted_total{queue="gate"} 5' \
    "the metrics count the 5 as admitted"
check_contains "$BODY" 'waitroom_queue_joined_total{queue="gate"} 5' \
    "and as joined"

# ---- the day comes: rate mode, one an hour --------------------------------

admin PUT /v1/admin/queues/gate '{"mode":"rate","batch":1,"interval":3600}'
check_status 200 "PUT mode=rate -> 200"
# The tick of this interval may let the first one in; the rest wait.
join gate
join gate
# shellcheck disable=SC2034 # read by wait_until's code below
second=$TOKEN
check_jq '.status == "waiting" and .position >= 1' \
    "after the switch a join waits in line"
http GET "/v1/queues/gate/tokens/${tokens[0]}"
check_jq ".status == \"active\" and .active_until == ${ends[0]}" \
    "a session active before the switch keeps its end"
http GET /v1/queues/gate
check_jq '.active >= 5 and .active <= 6 and .waiting >= 1' \
    "the 5 sessions stay active; a line has formed"

# ---- back to passthrough: the line goes in --------------------------------

admin PUT /v1/admin/queues/gate '{"mode":"passthrough"}'
check_status 200 "PUT mode=passthrough -> 200"
check "back in passthrough the waiter is let in by the next tick" \
    wait_until '[ "$(status_of gate "$second")" = active ]' 3
http GET /v1/queues/gate
check_jq '.active == 7 and .waiting == 0' "summary: 7 active, nobody waits"
