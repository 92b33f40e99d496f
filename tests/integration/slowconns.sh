#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# slowconns.sh: connections that send their request a byte at a time (the
# slowloris attack, issue 18) must not take the room offline.
#
# - 2,000 connections from 127.0.0.2 that send a header byte every 2 s
#   are all closed by header_timeout, counted from accept however the
#   bytes trickle in, and a body sent a byte a second by body_timeout;
#   meanwhile joins and /healthz from 127.0.0.1 are answered, a head that
#   takes a while but ends in time is answered, a kept-alive connection
#   may stay silent between requests longer than header_timeout, and an
#   event stream, once answered, outlives it.
# - max_conns_per_ip (set by a reload): connections past it from one
#   address are closed at accept, counted, and logged at most once a
#   second per address.
# - With the daemon's descriptor limit lowered to 1,024 (prlimit) and
#   header_timeout long, 2,000 silent-ish connections from 127.0.0.2 would
#   hold every descriptor: the reserve (fd_reserve) closes the oldest of
#   them instead, so /healthz and joins from 127.0.0.1 are answered.
#
# The slow clients are slowloris.py (one process, one epoll loop); a
# visitor's request must be answered within 5 s.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || bail "python3 is installed"
command -v prlimit >/dev/null 2>&1 || bail "prlimit (util-linux) is installed"

LORIS=$(dirname "$0")/slowloris.py
N=2000		# slow connections
HT=4		# header_timeout of the first part, seconds
BT=3		# body_timeout
SLACK=2		# seconds a close may come after its deadline on a busy machine
[ "${WAITROOM_VALGRIND:-0}" = 1 ] && SLACK=10
D=$WR_READY_DEADLINE

# The file; write_conf sets header_timeout and max_conns_per_ip.
cat >"$WR_TMP/slow.conf.in" <<EOF2
header_timeout   = $HT
body_timeout     = $BT
max_conns_per_ip = 0

[queue q]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

# reload HEADER_TIMEOUT MAX_CONNS_PER_IP: write the file, SIGHUP, wait.
RELOADS=0
reload() {
	write_conf "$WR_TMP/slow.conf" "$WR_TMP/slow.conf.in" \
	    "header_timeout=$1" "max_conns_per_ip=$2"
	RELOADS=$((RELOADS + 1))
	kill -HUP "$WR_PID"
	wait_lines "$WR_TMP/waitroomd.log" event=reloaded "$RELOADS" "$D" ||
	    bail "the daemon reloads" "$(wr_tail "$WR_TMP/waitroomd.log")"
}

# loris NAME ARG...: slowloris.py in the background; its report goes to
# $WR_TMP/NAME.json once it ends.
loris() {
	local name=$1
	shift
	python3 "$LORIS" "$WR_PORT" "$WR_TMP/$name.json" "$@" \
	    2>"$WR_TMP/$name.err" &
	WR_EXTRA_PIDS+=($!)
	LORIS_PID=$!
}

# report NAME FILTER: jq -c FILTER over NAME's report.
report() {
	jq -c "$2" "$WR_TMP/$1.json" 2>/dev/null
}

# wait_report NAME SECONDS: until NAME's report is written.
wait_report() {
	wait_until "[ -s '$WR_TMP/$1.json' ]" "$2" ||
	    fail "slowloris $1 reports within $2 s" "$(cat "$WR_TMP/$1.err")"
}

# visitors N: N rounds of /healthz and a join from 127.0.0.1, each with
# 5 s to be answered; VISITS is their statuses.
visitors() {
	local i got=()
	for ((i = 0; i < $1; i++)); do
		http GET /healthz '' --max-time 5
		got+=("$STATUS")
		http POST /v1/queues/q/tokens '' --max-time 5
		got+=("$STATUS")
	done
	VISITS=${got[*]}
}

# check_visitors N DESC: visitors N, all answered.
check_visitors() {
	local want i
	want=$(for ((i = 0; i < $1; i++)); do printf '200 201 '; done)
	visitors "$1"
	check_eq "$VISITS" "${want% }" "$2"
}

# check_lives NAME LO_MS HI_MS DESC: every connection NAME opened was
# closed by the daemon, between LO_MS and HI_MS after its connect.
check_lives() {
	local n closed lo hi
	n=$(report "$1" .connected)
	closed=$(report "$1" .closed)
	lo=$(report "$1" '.lives[0] // -1')
	hi=$(report "$1" '.lives[-1] // -1')
	if [ "$closed" = "$n" ] && [ "$lo" -ge "$2" ] && [ "$hi" -le "$3" ]; then
		pass "$4 ($n in $lo to $hi ms)"
	else
		fail "$4" "connected $n, closed by the daemon $closed," \
		    "lives $lo to $hi ms, wanted all within $2 to $3 ms"
	fi
}

