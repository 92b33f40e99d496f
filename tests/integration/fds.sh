#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# fds.sh: out of file descriptors, the worst day's usual failure. When
# accept() fails (EMFILE), waitroomd pauses its listener rather than spin
# on a socket that stays readable, keeps answering the connections it
# holds, and takes new ones again by itself once descriptors are free.
#
# The daemon's limit is lowered from outside (prlimit) to a few more
# descriptors than it holds, and this shell opens more connections than
# that (bash's /dev/tcp), so accept() must fail.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

HELD=40		# connections this shell opens
ROOM=12		# descriptors the daemon may open beyond those it has
WINDOW_S=2	# how long its CPU use is watched while it is out of them

command -v prlimit >/dev/null || bail "prlimit (util-linux) is installed"

# The last resort alone: the reserve (fd_reserve) would close the held
# connections, which send nothing, before accept() fails; slowconns.sh
# tests the reserve.
cat >"$WR_TMP/fds.conf" <<'EOF'
fd_reserve = 0

[queue q]
mode        = rate
state       = paused
waiting_ttl = 600
EOF

start_redis
start_waitroomd "$WR_TMP/fds.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

open_fds() {
	find "/proc/$WR_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

# cpu_ticks: user + system time the daemon has used, in clock ticks.
cpu_ticks() {
	local stat
	read -r stat <"/proc/$WR_PID/stat" || return 1
	stat=${stat##*) }	# the fields after the command name
	# shellcheck disable=SC2086 # split into fields on purpose
	set -- $stat
	echo $((${12} + ${13}))
}

limit=$(($(open_fds) + ROOM))
check "prlimit lowers the daemon's descriptor limit to $limit" \
    prlimit --nofile="$limit:$limit" --pid "$WR_PID"

fds=()
for ((i = 0; i < HELD; i++)); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$WR_PORT" || break
	fds+=("$fd")
done
check_eq "${#fds[@]}" "$HELD" "$HELD connections are open (the kernel's backlog takes them)"

log=$WR_TMP/waitroomd.log
check "the daemon logs event=accept_failed when out of descriptors" \
    wait_until 'grep -q "event=accept_failed" "$log"' "$WR_READY_DEADLINE"

# Out of descriptors now, with connections still waiting: a listener
# that is not paused would make the loop spin at 100% of a core.
before=$(cpu_ticks)
start=$(now_ms)
sleep "$WINDOW_S"	# the window over which CPU use is measured
after=$(cpu_ticks)
elapsed=$(($(now_ms) - start))
hz=$(getconf CLK_TCK)
used_ms=$(((after - before) * 1000 / hz))
check "the daemon does not spin while out of descriptors ($used_ms ms of CPU in $elapsed ms)" \
    test "$used_ms" -lt $((elapsed / 4))
check "the daemon is still running" kill -0 "$WR_PID"

# The first connections were accepted before the limit was reached.
first=${fds[0]}
printf 'GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n' >&"$first"
line=
read -r -t 10 line <&"$first"
check_match "${line%$'\r'}" '^HTTP/1\.1 200 ' \
    "a connection it holds is still answered"

for fd in "${fds[@]}"; do
	exec {fd}<&-
done
check "once descriptors are free, new connections are served again" \
    wait_until 'http GET /healthz && [ "$STATUS" = 200 ]' "$WR_READY_DEADLINE"
http POST /v1/queues/q/tokens
check_status 201 "a join then gets its place"

stop_waitroomd
