#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted on purpose
#
# eventday.sh: a whole sale, rehearsed small (bench/eventday runs the same
# at full size). A Redis master with two replicas and three sentinels;
# two waitroomd instances following them (redis_wait_replicas = 2); a
# scheduled queue that asks a proof of work. Entrants join the pre-queue
# through both instances (solving the work; a few leave again), bots
# without work are refused, slow connections hang on both instances, a
# share of the entrants follow their place on a stream as the page does.
# At the opening the draw; a quiet look at every position; then, while
# admitting: a SENTINEL FAILOVER, a kill -9 and restart of one instance,
# and a crash (kill -9) of the Redis master, restarted as systemd would.
# A prober joins and asks /readyz on each instance every 0.2 s, and
# records what waitroomctl and /metrics told the operator. Then the line
# drains and tests/integration/eventday.py reports; the test asserts the
# invariants only: no acknowledged join lost, nobody admitted out of the
# drawn order, every admitted streamer told `entered`, no position given
# twice. Timings are printed, never asserted.
#
# Knobs (bench/eventday sets them): EVENTDAY_ENTRANTS (300), _STREAMERS
# (100), _BOTS (30), _SLOW (slow connections per instance, 40), _SHARDS
# (joining processes, 1), _STREAM_PROCS (1), _BATCH (admitted a second,
# 5), _POW_BITS (8), _PUSH (push_interval, 2), _BIG (seconds allowed
# for what grows with the entrants: 30 + entrants / 250), _RECOVER
# (seconds for joins to be acknowledged again after a fault before the
# next one comes anyway: 40), _OUT (keep the client logs and the report
# there).

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

