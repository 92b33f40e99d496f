#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# capacity.sh: a capacity queue never holds more than max_active inside,
# admits in the join while a slot is free, refills a slot in the DELETE
# that freed it (a visitor's leave or an operator's kick alike, with no
# tick needed), counts a session ended early in the mean its ETAs use, and
# frees slots when sessions end.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

wr_admin_conf "$WR_TMP/cap.conf"
cat >>"$WR_TMP/cap.conf" <<'EOF2'
[queue cap]
mode        = capacity
max_active  = 10
active_ttl  = 8
waiting_ttl = 600

[queue still]
mode        = capacity
max_active  = 2
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/cap.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# Sample the public "active" figure about every 100 ms in the background,
# until the checks below are done (sampler.stop) and there are the 50
# samples the last check wants; 300 at most.
(
	n=0
	for ((i = 0; i < 300; i++)); do
		[ "$n" -ge 50 ] && [ -e "$WR_TMP/sampler.stop" ] && break
		v=$(curl -s --max-time 2 "$WR_BASE/v1/queues/cap" | jq -r '.active // empty')
		[ -n "$v" ] && echo "$v" && n=$((n + 1))
		sleep 0.1
	done
) >"$WR_TMP/active.samples" 2>/dev/null &
sampler=$!
WR_EXTRA_PIDS+=("$sampler")

# 30 joins in order on one connection, fast enough to beat the session.
join_many cap 30
mapfile -t tokens < <(jq -r .token "$WR_TMP/cap.answers")
mapfile -t statuses < <(jq -r .status "$WR_TMP/cap.answers")
check_eq "${statuses[*]:0:10}" "$(printf 'active %.0s' {1..10} | sed 's/ $//')" \
    "the first 10 joins are admitted in the join itself"
check_eq "${statuses[*]:10:20}" "$(printf 'waiting %.0s' {1..20} | sed 's/ $//')" \
    "the next 20 wait"
http GET "/v1/queues/cap/tokens/${tokens[10]}"
check_jq '.status == "waiting" and .position == 1 and (.eta_seconds | type == "number")' \
    "the 11th is first in line, with an ETA"
# api.md's band for a new capacity queue: -20% / +30% for a wait of one
# round (a new room's mean session: active_ttl / 1.1), divided by the
# square root of the rounds in a longer one
check_jq '([.eta_seconds / (8 / 1.1), 1] | max | sqrt) as $s |
    .eta_range == [(.eta_seconds / (1 + 0.3 / $s) | round),
    (.eta_seconds / (1 - 0.2 / $s) | round)]' \
    "and api.md's eta_range for a new capacity queue: [eta / 1.3, eta / 0.8] a round"
http GET /v1/queues/cap
check_jq '.active == 10 and .waiting == 20' "summary: 10 active, 20 waiting"

# ---- DELETE of an active token admits the next waiter at once -------------

http DELETE "/v1/queues/cap/tokens/${tokens[0]}"
check_status 204 "DELETE of an active token -> 204"
http GET "/v1/queues/cap/tokens/${tokens[10]}"
check_json .status active "the next waiter is active right after the DELETE returns"
http GET "/v1/queues/cap/tokens/${tokens[11]}"
check_json .position 1 "the one behind moves to position 1"
http GET "/v1/queues/cap/tokens/${tokens[0]}"
check_error 404 token_not_found "the ended session is gone"

# ---- expiry frees slots ---------------------------------------------------

# Sessions last 8 s: the next ten are admitted when the first ones end.
check "sessions that end free their slots: 10 more admitted within 15 s" \
    wait_until 'http GET /v1/queues/cap; [ "$(json .waiting)" = 9 ]' 15
http GET "/v1/queues/cap/tokens/${tokens[20]}"
check_json .status active "the 21st joiner is now inside"
check "the ended sessions are counted as expired" \
    wait_until '[ "$(stat_of cap expired)" -ge 9 ]' 5

# ---- a kick refills the slot it frees at once, as a leave does --------------

# Out of the registry, queue still is ticked by no instance (admission.c
# syncs its ticks with the registry): only the call that frees a slot can
# let the next waiter in.
rcli srem wr:queues still >/dev/null
check "the daemon stops ticking queue still" wait_until \
    'grep -q "event=tick_stop queue=still" "$WR_TMP/waitroomd.log"' 5
still=()
for ((i = 0; i < 5; i++)); do
	join still
	still+=("$TOKEN")
done
http GET /v1/queues/still
check_jq '.active == 2 and .waiting == 3' "queue still: 2 active, 3 waiting"
http GET "/v1/queues/still/tokens/${still[3]}"
check_jq '.position == 2 and .eta_seconds >= 595 and .eta_seconds <= 600' \
    "the second in line waits for the second session's end (600 s) while none ended"

http DELETE "/v1/admin/queues/still/tokens/${still[0]}" '' \
    -H "Authorization: Bearer $ADMIN_TOKEN"
check_status 204 "kick an active session: 204"
http GET "/v1/queues/still/tokens/${still[2]}"
check_json .status active "the next waiter is active right after the kick returns"
http GET "/v1/queues/still/tokens/${still[1]}"
left=$(($(json .active_until) - $(now_ms) / 1000))
http GET "/v1/queues/still/tokens/${still[3]}"
# The kick is an early end: of the sessions' time so far (seconds) and
# the prior round of 2 x 600 s, a fifth of which end early (eta.c), 1.4
# early ends in about 1,200 s among the 2 inside free the first slot in
# about 430 s, before the next session's end.
check_jq ".position == 1 and .eta_seconds < $left - 2 and
    .eta_seconds >= $left * 6 / 10" \
    "after the kick, the first in line is told sooner than the next end ($left s)"
sess=$(rcli hget "wr:{still}:stats" sess)
check_match "$sess" '^[0-9]+$' "the kicked session counts in the mean session ($sess ms)"
if [ "${sess:-600000}" -lt 600000 ]; then
	pass "the mean is below active_ttl"
else
	fail "the mean is below active_ttl" "sess ${sess:-none}"
fi

sse_start still "/v1/queues/still/tokens/${still[3]}/events"
sse_wait still '^event: status$' 1 5 || fail "the stream of the next waiter opens"
http DELETE "/v1/admin/queues/still/tokens/${still[1]}" '' \
    -H "Authorization: Bearer $ADMIN_TOKEN"
check_status 204 "kick a second active session: 204"
check "the waiter the kick let in gets entered on its stream within 3 s" \
    sse_wait still '^event: entered$' 1 3

http DELETE "/v1/queues/still/tokens/${still[2]}"
check_status 204 "a leave of an active session: 204"
http GET "/v1/queues/still/tokens/${still[4]}"
check_json .status active "the leave lets the last waiter in at once too"
http GET /v1/admin/queues/still '' -H "Authorization: Bearer $ADMIN_TOKEN"
check_jq '.active == 2 and .waiting == 0 and .totals.removed == 2 and
    .totals.left == 1 and .totals.admitted == 5' \
    "figures: 2 removed, 1 left, all 5 admitted, 2 active"

: >"$WR_TMP/sampler.stop"
wait "$sampler" 2>/dev/null
max=$(sort -n "$WR_TMP/active.samples" | tail -n 1)
n=$(grep -c . "$WR_TMP/active.samples")
if [ "$n" -ge 50 ] && [ "${max:-99}" -le 10 ]; then
	pass "never more than 10 active in $n samples (max $max)"
else
	fail "never more than 10 active at any sampled moment" "samples $n, max ${max:-none}"
fi
