#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# trail.sh: the trail of admin writes (<prefix>:trail, GET
# /v1/admin/audit, waitroomctl audit). Two admins, alice and bob: each
# write (PUT, pause, resume, close, open, promote, kick, beacon, notice,
# fail-open, DELETE)
# is recorded once with its admin, queue, action and what it changed,
# before and after; a refused write (a bad value, draw_started, no such
# queue) records nothing; the list keeps the newest 10,000; ?queue and
# ?limit filter, a bad parameter is a 400; the audit is admin-only and
# served on admin_listen only; waitroomctl audit prints the table; no
# token (a visitor's or an admin's) is in any entry.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "${WAITROOMCTL:-}" ] ||
    bail "WAITROOMCTL is set to an executable" "WAITROOMCTL='${WAITROOMCTL:-}'"

APORT=$(wr_free_port) || bail "a free port for admin_listen"
ALICE=trail-token-of-alice-0123456789
BOB=trail-token-of-bob-0123456789
printf 'alice %s\nbob %s\n' "$ALICE" "$BOB" >"$WR_TMP/admins"
printf 'alice %s\n' "$ALICE" >"$WR_TMP/alice.token"
cat >"$WR_TMP/trail.conf" <<EOF2
admin_token_file = $WR_TMP/admins
admin_listen = 127.0.0.1:$APORT

[queue line]
mode        = rate
batch       = 1
interval    = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/trail.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
PUBLIC=$WR_BASE
ADMIN=http://127.0.0.1:$APORT

# as NAME METHOD PATH [BODY]: an admin call on the admin port as NAME.
as() {
	local who=$1 tok
	shift
	[ "$who" = alice ] && tok=$ALICE || tok=$BOB
	on_admin http "$1" "$2" "${3-}" -H "Authorization: Bearer $tok"
}

# newest [QUERY]: GET /v1/admin/audit as alice; BODY is the answer.
newest() {
	as alice GET "/v1/admin/audit${1-}"
}

# trail_len: how many entries Redis holds.
trail_len() {
	rcli LLEN wr:trail
}

check_eq "$(trail_len)" 0 "a new installation has an empty trail"
newest
check_status 200 "GET /v1/admin/audit: 200"
check_jq '.entries == []' "... with no entries"

# ---- each write, recorded with its admin -------------------------------------

as alice PUT /v1/admin/queues/line '{"batch":5,"interval":600}'
check_status 200 "alice changes batch"
newest
check_jq '.entries | length == 1' "one entry"
check_jq '.entries[0] | .admin == "alice" and .queue == "line" and
    .action == "put" and .changes == {"batch":["1","5"]} and
    (.at | type == "number") and .detail == {}' \
    "put: alice, line, batch 1 -> 5, only the key that changed"
AT=$(jq .entries[0].at <<<"$BODY")
NOW=$(now_ms)
check "... at is Redis's time in ms, within a minute of now" \
    test "$((NOW - AT))" -lt 60000 -a "$((AT - NOW))" -lt 60000

as bob PUT /v1/admin/queues/fresh '{"mode":"rate","batch":3}'
check_status 201 "bob creates a queue"
newest
check_jq '.entries[0] | .admin == "bob" and .queue == "fresh" and
    .action == "put" and .changes.batch == [null, "3"] and
    .changes.mode == [null, "rate"]' \
    "a created queue: bob, each key given from null"

for verb in pause resume close open; do
	as bob POST "/v1/admin/queues/line/$verb"
done
newest '?limit=4'
check_jq '[.entries[] | [.admin, .action, .changes.state]] == [
    ["bob","open",["closed","open"]], ["bob","close",["open","closed"]],
    ["bob","resume",["paused","open"]], ["bob","pause",["open","paused"]]]' \
    "pause, resume, close, open: bob, newest first, the state before and after"

join line
TOKEN1=$TOKEN
join line
TOKEN2=$TOKEN
as alice POST /v1/admin/queues/line/promote '{"count":1}'
check_status 200 "alice promotes one"
newest '?limit=1'
check_jq '.entries[0] | .admin == "alice" and .action == "promote" and
    .detail == {"admitted":1}' "promote: the count admitted"