write_conf "$WR_TMP/slow.conf" "$WR_TMP/slow.conf.in"
start_redis
start_waitroomd "$WR_TMP/slow.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- the head and body deadlines -------------------------------------------

join q
check_status 201 "a visitor joins before the attack"
sse_start stream "/v1/queues/q/tokens/$TOKEN/events"
sse_wait stream '^event: status' 1 "$D" || fail "the stream starts"

loris slow --conns "$N" --mode head --every 2 \
    --duration $((HT + SLACK + 30)) --ready "$WR_TMP/slow.ready"
loris body --conns 3 --source 127.0.0.4 --mode body --every 1 --duration 30
loris trickle --conns 1 --source 127.0.0.4 --mode trickle --every 0.5 \
    --duration 30
loris idle --conns 1 --source 127.0.0.4 --mode idle --every $((HT + 1)) \
    --duration 30
wait_until "[ -e '$WR_TMP/slow.ready' ]" "$D" ||
    fail "slowloris opens $N connections" "$(cat "$WR_TMP/slow.err")"
check_visitors 10 "while $N connections trickle their heads, joins and /healthz of 127.0.0.1 are answered"

wait_report slow $((HT + SLACK + 40))
check_eq "$(report slow .connected)" "$N" "$N slow connections from 127.0.0.2 were opened"
check_lives slow $((HT * 1000 - 300)) $(((HT + SLACK) * 1000)) \
    "each is closed by header_timeout = $HT s, though a byte came every 2 s"
wait_report body 40
check_lives body $((BT * 1000 - 300)) $(((BT + SLACK) * 1000)) \
    "a body sent a byte a second is closed by body_timeout = $BT s"
wait_report trickle 40
check_eq "$(report trickle .statuses)" "[200]" \
    "a head that takes 1.5 s, within header_timeout, is answered"
wait_report idle 40
check_eq "$(report idle .statuses)" "[200,200]" \
    "a kept-alive connection silent $((HT + 1)) s between requests is answered again"
check "the event stream outlived header_timeout" kill -0 "${WR_SSE_PID[stream]}"
sse_stop stream
http GET /metrics
check_eq "$(metric 'waitroom_connection_closes_total{reason="header_timeout"}')" \
    "$N" "waitroom_connection_closes_total counts them as header_timeout"

# ---- max_conns_per_ip ----------------------------------------------------------

reload "$HT" 50
loris perip --conns 80 --source 127.0.0.3 --mode head --every 1 --duration 2
wait_report perip 20
check_eq "$(report perip '[.connected, .early, .open]')" "[80,30,50]" \
    "max_conns_per_ip = 50 (reloaded): of 80 connections from 127.0.0.3, 30 are closed at once"
logged=$(grep -c 'event=conn_refused.*addr=127.0.0.3' "$WR_TMP/waitroomd.log")
check "... logged at most once a second ($logged lines in 2 s)" \
    test "$logged" -ge 1 -a "$logged" -le 3
http GET /metrics
check_eq "$(metric 'waitroom_connection_closes_total{reason="max_conns_per_ip"}')" \
    30 "... and counted as max_conns_per_ip"
check_visitors 1 "127.0.0.1 is still served"
check "once those connections end, 127.0.0.3 is served again" \
    wait_until '[ "$(curl -s -o /dev/null -w "%{http_code}" --max-time 5 --interface 127.0.0.3 "$WR_BASE/healthz")" = 200 ]' "$D"

# ---- the descriptor reserve ----------------------------------------------------

reload 60 0
check "prlimit lowers the daemon's descriptor limit to 1024" \
    prlimit --nofile=1024:1024 --pid "$WR_PID"
loris flood --conns "$N" --mode head --every 2 --duration 30 \
    --ready "$WR_TMP/flood.ready"
wait_until "[ -e '$WR_TMP/flood.ready' ]" "$D" ||
    fail "slowloris opens $N connections" "$(cat "$WR_TMP/flood.err")"
check "the daemon closes the oldest connections without a head to keep its reserve" \
    wait_until 'http GET /metrics;
	[ "$(metric "waitroom_connection_closes_total{reason=\"fd_reserve\"}")" -gt 0 ]' "$D"
check_visitors 10 "with $N slow connections and 1,024 descriptors, /healthz and joins of 127.0.0.1 are answered"
kill -TERM "$LORIS_PID" 2>/dev/null

stop_waitroomd
