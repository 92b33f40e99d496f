#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs are quoted
#
# batch.sh: joins that arrive together go to Redis as one script run, and
# each still gets the answer it would have got alone: the line's cap cuts
# in at the right join, one user keeps one place, a capacity queue admits
# exactly its free slots, and other queues' joins in the same pass get
# their own answers. Then requests that wait for a stalled Redis: a
# pipelined request behind one, a client that hangs up, and one that
# floods the connection (its input is bounded), and joins that come while
# two batches are in Redis (they wait, then go together).

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

conf=$WR_TMP/batch.conf
cat >"$conf" <<'EOF'
[queue capped]
mode        = rate
state       = paused
max_waiting = 5

[queue mix]
mode        = rate
state       = paused

[queue slots]
mode        = capacity
state       = open
max_active  = 3
active_ttl  = 300

[queue shut]
mode        = rate
state       = closed

[queue slow]
mode        = rate
state       = paused

[queue held]
mode        = rate
state       = paused
EOF

start_redis
# At debug level, the log names every script run of joins.
start_waitroomd "$conf" --log-level debug
wait_ready || bail "the daemon is ready" "$(wr_last)"

# burst NAME [COMMAND]: the joins of $WR_TMP/NAME.joins (QUEUE [USER] per
# line) sent while the daemon is stopped, so they land in one pass of its
# loop once it goes on; the answers, one JSON object per line, in
# $WR_TMP/NAME.out. With COMMAND, the daemon takes the connections first,
# and COMMAND runs just before it goes on.
burst() {
	local sent=$WR_TMP/$1.sent ready=$WR_TMP/$1.ready pid
	[ -n "${2:-}" ] || kill -STOP "$WR_PID"
	python3 "$TOP_SRCDIR/tests/integration/burst.py" "$WR_PORT" joins \
	    "$WR_TMP/$1.joins" "$sent" ${2:+"$ready" "$WR_PID"} \
	    >"$WR_TMP/$1.json" 2>"$WR_TMP/$1.err" &
	pid=$!
	if [ -n "${2:-}" ]; then
		# burst.py says when the daemon took every connection of its
		# own (a count of the daemon's descriptors would also move
		# with connections of before that it closes meanwhile)
		wait_until "test -f '$ready'" 40 ||
		    diag "burst $1: not all taken: $(head -c 300 "$WR_TMP/$1.err")"
		# an answer means a later pass of the loop: the connections
		# taken are in epoll by now
		http GET /healthz
		kill -STOP "$WR_PID"
		touch "$ready.go"
	fi
	wait_until "test -f '$sent'" 20 || diag "burst $1: not all sent"
	[ -z "${2:-}" ] || eval "$2"
	kill -CONT "$WR_PID"
	timeout 60 tail --pid="$pid" -f /dev/null
	wait "$pid" || diag "burst $1: $(head -c 300 "$WR_TMP/$1.err")"
	jq -c '.[]' "$WR_TMP/$1.json" >"$WR_TMP/$1.out" 2>/dev/null
}

# count NAME JQ-FILTER: how many answers of burst NAME pass the filter.
count() {
	jq -c "select($2)" "$WR_TMP/$1.out" | grep -c .
}

# ---- the line's cap, in the middle of a batch ---------------------------

for ((i = 0; i < 60; i++)); do echo capped; done >"$WR_TMP/capped.joins"
burst capped
check_eq "$(count capped '.status == 201')" 5 \
    "60 joins together, max_waiting 5: 5 get a place"
check_eq "$(count capped '.status == 503 and .body.error.code == "queue_full"')" \
    55 "... and 55 get 503 queue_full"
check_eq "$(jq -r 'select(.status == 201) | .body.position' \
    "$WR_TMP/capped.out" | sort -n | tr '\n' ' ')" "1 2 3 4 5 " \
    "... at positions 1..5"
runs=$(grep -c 'event=join_batch queue=capped ' "$WR_TMP/waitroomd.log")
check "... in a few script runs, not one per join ($runs)" \
    test "$runs" -ge 1 -a "$runs" -le 3
check_waiting capped 5 "the summary says 5 waiting"

# ---- users within one batch -------------------------------------------------

for ((round = 0; round < 3; round++)); do
	for ((u = 1; u <= 10; u++)); do echo "mix user-$u"; done
	[ "$round" = 0 ] && for ((a = 0; a < 5; a++)); do echo mix; done
done >"$WR_TMP/mix.joins"
burst mix
check_eq "$(count mix '.status == 201')" 15 \
    "10 users 3 times each and 5 anonymous together: 15 new places"
check_eq "$(count mix '.status == 200')" 20 "... and 20 answers 200 (existing)"
check_eq "$(jq -r 'select(.status == 201) | .body.position' \
    "$WR_TMP/mix.out" | sort -n | tr '\n' ' ')" "$(seq 1 15 | tr '\n' ' ')" \
    "... the new places are 1..15"
paste -d ' ' <(awk '{ print ($2 == "" ? "-" : $2) }' "$WR_TMP/mix.joins") \
    <(jq -r '"\(.body.token) \(.body.position)"' "$WR_TMP/mix.out") |
    awk '$1 != "-"' | sort -u >"$WR_TMP/mix.users"
check_eq "$(awk '{ print $1 }' "$WR_TMP/mix.users" | uniq -d | grep -c .)" 0 \
    "... each user's three answers give one token and one position"
