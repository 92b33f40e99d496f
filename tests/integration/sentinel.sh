#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted on purpose
#
# sentinel.sh: Redis failover without a restart. One master, one replica
# and three sentinels (down-after-milliseconds 1000), all real processes
# on free loopback ports; waitroomd with redis = sentinel://.../wr and
# redis_wait_replicas = 1, a join load running. A SENTINEL FAILOVER, then
# a kill -9 of the master: each time the new master answers within 10 s
# without restarting waitroomd, joins are acknowledged again once it has a
# replica, an open stream keeps getting pushes, every acknowledged join is
# in the new master, and no two tokens share a position; and while joins
# are refused /readyz does not say 200 (it says 503 store_replicas while
# the new master has no replica to confirm them). The failover times are
# printed. Also: a waitroomd whose plain
# address names a replica says 503 store_readonly on /readyz.
#
# redis_wait_replicas must count every replica: with two replicas and 1,
# a manual failover lost acknowledged joins (the demoted master went on
# acknowledging through the second replica until the switch reached
# waitroomd; README, Redis and failover). With one replica, a new master
# acknowledges joins again once the old one rejoins as its replica: after
# a crash the old master is started again, as systemd would.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)
NAME=$WR_MASTER_NAME

sentinels_start 1
RPORT=${RPORTS[0]}
SPEC=$SENTINEL_SPEC
cat >"$WR_TMP/sentinel.conf" <<EOF2
push_interval       = 1
redis_wait_replicas = 1

[queue s]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2
REDIS_PORT=$MPORT start_waitroomd "$WR_TMP/sentinel.conf" --redis "$SPEC"
wait_ready || bail "the daemon is ready through the sentinels" "$(wr_last)"
check "it found the master through the sentinels" \
    grep -q "event=redis_connected role=commands addr=127.0.0.1:$MPORT" "$WR_TMP/waitroomd.log"

join s
watched=$TOKEN
sse_start w "/v1/queues/s/tokens/$watched/events"
sse_wait w '^event: status$' 1 "$D" || bail "the stream opens" "$(sse_text w)"

# readyz_samples SECONDS OUT STOP: GET /readyz every 0.1 s for SECONDS, or
# until the file STOP exists, one line each into OUT: "<unix time of the
# answer> <status>".
readyz_samples() {
	local end=$(($(now_ms) + $1 * 1000)) code
	while [ "$(now_ms)" -lt "$end" ] && [ ! -e "$3" ]; do
		code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
		    "$WR_BASE/readyz")
		printf '%s %s\n' "$EPOCHREALTIME" "$code"
		sleep 0.1
	done >"$2"
}

# check_ready_truth CASE LOAD SAMPLES: no /readyz sample said 200 while
# joins were refused: inside a run of refused joins (from the first
# refusal's answer to the last's), half a second in from either end for
# the switch itself.
check_ready_truth() {
	local got
	got=$(awk 'FNR == NR {
			if ($2 != "201") { if (!on) { on = 1; a[++n] = $1 } b[n] = $1 }
			else on = 0
			next
		}
		{
			for (i = 1; i <= n; i++)
				if ($1 > a[i] + 0.5 && $1 < b[i] - 0.5) {
					in_runs++
					if ($2 == "200") bad++
					break
				}
		}
		END { printf "%d %d\n", in_runs, bad }' "$2" "$3")
	diag "$1: /readyz sampled ${got% *} times while joins were refused"
	check "$1: ... and the load was refused a while (samples in the refusals: ${got% *})" \
	    [ "${got% *}" -gt 0 ]
	check_eq "${got#* }" 0 "$1: /readyz never said 200 while joins were refused"
}

