#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# reload.sh: SIGHUP re-reads the configuration file, in a single process
# and with workers = 2. A good file: a new queue answers, a lower max_body
# refuses what it let through before, and open streams go on getting
# statuses, never ended. A bad file: an error naming file and line, the
# old configuration kept, still serving. A changed push_interval applies
# to open streams; a changed workers is logged as needing a restart, the
# old value kept. Raising push_interval lifts open streams' timeout too.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

WR_SSE_TIMEOUT=$((120 * WR_SLOW))
CONF=$WR_TMP/waitroom.conf
BODY_200=$(printf '{"user":"u1"%180s}' '')

# The file's first form; write_conf sets workers and what else changes.
cat >"$CONF.in" <<'EOF2'
workers = 1
push_interval = 1

[queue q]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

# goes_on NAME: one more status within a few push intervals, still open.
goes_on() {
	local c
	c=$(sse_statuses "$1")
	sse_wait "$1" '^event: status$' $((c + 2)) $((5 * WR_SLOW)) &&
	    kill -0 "${WR_SSE_PID[$1]}" 2>/dev/null
}

# every_2s NAME: after the next status, 3 more take 4.5 s or longer (3 at
# push_interval = 1 take about 3 s, at 2 about 6 s).
every_2s() {
	local c start
	c=$(sse_statuses "$1")
	sse_wait "$1" '^event: status$' $((c + 1)) $((5 * WR_SLOW)) || return 1
	start=$(now_ms)
	sse_wait "$1" '^event: status$' $((c + 4)) $((15 * WR_SLOW)) || return 1
	[ $(($(now_ms) - start)) -ge 4500 ]
}

# reloads N: until N event=reloaded or reload_failed lines in all.
reloads() {
	wait_lines "$WR_DAEMON_LOG" 'event=(reloaded|reload_failed)' "$1" $((5 * WR_SLOW))
}

# refused413: ten POSTs of 200 bytes, spread over the workers by the
# kernel, are all refused 413.
refused413() {
	local i
	for ((i = 0; i < 10; i++)); do
		http POST /v1/queues/q/tokens "$BODY_200"
		[ "$STATUS" = 413 ] || return 1
	done
}

# respawned NAME: a worker killed after the reload comes back with the
# configuration in force (max_body = 100), not the one of startup.
respawned() {
	local victim
	victim=$(pgrep -P "$WR_PID" | head -n 1)
	kill -KILL "$victim"
	check "$1: a killed worker is replaced, and its replacement serves" \
	    wait_until "[ \$(grep -c 'event=worker_started' '$WR_DAEMON_LOG') -ge 3 ] &&
		[ \$(grep -c 'event=store_ready role=commands' '$WR_DAEMON_LOG') -ge 3 ]" \
	    $((10 * WR_SLOW))
	check "$1: the new worker keeps max_body = 100 too (10 POSTs refused)" refused413
}

