#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# admission.sh: the line moves as configured. FIFO: 500 joins are admitted
# in exactly their order. A batch of 5,000, the most one tick moves (five
# of the script's 1,000-token Redis calls; one call for all would pass Lua
# more arguments than unpack can), is admitted whole, in order, in one
# tick. Rate: three instances on one Redis admit one batch per interval
# between them, never N batches, and nobody twice.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# The queues of this file; write_conf sets their state.
cat >"$WR_TMP/adm.conf.in" <<'EOF2'
[queue fifo]
mode        = rate
batch       = 100
interval    = 1
waiting_ttl = 600
state       = paused
redirect    = https://shop.example/fifo

[queue multi]
mode        = rate
batch       = 5
interval    = 1
waiting_ttl = 600
state       = paused

[queue big]
mode        = rate
batch       = 5000
interval    = 3600
waiting_ttl = 600
state       = paused
EOF2

# announced Q: the tokens published as admitted, in order of publication.
# The subscriber may be mid-line: a last line without its newline is left
# for the next read.
announced() {
	local f=$WR_TMP/$1.events
	if [ -z "$(tail -c 1 "$f")" ]; then cat "$f"; else sed '$d' "$f"; fi |
	    awk '$1 == "entered" { for (i = 3; i <= NF; i++) print $i }'
}

start_redis
write_conf "$WR_TMP/adm.conf" "$WR_TMP/adm.conf.in" state=paused
start_waitroomd "$WR_TMP/adm.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

join_many fifo 500
join_many multi 200
join_many big 5000
check_eq "$(sort -u "$WR_TMP/fifo.joined" | grep -c .)" 500 "500 joins give 500 tokens"
check_waiting fifo 500 "a paused queue keeps all 500 waiting"

# ---- FIFO: open the gates -------------------------------------------------

stop_waitroomd
for q in fifo multi big; do
	subscribe "$q" || bail "subscribe to the events channel of $q"
done
write_conf "$WR_TMP/adm.conf" "$WR_TMP/adm.conf.in" state=open
start_waitroomd "$WR_TMP/adm.conf"
WR_MORE_READY=0 start_more_waitroomd 2 "$WR_TMP/adm.conf" --log-level info
WR_MORE_READY=0 start_more_waitroomd 3 "$WR_TMP/adm.conf" --log-level info

t0='' a0=''
if wait_until '[ "$(stat_of multi admitted)" -gt 0 ]' 10; then
	t0=$(now_ms) a0=$(stat_of multi admitted)
	pass "three instances start admitting the rate queue"
else
	fail "three instances start admitting the rate queue"
fi

check "all 500 of fifo are admitted within 15 s" \
    wait_until '[ "$(stat_of fifo admitted)" = 500 ]' 15
wait_until '[ "$(announced fifo | grep -c .)" -ge 500 ]' 5
check_eq "$(announced fifo | grep -c .)" 500 "500 admissions of fifo are announced"
if diff -q "$WR_TMP/fifo.joined" <(announced fifo) >/dev/null; then
	pass "fifo: admitted in exactly the order of joining"
else
	fail "fifo: admitted in exactly the order of joining" \
	    "$(diff "$WR_TMP/fifo.joined" <(announced fifo) | head -n 10)"
fi

first=$(head -n 1 "$WR_TMP/fifo.joined")
http GET "/v1/queues/fifo/tokens/$first"
check_jq '.status == "active" and (.active_until | type == "number") and
    .redirect == "https://shop.example/fifo" and (has("position") | not)' \
    "an admitted token: status active, active_until, redirect, no position"
check_waiting fifo 0 "fifo's line is empty"

# ---- a batch larger than one call of the script moves --------------------------

check "all 5,000 of big are admitted within 15 s" \
    wait_until '[ "$(stat_of big admitted)" = 5000 ]' 15
wait_until '[ "$(announced big | grep -c .)" -ge 5000 ]' 5
if diff -q "$WR_TMP/big.joined" <(announced big) >/dev/null; then
	pass "big: 5,000 announced in exactly the order of joining"
else
	fail "big: 5,000 announced in exactly the order of joining" \
	    "$(diff "$WR_TMP/big.joined" <(announced big) | head -n 10)"
fi
# One tick admitted them all: one session end for every one of them.
check_eq "$(rcli zcard 'wr:{big}:active') $(rcli zrange 'wr:{big}:active' 0 -1 withscores |
    awk 'NR % 2 == 0' | sort -u | grep -c .)" "5000 1" \
    "big: 5,000 sessions, all ending at the same time"
# (tokens: the seen set also keeps the marks of the join batches, '@'-led,
# until waiting_ttl has passed)
check_eq "$(rcli zrange 'wr:{big}:seen' 0 -1 | grep -vc '^@') $(rcli zcard 'wr:{big}:waiting')" "0 0" \
    "big: none of them is left waiting or in the seen set"
http GET "/v1/queues/big/tokens/$(tail -n 1 "$WR_TMP/big.joined")"
check_jq '.status == "active"' "big: the last of the 5,000 is active"

# ---- rate: one batch per interval across three instances -------------------

if [ -n "$t0" ]; then
	# A measurement over time: wait out 10 s from the first admission.
	wait_until "[ \$(now_ms) -ge $((t0 + 10000)) ]" 12
	a1=$(stat_of multi admitted)
	got=$((a1 - a0))
	if [ "$got" -ge 45 ] && [ "$got" -le 55 ]; then
		pass "three instances admit 50 +- 5 in 10 s at batch 5 / 1 s (got $got)"
	else
		fail "three instances admit 50 +- 5 in 10 s at batch 5 / 1 s" "got $got"
	fi
fi
adm=$(stat_of multi admitted)
wait_until "[ \$(announced multi | grep -c .) -ge $adm ]" 5
check_eq "$(announced multi | sort | uniq -d | grep -c .)" 0 \
    "no token of the rate queue is announced twice"
# One snapshot: the instances go on admitting while this reads.
announced multi >"$WR_TMP/multi.announced"
n=$(grep -c . "$WR_TMP/multi.announced")
if [ "$n" -ge "$adm" ] && diff -q <(head -n "$n" "$WR_TMP/multi.joined") \
    "$WR_TMP/multi.announced" >/dev/null; then
	pass "the rate queue admits in join order ($n so far)"
else
	fail "the rate queue admits in join order" "announced $n, admitted $adm"
fi
# One script reads both sets at one instant, between two ticks.
both=$(rcli eval "return redis.call('zcard', KEYS[1]) +
    redis.call('zcard', KEYS[2])" 2 "wr:{multi}:active" "wr:{multi}:waiting")
check_eq "$both" 200 "admitted + waiting = 200: nobody lost or doubled"