E=${EVENTDAY_ENTRANTS:-300}
STREAMERS=${EVENTDAY_STREAMERS:-100}
BOTS=${EVENTDAY_BOTS:-30}
SLOW=${EVENTDAY_SLOW:-40}
SHARDS=${EVENTDAY_SHARDS:-1}
SPROCS=${EVENTDAY_STREAM_PROCS:-1}
BATCH=${EVENTDAY_BATCH:-5}
POW_BITS=${EVENTDAY_POW_BITS:-8}
PUSH=${EVENTDAY_PUSH:-2}
OUT=${EVENTDAY_OUT:-$WR_TMP/day}
D=$((WR_READY_DEADLINE * 3))	# a restart
RECOVER=${EVENTDAY_RECOVER:-40}	# joins acknowledged again after a Redis fault
BIG=${EVENTDAY_BIG:-$((30 + E / 250))}	# seconds for what grows with the entrants
TRACK=("python3" "$TOP_SRCDIR/tests/integration/eventday.py")
T_START=$EPOCHREALTIME
# stage WHAT: a diagnostic of the seconds since the start, where time goes.
stage() {
	diag "$(awk -v a="$T_START" -v b="$EPOCHREALTIME" 'BEGIN { printf "%5.1f s", b - a }'): $1"
}
mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/*.tokens "$OUT"/positions.*.txt "$OUT"/redispos.*.txt \
    "$OUT"/report.* "$OUT"/day.faults "$OUT"/stop.*

# ---- Redis, the sentinels, two instances ---------------------------------

sentinels_start 2
wr_admin_conf "$WR_TMP/day.conf"
cat >>"$WR_TMP/day.conf" <<EOF
push_interval       = $PUSH
redis_wait_replicas = 2
EOF
REDIS_PORT=$MPORT WR_LOG_LEVEL=info start_waitroomd "$WR_TMP/day.conf" \
    --redis "$SENTINEL_SPEC"
wait_ready || bail "instance A is ready through the sentinels" "$(wr_last)"
A=$WR_BASE
BPORT=$(wr_free_port) || bail "a free port"
B=http://127.0.0.1:$BPORT
BPID=''

# start_b: instance B, always on BPORT (a restart keeps its address).
start_b() {
	"$WAITROOMD" --config "$WR_TMP/day.conf" --listen "127.0.0.1:$BPORT" \
	    --redis "$SENTINEL_SPEC" --log-level info \
	    >>"$WR_TMP/waitroomd-b.log" 2>&1 </dev/null &
	BPID=$!
	WR_EXTRA_PIDS+=("$BPID")
	wait_until "[ \"\$(curl -s -o /dev/null -w '%{http_code}' $B/readyz)\" = 200 ]" "$D"
}
start_b || bail "instance B is ready" "$(tail -n 20 "$WR_TMP/waitroomd-b.log")"

stage "Redis, the sentinels, two instances"
admin PUT /v1/admin/queues/sale "{\"mode\":\"rate\",\"batch\":$BATCH,
    \"interval\":1,\"waiting_ttl\":3600,\"active_ttl\":3600,
    \"state\":\"paused\",\"opens_at\":$(($(date +%s) + 86400)),
    \"join_challenge\":\"pow\",\"pow_bits\":$POW_BITS}"
check_status 201 "a scheduled queue asking $POW_BITS bits of work"

# ---- the pre-queue: entrants with work, bots without, slow connections ------

for url in "$A" "$B"; do
	python3 "$TOP_SRCDIR/tests/integration/slowloris.py" "${url##*:}" \
	    "$OUT/slow.${url##*:}.json" --conns "$SLOW" --source 127.0.0.60 \
	    --sources 20 --mode head --every 2 --rate 2000 --reconnect \
	    --duration 3600 \
	    >/dev/null 2>&1 &
	WR_EXTRA_PIDS+=($!)
done
# The prober: joins and /readyz on each instance every 0.2 s from now on
# (its joins before the opening are entrants too), and the operator's view.
"${TRACK[@]}" probe --bases "$A,$B" --queue sale --source 127.0.0.9 \
    --stop "$OUT/stop.probe" --log "$OUT/day.probe.log" \
    --ctl "'$WAITROOMCTL' --url $A --token-file $WR_TMP/admin.token status" &
PROBE=$!
WR_EXTRA_PIDS+=("$PROBE")
per=$(((E + SHARDS - 1) / SHARDS))
jpids=() spids=()
for ((k = 0; k < SHARDS; k++)); do
	"${TRACK[@]}" join --bases "$A,$B" --queue sale --first $((k * per)) \
	    --count "$per" --conns 24 --source "127.0.0.$((2 + k))" \
	    --leave-every 97 --deadline "$BIG" --log "$OUT/s$k.join.log" &
	jpids+=($!)
	WR_EXTRA_PIDS+=($!)
done
"${TRACK[@]}" join --bases "$A,$B" --queue sale --count "$BOTS" --no-work \
    --prefix bot --conns 8 --source 127.0.0.40 --deadline "$BIG" \
    --log "$OUT/bots.join.log" &
jpids+=($!)
WR_EXTRA_PIDS+=($!)
t0=$EPOCHREALTIME
for p in "${jpids[@]}"; do
	wr_wait_exit "$p" $((BIG + 10)) || fail "the joins end within $((BIG + 10)) s"
done
acked=$(cat "$OUT"/s*.join.log | grep -c '^ack ')
check_eq "$acked" "$((per * SHARDS))" "every entrant's join with work is acknowledged"
diag "$acked entrants joined in $(ms_between "$t0") ms; $(cat "$OUT"/s*.join.log | grep -c '^left ') left again"
check_eq "$(grep -c '^ack ' "$OUT/bots.join.log")" 0 "no bot without work got a place"
check_eq "$(grep -c '^bot [^ ]* 403 challenge_required$' "$OUT/bots.join.log")" "$BOTS" \
    "each bot got 403 challenge_required"

stage "the pre-queue joined"

# The streamers: the first STREAMERS entrants that stayed, in SPROCS
# processes, each from its own range of 50 source addresses.
cat "$OUT"/s*.join.log | awk '$1 == "left" { gone[$4] = 1 }
    $1 == "ack" { t[++n] = $4 } END { for (i = 1; i <= n; i++)
    if (!(t[i] in gone)) print t[i] }' | head -n "$STREAMERS" |
    awk -v n="$SPROCS" -v d="$OUT" '{ print > (d "/st" (NR % n) ".tokens") }'
for ((k = 0; k < SPROCS; k++)); do
	"${TRACK[@]}" streams --bases "$A,$B" --queue sale \
	    --tokens "$OUT/st$k.tokens" --source "127.0.$((1 + k)).1" --sources 50 \
	    --idle $((PUSH * 3 + 10)) --deadline 3600 --stop "$OUT/stop.streams" \
	    --log "$OUT/st$k.stream.log" &
	WR_EXTRA_PIDS+=($!)
	spids+=($!)
done
t0=$EPOCHREALTIME
if wait_until "[ \$(cat $OUT/st*.stream.log 2>/dev/null | awk '\$1 ~ /^(open|gone|entered)\$/ { o[\$3] = 1 } END { print length(o) }') -ge $STREAMERS ]" "$BIG"; then
	pass "$STREAMERS entrants follow their place on a stream (or were told they are gone)"
	diag "$STREAMERS streams open in $(ms_between "$t0") ms"
else
	fail "$STREAMERS streams open within $BIG s" "$(tail -n 5 "$OUT"/st*.stream.log)"
fi

stage "the streams open"

# ---- the opening, and a quiet look at every place ----------------------------

admin PUT /v1/admin/queues/sale "{\"opens_at\":$(($(date +%s) + 1))}"
check_status 200 "the opening moved to the next second"
wait_until 'http GET /v1/queues/sale/draw; [ "$(json .state)" = drawn ]' "$BIG" ||
    bail "the draw is done" "$(wr_last)"
diag "drawn: $(json .entrants) entrants in $(json .draw_ms) ms"

# sample N: every acknowledged token's status and position (GET), and
# the line in the master (ZRANGE WITHSCORES), for positions given twice.
sample() {
	cat "$OUT"/s*.join.log | awk '$1 == "ack" { print $4 }' >"$OUT/all.list"
	"${TRACK[@]}" positions --bases "$A,$B" --queue sale --conns 32 \
	    --tokens "$OUT/all.list" --out "$OUT/positions.$1.txt"
	redis-cli -p "$(master_port)" ZRANGE 'wr:{sale}:waiting' 0 -1 WITHSCORES \
	    >"$OUT/redispos.$1.txt"
}
sample 1
check_eq "$(awk '$3 == "waiting"' "$OUT/positions.1.txt" | wc -l)" \
    "$(awk '$1 == "ack"' "$OUT"/s*.join.log | wc -l | awk -v l="$(cat "$OUT"/s*.join.log | grep -c '^left ')" '{ print $1 - l }')" \
    "after the draw every entrant still in line has a position"

stage "drawn, the first look taken"
admin POST /v1/admin/queues/sale/resume
check_status 200 "admissions start"

# ---- the faults, while admitting ------------------------------------------------

# mcli ARG...: redis-cli against whichever Redis is the master now.
mcli() {
	timeout 10 redis-cli -p "$(master_port)" "$@"
}

fault() {
	echo "$1 $EPOCHREALTIME" >>"$OUT/day.faults"
}

# Recovery times are the report's to print, not checks: a wait that
# runs out is a diagnostic, and the next fault comes anyway.

# joins_again SECONDS: until the prober's last 10 joins (a second of
# both instances), all begun since the fault took effect (now), were all
# acknowledged.
joins_again() {
	local t=$EPOCHREALTIME
	wait_until "awk -v t=$t '\$1 == \"probe\" { n++; at[n] = \$2; ok[n] = \$6 ~ /^20[01]\$/ }
	    END { if (n < 10) exit 1; for (i = n - 9; i <= n; i++) if (at[i] <= t || !ok[i]) exit 1 }' $OUT/day.probe.log" "$1"
}

wait_until '[ "$(mcli hget "wr:{sale}:stats" admitted)" -gt 0 ] 2>/dev/null' "$D" ||
    diag "nobody admitted within $D s of the resume"

fault sentinel_failover
old=$(master_port)
redis-cli -p "${SPORT[0]}" SENTINEL FAILOVER "$WR_MASTER_NAME" >/dev/null
wait_until '[ "$(master_port)" != "$old" ]' 30 || diag "no new master within 30 s"
joins_again "$RECOVER" ||
    diag "joins not acknowledged again within $RECOVER s of the failover"

stage "the failover"
fault instance_kill
kill -KILL "$BPID"
wr_wait_exit "$BPID" 5
start_b || fail "instance B serves again after its kill -9" "$(tail -n 20 "$WR_TMP/waitroomd-b.log")"
joins_again "$RECOVER" || diag "joins not acknowledged within $RECOVER s of B's restart"

stage "the instance's kill"
fault master_crash
old=$(master_port)
kill -KILL "${WR_RPID[$old]}"
wait_until '[ "$(master_port)" != "$old" ]' 30 || diag "no new master within 30 s of the crash"
redis_at "old$old" "$old"
joins_again "$RECOVER" ||
    diag "joins not acknowledged again within $RECOVER s of the crash"
fault end
stage "the master's crash"

# a second quiet look: no admissions while the places are read
check "admissions paused for a look" \
    wait_until 'admin POST /v1/admin/queues/sale/pause; [ "$STATUS" = 200 ]' "$RECOVER"
sample 2
check "admissions resume" \
    wait_until 'admin POST /v1/admin/queues/sale/resume; [ "$STATUS" = 200 ]' "$RECOVER"
touch "$OUT/stop.probe"
wr_wait_exit "$PROBE" 10 || fail "the prober stops"

# ---- the line drains ---------------------------------------------------------------

drain=$((BATCH * 4))
[ "$drain" -ge 200 ] || drain=200
admin PUT /v1/admin/queues/sale "{\"batch\":$drain}"
wait_until '[ "$(mcli zcard "wr:{sale}:waiting")" = 0 ]' "$BIG" ||
    fail "the line drains"
for p in "${spids[@]}"; do
	wr_wait_exit "$p" 20 || break
done
touch "$OUT/stop.streams"
for p in "${spids[@]}"; do wr_wait_exit "$p" 10; done

stage "the line drained"
"${TRACK[@]}" report --dir "$OUT" --bases "$A,$B" --queue sale \
    --redis "$(master_port)" --active-ttl 3600 --json "$OUT/report.json" \
    --logs "$WR_TMP/waitroomd.log,$WR_TMP/waitroomd-b.log" >"$OUT/report.txt" 2>&1 ||
    fail "the report is made" "$(cat "$OUT/report.txt")"
diag "$(cat "$OUT/report.txt")"
BODY=$(cat "$OUT/report.json" 2>/dev/null)
check_jq '.lost == 0' "no acknowledged join lost"
check_jq '.out_of_order == 0' "nobody admitted out of the drawn order"
check_jq '.untold == 0' "every admitted streamer was told it entered"
check_jq '.positions_twice == 0' "no position given twice"
check_jq ".streamers == $STREAMERS and .entered_told == $STREAMERS" \
    "each of the $STREAMERS streamers entered"
check_jq ".admitted >= $((acked - acked / 97 - 1)) and .still_waiting == 0" \
    "everyone in line was admitted"
check_jq '[.position_samples[] | .seen] | min > 0' "the samples saw positions"

# B, restarted once, ends as A does: 0 on SIGTERM, no sanitizer report.
kill -TERM "$BPID"
if wr_wait_exit "$BPID" "$WR_STOP_DEADLINE"; then
	wait "$BPID"
	check_eq "$?" 0 "instance B exits 0 on SIGTERM"
else
	fail "instance B exits within $WR_STOP_DEADLINE s of SIGTERM"
fi
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$WR_TMP/waitroomd-b.log"; then
	fail "no sanitizer report in B's log" \
	    "$(grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$WR_TMP/waitroomd-b.log" | head -n 60)"
else
	pass "no sanitizer report in B's log"
fi
stop_waitroomd