# failover CASE HOW: run the join load, fail the master over by HOW
# ("failover" or "kill"), and check what a visitor and the data say.
failover() {
	local case=$1 how=$2 load=$WR_TMP/load.$1 old new t0 tsw tread ok
	local stop=$WR_TMP/stop.$1
	old=$(master_port)
	"$TOP_SRCDIR/tests/integration/joinload.py" \
	    "$WR_BASE/v1/queues/s/tokens" 20 "$load" "$stop" &
	local lpid=$!
	WR_EXTRA_PIDS+=("$lpid")
	readyz_samples 20 "$WR_TMP/readyz.$case" "$stop" &
	local rpid=$!
	WR_EXTRA_PIDS+=("$rpid")
	wait_lines "$load" ' 201 ' 50 "$D" ||
	    fail "$case: joins go through before the failover" "$(tail -n 3 "$load")"
	t0=$EPOCHREALTIME
	if [ "$how" = kill ]; then
		kill -KILL "${WR_RPID[$old]}"
	else
		redis-cli -p "${SPORT[0]}" SENTINEL FAILOVER "$NAME" >/dev/null
	fi
	wait_until "[ \"\$(master_port)\" != $old ]" 30 ||
	    fail "$case: the sentinels name a new master"
	tsw=$EPOCHREALTIME
	new=$(master_port)
	wait_until 'http GET "/v1/queues/s/tokens/$watched"; [ "$STATUS" = 200 ]' "$D"
	tread=$EPOCHREALTIME
	check "$case: the new master answers within $D s of the $how, no restart of waitroomd" \
	    awk -v a="$t0" -v b="$tread" -v d="$D" 'BEGIN { exit !(b - a <= d) }'
	check_json .position 1 "$case: ... and the first visitor is still first"
	# A crashed master is started again (empty: no persistence here),
	# and Sentinel makes it the new master's replica.
	[ "$how" = kill ] && redis_at "old$old" "$old"
	# The load and the samples go on until the new master has acknowledged
	# 20 joins (or for their 20 s): what is checked below happened by then.
	wait_until "[ \$(awk -v t=$tsw '\$1 > t && \$2 == \"201\"' '$load' |
	    grep -c .) -ge 20 ] || ! kill -0 $lpid 2>/dev/null" 25
	: >"$stop"
	wait "$lpid" "$rpid"
	ok=$(awk -v t="$tsw" '$1 > t && $2 == "201" { print $1; exit }' "$load")
	check "$case: joins are acknowledged again within $((D + 10)) s (once the new master has a replica)" \
	    awk -v a="$t0" -v b="$ok" -v d="$((D + 10))" 'BEGIN { exit !(b != "" && b - a <= d) }'
	diag "$case: from the $how, $(awk -v a="$t0" -v b="$tread" 'BEGIN { printf "%.2f", b - a }') s to the first read and $(awk -v a="$t0" -v b="$ok" 'BEGIN { printf "%.2f", b - a }') s to the first join acknowledged by the new master ($(awk '$2 != "201"' "$load" | wc -l) joins refused meanwhile, $(grep -c ' 201 ' "$load") acknowledged)"
	check_acked "$case" "$load" "$new"
	check_ready_truth "$case" "$load" "$WR_TMP/readyz.$case"
	check "$case: the open stream still gets status pushes after the switch" \
	    wait_until "sse_events w | awk -F'\t' -v t=$tsw '\$1 > t + 2 && \$3 == \"status\"' | grep -q ." "$D"
	check_eq "$(sse_count w '^event: gone$')" 0 "$case: ... and was never told gone"
}

# check_acked CASE LOAD PORT: every join acknowledged (201) is in the line
# of the Redis at PORT, and no two acknowledged joins share a position.
check_acked() {
	local missing dup
	awk '$2 == "201" { print $3 }' "$2" | sort >"$WR_TMP/acked"
	redis-cli -p "$3" ZRANGE 'wr:{s}:waiting' 0 -1 | sort >"$WR_TMP/line"
	missing=$(comm -23 "$WR_TMP/acked" "$WR_TMP/line" | wc -l)
	check_eq "$missing" 0 "$1: every acknowledged join ($(wc -l <"$WR_TMP/acked")) is in the new master"
	dup=$(awk '$2 == "201" { print $4 }' "$2" | sort | uniq -d | wc -l)
	check_eq "$dup" 0 "$1: no two acknowledged joins were given one position"
	dup=$(redis-cli -p "$3" ZRANGE 'wr:{s}:waiting' 0 -1 WITHSCORES |
	    awk 'NR % 2 == 0' | sort | uniq -d | wc -l)
	check_eq "$dup" 0 "$1: no two tokens in the new master share a ticket"
}

failover manual failover
wait_until "replica_up $(redis-cli -p "${SPORT[0]}" SENTINEL replicas "$NAME" |
    awk 'p { print; exit } $0 == "port" { p = 1 }')" 30 ||
    fail "the old master follows the new one"
failover crash kill

http GET /readyz
check_eq "$STATUS" 200 "/readyz is 200 after both failovers"
sse_stop w

# A plain address that names a replica: not ready, and it says why.
cat >"$WR_TMP/plain.conf" <<'EOF2'
[queue s]
state = paused
EOF2
WR_MORE_READY=0 start_more_waitroomd plain "$WR_TMP/plain.conf" \
    --redis "127.0.0.1:$RPORT"
check "a waitroomd on a replica's address: /readyz 503 store_readonly" \
    wait_until "curl -s http://127.0.0.1:$MORE_PORT/readyz | grep -q store_readonly" "$D"
stop_waitroomd