# run NAME WORKERS: the whole story on one daemon.
run() {
	local name=$1 n=$2 per=$2 done=0 retries
	WR_DAEMON_LOG=$WR_TMP/$name.log
	write_conf "$CONF" "$CONF.in" "workers=$n"
	start_waitroomd "$CONF"
	wait_ready || bail "$name: the daemon is ready" "$(wr_last)"

	join q
	sse_start "$name" "/v1/queues/q/tokens/$TOKEN/events"
	sse_wait "$name" '^event: status$' 1 $((5 * WR_SLOW)) ||
	    fail "$name: the stream gets its first status"
	http GET /v1/queues/new
	check_status 404 "$name: before the reload there is no queue 'new'"
	http POST /v1/queues/q/tokens "$BODY_200"
	check_status 201 "$name: a 200-byte body is taken under max_body = 4096"

	# A good file: a new queue, a lower max_body, a workers change.
	write_conf "$CONF" "$CONF.in" "workers=$((n + 1))" max_body=100 push_interval=2
	cat >>"$CONF" <<'EOF2'

[queue new]
mode  = rate
batch = 7
EOF2
	retries=$(grep -c '^retry:' "$WR_TMP/sse.$name.out")
	kill -HUP "$WR_PID"
	done=$((done + per))
	check "$name: the reload is logged by every process" reloads "$done"
	check "$name: the new queue answers GET /v1/queues/new" \
	    wait_until 'http GET /v1/queues/new; [ "$STATUS" = 200 ]' $((5 * WR_SLOW))
	http POST /v1/queues/q/tokens "$BODY_200"
	check_error 413 body_too_large "$name: the new max_body = 100 refuses 200 bytes"
	check_contains "$(grep 'event=reload_needs_restart' "$WR_DAEMON_LOG")" \
	    "key=workers" "$name: a workers change is logged as needing a restart"
	check "$name: a push_interval change needs no restart" \
	    bash -c "! grep 'event=reload_needs_restart' '$WR_DAEMON_LOG' | grep -q key=push_interval"
	check "$name: the open stream goes on after the reload" goes_on "$name"
	check "$name: and gets a status every 2 s now, not every 1 s" \
	    every_2s "$name"
	check_eq "$(grep -c '^retry:' "$WR_TMP/sse.$name.out")" "$retries" \
	    "$name: the stream was not told to come back (no new retry: line)"

	# A bad file: the old configuration stays.
	printf 'max_body = 100\n\n[queue broken]\nbatch = lots\n' >"$CONF"
	kill -HUP "$WR_PID"
	done=$((done + per))
	check "$name: the bad file is answered by reload_failed" reloads "$done"
	check_match "$(grep -m1 'level=error.* event=reload_failed' "$WR_DAEMON_LOG")" \
	    "${CONF//./\\.}:4" "$name: the error names the file and line 4"
	http GET /v1/queues/new
	check_status 200 "$name: after a bad file the old configuration serves"
	http POST /v1/queues/q/tokens "$BODY_200"
	check_error 413 body_too_large "$name: and its max_body stays 100"
	check "$name: the stream goes on after the failed reload" goes_on "$name"
	check "$name: every process still runs" kill -0 "$WR_PID"
	[ "$n" -gt 1 ] && check_eq "$(pgrep -c -P "$WR_PID")" "$n" \
	    "$name: with its $n workers"
	check_eq "$(grep -c 'event=worker_died' "$WR_DAEMON_LOG")" 0 \
	    "$name: no worker died"
	[ "$n" -gt 1 ] && respawned "$name"
	stop_waitroomd
	sse_ended "$name" $((5 * WR_SLOW)) || fail "$name: the stream ends at SIGTERM"
}

start_redis
run solo 1
rcli flushall >/dev/null
run workers 2

# ---- a longer push_interval: the streams' timeout follows ------------------
# A stream is written once per push_interval, and its connection times out
# after three of max(push, keepalive) without a write: raising push_interval
# from 1 to 5 with keepalive_interval = 1 must lift the timeout of the
# streams already open from 3 s to 15 s, or they are cut.
rcli flushall >/dev/null
WR_DAEMON_LOG=$WR_TMP/longer.log
printf 'push_interval = 1\nkeepalive_interval = 1\n[queue q]\nstate = paused\n' >"$CONF"
start_waitroomd "$CONF"
wait_ready || bail "longer: the daemon is ready" "$(wr_last)"
join q
sse_start longer "/v1/queues/q/tokens/$TOKEN/events"
sse_wait longer '^event: status$' 1 $((5 * WR_SLOW)) ||
    fail "longer: the stream gets its first status"
printf 'push_interval = 5\nkeepalive_interval = 1\n[queue q]\nstate = paused\n' >"$CONF"
kill -HUP "$WR_PID"
check "longer: the reload is logged" reloads 1
c=$(sse_statuses longer)
check "longer: two more statuses come, 5 s apart, on the stream open before" \
    sse_wait longer '^event: status$' $((c + 2)) $((15 * WR_SLOW))
check "longer: the stream is still open" kill -0 "${WR_SSE_PID[longer]}"
stop_waitroomd
