#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# workers.sh: workers = 2. The process we start is a supervisor with exactly
# two worker children on one port; both serve, into one line; the admission
# tick runs in both, yet one batch is admitted per interval; a worker killed
# with SIGKILL loses its streams and is replaced while the port keeps
# serving; SIGHUP reloads in every worker and kills nothing; SIGTERM tells
# every open stream to come back (retry: 1000), ends it cleanly and leaves
# no process behind, with two workers and in a single process.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# Deadlines grow under valgrind; the streams outlive most of the file.
WR_SSE_TIMEOUT=$((150 * WR_SLOW))
PUSH=2			# push_interval: first words "retry: 2000", drain's "retry: 1000"
LOG=$WR_TMP/waitroomd.log

cat >"$WR_TMP/workers.conf" <<EOF2
workers       = 2
push_interval = $PUSH

[queue hold]
mode        = rate
state       = paused
waiting_ttl = 600

[queue rate]
mode        = rate
batch       = 3
interval    = 1
state       = paused
waiting_ttl = 600
redirect    = https://shop.example/rate
EOF2

cat >"$WR_TMP/solo.conf" <<EOF2
push_interval = $PUSH

[queue solo]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

# ---- helpers -------------------------------------------------------------------

# workers_now: the PIDs of the daemon's children, ascending, on one line.
workers_now() {
	pgrep -P "$WR_PID" | sort -n | paste -sd ' '
}

