#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# notify.sh: waitroomd speaks the service manager's notify protocol to
# $NOTIFY_SOCKET, as systemd would hear it under Type=notify: READY=1 once
# it serves, RELOADING=1 then READY=1 around a SIGHUP, STOPPING=1 on
# SIGTERM, with a STATUS= line, sent again every few seconds with the
# streams open; in a single process (a socket path) and
# with workers = 2 (an abstract '@' address: only the supervisor speaks).
# The installed unit passes systemd-analyze verify, where that exists, and
# its exposure (systemd-analyze security) is at most 1.5; tools/systemd-check
# runs it under a real systemd.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || bail "python3 is installed"

cat >"$WR_TMP/solo.conf" <<'EOF2'
push_interval = 1

[queue q]
mode  = rate
state = paused
EOF2
{ echo "workers = 2"; cat "$WR_TMP/solo.conf"; } >"$WR_TMP/workers.conf"

# listen NAME ADDR: a stand-in service manager on ADDR; its messages go to
# $WR_TMP/NAME.notify.
listen() {
	local out=$WR_TMP/$1.notify
	: >"$out"
	python3 "$(dirname "$0")/notify_listen.py" "$2" "$out" &
	WR_EXTRA_PIDS+=($!)
	wait_until "[ -e '$out.bound' ]" 5 || bail "the notify listener binds $2"
}

# says NAME TEXT [COUNT]: until COUNT messages (default 1) hold TEXT.
says() {
	wait_lines "$WR_TMP/$1.notify" "$2" "${3:-1}"
}

# states NAME: the READY/RELOADING/STOPPING words heard, in order.
states() {
	grep -oE '(READY|RELOADING|STOPPING)=1' "$WR_TMP/$1.notify" | paste -sd ' '
}

# run NAME CONF ADDR: start, reload, stop, and check what was said.
run() {
	local name=$1 conf=$2 addr=$3
	listen "$name" "$addr"
	WR_DAEMON_LOG=$WR_TMP/$name.log
	NOTIFY_SOCKET=$addr start_waitroomd "$conf"
	check "$name: READY=1 once it serves" says "$name" 'READY=1'
	http GET /healthz
	check_status 200 "$name: it serves when it said READY=1"
	check "$name: a STATUS= line says what it serves" says "$name" '^STATUS=serving'
	join q
	sse_start "$name" "/v1/queues/q/tokens/$TOKEN/events"
	sse_wait "$name" '^event: status$' || fail "$name: the stream starts"
	check "$name: every few seconds STATUS= tells the streams open (1)" \
	    says "$name" '^STATUS=serving.* streams=1$'
	sse_stop "$name"
	kill -HUP "$WR_PID"
	check "$name: SIGHUP: RELOADING=1, then READY=1 again" says "$name" 'READY=1' 2
	check_match "$(grep -m1 RELOADING "$WR_TMP/$name.notify")" 'MONOTONIC_USEC=[0-9]+' \
	    "$name: RELOADING=1 comes with MONOTONIC_USEC"
	stop_waitroomd
	check "$name: SIGTERM: STOPPING=1" says "$name" 'STOPPING=1'
	check_eq "$(states "$name")" "READY=1 RELOADING=1 READY=1 STOPPING=1" \
	    "$name: the manager hears them in order, each once"
}

start_redis
run solo "$WR_TMP/solo.conf" "$WR_TMP/notify.sock"
run workers "$WR_TMP/workers.conf" "@waitroom-notify-test-$$-$RANDOM"

# Without NOTIFY_SOCKET nothing is sent and nothing fails: every other test.
# With a socket nobody listens on, it still serves.
WR_DAEMON_LOG=$WR_TMP/nobody.log
NOTIFY_SOCKET=$WR_TMP/nobody.sock start_waitroomd "$WR_TMP/solo.conf"
wait_ready || fail "it serves though nobody hears its notifications"
pass "a notify socket nobody listens on does not stop it"
stop_waitroomd

# The unit as installed, with ExecStart pointing at this build (and no
# Documentation=: the man pages are not installed here; manpages.sh).
unit=${TOP_BUILDDIR:-$(dirname "$WAITROOMD")/..}/systemd/waitroomd.service
if ! command -v systemd-analyze >/dev/null 2>&1; then
	pass "systemd-analyze verify # SKIP systemd-analyze is not installed"
elif [ ! -f "$unit" ]; then
	pass "systemd-analyze verify # SKIP no built unit at $unit"
else
	sed -e "s|^ExecStart=[^ ]*|ExecStart=$WAITROOMD|" \
	    -e "s|^ExecStartPre=[^ ]*|ExecStartPre=$WAITROOMD|" \
	    -e '/^Documentation=/d' \
	    "$unit" >"$WR_TMP/waitroomd.service"
	out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify \
	    "$WR_TMP/waitroomd.service" 2>&1)
	check_eq "$(grep -i 'waitroomd.service' <<<"$out")" "" \
	    "systemd-analyze verify finds nothing wrong with waitroomd.service"
	check_match "$(grep -E '^(Type|NotifyAccess|ExecReload)=' "$unit" | paste -sd ' ')" \
	    "Type=notify NotifyAccess=main ExecReload=/bin/sh -c 'kill -HUP \"\\\$\\\$MAINPID\"'" \
	    "the unit is Type=notify, NotifyAccess=main, reloads with SIGHUP"
	exposure=$(systemd-analyze security --offline=true \
	    "$WR_TMP/waitroomd.service" 2>/dev/null |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	check "systemd-analyze security rates its exposure at most 1.5 ($exposure)" \
	    awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 1.5) }'
fi
