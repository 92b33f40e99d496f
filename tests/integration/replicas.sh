#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted on purpose
#
# replicas.sh: /readyz tells the truth about redis_wait_replicas. A master
# and its one replica, waitroomd with redis_wait_replicas = 1. While the
# replica is gone a join cannot be acknowledged (503), so /readyz must say
# 503 store_replicas (with Retry-After) and waitroom_store_replicas_short
# be 1, and an instance with redis_wait_replicas = 0 on the same master
# stays ready. Once the replica is back, /readyz is 200 again without a
# visitor's help (the instance is idle; one with no queue at all, which
# never writes, too), and joins are acknowledged.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)

# replica_start: the replica, on RPORT, following the private Redis.
replica_start() {
	redis-server --port "$RPORT" --bind 127.0.0.1 --dir "$WR_TMP/replica" \
	    --save '' --appendonly no --replicaof 127.0.0.1 "$REDIS_PORT" \
	    --logfile "$WR_TMP/replica.log" </dev/null >/dev/null 2>&1 &
	RPID=$!
	WR_EXTRA_PIDS+=("$RPID")
}

# synced: the master counts one replica online.
synced() {
	rcli INFO replication | tr -d '\r' | grep -q '^slave0:.*state=online'
}

start_redis
mkdir -p "$WR_TMP/replica"
RPORT=$(wr_free_port) || bail "a free port"
replica_start
wait_until synced "$D" || bail "the replica follows the master" \
    "$(tail -n 5 "$WR_TMP/replica.log")"

cat >"$WR_TMP/wait.conf" <<'EOF2'
redis_wait_replicas = 1

[queue r]
state = paused
EOF2
start_waitroomd "$WR_TMP/wait.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
join r
check_status 201 "a join is acknowledged while the replica follows"
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_replicas_short 0\n' \
    "waitroom_store_replicas_short is 0"

cat >"$WR_TMP/nowait.conf" <<'EOF2'
[queue r]
state = paused
EOF2
start_more_waitroomd nowait "$WR_TMP/nowait.conf"
NOWAIT=http://127.0.0.1:$MORE_PORT

# The replica goes away: no join can be acknowledged now.
kill -KILL "$RPID"
wait "$RPID" 2>/dev/null
wait_until '! synced' "$D" || bail "the master notices its replica is gone"
join r
check_error 503 store_unavailable "a join without a replica to confirm it: 503"
check "/readyz: 503 store_replicas while no replica confirms writes" \
    wait_until 'http GET /readyz; [ "$STATUS" = 503 ] &&
	[ "$(json .error.code)" = store_replicas ]' "$D"
check_error 503 store_replicas "... as doc/api.md's JSON error"
check_header Retry-After 1 "... with Retry-After"
check_match "$(json .error.message)" 'replica' "... and a message that names the replicas"
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_replicas_short 1\n' \
    "waitroom_store_replicas_short is 1"
check "the instance with redis_wait_replicas = 0 stays ready" \
    curl -sf -o /dev/null --max-time "$WR_HTTP_TIMEOUT" "$NOWAIT/readyz"
check "the shortfall is logged" \
    grep -q 'event=store_replicas_short have=0 want=1' "$WR_TMP/waitroomd.log"

# An instance with no queue (its own key_prefix: no queue of the other
# instances either) never writes, no join and no tick: what it
# knows of the replicas it must ask itself, from its start.
printf 'redis_wait_replicas = 1\nkey_prefix = idle\n' >"$WR_TMP/idle.conf"
start_more_waitroomd idle "$WR_TMP/idle.conf"
IDLE=http://127.0.0.1:$MORE_PORT
check "an instance started without a replica says 503 store_replicas" \
    wait_until "curl -s --max-time $WR_HTTP_TIMEOUT $IDLE/readyz | grep -q store_replicas" "$D"

# The replica is back; nobody joins: /readyz recovers by itself.
replica_start
wait_until synced "$D" || bail "the replica follows the master again" \
    "$(tail -n 5 "$WR_TMP/replica.log")"
t0=$EPOCHREALTIME
check "/readyz is 200 again once the replica confirms, with no visitor" \
    wait_until 'http GET /readyz; [ "$STATUS" = 200 ]' "$D"
ms=$(ms_between "$t0")
check "... within about a second of the replica's sync (took $ms ms)" \
    [ "$ms" -le $((1500 * WR_SLOW)) ]
check "... and so does the instance that has no queue" \
    wait_until "curl -sf -o /dev/null --max-time $WR_HTTP_TIMEOUT $IDLE/readyz" 2
join r
check_status 201 "a join is acknowledged again"
http GET /metrics
check_contains "$BODY" $'\nwaitroom_store_replicas_short 0\n' \
    "waitroom_store_replicas_short is 0 again"
check "the recovery is logged" \
    grep -q 'event=store_replicas_back have=1 want=1' "$WR_TMP/waitroomd.log"
stop_waitroomd