# is_dead PID: the process is gone or a zombie (its sockets are closed).
is_dead() {
	local s
	[ -r "/proc/$1/stat" ] || return 0
	read -r s <"/proc/$1/stat" 2>/dev/null || return 0
	s=${s##*) }
	[ "${s%% *}" = Z ]
}

# holder_of NAME: the PID of the process holding the server end of stream
# NAME's connection: ss pairs curl's local port with the peer port of a
# socket on the daemon's port. Empty when there is none.
holder_of() {
	local curl_pid
	read -r curl_pid <"$WR_TMP/sse.$1.pid" || return 0
	ss -tnpH state established "( sport = :$WR_PORT or dport = :$WR_PORT )" |
	    awk -v port="$WR_PORT" -v curl="$curl_pid" '
		function pid_of(s) {
			if (match(s, /pid=[0-9]+/))
				return substr(s, RSTART + 4, RLENGTH - 4)
			return ""
		}
		function port_of(a) { sub(/.*:/, "", a); return a }
		{
			lp = port_of($3); pp = port_of($4)
			if (lp == port)
				server[pp] = pid_of($0)
			else if (pp == port && pid_of($0) == curl)
				mine = lp
		}
		END { if (mine != "" && (mine in server)) print server[mine] }'
}

declare -A HOLDER=()	# stream name -> PID of the worker serving it
WORKERS=()		# the workers now, ascending
OPENED=()

# all_workers_hold NAME...: each of WORKERS serves one of the streams.
all_workers_hold() {
	local w name found
	for w in "${WORKERS[@]}"; do
		found=0
		for name in "$@"; do
			[ "${HOLDER[$name]:-}" = "$w" ] && found=1
		done
		[ "$found" = 1 ] || return 1
	done
	return 0
}

# open_streams PREFIX Q MIN MAX TOKEN...: open streams PREFIX1, PREFIX2...
# on the tokens in turn, at least MIN and at most MAX of them, until each
# of WORKERS serves one (the kernel spreads connections between the
# workers' sockets by a hash, so it takes a few). OPENED lists them.
open_streams() {
	local prefix=$1 q=$2 min=$3 max=$4 n=0 t name
	shift 4
	OPENED=()
	for t in "$@"; do
		[ "$n" -ge "$max" ] && break
		n=$((n + 1))
		name=$prefix$n
		sse_start "$name" "/v1/queues/$q/tokens/$t/events"
		sse_wait "$name" '^event: status$' 1 $((5 * WR_SLOW)) ||
		    fail "stream $name gets its first status" \
			"$(sse_text "$name" | head -n 5)"
		HOLDER[$name]=$(holder_of "$name")
		OPENED+=("$name")
		[ "$n" -ge "$min" ] && all_workers_hold "${OPENED[@]}" && break
	done
}

# holders NAME...: "name=pid ..." for diagnostics.
holders() {
	local name out=()
	for name in "$@"; do out+=("$name=${HOLDER[$name]:-?}"); done
	echo "${out[*]}"
}

# still_streaming DESC NAME...: each stream is open and gets one more
# status (within two push intervals).
still_streaming() {
	local desc=$1 name bad=() c
	shift
	declare -A c0=()
	for name in "$@"; do c0[$name]=$(sse_statuses "$name"); done
	for name in "$@"; do
		c=${c0[$name]}
		if ! sse_wait "$name" '^event: status$' $((c + 1)) $((2 * PUSH * WR_SLOW + 2)) ||
		    ! kill -0 "${WR_SSE_PID[$name]}" 2>/dev/null; then
			bad+=("$name")
		fi
	done
	if [ "${#bad[@]}" = 0 ] && [ $# -gt 0 ]; then
		pass "$desc ($# streams)"
	else
		fail "$desc" "streams not going on: ${bad[*]:-none given}"
	fi
}

# poll_healthz VICTIM: GET /healthz one request at a time, about every
# 20 ms, each as "STAMP CODE" into poll.log, until poll.stop appears (at
# most 1500 requests). Once poll.kill appears it SIGKILLs VICTIM between
# two requests (so that no request of ours is in flight in the dying
# process) and waits until VICTIM has died, then goes on.
poll_healthz() {
	local i code
	for ((i = 0; i < 1500; i++)); do
		[ -e "$WR_TMP/poll.stop" ] && return 0
		if [ -e "$WR_TMP/poll.kill" ] && [ ! -e "$WR_TMP/poll.killed" ]; then
			kill -KILL "$1"
			wait_until "is_dead $1" 5
			now_ms >"$WR_TMP/poll.killed"
		fi
		code=$(curl -s -o /dev/null -w '%{http_code}' \
		    --max-time $((2 * WR_SLOW)) "$WR_BASE/healthz" 2>/dev/null)
		echo "$(now_ms) ${code:-000}" >>"$WR_TMP/poll.log"
		sleep 0.02
	done
}

# readyz_now: READYZ is the status of GET /readyz on a new connection, 000
# when the port refuses it or nothing answers. No fork and no curl, so
# that probes come often within a 500 ms drain.
READYZ=000
readyz_now() {
	local line=
	READYZ=000
	{
		printf 'GET /readyz HTTP/1.0\r\n\r\n' >&3
		IFS= read -r -t 2 line <&3
	} 2>/dev/null 3<>"/dev/tcp/127.0.0.1/$WR_PORT"
	[[ $line =~ ^HTTP/1\.[01]\ ([0-9]{3}) ]] && READYZ=${BASH_REMATCH[1]}
	return 0
}

# drain LABEL NAME...: SIGTERM the daemon while the streams NAME... are
# open, and check the drain: the port stops serving while it drains, the
# daemon exits 0 within 3 s, every stream's last words are "retry: 1000"
# and it ends cleanly, and no worker is left.
drain() {
	local label=$1 t0 ms pids=() pid left=() name bad_rc=() bad_retry=()
	local last n
	shift
	read -ra pids <<<"$(workers_now)"
	readyz_now
	check_eq "$READYZ" 200 "$label: before SIGTERM /readyz answers 200"
	# An idle connection, as a load balancer keeps one: the daemon then
	# gives its last words the whole flush time (without one, it leaves
	# as soon as its last connection closes, too soon to watch).
	exec 5<>"/dev/tcp/127.0.0.1/$WR_PORT"
	t0=$(now_ms)
	kill -TERM "$WR_PID"
	if wait_until 'readyz_now; [ "$READYZ" != 200 ]' $((2 * WR_SLOW)); then
		ms=$(($(now_ms) - t0))
		if kill -0 "$WR_PID" 2>/dev/null; then
			pass "$label: while it drains, /readyz answers $READYZ (000: the port is closed) ${ms} ms after SIGTERM"
		else
			fail "$label: /readyz stops answering 200 while the daemon drains" \
			    "the daemon had already exited when /readyz answered $READYZ (${ms} ms)"
		fi
	else
		fail "$label: /readyz stops answering 200 within $((2 * WR_SLOW)) s of SIGTERM" "last: $READYZ"
	fi
	if wr_wait_exit "$WR_PID" "$WR_STOP_DEADLINE"; then
		ms=$(($(now_ms) - t0))
		if [ "$ms" -le $((3000 * WR_SLOW)) ]; then
			pass "$label: the daemon exits ${ms} ms after SIGTERM (at most $((3 * WR_SLOW)) s)"
		else
			fail "$label: the daemon exits within $((3 * WR_SLOW)) s of SIGTERM" "it took ${ms} ms"
		fi
	fi
	exec 5>&-
	stop_waitroomd		# reaps it: exit status 0, no sanitizer or valgrind report
	for name in "$@"; do
		if ! sse_ended "$name" $((3 * WR_SLOW)); then
			bad_rc+=("$name:open")
			sse_stop "$name"
		elif [ "$SSE_RC" != 0 ]; then
			bad_rc+=("$name:rc=$SSE_RC")
		fi
		last=$(sse_text "$name" | grep -v '^$' | tail -n 1)
		n=$(sse_count "$name" '^retry: 1000$')
		if [ "$last" != 'retry: 1000' ] || [ "$n" != 1 ]; then
			bad_retry+=("$name:'$last'x$n")
		fi
	done
	if [ "${#bad_retry[@]}" = 0 ]; then
		pass "$label: each of the $# open streams gets retry: 1000 as its last words"
	else
		fail "$label: each open stream gets retry: 1000 as its last words" \
		    "not so: ${bad_retry[*]}" "$(sse_text "${bad_retry[0]%%:*}" | tail -n 8)"
	fi
	if [ "${#bad_rc[@]}" = 0 ]; then
		pass "$label: then each stream ends cleanly (curl -N exits 0)"
	else
		fail "$label: then each stream ends cleanly (curl -N exits 0)" "not so: ${bad_rc[*]}"
	fi
	for pid in "${pids[@]}"; do
		is_dead "$pid" || left+=("$pid")
	done
	check_eq "${left[*]}" "" "$label: no worker process is left behind (of ${pids[*]:-none})"
}

# ---- the process tree -------------------------------------------------------------

start_redis
start_waitroomd "$WR_TMP/workers.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
SUP=$WR_PID

read -ra WORKERS <<<"$(workers_now)"
check_eq "${#WORKERS[@]}" 2 "the supervisor (pid $SUP) has exactly 2 worker children (${WORKERS[*]})"
[ "${#WORKERS[@]}" = 2 ] || bail "two workers run" "$(wr_tail "$LOG")"
check_eq "$(grep -o 'event=worker_started worker=[0-9]* pid=[0-9]*' "$LOG" |
    sed 's/.*pid=//' | sort -n | paste -sd ' ')" "${WORKERS[*]}" \
    "the supervisor logs event=worker_started for each of them"
check_eq "$(ss -tlnpH "( sport = :$WR_PORT )" | grep -o 'pid=[0-9]*' |
    sed 's/pid=//' | sort -n | paste -sd ' ')" "${WORKERS[*]}" \
    "each worker has its own listening socket on port $WR_PORT (SO_REUSEPORT), the supervisor none"

