#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted on purpose
#
# store_full.sh: Redis at maxmemory (noeviction). Writes are refused, so
# the "last seen" of waiters cannot be written; the abandonment sweep must
# not then drop the waiters whose client was there all along (an open
# stream, a page polling every second). /readyz says 503 store_full, the
# metric waitroom_store_full is 1, and once memory is there again
# admissions go on in order, by themselves.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)
TTL=5			# waiting_ttl: the shortest allowed
wr_admin_conf "$WR_TMP/full.conf"
cat >>"$WR_TMP/full.conf" <<EOF2
push_interval    = 1

[queue f]
mode        = rate
batch       = 1
interval    = 1
state       = paused
waiting_ttl = $TTL
EOF2

start_redis
rcli CONFIG SET maxmemory-policy noeviction >/dev/null
start_waitroomd "$WR_TMP/full.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# The two visitors who stay: one with the page's stream open, one polling.
join f
streamer=$TOKEN
join f
poller=$TOKEN
sse_start s "/v1/queues/f/tokens/$streamer/events"
sse_wait s '^event: status$' 1 "$D" || bail "the stream opens" "$(sse_text s)"

# A little room above what Redis holds now, then joins until it is full:
# 500 at a time on one connection, far quicker than waiting_ttl.
used_memory() {
	rcli INFO memory | tr -d '\r' | awk -F: '$1 == "used_memory" { print $2 }'
}
rcli CONFIG SET maxmemory $(($(used_memory) + 150000)) >/dev/null
for ((i = 0; i < 500; i++)); do
	printf 'url = "%s/v1/queues/f/tokens"\n' "$WR_BASE"
done >"$WR_TMP/joins.cfg"
codes=
for ((n = 0; n < 20; n++)); do
	codes=$(curl -s -X POST -o /dev/null -w '%{http_code}\n' \
	    --max-time "$WR_HTTP_TIMEOUT" -K "$WR_TMP/joins.cfg")
	grep -qx 503 <<<"$codes" && break
done
check "joins fill Redis up to maxmemory, then get 503 ($(grep -cx 201 <<<"$codes") of the last 500 joined)" \
    grep -qx 503 <<<"$codes"
# What Redis holds moves by some kB as its clients come and go and it sizes
# their buffers, so right at the edge a join can find room again. Full
# means over the limit: keep Redis well over it from here.
rcli CONFIG SET maxmemory $(($(used_memory) - 262144)) >/dev/null
http POST /v1/queues/f/tokens
check_error 503 store_unavailable "a join Redis cannot hold: 503 store_unavailable"

http GET /readyz
check_error 503 store_full "/readyz: 503 store_full while Redis is full"
check "the daemon logs event=store_full with used and max memory" \
    wait_until "grep -q 'event=store_full .*used=[0-9]* max=[0-9]*' '$WR_TMP/waitroomd.log'" "$D"
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_full 1\n' "waitroom_store_full is 1"

# Poll as the page does, for waiting_ttl and ten seconds more.
end=$(($(now_ms) + (TTL + 10) * 1000))
polls=0
while [ "$(now_ms)" -lt "$end" ]; do
	http GET "/v1/queues/f/tokens/$poller"
	polls=$((polls + 1))
	sleep 1		# the page's poll interval: pacing, not a wait
done
diag "$polls polls while Redis was full (last: $STATUS)"
check "the stream is still open after waiting_ttl + 10 s of a full Redis" \
    test "$(sse_count s '^event: gone$')" = 0

rcli CONFIG SET maxmemory 0 >/dev/null
check "/readyz is 200 again once Redis has room" wait_ready "$D"
http GET "/v1/queues/f/tokens/$poller"
check_eq "$STATUS" 200 "the polling visitor still holds a place"
check_json '.position' 2 "... the second place, as before"
http GET "/v1/queues/f/tokens/$streamer"
check_json '.position' 1 "the visitor with the stream still holds the first"
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_full 0\n' "waitroom_store_full is 0 again"

admin POST /v1/admin/queues/f/resume
check_eq "$STATUS" 200 "the queue resumes"
check "the streamed visitor enters first" sse_wait s '^event: entered$' 1 $((D + 5))
check "then the polling one" \
    wait_until '[ "$(status_of f "$poller")" = active ]' $((D + 5))
sse_stop s
stop_waitroomd
