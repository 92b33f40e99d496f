#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted on purpose
#
# store_reset.sh: a Redis without persistence that restarts comes back
# empty: every place in line is gone. That must not go unnoticed: the
# daemon keeps a marker in Redis (<prefix>:epoch), and when Redis comes
# back without the one it knew it logs level=error event=store_reset,
# counts waitroom_store_resets_total and writes its queues again. A plain
# reconnect to the same Redis is no reset. At connect it warns, once,
# when Redis keeps neither an AOF nor RDB snapshots.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)
LOG=$WR_TMP/waitroomd.log

cat >"$WR_TMP/reset.conf" <<'EOF2'
[queue r]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/reset.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
join r
tok=$TOKEN

check "a Redis with neither AOF nor RDB snapshots is warned about" \
    wait_until "grep -q 'level=warn event=redis_not_durable' '$LOG'" "$D"

# A dropped connection to the same Redis: no reset.
rcli CLIENT KILL TYPE normal >/dev/null
rcli CLIENT KILL TYPE pubsub >/dev/null
wait_lines "$LOG" 'event=store_ready role=commands' 2 "$D" ||
    fail "the daemon reconnects after its connections were killed"
wait_ready
http GET "/v1/queues/r/tokens/$tok"
check_eq "$STATUS" 200 "after a reconnect to the same Redis the token is there"
check_eq "$(grep -c 'event=store_reset' "$LOG")" 0 "a reconnect is no store_reset"

# Redis restarts empty.
restart_redis
check "Redis back empty: level=error event=store_reset is logged" \
    wait_until "grep -q 'level=error event=store_reset' '$LOG'" $((D + 5))
wait_ready
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_resets_total 1\n' \
    "waitroom_store_resets_total counts it"
http GET /v1/queues/r
check_eq "$STATUS" 200 "the queue of the file is written again"
http GET "/v1/queues/r/tokens/$tok"
check_error 404 token_not_found "the place it held is gone, and says so"
check_eq "$(grep -c 'level=warn event=redis_not_durable' "$LOG")" 1 \
    "the durability warning is said once"
stop_waitroomd
