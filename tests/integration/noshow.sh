#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# noshow.sh: an admitted visitor who never comes. The first GET /v1/check
# of a session, on any instance, is recorded once (the session leaves the
# queue's unchecked set). With noshow_after = S, a session admitted S s
# ago whose pass was never checked is a no-show, counted: a capacity
# queue ends it (its pass refused on every instance) and admits the next
# waiter at once; a rate queue with noshow_refill = yes adds the no-shows
# to its next batches, never more than doubling one. A check on another
# instance than the one that admitted counts. Bad values change nothing.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

printf 'k1 %s\n' 'noshow-secret-0123456789abcdefghijklm' >"$WR_TMP/keys"
wr_admin_conf "$WR_TMP/noshow.conf"
cat >>"$WR_TMP/noshow.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue rec]
mode        = capacity
max_active  = 10
active_ttl  = 600
waiting_ttl = 600

[queue cap]
mode        = capacity
max_active  = 2
active_ttl  = 600
waiting_ttl = 600

[queue line]
mode        = rate
batch       = 2
interval    = 4
active_ttl  = 600
waiting_ttl = 600
state       = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/noshow.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
A=$WR_BASE
start_more_waitroomd b "$WR_TMP/noshow.conf"
B=http://127.0.0.1:$MORE_PORT

# pass_of: the pass in the last answer's body.
pass_of() {
	json '.pass // empty'
}

unchecked() {
	rcli ZSCORE "wr:{$1}:unchecked" "$2"
}

# ---- the first check is recorded, once, on any instance -------------------

join rec
t1=$TOKEN p1=$(pass_of)
check_match "$(json .status)" '^active$' "the first join of rec is admitted"
check_match "$(unchecked rec "$t1")" '^[0-9]{13}$' \
    "an admitted session is unchecked, since its admission (ms)"
on "$B" v1_check "$p1" rec
check_status 204 "its pass is accepted on instance B, which did not admit it"
check_eq "$(unchecked rec "$t1")" "" "that first check, on B, is recorded"
on "$A" v1_check "$p1" rec
check_status 204 "and accepted on A"
check_eq "$(unchecked rec "$t1")" "" "a later check changes nothing"

# ---- capacity: the no-show's slot goes to the next waiter ----------------

admin PUT /v1/admin/queues/cap '{"noshow_after": 2}'
check_status 200 "PUT noshow_after = 2 on the capacity queue"
join cap
u1=$TOKEN q1=$(pass_of)
join cap
u2=$TOKEN q2=$(pass_of) admitted_at=$(now_ms)
join cap
u3=$TOKEN s3=$(json .status)
check_eq "$(status_of cap "$u1") $(status_of cap "$u2") $s3" \
    "active active waiting" "two admitted (max_active = 2), the third waits"
on "$B" v1_check "$q1" cap
check_status 204 "the first uses its pass, on instance B"
wait_until 'http GET "/v1/queues/cap/tokens/$u3"; [ "$(json .status)" = active ]' \
    $((8 * WR_SLOW))
took=$(($(now_ms) - admitted_at))
if [ "$(json .status)" = active ] && [ "$took" -ge 1800 ]; then
	pass "the waiter is admitted once noshow_after has passed ($took ms)"
else
	fail "the waiter is admitted once noshow_after has passed" \
	    "status $(json .status) after $took ms" "$(wr_last)"
fi
q3=$(pass_of)
v1_check "$q3" cap
check_status 204 "the admitted waiter's pass is accepted"
on "$A" v1_check "$q2" cap
check_status 401 "the no-show's pass is refused on A"
on "$B" v1_check "$q2" cap
check_status 401 "and on B"
on "$A" v1_check "$q1" cap
check_status 204 "the pass that was used is still accepted"
check_eq "$(stat_of cap noshows)" 1 "one no-show counted (stats hash)"
http GET /metrics
check_eq "$(metric 'waitroom_queue_noshows_total{queue="cap"}')" 1 \
    "/metrics: waitroom_queue_noshows_total{queue=\"cap\"} 1"