check_eq "$(grep -c . "$WR_TMP/mix.users")" 10 "... for all 10 users"
check_waiting mix 15 "the summary says 15 waiting"

# ---- a capacity queue's free slots -----------------------------------------

for ((i = 0; i < 10; i++)); do echo slots; done >"$WR_TMP/slots.joins"
burst slots
check_eq "$(count slots '.status == 201 and .body.status == "active"')" 3 \
    "10 joins together, 3 free slots: 3 go in at once"
check_eq "$(jq -r 'select(.body.status == "waiting") | .body.position' \
    "$WR_TMP/slots.out" | sort -n | tr '\n' ' ')" "$(seq 1 7 | tr '\n' ' ')" \
    "... and 7 wait, at positions 1..7"

# ---- several queues in one pass ---------------------------------------------

for ((i = 0; i < 4; i++)); do printf '%s\n' nosuch shut mix; done \
    >"$WR_TMP/queues.joins"
burst queues
codes=$(paste -d ' ' "$WR_TMP/queues.joins" \
    <(jq -r '"\(.status) \(.body.error.code // "-")"' "$WR_TMP/queues.out") |
    sort | uniq -c | awk '{ print $2, $3, $4, $1 }' | tr '\n' ';')
check_eq "$codes" \
    "mix 201 - 4;nosuch 404 queue_not_found 4;shut 409 queue_closed 4;" \
    "joins of three queues together: each queue's joins get its answer"

# More queues in one pass than are kept apart at once (64): the first
# batches go early, and every join still gets its own answer.
for ((i = 0; i < 200; i++)); do echo "made-up-$i"; done >"$WR_TMP/many.joins"
burst many
check_eq "$(count many '.status == 404 and .body.error.code == "queue_not_found"')" \
    200 "joins of 200 made-up queues in one pass: 200 answers 404"
check_eq "$(grep -c 'event=join_batch queue=made-up-' "$WR_TMP/waitroomd.log")" \
    200 "... one script run each"
http GET /healthz
check_status 200 "... and the daemon serves on"

# ---- Redis dies under a batch --------------------------------------------

# 70 joins wait on connections the daemon took before it was stopped, and
# Redis is killed. Once the daemon goes on, it reads the joins before the
# loss (they were there first): a full batch of 64 goes to hiredis, whose
# callbacks then get no reply, and the 6 left find the store gone. Each
# join is answered 503 store_unavailable, and joins work again once Redis
# is back, with no restart.
for ((i = 0; i < 70; i++)); do echo mix; done >"$WR_TMP/lost.joins"
burst lost "stop_redis KILL"
check_eq "$(jq -r '"\(.status) \(.body.error.code // "-")"' "$WR_TMP/lost.out" |
    sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';')" \
    "70 503 store_unavailable;" \
    "70 joins together as Redis dies: each 503 store_unavailable"
http GET /healthz
check_status 200 "... and the daemon serves on"
restart_redis
wait_until 'join mix; [ "$STATUS" = 201 ]' 10
check_status 201 "... and joins again once Redis is back"

# ---- while Redis is stalled ------------------------------------------------------

# stalled MS ACTION: burst.py's stalled mode against queue slow.
stalled() {
	python3 "$TOP_SRCDIR/tests/integration/burst.py" "$WR_PORT" stalled \
	    "$REDIS_PORT" "$1" "$2" slow "$WR_TMP/waitroomd.log" \
	    2>"$WR_TMP/stalled.err"
}

out=$(stalled 1500 pipeline)
check_eq "$(jq -c .answers <<<"$out")" "[201,200]" \
    "a request pipelined behind a join waiting for Redis: both answered, in order"

out=$(stalled 1500 hangup)
check_eq "$(jq -c .closed <<<"$out")" true "a client hangs up while its join waits"
http GET /healthz
check_status 200 "... and the daemon serves on"
join slow
check_status 201 "... and joins on"

hwm() {
	awk '/^VmHWM:/ { print $2 }' "/proc/$WR_PID/status"
}
peak=$(hwm)
out=$(stalled 1500 flood)
grew=$(($(hwm) - peak))
diag "flood: $(jq -r .sent <<<"$out") bytes sent while the join waited;" \
    "peak RSS grew $grew kB"
check_eq "$(jq -c '.answers[0]' <<<"$out")" 201 \
    "a client floods the connection while its join waits: the join is answered"
check "... and the daemon did not buffer the flood (peak RSS +$grew kB)" \
    test "$grew" -lt 16384
http GET /healthz
check_status 200 "... and the daemon serves on"

# Two batches in Redis at once at most: with Redis stalled, two joins go
# to it one after the other (a batch each), and the three that come next,
# each in a pass of its own, wait until one of those is answered and then
# go together. Everyone is answered, in the order they came.
out=$(python3 "$TOP_SRCDIR/tests/integration/burst.py" "$WR_PORT" held \
    "$REDIS_PORT" 1500 held "$WR_TMP/waitroomd.log" 2 3 \
    2>"$WR_TMP/held.err")
[ -s "$WR_TMP/held.err" ] && diag "burst.py: $(cat "$WR_TMP/held.err")"
check_eq "$(jq -c .answers <<<"$out")" "[[201,1],[201,2],[201,3],[201,4],[201,5]]" \
    "joins while two batches are in Redis: all answered, places 1 to 5 in order"
check_eq "$(jq -c .runs <<<"$out")" 3 \
    "... the three that waited went as one script run"