# ---- 40 concurrent joins: both workers serve, into one line ---------------------

WR_MANY_PAR=40 many POST joins 40 /v1/queues/hold/tokens
check_eq "$(count_codes joins 201)" 40 "40 concurrent joins all answer 201"
check_eq "$(jq -r .position "$WR_TMP"/joins/*.json | sort -n | paste -sd ' ')" \
    "$(seq 1 40 | paste -sd ' ')" \
    "their positions are exactly 1..40: one line, no gap, no duplicate"
check_eq "$(jq -r .token "$WR_TMP"/joins/*.json | sort -u | grep -c .)" 40 \
    "they hold 40 different tokens"
check_waiting hold 40 "the summary says 40 are waiting"
mapfile -t HOLD_TOKENS < <(jq -r '"\(.position) \(.token)"' "$WR_TMP"/joins/*.json |
    sort -n | cut -d ' ' -f 2)
j0=$(grep -c 'level=debug worker=0 event=join queue=hold' "$LOG")
j1=$(grep -c 'level=debug worker=1 event=join queue=hold' "$LOG")
if [ "$j0" -gt 0 ] && [ "$j1" -gt 0 ] && [ $((j0 + j1)) = 40 ]; then
	pass "both workers took joins (worker 0: $j0, worker 1: $j1, by their log tags)"
else
	fail "both workers took joins" "worker 0: $j0, worker 1: $j1 (of 40)"
fi

# Streams: the kernel spreads them too; ss tells which worker holds each.
open_streams h hold 2 16 "${HOLD_TOKENS[@]:0:16}"
HOLD_STREAMS=("${OPENED[@]}")
bad=()
for name in "${HOLD_STREAMS[@]}"; do
	[[ " ${WORKERS[*]} " == *" ${HOLDER[$name]} "* ]] || bad+=("$name")
done
check_eq "${bad[*]}" "" "every stream's connection is held by one of the two workers (by ss)"
check "each worker serves streams: $(holders "${HOLD_STREAMS[@]}")" \
    all_workers_hold "${HOLD_STREAMS[@]}"

# ---- admission: the tick runs in both workers, one batch per interval ------------

subscribe rate stamp || fail "record the events channel of rate"
RATE_TOKENS=()
for ((i = 0; i < 18; i++)); do
	join rate
	[ -n "$TOKEN" ] && RATE_TOKENS+=("$TOKEN")
done
check_eq "${#RATE_TOKENS[@]}" 18 "18 join the paused rate queue (batch 3 every 1 s)"
# The queue is paused: every stream starts as a waiting one, with a status.
open_streams r rate 2 15 "${RATE_TOKENS[@]:3}"
RATE_STREAMS=("${OPENED[@]}")
check "the rate streams are spread over both workers: $(holders "${RATE_STREAMS[@]}")" \
    all_workers_hold "${RATE_STREAMS[@]}"

# No admin API yet: open the queue in its Redis configuration, which every
# tick reads.
rcli hset 'wr:{rate}:config' state open >/dev/null
check "all 18 are admitted within $((12 * WR_SLOW)) s" \
    wait_until '[ "$(stat_of rate admitted)" = 18 ]' $((12 * WR_SLOW))
wait_until '[ "$(awk '\''$2 == "entered" { n += NF - 3 } END { print n + 0 }'\'' "$WR_TMP/rate.events")" -ge 18 ]' 5
# One message per admission: "STAMP entered EXPIRY TOKEN..."
sizes=$(awk '$2 == "entered" { print NF - 3 }' "$WR_TMP/rate.events" | paste -sd ' ')
check_eq "$sizes" "3 3 3 3 3 3" \
    "admissions come as batches of 3 (= batch, not 2 x batch): 6 for 18 tokens"
gaps=$(awk '$2 == "entered" { if (t) printf "%d ", ($1 - t) * 1000; t = $1 }' "$WR_TMP/rate.events")
read -r -a gap_list <<<"$gaps"
mingap=$(printf '%s\n' "${gap_list[@]}" | sort -n | head -n 1)
span=$(awk '$2 == "entered" { if (!f) f = $1; l = $1 } END { printf "%d\n", (l - f) * 1000 }' "$WR_TMP/rate.events")
if [ "${#gap_list[@]}" = 5 ] && [ "$mingap" -ge 250 ] && [ "$span" -ge 3500 ]; then
	pass "one batch per interval of 1 s between both workers (gaps $gaps ms; 6 batches over $span ms)"
else
	fail "one batch per interval of 1 s between both workers" \
	    "gaps between admissions: '$gaps' ms (want 5, each >= 250)" \
	    "first to last: ${span:-?} ms (want >= 3500)"
fi
ticks=$(sed -n 's/.* worker=\([0-9]*\) event=tick queue=rate .*admitted=\([0-9]*\).*/\1:\2/p' "$LOG")
check_eq "$(cut -d : -f 2 <<<"$ticks" | paste -sd ' ')" "3 3 3 3 3 3" \
    "each admitting tick, whichever worker ran it, admitted 3 ($(paste -sd ' ' <<<"$ticks"), worker:admitted)"
check_eq "$(awk '$2 == "entered" { for (i = 4; i <= NF; i++) print $i }' \
    "$WR_TMP/rate.events" | paste -sd ' ')" "${RATE_TOKENS[*]}" \
    "admitted once each, in join order"
kill -TERM "$SUBSCRIBER" 2>/dev/null
wait "$SUBSCRIBER" 2>/dev/null

bad=()
for name in "${RATE_STREAMS[@]}"; do
	if ! sse_ended "$name" $((3 * WR_SLOW)); then
		bad+=("$name:open")
		sse_stop "$name"
	elif [ "$SSE_RC" != 0 ]; then
		bad+=("$name:rc=$SSE_RC")
	elif [ "$(sse_events "$name" | cut -f 3 | sort | uniq -c |
	    awk '{ print $2 "=" $1 }' | paste -sd ' ')" != "entered=1 status=$(sse_statuses "$name")" ] ||
	    [ "$(sse_events "$name" | head -n 1 | cut -f 3)" != status ] ||
	    [ "$(sse_events "$name" | tail -n 1 | cut -f 3)" != entered ]; then
		bad+=("$name:$(sse_events "$name" | cut -f 3 | paste -sd ,)")
	fi
done
check_eq "${bad[*]}" "" \
    "each of the ${#RATE_STREAMS[@]} rate streams, on either worker, gets status, then one entered, and ends (curl -N exits 0)"

# ---- SIGKILL one worker ------------------------------------------------------------

VICTIM=${HOLDER[h1]:-${WORKERS[0]}}
OTHER=
for w in "${WORKERS[@]}"; do [ "$w" != "$VICTIM" ] && OTHER=$w; done
VICTIM_STREAMS=() OTHER_STREAMS=()
for name in "${HOLD_STREAMS[@]}"; do
	if [ "${HOLDER[$name]}" = "$VICTIM" ]; then
		VICTIM_STREAMS+=("$name")
	else
		OTHER_STREAMS+=("$name")
	fi
done
vidx=$(sed -n "s/.*event=worker_started worker=\([0-9]*\) pid=$VICTIM\$/\1/p" "$LOG")

poll_healthz "$VICTIM" &
POLLER=$!
WR_EXTRA_PIDS+=("$POLLER")
wait_until '[ -s "$WR_TMP/poll.log" ] && [ "$(grep -c . "$WR_TMP/poll.log")" -ge 5 ]' $((5 * WR_SLOW)) ||
    fail "the /healthz poller runs" "$(cat "$WR_TMP/poll.log" 2>/dev/null)"
: >"$WR_TMP/poll.kill"
wait_until '[ -s "$WR_TMP/poll.killed" ]' 10 || bail "SIGKILL worker $VICTIM"
read -r killed_at <"$WR_TMP/poll.killed"

bad=()
for name in "${VICTIM_STREAMS[@]}"; do
	if sse_ended "$name" $((3 * WR_SLOW)); then
		bad+=("$name:rc=$SSE_RC")
	else
		bad+=("$name:open")
	fi
done
if [[ " ${bad[*]} " != *:open* ]]; then
	pass "the ${#VICTIM_STREAMS[@]} streams of the killed worker $VICTIM end (curl: ${bad[*]})"
else
	fail "the streams of the killed worker end" "${bad[*]}"
fi
check "the supervisor logs the death (event=worker_died worker=$vidx pid=$VICTIM signal=9)" \
    wait_until "grep -q 'event=worker_died worker=$vidx pid=$VICTIM signal=9 ' '$LOG'" $((3 * WR_SLOW))
NEW=
# shellcheck disable=SC2034 # now is read by the eval in wait_until
if wait_until 'read -ra now <<<"$(workers_now)"; [ "${#now[@]}" = 2 ] &&
    [[ " ${now[*]} " == *" $OTHER "* ]] && [[ " ${now[*]} " != *" $VICTIM "* ]]' $((5 * WR_SLOW)); then
	restart_ms=$(($(now_ms) - killed_at))
	for w in $(workers_now); do [ "$w" != "$OTHER" ] && NEW=$w; done
	pass "a new worker $NEW runs ${restart_ms} ms after the kill"
else
	fail "a new worker runs within $((5 * WR_SLOW)) s of the kill" "workers now: $(workers_now)" \
	    "$(grep -E 'event=worker_(died|started)' "$LOG")"
fi
check "the supervisor logs it (event=worker_started worker=$vidx pid=$NEW)" \
    grep -q "event=worker_started worker=$vidx pid=$NEW\$" "$LOG"
check "the supervisor still runs, as pid $SUP" kill -0 "$SUP"
check_eq "$(workers_now)" "$(printf '%s\n' "$OTHER" "$NEW" | sort -n | paste -sd ' ')" \
    "again exactly 2 workers: the survivor $OTHER and the new $NEW"
still_streaming "the streams of the surviving worker $OTHER go on" "${OTHER_STREAMS[@]}"

check "the new worker connects to Redis (worker=$vidx event=store_ready, both roles)" \
    wait_until "awk -v p='pid=$NEW' -v tag='worker=$vidx event=store_ready role=' \
	'index(\$0, p) { on = 1 } on && index(\$0, tag) { n++ } END { exit n < 2 }' '$LOG'" $((5 * WR_SLOW))
new_ready_at=$(now_ms)

# The new worker serves: streams until it holds one.
read -ra WORKERS <<<"$(workers_now)"
open_streams n hold 1 16 "${HOLD_TOKENS[@]:16:16}"
NEW_STREAMS=("${OPENED[@]}")
check "the new worker serves streams too: $(holders "${NEW_STREAMS[@]}")" \
    all_workers_hold "${NEW_STREAMS[@]}"

# Polls go on until two more have ended since the new worker was ready.
wait_until "[ \$(awk -v t=$new_ready_at '\$1 > t' '$WR_TMP/poll.log' | grep -c .) -ge 2 ]" $((5 * WR_SLOW))
: >"$WR_TMP/poll.stop"
wr_wait_exit "$POLLER" $((3 * WR_SLOW)) || kill -TERM "$POLLER" 2>/dev/null
wait "$POLLER" 2>/dev/null
polls=$(grep -c . "$WR_TMP/poll.log")
after=$(awk -v t="$killed_at" '$1 > t' "$WR_TMP/poll.log" | grep -c .)
late=$(awk -v t="$new_ready_at" '$1 > t' "$WR_TMP/poll.log" | grep -c .)
not200=$(awk '$2 != 200' "$WR_TMP/poll.log" | head -n 5)
if [ -z "$not200" ] && [ "$late" -ge 2 ]; then
	pass "the port kept serving: $polls /healthz one after another all answered 200, $after of them after the kill, $late after the new worker was up"
else
	fail "the port keeps serving: every /healthz answers 200, before, during and after the restart" \
	    "$polls polls, $after after the kill, $late after the new worker was up (want 2 or more); not 200:" \
	    "$not200"
fi
diag "the new worker answered $(awk -v p="pid=$NEW" -v tag="worker=$vidx event=request method=1 path=\"/healthz\"" \
    'index($0, p) { on = 1 } on && index($0, tag) { n++ } END { print n + 0 }' "$LOG") of those /healthz"

