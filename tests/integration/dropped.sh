#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# dropped.sh: a dropped queue's entry passes open nothing. After
# DELETE /v1/admin/queues/shop, GET /v1/check refuses (401) every pass
# shop issued, with ?queue=shop and without, on the instance that took
# the DELETE at once and on another instance within a second; a pass of
# another queue still opens; shop created again under the same name does
# not bring the old passes back, and its own passes open once the clock
# leeway has passed.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

S='drop-secret-0123456789abcdefghijklmnop'
printf 'k1 %s\n' "$S" >"$WR_TMP/keys"
wr_admin_conf "$WR_TMP/wr.conf"
cat >>"$WR_TMP/wr.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue other]
mode        = capacity
max_active  = 10
active_ttl  = 120
EOF2

# v1_check_on a|b PASS [QUEUE]: v1_check on instance a or b.
v1_check_on() {
	local WR_BASE=http://127.0.0.1:$A_PORT
	[ "$1" = b ] && WR_BASE=http://127.0.0.1:$B_PORT
	v1_check "$2" "${3-}"
}

start_redis
start_waitroomd "$WR_TMP/wr.conf"
wait_ready || bail "instance a is ready" "$(wr_last)"
A_PORT=$WR_PORT
start_more_waitroomd b "$WR_TMP/wr.conf"
B_PORT=$MORE_PORT
wait_until 'curl -sf -o /dev/null http://127.0.0.1:$B_PORT/readyz' ||
    bail "instance b is ready"

admin PUT /v1/admin/queues/shop '{"mode":"capacity","max_active":10,"active_ttl":120}'
check_status 201 "the admin creates queue shop (capacity, 10 at once)"
join shop
PA=$(json .pass)
check_json .status active "a visitor joins shop on instance a and is admitted"
BODY=$(curl -s -X POST --max-time 5 "http://127.0.0.1:$B_PORT/v1/queues/shop/tokens")
PB=$(json .pass)
check_json .status active "another joins shop on instance b and is admitted"
UNTIL=$(json .active_until)
join other
PO=$(json .pass)
check_json .status active "a third joins queue other"

# Every instance has just said yes to each pass, so each remembers it.
for i in a b; do
	v1_check_on $i "$PA" shop
	check_eq "$STATUS" 204 "before the drop, instance $i accepts the pass a issued"
	v1_check_on $i "$PB"
	check_eq "$STATUS" 204 "and the one b issued, without ?queue="
done

# ---- the drop ---------------------------------------------------------

admin DELETE /v1/admin/queues/shop
check_status 204 "DELETE /v1/admin/queues/shop -> 204"
dropped=$(now_ms)

v1_check_on a "$PA" shop
check_eq "$STATUS" 401 "instance a refuses a pass of the dropped queue at once"
v1_check_on a "$PB"
check_eq "$STATUS" 401 "instance a refuses it at once without ?queue= too"
http GET /v1/check '' -H "Cookie: waitroom_pass=$PA"
check_error 401 unauthorized "the pass cookie of the dropped queue -> 401"
check_contains "$(json .error.message)" "dropped" "the message says the queue was dropped"

# Instance b answered from its cache a moment ago; the drop reaches it
# from Redis when that answer is a second old, whatever pub/sub did.
wait_until 'v1_check_on b "$PA"; [ "$STATUS" = 401 ]' 5
took=$(($(now_ms) - dropped))
check_eq "$STATUS" 401 "instance b refuses the dropped queue's pass without ?queue="
check "and within 1 s of the drop (took $took ms; 1.5 s allowed for the polling)" \
    test "$took" -le 1500
# b's answer for PB was cached a moment after PA's: it may outlive it by
# as much.
wait_until 'v1_check_on b "$PB" shop; [ "$STATUS" = 401 ]' 2
check_eq "$STATUS" 401 "instance b refuses the pass it issued itself, with ?queue=shop"
for i in a b; do
	v1_check_on $i "$PO" other
	check_eq "$STATUS" 204 "a pass of queue other still opens on instance $i"
done

# The marker lives as long as a pass of the queue could be accepted: the
# last session's end plus the 10 s leeway of checkers.
ttl=$(rcli pttl 'wr:{shop}:dropped')
want=$((UNTIL * 1000 + 10000 - $(now_ms)))
check "Redis keeps the drop until the last pass's exp + 10 s (pttl $ttl, expected about $want)" \
    test "$ttl" -le $((want + 1500)) -a "$ttl" -ge $((want - 3000))

# ---- the same name again ------------------------------------------------

admin PUT /v1/admin/queues/shop '{"mode":"capacity","max_active":10,"active_ttl":120}'
check_status 201 "the admin creates shop again"
join shop
# shellcheck disable=SC2034 # read by wait_until's code below
TN=$TOKEN
check_json .status active "a new visitor is admitted to the new shop"
for i in a b; do
	v1_check_on $i "$PA" shop
	check_eq "$STATUS" 401 "the old shop's pass stays refused on instance $i"
	v1_check_on $i "$PB"
	check_eq "$STATUS" 401 "and without ?queue="
done
# A pass issued within the leeway of the drop could come from a clock
# up to 10 s fast, so it is refused too; once that has passed, the new
# shop's passes open on every instance.
wait_until 'http GET "/v1/queues/shop/tokens/$TN"; PN=$(json .pass);
    v1_check_on a "$PN" shop; [ "$STATUS" = 204 ]' 15
check_eq "$STATUS" 204 "a pass the new shop issues after the leeway opens on instance a"
v1_check_on b "$PN" shop
check_eq "$STATUS" 204 "and on instance b"
v1_check_on a "$PA"
check_eq "$STATUS" 401 "while the old shop's pass is still refused"

http GET /healthz
check_status 200 "instance a is healthy"
stop_waitroomd
