#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# fail_open.sh: POST /v1/admin/queues/{q}/fail-open admits every join at
# once with its pass, and those waiting, until its end; then the tick
# gives the queue back its mode by itself. DELETE ends it now; 409 when
# it is not on, and before a scheduled queue's draw; bad bodies 400.
# The public summary on every instance shows the fail-open, and its end,
# as soon as the call that made it has answered.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

printf 'k1 %s\n' 'pass-secret-0123456789abcdefghijklmn' >"$WR_TMP/keys"
wr_admin_conf "$WR_TMP/f.conf"
cat >>"$WR_TMP/f.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue line]
mode        = rate
batch       = 1
interval    = 3600
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/f.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
start_more_waitroomd two "$WR_TMP/f.conf"
declare -A base=([one]=$WR_BASE [two]=http://127.0.0.1:$MORE_PORT)
declare -A summary=()

# summaries: the public summary of line on each instance, read now (the
# admin call just before has answered; its STATUS and BODY stay), into
# summary[one] and summary[two]. Nothing slow runs between the call and
# the reads: a tick (every 250 ms) must not be what makes them right.
summaries() {
	local status=$STATUS body=$BODY name
	for name in two one; do
		on "${base[$name]}" http GET /v1/queues/line
		summary[$name]=$BODY
	done
	STATUS=$status BODY=$body
}

# summary_says UNTIL WHAT: both summaries show fail_open_until UNTIL.
summary_says() {
	local name
	for name in one two; do
		check_eq "$(jq -r .fail_open_until <<<"${summary[$name]}")" \
		    "$1" "$2 (instance $name)"
	done
}

join line	# the tick of this hour lets the first one in
join line
w1=$TOKEN
join line
w2=$TOKEN
check_json .status waiting "before: a join waits in line"

admin DELETE /v1/admin/queues/line/fail-open
check_status 409 "DELETE when not failing open -> 409"
check_json .error.code not_failing_open "its code is not_failing_open"
for b in '{}' '{"minutes":0}' '{"minutes":1441}' '{"seconds":9}' \
    '{"minutes":"5"}' '{"minutes":1,"seconds":10}' 'x'; do
	admin POST /v1/admin/queues/line/fail-open "$b"
	check "POST $b -> 400 ($STATUS)" [ "$STATUS" = 400 ]
done
check_eq "$(rcli HGET 'wr:{line}:config' mode)" rate "the bad bodies changed nothing"

now=$(rcli TIME | head -n 1)
admin POST /v1/admin/queues/line/fail-open '{"seconds":10}'
summaries
check_status 200 "POST fail-open {seconds: 10} -> 200"
check_jq ".queue == \"line\" and .mode == \"passthrough\" and
    .previous_mode == \"rate\" and .until >= $((now + 10)) and
    .until <= $((now + 11))" "it says passthrough until now + 10 s, from rate"
until=$(json .until)
summary_says "$until" "the summary shows fail_open_until at once"
admin POST /v1/admin/queues/line/fail-open '{"seconds":12}'
summaries
check_jq ".previous_mode == \"rate\" and .until >= $((now + 12))" \
    "again while on: the end moves, the mode to return to stays rate"
until=$(json .until)
summary_says "$until" "the summary shows the moved end at once"

join line
check_jq '.status == "active" and (.pass | length > 0)' \
    "a join during fail-open is admitted at once, with a pass"
wait_until '[ "$(status_of line "$w1")" = active ] &&
    [ "$(status_of line "$w2")" = active ]' 3 ||
    fail "the waiting are admitted within 3 s"
pass "those who waited are admitted by the tick"
admin GET /v1/admin/queues/line
check_jq ".fail_open_until == $until and .config.mode == \"passthrough\"" \
    "the admin queue object shows fail_open_until"

# The end: the first tick after it, on its own, gives back rate mode.
wait_until '[ "$(rcli HGET "wr:{line}:config" mode)" = rate ]' 16 ||
    fail "the queue returns to rate mode by itself"
summaries
t=$(rcli TIME | head -n 1)
check "it returned at the end ($t >= $until)" [ "$t" -ge "$until" ]
summary_says 0 "the summary says fail_open_until 0 again"
join line
join line
check_json .status waiting "after the end a join waits in line again"

# ---- DELETE ends it now -----------------------------------------------------

admin POST /v1/admin/queues/line/fail-open '{"minutes":5}'
summaries
check_status 200 "fail-open for 5 minutes"
summary_says "$(json .until)" "the summary shows the new fail-open at once"
admin DELETE /v1/admin/queues/line/fail-open
summaries
check_status 200 "DELETE fail-open -> 200"
summary_says 0 "the summary shows its end at once"
check_jq '.queue == "line" and .mode == "rate"' "it says mode rate"
check_eq "$(rcli HMGET 'wr:{line}:config' mode fail_open_until | tr '\n' ' ')" \
    "rate  " "mode rate in Redis, no end kept"

# ---- a mode given while failing open: the operator's choice wins --------------

admin POST /v1/admin/queues/line/fail-open '{"minutes":5}'
check_status 200 "fail-open for 5 minutes, again"
admin PUT /v1/admin/queues/line '{"mode":"capacity","max_active":3}'
summaries
check_status 200 "PUT mode capacity while failing open -> 200"
check_eq "$(rcli HMGET 'wr:{line}:config' mode fail_open_until fail_open_prev | tr '\n' ' ')" \
    "capacity   " "fail-open ends: mode capacity in Redis, no end or mode to return to kept"
summary_says 0 "the summary shows the fail-open ended at once"
admin GET /v1/admin/queues/line
check_jq '.config.mode == "capacity" and .fail_open_until == 0' \
    "the admin queue object says capacity, no fail-open"
admin GET '/v1/admin/audit?queue=line&limit=1'
check_jq '.entries[0].action == "put" and .entries[0].changes.fail_open_until[1] == null' \
    "the trail's put records the fail-open's end"
admin PUT /v1/admin/queues/line '{"mode":"rate"}'
check_status 200 "back to rate for what follows"

# ---- a scheduled queue before its draw --------------------------------------

admin PUT /v1/admin/queues/sale "{\"opens_at\":$((now + 3600))}"
check_status 201 "a scheduled queue is created"
admin POST /v1/admin/queues/sale/fail-open '{"minutes":1}'
check_status 409 "fail-open before the draw -> 409"
check_json .error.code draw_not_done "its code is draw_not_done"
admin POST /v1/admin/queues/nosuch/fail-open '{"minutes":1}'
check_status 404 "a queue that is not -> 404"

# ---- waitroomctl fail-open --------------------------------------------------

if [ -x "${WAITROOMCTL:-}" ]; then
	admin_ctl fail-open line 2
	check_eq "$?" 0 "waitroomctl fail-open line 2: exit 0"
	check_match "$(cat "$WR_TMP/ctl.out")" \
	    '^queue line: mode passthrough until 20[0-9-]+T[0-9:]+Z$' "... it prints the end"
	until_s=$(rcli HGET 'wr:{line}:config' fail_open_until)
	check_eq "$(date -u -d "@$until_s" +%Y-%m-%dT%H:%M:%SZ)" \
	    "$(sed 's/.* until //' "$WR_TMP/ctl.out")" "... the end Redis keeps"
	admin_ctl fail-open end line
	check_eq "$?" 0 "waitroomctl fail-open end line: exit 0"
	check_eq "$(cat "$WR_TMP/ctl.out")" "queue line: mode rate" "... it prints the mode back"
	admin_ctl fail-open end line
	check_eq "$?" 1 "fail-open end again: exit 1 (refused)"
	check_contains "$(cat "$WR_TMP/ctl.err")" "not failing open" "... saying why"
	admin_ctl fail-open line 0
	check_eq "$?" 2 "fail-open line 0: a usage error (exit 2)"
else
	pass "waitroomctl fail-open # SKIP WAITROOMCTL is not set"
fi
