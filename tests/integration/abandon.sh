#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# abandon.sh: a waiter that stops asking is dropped after waiting_ttl; one
# that keeps asking is not, nor one whose stream stays open (its seen mark
# rides on its process's read of the line, one a waiting_ttl / 4). A
# paused queue admits nobody and shows no ETA.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/ab.conf" <<'EOF2'
[queue ab]
mode        = rate
batch       = 10
interval    = 1
waiting_ttl = 5
state       = paused

[queue streamed]
mode        = rate
batch       = 10
interval    = 1
waiting_ttl = 8
state       = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/ab.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# A waiter who only holds its stream open, never asking: marked seen once
# every 2 s (8 / 4), it must outlast the whole test, twice its waiting_ttl
# at least.
join streamed
streamed=$TOKEN streamed_at=$(now_ms)
sse_start streamed "/v1/queues/streamed/tokens/$streamed/events"
sse_wait streamed '^event: status' 1 10 || bail "the stream opens"

join ab
quiet=$TOKEN
check_json .eta_seconds null "a paused queue gives no ETA (null)"
join ab
polled=$TOKEN

# Keep asking about one of them, once a second, until the other is dropped.
dropped=0
for ((i = 0; i < 15; i++)); do
	http GET "/v1/queues/ab/tokens/$polled"
	[ "$STATUS" = 200 ] || break
	if [ "$(rcli zcard "wr:{ab}:waiting")" = 1 ]; then
		dropped=1
		break
	fi
	sleep 1
done
check_eq "$dropped" 1 "a waiter unseen for waiting_ttl is dropped (within 15 s)"
http GET "/v1/queues/ab/tokens/$quiet"
check_error 404 token_not_found "the abandoned token is gone"
http GET "/v1/queues/ab/tokens/$polled"
check_jq '.status == "waiting" and .position == 1' \
    "the waiter who kept asking keeps its place, now first"
check_eq "$(rcli hget "wr:{ab}:stats" abandoned)" 1 "one abandonment is counted"
check_eq "$(rcli hget "wr:{ab}:stats" admitted)" "" \
    "a paused queue admitted nobody over several intervals"
http GET /v1/queues/ab
check_jq '.state == "paused" and .active == 0 and .eta_seconds_for_new == null' \
    "summary of a paused queue: state paused, nobody active, no ETA"

# ---- joins of one batch: each is judged on its own ---------------------------

# Six joins at once, which the daemon sends to Redis in one batch or a
# few: the batch is marked seen once, for its tickets (lib.lua's
# batch_mark). Three of them are asked about every second, one of them
# only until half-way; the other three never again.
url=$WR_BASE/v1/queues/ab/tokens
curl -s --parallel --parallel-immediate -X POST "$url" "$url" "$url" "$url" \
    "$url" "$url" >"$WR_TMP/six.json"
mapfile -t six < <(grep -oE '"token":"[^"]*"' "$WR_TMP/six.json" | cut -d'"' -f4)
check_eq "${#six[@]}" 6 "six joins at once take six places"
marks=$(rcli zrange 'wr:{ab}:seen' 0 -1 | grep -c '^@')
check_eq "$((marks >= 1 && marks <= 6))" 1 \
    "the seen set marks their batches, not each token ($marks marks)"
asked=("${six[0]}" "${six[2]}" "${six[4]}")
t0=$(now_ms) left=''
for ((i = 0; i < 15; i++)); do
	for t in "$polled" "${asked[@]}"; do
		# six[4] stops asking after 2 s
		[ "$t" = "${six[4]}" ] && [ $(($(now_ms) - t0)) -gt 2000 ] && continue
		http GET "/v1/queues/ab/tokens/$t"
	done
	left=$(rcli zcard "wr:{ab}:waiting")
	[ "$left" = 3 ] && break
	sleep 1
done
check_eq "$left" 3 "the three never asked about are dropped, then the one that stopped (within 15 s)"
for t in "$polled" "${six[0]}" "${six[2]}"; do
	http GET "/v1/queues/ab/tokens/$t"
	check_jq '.status == "waiting"' "a waiter who kept asking keeps its place"
done
for t in "${six[1]}" "${six[3]}" "${six[4]}" "${six[5]}"; do
	http GET "/v1/queues/ab/tokens/$t"
	check_error 404 token_not_found "an abandoned one of the batch is gone"
done
check_eq "$(rcli hget "wr:{ab}:stats" abandoned)" 5 "five abandonments are counted in all"
check_eq "$(rcli zrange 'wr:{ab}:seen' 0 -1 | grep -c '^@')" 0 \
    "the batches' marks have left the seen set"

# ---- the streamed waiter ------------------------------------------------------

wait_until "[ \$((\$(now_ms) - streamed_at)) -ge 16000 ]" 20
check_eq "$(rcli zscore 'wr:{streamed}:waiting' "$streamed")" 1 \
    "a waiter with only its stream open keeps its place past twice waiting_ttl ($(($(now_ms) - streamed_at)) ms)"
check_eq "$(rcli hget 'wr:{streamed}:stats' abandoned)" "" \
    "nobody of the streamed queue was counted abandoned"
sse_stop streamed