# ---- SIGHUP ----------------------------------------------------------------------

hups=$(grep -c 'event=reloaded' "$LOG")
deaths=$(grep -c 'event=worker_died' "$LOG")
kill -HUP "$SUP"
check "SIGHUP reloads both workers (two more event=reloaded lines)" \
    wait_lines "$LOG" event=reloaded $((hups + 2)) $((3 * WR_SLOW))
LIVE=("${OTHER_STREAMS[@]}" "${NEW_STREAMS[@]}")
still_streaming "after SIGHUP every open stream goes on" "${LIVE[@]}"
check "the supervisor survives SIGHUP" kill -0 "$SUP"
check_eq "$(workers_now)" "${WORKERS[*]}" "the same two workers run after SIGHUP"
check_eq "$(grep -c 'event=worker_died' "$LOG")" "$deaths" "no worker died of SIGHUP"
http GET /healthz
check_status 200 "the port serves after SIGHUP"

# ---- SIGTERM: drain, with two workers -----------------------------------------------

drain "workers=2" "${LIVE[@]}"
check_eq "$(sed -n 's/.* worker=[0-9]* event=drain streams=\([0-9]*\)$/\1/p' "$LOG" |
    awk '{ n += $1; k++ } END { print k "/" n + 0 }')" "2/${#LIVE[@]}" \
    "both workers log event=drain, for ${#LIVE[@]} streams between them"
check "the supervisor logs event=stopped" grep -q 'level=info event=stopped$' "$LOG"
if [ "${WAITROOM_VALGRIND:-0}" = 1 ]; then
	# stop_waitroomd judged the supervisor by its exit status; a worker's
	# status is not reported, but each has its own log, which valgrind -q
	# leaves empty unless it found something.
	mapfile -t vgbad < <(find "$WR_TMP" -name 'valgrind.*.log' -size +0)
	if [ "${#vgbad[@]}" = 0 ]; then
		pass "valgrind reports nothing in any worker ($(find "$WR_TMP" -name 'valgrind.*.log' | grep -c .) logs, all empty)"
	else
		fail "valgrind reports nothing in any worker" "$(head -n 100 "${vgbad[@]}")"
	fi
fi

# ---- a single process: SIGHUP, then SIGTERM -------------------------------------------

LOG=$WR_TMP/waitroomd-solo.log
WR_DAEMON_LOG=$LOG
start_waitroomd "$WR_TMP/solo.conf"
wait_ready || bail "the single-process daemon is ready" "$(wr_last)"
check_eq "$(workers_now)" "" "workers = 1: the daemon has no child process"
SOLO=()
for ((i = 1; i <= 3; i++)); do
	join solo
	SOLO+=("$TOKEN")
done
WORKERS=()
open_streams s solo 3 3 "${SOLO[@]}"
SOLO_STREAMS=("${OPENED[@]}")
check_eq "$(holders "${SOLO_STREAMS[@]}")" "s1=$WR_PID s2=$WR_PID s3=$WR_PID" \
    "the daemon itself holds the 3 streams"
kill -HUP "$WR_PID"
check "SIGHUP reloads the configuration (event=reloaded)" \
    wait_lines "$LOG" event=reloaded 1 $((3 * WR_SLOW))
still_streaming "after SIGHUP the single process and its streams go on" "${SOLO_STREAMS[@]}"
drain "single process" "${SOLO_STREAMS[@]}"
check_eq "$(sed -n 's/.* event=drain streams=\([0-9]*\)$/\1/p' "$LOG")" 3 \
    "the daemon logs event=drain streams=3"
