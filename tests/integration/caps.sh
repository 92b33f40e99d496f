#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# caps.sh: both caps at once. A rate queue (5 a second) with max_active 8
# holds exactly 8 sessions after 5 s, not 25; a DELETE of an active token
# lets the next waiter in within the next interval; and whatever frees,
# no second admits more than 5.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/caps.conf" <<'EOF2'
[queue caps]
mode        = rate
batch       = 5
interval    = 1
max_active  = 8
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/caps.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# Sample Redis's count of admissions and the start of the interval in
# force (the tick key, written in the same script run as the admissions),
# with Redis's time in ms (the clock the admissions go by), every 50 ms.
(
	for ((i = 0; i < 400; i++)); do
		rcli --no-raw eval "local t = redis.call('TIME')
			return t[1] * 1000 + math.floor(t[2] / 1000) .. ' ' ..
			(redis.call('HGET', KEYS[1], 'admitted') or '0') .. ' ' ..
			(redis.call('GET', KEYS[2]) or '0')" \
		    2 'wr:{caps}:stats' 'wr:{caps}:tick' 2>/dev/null | tr -d '"'
		sleep 0.05
	done
) >"$WR_TMP/admitted.samples" &
sampler=$!
WR_EXTRA_PIDS+=("$sampler")

t0=$(now_ms)
join_many caps 30
mapfile -t tokens < <(jq -r .token "$WR_TMP/caps.answers")
check_eq "${#tokens[@]}" 30 "30 joins answered"

# Five seconds of a 5-a-second rate would admit 25; the session cap is 8.
wait_until "[ \$(now_ms) -ge $((t0 + 5000)) ]" 10
http GET /v1/queues/caps
check_jq '.active == 8 and .waiting == 22' "after 5 s exactly 8 are active, 22 wait"
http GET "/v1/queues/caps/tokens/${tokens[8]}"
check_jq '.status == "waiting" and .position == 1 and .eta_seconds > 5' \
    "the 9th waits first in line, its ETA set by the session cap, not the rate"
check_jq '.eta_range == [(.eta_seconds / (1 + 0.1) | round), (.eta_seconds / (1 - 0.1) | round)]' \
    "its eta_range is api.md's for a new rate queue: [eta / 1.1, eta / 0.9]"

# ---- a DELETE frees a slot for the next interval --------------------------

http DELETE "/v1/queues/caps/tokens/${tokens[0]}"
check_status 204 "DELETE of an active token -> 204"
check "the 9th joiner is let in within the next interval" \
    wait_until '[ "$(status_of caps "${tokens[8]}")" = active ]' 2
http GET /v1/queues/caps
check_jq '.active == 8 and .waiting == 21' "8 active again, 21 wait"

# ---- freeing every slot: still 5 a second ---------------------------------

for i in 1 2 3 4 5 6 7 8; do
	http DELETE "/v1/queues/caps/tokens/${tokens[i]}"
done
check "8 slots freed at once fill again within 3 s" \
    wait_until 'http GET /v1/queues/caps; [ "$(json .active)" = 8 ] && [ "$(json .waiting)" = 13 ]' 3
# One more second of samples past the refill.
t1=$(now_ms)
wait_until "[ \$(now_ms) -ge $((t1 + 1000)) ]" 3
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null

# Each interval admits at most 5: the admissions counted between the last
# sample of one interval and the last of the next. Intervals begin 1 s
# apart, each within a few ticks (250 ms) of when it was due, whether or
# not the session cap let anyone in: a late start would let the next
# interval's batch in right behind it. About 9 s are sampled: at least 7
# intervals must have begun.
late=750
[ "${WAITROOM_VALGRIND:-0}" = 1 ] && late=2500
worst=$(awk -v late="$late" 'NF == 3 && $3 > 0 {
		if ($3 != at) {
			if (at) { if ($3 - at < gap || gap == "") gap = $3 - at
				d = last - before; if (d > most) most = d; before = last }
			else before = $2
			if ($1 - $3 > slow) slow = $1 - $3
			at = $3; n++
		}
		last = $2
	}
	END { d = last - before; if (d > most) most = d
		print most + 0, n + 0, gap + 0, slow + 0 }' "$WR_TMP/admitted.samples")
read -r most intervals gap slow <<<"$worst"
if [ "$intervals" -ge 7 ] && [ "$most" -le 5 ] && [ "$gap" -ge 1000 ] &&
    [ "$slow" -le "$late" ]; then
	pass "never more than 5 admitted in one interval ($intervals intervals, most $most, 1 s apart, each begun within $slow ms)"
else
	fail "never more than 5 admitted in one interval" \
	    "intervals $intervals, most $most, least gap $gap ms, latest start $slow ms (at most $late)"
fi
check_eq "$(rcli hget 'wr:{caps}:stats' admitted)" 17 "17 admitted in all: 8, 1 and 8"

