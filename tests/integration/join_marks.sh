#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# join_marks.sh: the join marks room_beat.lua writes (doc/design.md,
# "The report"), which the ETA's own errors are measured from. A real
# join: the second's mark carries the ETA and position the join was
# told, and is made when it was told (Redis's clock during the join, not
# the report's second). Then room_beat.lua run by hand, as the daemon
# sends it, with reports a process could send: an ETA told before the
# last mark belongs to no ticket of the new run and is not carried; a
# report without the time (an older process) marks now with the ETA; a
# time ahead of Redis's is not taken.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/marks.conf" <<EOF
[queue live]
mode        = rate
batch       = 1
interval    = 3600
waiting_ttl = 86400

[queue hand]
mode        = rate
state       = paused
waiting_ttl = 86400
EOF

start_redis
start_waitroomd "$WR_TMP/marks.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# last_mark Q: queue Q's newest join mark, "member score".
last_mark() {
	rcli ZRANGE "wr:{$1}:joins" -1 -1 WITHSCORES | paste -sd ' '
}

# ---- a real join ------------------------------------------------------------

join live
join live
before=$(redis_ms)
join live
after=$(redis_ms)
check_status 201 "a third joins live"
ETA=$(json .eta_seconds) POS=$(json .position)
check "... and is told an ETA ($ETA s at position $POS)" [ "$ETA" -gt 0 ]
check "its join's mark comes within 2 s" wait_until \
    '[ "$(last_mark live | awk "{ print \$4 }")" = 3 ]' $((2 * WR_SLOW))
read -r ms eta pos ticket <<<"$(last_mark live)"
check_eq "$eta $pos $ticket" "$ETA $POS 3" \
    "the mark carries the ETA and position it was told, scored by its ticket"
check "... made when it was told, during the join ($before <= $ms <= $after)" \
    test $((before <= ms && ms <= after)) = 1
check_eq "$(rcli HGET "wr:{live}:stats" eta_new)" "$ETA" \
    "... and eta_new is that ETA"
stop_waitroomd

# ---- room_beat.lua by hand --------------------------------------------------

SCRIPT=$(cat "$TOP_BUILDDIR/src/store/loaded/room_beat.lua")

# report JSON: one run of room_beat.lua for queue hand, a new second
# (the last one's forgotten), from process test:1 reporting JSON's queues.
report() {
	local keys
	rcli DEL wr:room:second >/dev/null
	mapfile -t keys < <(printf '%s\n' wr:room wr:room:seen wr:room:second \
	    'wr:{hand}:series' 'wr:{hand}:joins' 'wr:{hand}:history'
	    queue_keys hand)
	rcli EVAL "$SCRIPT" "${#keys[@]}" "${keys[@]}" 1 test:1 \
	    "{\"queues\":{\"hand\":$1}}" hand >/dev/null
}

# mark_after SEQ REPORT: the ticket counter moved to SEQ, one run with
# the queue's figures REPORT, a JSON object in which NOW stands for
# Redis's clock then (ms) and LATER for a minute after: T that clock, MS
# and REST the new mark's time and its other words.
mark_after() {
	local r
	rcli SET 'wr:{hand}:seq' "$1" >/dev/null
	T=$(redis_ms)
	r=${2//NOW/$T}
	report "${r//LATER/$((T + 60000))}"
	read -r MS REST <<<"$(last_mark hand)"
}

mark_after 10 '{"eta_told":30,"eta_position":7,"eta_told_ms":NOW}'
TOLD=$T
check_eq "$MS $REST" "$TOLD 30 7 10" \
    "an ETA told since the last mark: the mark is made when it was told"
mark_after 12 "{\"eta_told\":30,\"eta_position\":7,\"eta_told_ms\":$TOLD}"
check "the same ETA again, told before the new mark's run: not carried ($MS $REST)" \
    test "$((MS >= T)) $REST" = "1 12"
mark_after 14 '{"eta_told":40,"eta_position":9}'
check "a report without the time: the mark is made now, with the ETA" \
    test "$((MS >= T)) $REST" = "1 40 9 14"
mark_after 16 '{"eta_told":50,"eta_position":9,"eta_told_ms":LATER}'
check "a time ahead of Redis's: the mark is made now, without the ETA" \
    test "$((MS >= T && MS < T + 60000)) $REST" = "1 16"
mark_after 18 '{}'
check "no ETA told: the mark is made now, the ticket alone" \
    test "$((MS >= T)) $REST" = "1 18"
check_eq "$(rcli ZCARD 'wr:{hand}:joins')" 5 "one mark a report"
