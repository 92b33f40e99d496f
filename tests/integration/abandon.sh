#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# abandon.sh: a waiter that stops asking is dropped after waiting_ttl; one
# that keeps asking is not. A paused queue admits nobody and shows no ETA.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/ab.conf" <<'EOF2'
[queue ab]
mode        = rate
batch       = 10
interval    = 1
waiting_ttl = 5
state       = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/ab.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

join ab
quiet=$TOKEN
check_json .eta_seconds null "a paused queue gives no ETA (null)"
join ab
polled=$TOKEN

# Keep asking about one of them, once a second, until the other is dropped.
dropped=0
for ((i = 0; i < 15; i++)); do
	http GET "/v1/queues/ab/tokens/$polled"
	[ "$STATUS" = 200 ] || break
	if [ "$(rcli zcard "wr:{ab}:waiting")" = 1 ]; then
		dropped=1
		break
	fi
	sleep 1
done
check_eq "$dropped" 1 "a waiter unseen for waiting_ttl is dropped (within 15 s)"
http GET "/v1/queues/ab/tokens/$quiet"
check_error 404 token_not_found "the abandoned token is gone"
http GET "/v1/queues/ab/tokens/$polled"
check_jq '.status == "waiting" and .position == 1' \
    "the waiter who kept asking keeps its place, now first"
check_eq "$(rcli hget "wr:{ab}:stats" abandoned)" 1 "one abandonment is counted"
check_eq "$(rcli hget "wr:{ab}:stats" admitted)" "" \
    "a paused queue admitted nobody over several intervals"
http GET /v1/queues/ab
check_jq '.state == "paused" and .active == 0 and .eta_seconds_for_new == null' \
    "summary of a paused queue: state paused, nobody active, no ETA"
