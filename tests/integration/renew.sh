#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# renew.sh: sessions that renew (renew = yes, active_ttl = 6). A visitor
# whose pass passes /v1/check every 2 s is still active after 15 s, on the
# fresh passes /v1/check hands out in X-Waitroom-Pass once half a pass's
# life is gone; so is one whose page GETs its token every 2 s. One that
# stops is gone within active_ttl and a tick. A queue with renew = no
# keeps its fixed sessions, and hands out no pass.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

printf 'k1 %s\n' 'renew-secret-0123456789abcdefghijklm' >"$WR_TMP/keys"
cat >"$WR_TMP/renew.conf" <<EOF2
pass_key_file = $WR_TMP/keys
pass_cookie_secure = no

[queue slide]
mode        = capacity
max_active  = 10
active_ttl  = 6
waiting_ttl = 600
renew       = yes

[queue fixed]
mode        = capacity
max_active  = 10
active_ttl  = 6
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/renew.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# exp_of PASS: the exp claim of a pass.
exp_of() {
	jwt_part "$1" 2 | jq -r .exp
}

t0=$(now_ms)
join slide
A=$TOKEN PA=$(json .pass)
join slide
B=$TOKEN
B_END=$(rcli zscore 'wr:{slide}:active' "$B")	# ms: B never renews
join slide
C=$TOKEN
join fixed
D=$TOKEN PD=$(json .pass)
check_eq "$(rcli zcard 'wr:{slide}:active') $(rcli zcard 'wr:{fixed}:active')" \
    "3 1" "four visitors admitted at once"
exp0=$(exp_of "$PA")

# Every 2 s for 16 s: A passes /v1/check (on the freshest pass it was
# given), C's page GETs its token, D passes /v1/check; B does nothing.
checks=0 refused=0 fresh=0 cookie=0 d_fresh=0 b_gone_ms='' b_late=''
for ((round = 0; round <= 8; round++)); do
	wait_until '[ $(( $(now_ms) - t0 )) -ge $((round * 2000)) ]' 3
	v1_check "$PA"
	checks=$((checks + 1))
	[ "$STATUS" = 204 ] || refused=$((refused + 1))
	if has_header X-Waitroom-Pass; then
		PA=$(header X-Waitroom-Pass)
		fresh=$((fresh + 1))
		[[ $(header X-Waitroom-Set-Cookie) == waitroom_pass=$PA\;* ]] &&
		    cookie=$((cookie + 1))
	fi
	[ "$(status_of slide "$C")" = active ] || refused=$((refused + 1))
	v1_check "$PD"
	has_header X-Waitroom-Pass && d_fresh=$((d_fresh + 1))
	# B is watched in Redis: a GET of its token would renew it. Seen
	# there more than a tick (and its lateness) after its end: too late.
	b_seen=$(rcli zscore 'wr:{slide}:active' "$B") b_now=$(now_ms)
	if [ -z "$b_seen" ]; then
		[ -z "$b_gone_ms" ] && b_gone_ms=$((b_now - t0))
	elif [ $((b_now - ${B_END%.*})) -gt 1000 ]; then
		b_late=$((b_now - ${B_END%.*}))
	fi
done
check_eq "$refused" 0 "16 s of checks every 2 s: each of $checks checks and GETs found the session"
http GET "/v1/queues/slide/tokens/$A"
check_jq '.status == "active"' "the visitor that kept checking is still active after 16 s"
http GET "/v1/queues/slide/tokens/$C"
check_jq '.status == "active" and .active_until > (now + 3)' \
    "so is the one whose page kept GETting its token, its end 6 s ahead"
if [ "$fresh" -ge 3 ] && [ "$(exp_of "$PA")" -gt $((exp0 + 8)) ]; then
	pass "fresh passes came in X-Waitroom-Pass ($fresh), the last ending well after the first"
else
	fail "fresh passes came in X-Waitroom-Pass" "fresh $fresh, exp $(exp_of "$PA") vs $exp0"
fi
check_eq "$cookie" "$fresh" "each with the same pass as a cookie in X-Waitroom-Set-Cookie"
v1_check "$PA"
check_status 204 "the last fresh pass passes /v1/check"

# B never came back: its session, ending active_ttl (6 s) after its
# join, is gone by the tick after (250 ms; 1 s allowed for a late tick and
# this loop's own reads); no look after that found it still there.
if [ -n "$b_gone_ms" ] && [ -z "$b_late" ]; then
	pass "the visitor that stopped was gone when looked for after its end ($b_gone_ms ms)"
else
	fail "the visitor that stopped is gone within active_ttl + a tick" "gone at ${b_gone_ms:-never} ms, still there ${b_late:-0} ms after its end"
fi
http GET "/v1/queues/slide/tokens/$B"
check_error 404 token_not_found "its token is gone"
check_eq "$d_fresh" 0 "renew = no: /v1/check hands out no fresh pass"
http GET "/v1/queues/fixed/tokens/$D"
check_error 404 token_not_found "renew = no: the session ended after its fixed 6 s, checks or not"

# A queue that does not renew costs one question to Redis, not one per
# pass: renew.lua (an EVALSHA naming the token) runs for the first of
# four fresh passes only.
passes=() tokens=()
for i in 1 2 3 4; do
	join fixed
	tokens+=("$TOKEN") passes+=("$(json .pass)")
done
rcli monitor >"$WR_TMP/monitor" 2>/dev/null &
monitor=$!
WR_EXTRA_PIDS+=("$monitor")
wait_until '[ -s "$WR_TMP/monitor" ]' 5
for p in "${passes[@]}"; do
	v1_check "$p"
	[ "$STATUS" = 204 ] || fail "a fresh pass of the fixed queue passes" "$STATUS"
done
rcli echo renew-monitor-end >/dev/null
wait_until 'grep -q renew-monitor-end "$WR_TMP/monitor"' 5
renews=$(grep -ciE "evalsha.*($(IFS='|'; echo "${tokens[*]}"))" "$WR_TMP/monitor")
kill "$monitor" 2>/dev/null
wait "$monitor" 2>/dev/null
check_eq "$renews" 1 "renew = no: four passes' checks ask Redis to renew once, not four times"