TICKET=$(printf '%s' "$TOKEN2" | sha256sum | cut -c1-32)
as alice DELETE "/v1/admin/queues/line/tokens/$TOKEN2"
check_status 204 "alice kicks a waiting token"
newest '?limit=1'
check_jq ".entries[0] | .admin == \"alice\" and .action == \"kick\" and
    .detail == {\"ticket\":\"$TICKET\",\"was\":\"waiting\"}" \
    "kick: the token's ticket (SHA-256), never the token"

# ---- refused writes record nothing -------------------------------------------

N=$(trail_len)
as alice PUT /v1/admin/queues/line '{"batch":-1}'
check_status 400 "a bad value: 400"
as alice PUT /v1/admin/queues/line '{"nosuchkey":1}'
check_status 400 "an unknown key: 400"
as alice POST /v1/admin/queues/nosuch/pause
check_status 404 "pause of no queue: 404"
as alice POST /v1/admin/queues/nosuch/promote '{"count":1}'
check_status 404 "promote of no queue: 404"
as alice DELETE "/v1/admin/queues/line/tokens/$TOKEN2"
check_status 404 "a kick of a token already gone: 404"
as alice DELETE /v1/admin/queues/nosuch
check_status 404 "a drop of no queue: 404"
check_eq "$(trail_len)" "$N" "refused writes recorded nothing"

# A scheduled queue: the beacon, and a PUT refused once the opening passed.
OPENS=$(($(date +%s) + 2))
as bob PUT /v1/admin/queues/sched "{\"mode\":\"rate\",\"opens_at\":$OPENS,
    \"beacon_round\":\"round 7\"}"
check_status 201 "a scheduled queue with a beacon_round"
newest '?limit=1'
check_jq '.entries[0].changes | (has("seed") or has("commit")) | not' \
    "its entry holds no seed"
wait_until '[ "$(date +%s)" -gt "$OPENS" ]' 10 ||
    fail "the opening passed" "now $(date +%s), opens_at $OPENS"
N=$(trail_len)
as bob PUT /v1/admin/queues/sched "{\"opens_at\":$((OPENS + 3600))}"
check_error 409 draw_started "opens_at after the opening: 409 draw_started"
check_eq "$(trail_len)" "$N" "... recorded nothing"
as bob POST /v1/admin/queues/sched/draw '{"beacon":"00FF"}'
check_status 200 "bob posts the beacon"
newest '?limit=1'
check_jq '.entries[0] | .admin == "bob" and .queue == "sched" and
    .action == "beacon" and .detail == {"beacon":"00ff"}' \
    "beacon: bob, the value"

# The message to everyone waiting, and fail-open (on a queue of their
# own, so that line's entries below stay as they are).
as alice PUT /v1/admin/queues/msg '{"mode":"rate","batch":1,"interval":600}'
check_status 201 "alice creates msg"
as alice PUT /v1/admin/queues/msg/notice '{"text":"Doors at 10"}'
check_status 200 "alice sets a notice"
newest '?limit=1'
check_jq '.entries[0] | .admin == "alice" and .queue == "msg" and
    .action == "notice" and .changes == {"notice":[null,"Doors at 10"]}' \
    "notice: alice, none before, the text after"
as bob DELETE /v1/admin/queues/msg/notice
check_status 200 "bob clears it"
newest '?limit=1'
check_jq '.entries[0] | .admin == "bob" and .action == "notice" and
    .changes == {"notice":["Doors at 10",null]}' "... recorded: the text before, none after"
N=$(trail_len)
as bob PUT /v1/admin/queues/msg/notice '{"text":""}'
check_error 400 bad_request "an empty notice: 400"
as bob DELETE /v1/admin/queues/msg/fail-open
check_error 409 not_failing_open "ending a fail-open that is not on: 409"
check_eq "$(trail_len)" "$N" "... neither recorded anything"
as alice POST /v1/admin/queues/msg/fail-open '{"minutes":5}'
check_status 200 "alice fails the queue open for 5 minutes"
UNTIL=$(json .until)
newest '?limit=1'
check_jq '.entries[0] | .admin == "alice" and .action == "fail_open" and
    .changes.mode == ["rate","passthrough"] and
    .changes.fail_open_until == [null,"'"$UNTIL"'"] and
    .detail == {"seconds":300}' "fail_open: alice, the mode and the end"
as bob DELETE /v1/admin/queues/msg/fail-open
check_status 200 "bob ends it"
newest '?limit=1'
check_jq '.entries[0] | .admin == "bob" and .action == "fail_open" and
    .changes.mode == ["passthrough","rate"] and
    .changes.fail_open_until == ["'"$UNTIL"'",null]' \
    "... recorded: back to rate, no end any more"

as alice DELETE /v1/admin/queues/fresh
check_status 204 "alice drops a queue"
newest '?limit=1'
check_jq '.entries[0] | .admin == "alice" and .queue == "fresh" and
    .action == "drop" and .changes == {"state":["open",null]}' \
    "drop: alice, the state it had"

# ---- reading: ?queue, ?limit, bad parameters ----------------------------------

newest
ALL=$(jq '.entries | length' <<<"$BODY")
check_eq "$ALL" "$(trail_len)" "every entry, newest first, under the default limit"
check_jq '[.entries[].at] | . == (sort | reverse)' "newest first"
newest '?queue=line'
check_jq '(.entries | length) == 7 and all(.entries[]; .queue == "line")' \
    "?queue=line: its 7 entries only"
newest '?queue=line&limit=2'
check_jq '[.entries[].action] == ["kick","promote"]' \
    "?queue=line&limit=2: its newest two"
newest '?queue=nosuch'
check_jq '.entries == []' "?queue of a queue with no entries: none"
for q in '?limit=0' '?limit=1001' '?limit=x' '?limit=' '?limit=-1' \
    '?limit=5&limit=6' '?queue=line&queue=line' '?other=1'; do
	newest "$q"
	check_error 400 bad_request "GET /v1/admin/audit$q: 400 bad_request"
done
newest '?queue=no%20such'
check_error 400 bad_queue_id "a bad queue name: 400 bad_queue_id"
newest '?limit=1000'
check_status 200 "?limit=1000: 200"

# ---- who may read it ----------------------------------------------------------

WR_BASE=$ADMIN http GET /v1/admin/audit
check_error 401 unauthorized "no token: 401"
WR_BASE=$ADMIN http GET /v1/admin/audit '' -H "Authorization: Bearer nope-$ALICE"
check_error 401 unauthorized "a wrong token: 401"
WR_BASE=$PUBLIC http GET /v1/admin/audit '' -H "Authorization: Bearer $ALICE"
check_error 404 not_found "the public port: 404, with admin_listen set"

# ---- no secret in an entry ----------------------------------------------------

DUMP=$(rcli LRANGE wr:trail 0 -1)
for secret in "$TOKEN1" "$TOKEN2" "$ALICE" "$BOB"; do
	check "no entry holds ${secret:0:8}..." test "${DUMP/"$secret"/}" = "$DUMP"
done
SEED=$(rcli HGET 'wr:{sched}:draw' seed)
check "no entry holds the draw's seed" test -n "$SEED" -a \
    "${DUMP/"$SEED"/}" = "$DUMP"

# ---- waitroomctl audit ----------------------------------------------------------

"$WAITROOMCTL" audit line --limit 2 --admin-url "$ADMIN" \
    --token-file "$WR_TMP/alice.token" >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
check_eq "$?" 0 "waitroomctl audit line --limit 2: exit 0"
wr_slurp OUT "$WR_TMP/ctl.out"
check_match "$(sed -n 1p <<<"$OUT")" '^TIME +ADMIN +QUEUE +ACTION +CHANGES$' \
    "the table's head"
check_match "$(sed -n 2p <<<"$OUT")" \
    "^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z +alice +line +kick +ticket: $TICKET, was: waiting$" \
    "the newest: UTC RFC 3339 time, admin, queue, action, detail"
check_match "$(sed -n 3p <<<"$OUT")" ' +alice +line +promote +admitted: 1$' \
    "then the promote"
check_eq "$(wc -l <<<"$OUT")" 3 "a head and two rows"
"$WAITROOMCTL" audit --admin-url "$ADMIN" --token-file "$WR_TMP/alice.token" \
    >"$WR_TMP/ctl.out" 2>&1
wr_slurp OUT "$WR_TMP/ctl.out"
check_match "$OUT" $'\n[^\n]+ +bob +line +open +state: closed -> open\n' \
    "a state's change: state: closed -> open"
check_match "$OUT" $'\n[^\n]+ +alice +fresh +drop +state: open -> \\(none\\)\n' \
    "an absent value: (none)"
"$WAITROOMCTL" audit --json --limit 1 --admin-url "$ADMIN" \
    --token-file "$WR_TMP/alice.token" >"$WR_TMP/ctl.out" 2>&1
wr_slurp BODY "$WR_TMP/ctl.out"
check_jq '.entries | length == 1 and .[0].action == "drop"' \
    "waitroomctl audit --json: the server's JSON"
"$WAITROOMCTL" audit --limit 0 --admin-url "$ADMIN" \
    --token-file "$WR_TMP/alice.token" >/dev/null 2>&1
check_eq "$?" 2 "waitroomctl audit --limit 0: a usage error (2)"

# ---- the bound ------------------------------------------------------------------

# Fill the list to its bound (10,000) in one Redis call, then one write.
rcli EVAL "for i = 1, 10005 - redis.call('LLEN', KEYS[1]) do
    redis.call('RPUSH', KEYS[1], '{\"filler\":true}') end" 1 wr:trail >/dev/null
check_eq "$(trail_len)" 10005 "the trail filled past its bound by hand"
as alice POST /v1/admin/queues/line/pause
check_eq "$(trail_len)" 10000 "one write trims it to the newest 10,000"
check_match "$(rcli LINDEX wr:trail 0)" '"action":"pause"' \
    "... the write on top"
check_eq "$(rcli LINDEX wr:trail -1)" '{"filler":true}' \
    "... the oldest gone from the tail"
