#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# held.sh: join batches answered from held facts (join.lua, qstore_held.h).
# Once a batch has read a rate queue's whole configuration, the next ones
# read only its version and state, watched here with MONITOR; and whatever
# changes the queue is seen by the very next join: a state set by hand in
# Redis, a max_waiting, batch or closes_at given through the admin API, a
# queue dropped and made again. The configuration's version stays out of
# the admin API's view.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

wr_admin_conf "$WR_TMP/held.conf"
cat >>"$WR_TMP/held.conf" <<'EOF2'

[queue line]
mode        = rate
batch       = 1
interval    = 3600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/held.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

rcli MONITOR >"$WR_TMP/monitor.log" 2>&1 &
WR_EXTRA_PIDS+=($!)
wait_until 'rcli PING >/dev/null; grep -q "\"PING\"" "$WR_TMP/monitor.log"' 10 ||
    bail "MONITOR runs" "$(tail -n 3 "$WR_TMP/monitor.log")"

# read_of TOKEN: how the run of join.lua that placed or refused TOKEN read
# the configuration: "whole" (HMGET of every field), "held" (its version
# and state alone), or "?" when its run is not in the monitor's log yet.
read_of() {
	awk -v tok="$1" '
	/"EVALSHA"/ { mine = index($0, "\"" tok "\"") > 0; next }
	mine && /"HMGET" "wr:\{line\}:config" "ver" "state"/ { how = "held" }
	mine && /"HMGET" "wr:\{line\}:config" "state" "mode"/ { how = "whole" }
	END { print how ? how : "?" }' "$WR_TMP/monitor.log"
}

# join_read TOKEN: after a join, waits for its run in the log and sets
# READ to read_of's answer.
join_read() {
	local tok=$1
	READ='?'
	wait_until '[ "$(read_of "$tok")" != "?" ]' 5 && READ=$(read_of "$tok")
}

# refused_join Q: a join that gets no place, so no token in its answer:
# its run is found as the first of join.lua in the log after the join was
# sent, by the token the daemon made for it (before it knew the answer).
# Sets READ as join_read does.
refused_join() {
	local mark tok=''
	mark=$(wc -l <"$WR_TMP/monitor.log")
	join "$1"
	wait_until 'tok=$(run_token_after '"$mark"'); [ -n "$tok" ]' 5
	READ='?'
	[ -n "$tok" ] && join_read "$tok"
}

# run_token_after LINE: the token of the first run of join.lua in the
# monitor's log after line LINE.
run_token_after() {
	tail -n +"$(($1 + 1))" "$WR_TMP/monitor.log" | grep '"EVALSHA"' |
	    grep -oE '"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}"' |
	    head -n 1 | tr -d '"'
}

# ---- the first batch reads the hash; the next ones hold it ------------------

# The first admission tick before the first join: the interval it opens
# with nobody waiting admits nobody for an hour, so no join below leaves
# the line (ticks run every 250 ms from the daemon's start, and the joins
# raced the first of them).
wait_until '[ "$(rcli EXISTS "wr:{line}:tick")" = 1 ]' ||
    bail "an admission tick runs" "$(wr_last)"
join line
check_status 201 "a first join takes a place"
join_read "$TOKEN"
check_eq "$READ" whole "... its batch read the whole configuration"
join line
join_read "$TOKEN"
check_eq "$READ" held "the next batch read the configuration's version and state alone"
check_jq '.status == "waiting" and (.eta_seconds | type == "number")' \
    "... and its answer has its place and an ETA"

# ---- a change through the admin API: the next join reads it ----------------

join line
E1=$(json .eta_seconds) T1=$TOKEN
admin PUT /v1/admin/queues/line '{"batch": 2}'
check_status 200 "PUT batch 2"
join line
# by tickets, which admissions do not move: a tick may admit one more now
# that the batch is larger
check_eq "$(rcli ZMSCORE 'wr:{line}:waiting' "$T1" "$TOKEN" |
    awk 'NR == 1 { t = $1 } NR == 2 { print $1 - t }')" 1 \
    "the next join stands right behind (the next ticket)"
join_read "$TOKEN"
check_eq "$READ" whole "... its batch read the whole configuration again (its version moved)"
E2=$(json .eta_seconds)
check "... and its ETA is that of batches of 2 ($E2 s behind $E1 s with batches of 1)" \
    [ "${E2:-0}" -lt $((E1 - 1800)) ]
join line
join_read "$TOKEN"
check_eq "$READ" held "the batch after that holds the new version"

# ---- a state set by hand in Redis refuses at once ------------------------------

rcli HSET 'wr:{line}:config' state closed >/dev/null
refused_join line
check_error 409 queue_closed "a state closed by hand in Redis: the next join is refused"
check_eq "$READ" held "... by a batch that held the version (the state is read every batch)"
rcli HSET 'wr:{line}:config' state open >/dev/null
join line
check_status 201 "opened by hand again: the next join takes a place"

# ---- max_waiting given: full at once -----------------------------------------

# Paused, so that no admission shortens the line meanwhile.
admin POST /v1/admin/queues/line/pause
check_status 200 "the queue is paused"
waiting=$(rcli ZCARD 'wr:{line}:waiting')
admin PUT /v1/admin/queues/line "{\"max_waiting\": $waiting}"
check_status 200 "PUT max_waiting $waiting (the line's length)"
join line
check_error 503 queue_full "the next join is refused: the line is full"
refused_join line
check_error 503 queue_full "... and the one after it"
check_eq "$READ" held "... whose batch held the version, with its max_waiting"
admin PUT /v1/admin/queues/line '{"max_waiting": 0}'
join line
check_status 201 "max_waiting 0 again: a place"

# ---- closes_at given: joins are refused once it passes --------------------------

# 3 to 4 s ahead: room for the two joins before it, even on a slow run
closes=$(($(date +%s) + 4))
admin PUT /v1/admin/queues/line "{\"closes_at\": $closes}"
check_status 200 "PUT closes_at in 3 to 4 s"
join line
check_status 201 "before closes_at, a join takes a place"
join line
join_read "$TOKEN"
check_eq "$READ" held "... and the next batch holds the version, closes_at with it"
wait_until '[ "$(date +%s)" -ge '"$closes"' ]' 8
refused_join line
check_error 409 queue_closed "once closes_at has passed, the next join is refused"
check_eq "$READ" held "... by a batch that held the version"

# ---- dropped and made again: nothing held carries over -----------------------

admin GET /v1/admin/queues/line
check_jq '(.config | has("ver") | not) and (.config | has("batch"))' \
    "the admin API's view of the configuration has no version in it"
admin DELETE /v1/admin/queues/line
check_status 204 "the queue is dropped"
admin PUT /v1/admin/queues/line '{"mode": "rate", "batch": 1, "interval": 3600, "max_waiting": 1}'
check_status 201 "... and made again with max_waiting 1"
# As at the start: the remade queue's first tick before its first join.
wait_until '[ "$(rcli EXISTS "wr:{line}:tick")" = 1 ]' ||
    bail "an admission tick of the remade queue runs" "$(wr_last)"
join line
check_status 201 "the remade queue's first join takes a place"
join line
check_error 503 queue_full "its second is refused: the remade queue's max_waiting, not the old one's"
