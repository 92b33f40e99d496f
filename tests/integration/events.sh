#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# events.sh: the events channel's messages as the Lua scripts publish them
# in a real Redis (events.def): every producer's, captured with
# PSUBSCRIBE, is read by the daemon's own parser (events.c, through
# tests/unit/check_events with WR_EVENTS_CAPTURED). The producers: an
# admission tick and a promotion (entered, lib.lua's admit), a capacity
# slot refilled by a leave (entered, leave.lua), a kick (gone) and a drop
# (dropped). The draw's "drawn" is written by events.c itself, which
# check_events reads back.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

CHECK_EVENTS=${TOP_BUILDDIR:-}/tests/unit/check_events
wr_admin_conf "$WR_TMP/events.conf"
cat >>"$WR_TMP/events.conf" <<EOF2

[queue line]
mode        = rate
state       = paused
waiting_ttl = 600

[queue flow]
mode        = rate
batch       = 1
interval    = 1
waiting_ttl = 600

[queue cap]
mode        = capacity
max_active  = 1
waiting_ttl = 600
EOF2

# messages: what the capture holds, one message a line.
messages() {
	awk -F '","' '$1 == "\"pmessage" { sub(/"$/, "", $4); print $4 }' \
	    "$WR_TMP/capture.csv"
}

[ -x "$CHECK_EVENTS" ] || {
	echo "1..0 # SKIP no tests/unit/check_events (configure found no Check)"
	trap - EXIT
	rm -rf "$WR_TMP"
	exit 0
}

start_redis
start_waitroomd "$WR_TMP/events.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

timeout 120 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" --csv \
    PSUBSCRIBE 'wr:{*}:events' >"$WR_TMP/capture.csv" 2>&1 &
WR_EXTRA_PIDS+=("$!")
wait_until 'grep -q psubscribe "$WR_TMP/capture.csv"' ||
    bail "redis-cli subscribes to the events channels" "$(cat "$WR_TMP/capture.csv")"

# ---- the producers --------------------------------------------------------

join flow
check_status 201 "a join to an open rate queue"
wait_until '[ "$(messages | grep -c "^entered ")" -ge 1 ]' ||
    fail "its admission tick publishes entered"

join line
first=$TOKEN
join line
second=$TOKEN
admin POST /v1/admin/queues/line/promote '{"count": 1}'
check_status 200 "promote the first of line"
admin DELETE "/v1/admin/queues/line/tokens/$second"
check_status 204 "kick the second of line"

join cap
held=$TOKEN
join cap
check_status 201 "a second join of the full capacity queue waits"
http DELETE "/v1/queues/cap/tokens/$held"
check_status 204 "the session leaves: its slot goes to the next"

admin DELETE /v1/admin/queues/line
check_status 204 "drop line"

wait_until '[ "$(messages | grep -c "^entered ")" -ge 3 ] &&
    messages | grep -q "^gone " && messages | grep -qx dropped' ||
    fail "every producer's message is captured" "$(messages)"

# ---- the daemon's parser reads them --------------------------------------

messages >"$WR_TMP/messages"
check_contains "$(cat "$WR_TMP/messages")" "gone removed $second" \
    "the kick names the token and the reason"
check_contains "$(grep "^entered " "$WR_TMP/messages")" "$first" \
    "the promotion's entered names the promoted"
out=$(WR_EVENTS_CAPTURED=$WR_TMP/messages \
    WR_EVENTS_KINDS="entered gone dropped" "$CHECK_EVENTS" 2>&1)
check_eq "$?" 0 "events.c parses every message the scripts published" ||
    diag "$out"
