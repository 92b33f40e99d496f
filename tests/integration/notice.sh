#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# notice.sh: the message to everyone waiting (PUT/DELETE
# /v1/admin/queues/{q}/notice) reaches the open streams of the queue on
# two instances within a second, and every status object carries it;
# DELETE clears it; bad text changes nothing.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

wr_admin_conf "$WR_TMP/n.conf"
cat >>"$WR_TMP/n.conf" <<EOF2

[queue line]
mode        = rate
batch       = 1
interval    = 3600
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/n.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
start_more_waitroomd two "$WR_TMP/n.conf"
base1=$WR_BASE base2="http://127.0.0.1:$MORE_PORT"

join line	# the tick of this hour lets the first one in
join line
waiter=$TOKEN
join line
other=$TOKEN
check_json .status waiting "two joins wait in line"
sse_start one "/v1/queues/line/tokens/$waiter/events"
WR_BASE=$base2 sse_start two "/v1/queues/line/tokens/$other/events"
sse_wait one '^event: status$' 1 5 || fail "the stream on instance 1 opens"
sse_wait two '^event: status$' 1 5 || fail "the stream on instance 2 opens"

text='Doors open at 10:05 — 잠시만 기다려 주세요 "thanks"'
body=$(jq -cn --arg t "$text" '{text: $t}')
q=$(jq -cn --arg t "$text" '$t')
t0=$EPOCHREALTIME
admin PUT /v1/admin/queues/line/notice "$body"
check_status 200 "PUT notice -> 200"
check_jq ".queue == \"line\" and .notice == $(jq -cn --arg t "$text" '$t')" \
    "the answer says the queue and the notice"
for s in one two; do
	if sse_wait "$s" '^event: notice$' 1 1; then
		at=$(awk '$2 == "event:" && $3 == "notice" { print $1; exit }' \
		    "$WR_TMP/sse.$s.out")
		ms=$(ms_between "$t0" "$at")
		check "stream on instance $s: event notice in ${ms} ms (< 1 s)" [ "$ms" -lt 1000 ]
	else
		fail "stream on instance $s: event notice within 1 s"
	fi
done
data=$(awk '$2 == "event:" && $3 == "notice" { getline; sub(/^[^ ]* data: /, ""); print; exit }' \
    "$WR_TMP/sse.one.out")
check_eq "$(jq -c --arg t "$text" '. == {queue: "line", notice: $t}' <<<"$data")" \
    true "its data is {queue, notice}"

http GET "/v1/queues/line/tokens/$waiter"
check_jq ".status == \"waiting\" and .notice == $q" \
    "GET status carries the notice"
http GET "/q/line?token=$waiter&lang=ko"
check_contains "$BODY" '<p id="wr-notice-text">Doors open at 10:05 — 잠시만 기다려 주세요 &quot;thanks&quot;</p>' \
    "the page without JavaScript shows it (escaped) at its next load"
check_contains "$BODY" '운영자 안내' "under its Korean label"
WR_BASE=$base2 join line
check_jq ".notice == $q" "a join's answer on instance 2 carries it"
sse_wait one '"notice":"Doors' 1 3 || fail "a pushed status carries the notice"
pass "a pushed status carries the notice"

# ---- bad text: 400, nothing changed --------------------------------------

long=$(printf 'x%.0s' $(seq 281))
for b in '{"text":""}' "{\"text\":\"$long\"}" '{"text":"a\u0007b"}' \
    '{"text":"line\nbreak"}' '{"text":42}' '{"text":"a","x":1}' 'nope'; do
	admin PUT /v1/admin/queues/line/notice "$b"
	check "PUT ${b:0:30} -> 400 ($STATUS)" [ "$STATUS" = 400 ]
done
http GET "/v1/queues/line/tokens/$waiter"
check_jq ".notice == $q" "after the bad PUTs the notice is as it was"
ok280=$(printf 'y%.0s' $(seq 280))
admin PUT /v1/admin/queues/line/notice "{\"text\":\"$ok280\"}"
check_status 200 "280 characters -> 200"
admin PUT /v1/admin/queues/nosuch/notice '{"text":"hi"}'
check_status 404 "a queue that is not -> 404"

# ---- DELETE ----------------------------------------------------------------

admin DELETE /v1/admin/queues/line/notice
check_status 200 "DELETE notice -> 200"
check_jq '.queue == "line" and .notice == null' "the answer says notice null"
sse_wait two '"notice":null' 1 2 || fail "instance 2's stream hears notice null"
pass "instance 2's stream hears the notice cleared"
wait_until 'http GET "/v1/queues/line/tokens/$waiter" && [ "$(json ".notice // empty")" = "" ]' 2 ||
    fail "the status object loses notice"
check_jq 'has("notice") | not' "GET status: the notice field is gone"


# ---- waitroomctl notice -----------------------------------------------------

if [ -x "${WAITROOMCTL:-}" ]; then
	admin_ctl notice line "Doors at 10:05 — 문 열림"
	check_eq "$?" 0 "waitroomctl notice line TEXT: exit 0"
	check_eq "$(cat "$WR_TMP/ctl.out")" "queue line: notice set" "... it says so"
	http GET "/v1/queues/line/tokens/$waiter"
	check_json .notice "Doors at 10:05 — 문 열림" "... and a waiter's status carries it, UTF-8 intact"
	admin_ctl notice clear line
	check_eq "$?" 0 "waitroomctl notice clear line: exit 0"
	check_eq "$(cat "$WR_TMP/ctl.out")" "queue line: notice cleared" "... it says so"
	check_eq "$(rcli HGET 'wr:{line}:config' notice)" "" "... and Redis holds none"
	admin_ctl notice line "$(printf 'x%.0s' $(seq 1 281))"
	check_eq "$?" 1 "a notice of 281 characters: refused (exit 1)"
	check_contains "$(cat "$WR_TMP/ctl.err")" "280" "... saying the limit"
else
	pass "waitroomctl notice # SKIP WAITROOMCTL is not set"
fi