admin GET /v1/admin/queues/cap
check_jq '.totals.noshows == 1' "the admin API's totals: noshows 1"
http GET /v1/queues/cap
check_jq '.active == 2 and .waiting == 0' "the queue holds 2 active, 0 waiting"

# ---- rate: noshow_refill grows the next batches, at most doubling one ----

admin PUT /v1/admin/queues/line '{"noshow_after": 2, "noshow_refill": "yes"}'
check_status 200 "PUT noshow_after = 2, noshow_refill = yes on the rate queue"
join_many line 12
mapfile -t r <"$WR_TMP/line.joined"
check_eq "${#r[@]}" 12 "12 wait in the paused rate queue"
# pass_at I: the pass of the Ith waiter once admitted.
pass_at() {
	http GET "/v1/queues/line/tokens/${r[$1]}"
	pass_of
}
admin POST /v1/admin/queues/line/resume
check_status 200 "resume: batches of 2 every 4 s"
# The admitted total, each time it moves, until 9 or 14 s: the batches.
seen=() last=0 end=$(($(now_ms) + 14000 * WR_SLOW))
while [ "$(now_ms)" -lt "$end" ] && [ "$last" -lt 9 ]; do
	n=$(stat_of line admitted)
	if [ "$n" != "$last" ]; then
		seen+=("$n") last=$n
		case $n in
		2) v1_check "$(pass_at 0)" line ;;	# one of 2 comes
		9) for i in 5 6 7 8; do v1_check "$(pass_at "$i")" line; done ;;
		esac
	fi
	sleep 0.1
done
check_eq "${seen[*]}" "2 5 9" \
    "batches 2, then 2 + the 1 no-show, then 2 + 2 of the 3 (never more than double)"
check_eq "$(stat_of line noshows)" 4 "4 no-shows counted: 1 and 3"
on "$B" http GET /metrics
check_eq "$(metric 'waitroom_queue_noshows_total{queue="line"}')" 4 \
    "/metrics of instance B: 4 for the rate queue"
check_eq "$(stat_of line refill)" 1 "the no-show left over waits for the next batch"

# ---- bad values: 400 naming the key, nothing changed ----------------------

admin POST /v1/admin/queues/line/pause
check_status 200 "pause the rate queue: nothing moves by itself now"
before=$(snap)
put_refused() {
	admin PUT /v1/admin/queues/cap "$1"
	if [ "$STATUS" = 400 ] && [ "$(json .error.code)" = bad_request ] &&
	    [ "$(json .error.field)" = "$2" ]; then
		pass "PUT $1: 400 naming $2"
	else
		fail "PUT $1: 400 naming $2" "$(wr_last)"
	fi
}
put_refused '{"noshow_after": -1}' noshow_after
put_refused '{"noshow_after": 86401}' noshow_after
put_refused '{"noshow_after": "soon"}' noshow_after
put_refused '{"noshow_after": 1.5}' noshow_after
put_refused '{"max_active": 3, "noshow_refill": "maybe"}' noshow_refill
check_contains "$(json .error.message)" "no, yes" "a bad noshow_refill lists what is accepted"
put_refused '{"noshow_refill": true}' noshow_refill
check_eq "$(snap)" "$before" "the refusals changed nothing in Redis"
for bad in 'noshow_after = -2' 'noshow_refill = sometimes'; do
	printf '%s\n' '[queue bad]' "$bad" | cat "$WR_TMP/noshow.conf" - \
	    >"$WR_TMP/bad.conf"
	out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
	rc=$?
	check_match "$rc ${out//$'\n'/ }" "^[1-9].*bad.conf:[0-9]+: .*${bad%% *}" \
	    "the file's '$bad' is refused, naming file, line and key"
done

stop_waitroomd
