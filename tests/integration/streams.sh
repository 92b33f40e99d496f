#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# streams.sh: the live stream of one token, as `curl -N` shows it: the
# headers, a status at once and then every push_interval, `entered` and the
# end when the token is admitted (at once when it already is), `gone` when
# it leaves, Last-Event-ID, and 404 for what does not exist.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/streams.conf" <<'EOF2'
push_interval = 1

[queue hold]
mode        = rate
state       = paused
waiting_ttl = 600

[queue line]
mode        = rate
batch       = 1
interval    = 2
waiting_ttl = 600
redirect    = https://shop.example/line
EOF2

# field N: field N of each line of stdin, tab-separated.
field() {
	cut -f "$1"
}

# check_data NAME EVENT DESC [JQ-ARG...] FILTER: jq -e over the data of
# the first EVENT of the stream NAME.
check_data() {
	local name=$1 ev=$2 desc=$3 d
	shift 3
	d=$(sse_data "$name" "$ev")
	if [ -n "$d" ] && jq -e "$@" <<<"$d" >/dev/null 2>&1; then
		pass "$desc"
	else
		fail "$desc" "not true: ${*: -1}" "data: '$d'" \
		    "stream: $(sse_text "$name" | head -n 30)"
	fi
}

# check_ids NAME FIRST DESC: the ids of the stream's events are FIRST,
# FIRST+1, ... with no gap.
check_ids() {
	local got want n
	# One snapshot: the stream may still be growing.
	got=$(sse_events "$1" | field 2 | tr '\n' ' ')
	n=$(wc -w <<<"$got")
	want=$(seq "$2" $(($2 + n - 1)) | tr '\n' ' ')
	if [ "$n" -gt 0 ] && [ "$got" = "$want" ]; then
		pass "$3"
	else
		fail "$3" "ids: '$got'" "want: '$want'"
	fi
}

# alive: the rest is meaningless once the daemon has died.
alive() {
	kill -0 "$WR_PID" 2>/dev/null ||
	    bail "waitroomd is still running" "$(wr_tail "$WR_TMP/waitroomd.log")"
}

start_redis
start_waitroomd "$WR_TMP/streams.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- what does not exist ----------------------------------------------------

http GET "/v1/queues/hold/tokens/$(random_uuid)/events"
check_error 404 token_not_found "a stream for an unknown token -> 404 token_not_found"
http GET "/v1/queues/nosuch/tokens/$(random_uuid)/events"
check_error 404 queue_not_found "a stream in an unknown queue -> 404 queue_not_found"

# ---- a waiting token: headers, a status at once, then one per second ---------

join hold
t1=$TOKEN
join hold
t2=$TOKEN
{ [ -n "$t1" ] && [ -n "$t2" ]; } || bail "two joins of hold" "$(wr_last)"

t0=$EPOCHREALTIME
sse_start basic "/v1/queues/hold/tokens/$t2/events"
sse_wait basic '^data:' 1 5 || fail "the first status arrives within 5 s"
first=$(sse_stamp basic status)
if [ -n "$first" ] && [ "$(ms_between "$t0" "$first")" -lt 1000 ]; then
	pass "the first status arrives at once ($(ms_between "$t0" "$first") ms)"
else
	fail "the first status arrives at once (within 1 s)" "opened $t0, status at '${first:-never}'"
fi
check_match "$(head -n 1 "$WR_TMP/sse.basic.headers" | tr -d '\r')" '^HTTP/1\.1 200' \
    "the stream answers 200"
check_eq "$(sse_header basic Content-Type)" text/event-stream "Content-Type: text/event-stream"
check_eq "$(sse_header basic Cache-Control)" no-cache "Cache-Control: no-cache"
check_eq "$(sse_header basic X-Accel-Buffering)" no "X-Accel-Buffering: no"
check_eq "$(sse_text basic | head -n 4 | tr '\n' '|')" "retry: 1000||id: 1|event: status|" \
    "the body starts with retry: 1000 (push_interval 1 s), then event 1: status"
check_data basic status \
    "the first status is the status object: waiting, position 2, ahead 1" \
    --arg t "$t2" '.queue == "hold" and .token == $t and
    .status == "waiting" and .position == 2 and .ahead == 1 and .waiting == 2'

sse_wait basic '^event: status$' 4 8 || fail "four statuses arrive within 8 s"
s1=$(sse_stamp basic status 1) s2=$(sse_stamp basic status 2)
s3=$(sse_stamp basic status 3) s4=$(sse_stamp basic status 4)
if [ -n "$s4" ]; then
	g1=$(ms_between "$s1" "$s2") g2=$(ms_between "$s2" "$s3") g3=$(ms_between "$s3" "$s4")
	if [ "$g1" -ge 300 ] && [ "$g1" -le 2500 ]; then
		pass "the second status follows within one push interval ($g1 ms)"
	else
		fail "the second status follows within one push interval" "gap $g1 ms"
	fi
	if [ "$g2" -ge 500 ] && [ "$g2" -le 2500 ] && [ "$g3" -ge 500 ] && [ "$g3" -le 2500 ]; then
		pass "then one status per push_interval of 1 s (gaps $g2 ms, $g3 ms)"
	else
		fail "then one status per push_interval of 1 s (0.5 to 2.5 s apart)" \
		    "gaps $g2 ms, $g3 ms"
	fi
fi
check_ids basic 1 "ids grow by one per event from 1"

# The one ahead leaves: the next status shows position 1.
http DELETE "/v1/queues/hold/tokens/$t1"
check_status 204 "the one ahead leaves"
check "the stream shows position 1 within 3 s" \
    sse_wait basic '^data: .*"position": *1[,}]' 1 3

# ---- gone ------------------------------------------------------------------------

http DELETE "/v1/queues/hold/tokens/$t2"
check_status 204 "the streamed token leaves (DELETE)"
gone_at=$EPOCHREALTIME
check "a gone event arrives within 3 s" sse_wait basic '^event: gone$' 1 3
check_data basic gone 'gone carries {"queue","token","reason"}' \
    --arg t "$t2" '.queue == "hold" and .token == $t and
    (.reason | type == "string" and length > 0) and (keys | length == 3)'
if sse_ended basic 3; then
	check_eq "$SSE_RC" 0 "the stream ends after gone (curl -N exits 0)"
else
	fail "the stream ends within 3 s of gone"
	sse_stop basic
fi
check_eq "$(sse_events basic | tail -n 1 | field 3)" gone "gone is the last event"
check_ids basic 1 "ids still grow by one, through gone"
g=$(sse_stamp basic gone)
[ -n "$g" ] && diag "gone arrived $(ms_between "$gone_at" "$g") ms after the DELETE"

alive

# ---- Last-Event-ID -----------------------------------------------------------

join hold
t3=$TOKEN
sse_start lei "/v1/queues/hold/tokens/$t3/events" -H 'Last-Event-ID: 41'
sse_wait lei '^event: status$' 2 5
check_eq "$(sse_events lei | head -n 2 | field 2 | tr '\n' ' ')" "42 43 " \
    "with Last-Event-ID: 41 the ids go on from 42"
check_data lei status "a reconnecting client gets the current status at once" \
    --arg t "$t3" '.status == "waiting" and .token == $t and .position == 1'
sse_stop lei
check "a client that goes away is noticed (stream_close reason=client gone in the log)" \
    wait_until "grep -q 'event=stream_close queue=hold token=${t3:0:8} reason=\"client gone\"' '$WR_TMP/waitroomd.log'" 5

alive

# ---- admitted: entered, and the end --------------------------------------------

subscribe line stamp || fail "record the events channel of line"

lt=()
for ((i = 0; i < 4; i++)); do
	join line
	lt+=("$TOKEN")
done
last=${lt[3]}
sse_start enter "/v1/queues/line/tokens/$last/events"
check "the last of four gets entered within 12 s (batch 1 every 2 s)" \
    sse_wait enter '^event: entered$' 1 12
if sse_ended enter 3; then
	check_eq "$SSE_RC" 0 "the stream ends after entered (curl -N exits 0)"
else
	fail "the stream ends within 3 s of entered"
	sse_stop enter
fi
check_eq "$(sse_count enter '^event: entered$')" 1 "exactly one entered"
check_eq "$(sse_events enter | tail -n 1 | field 3)" entered "entered is the last event"
check_data enter entered \
    "entered carries the active status: active_until, redirect, no position" \
    --arg t "$last" --argjson now "$(date +%s)" \
    '.status == "active" and .token == $t and .queue == "line" and
    (.active_until | type == "number" and . >= $now) and
    .redirect == "https://shop.example/line" and (has("position") | not)'
check "at least one status came before entered" \
    test "$(sse_count enter '^event: status$')" -ge 1
positions=$(sse_events enter | awk -F '\t' '$3 == "status"' | field 4 | jq -r .position | tr '\n' ' ')
if [ -n "$positions" ] && sort -rn -c <(tr ' ' '\n' <<<"${positions% }") 2>/dev/null; then
	pass "the position only goes down ($positions)"
else
	fail "the position only goes down" "positions: $positions"
fi
check_ids enter 1 "ids grow by one from 1 through entered"

# It must reach the client within one second of the promotion.
pub=$(awk -v t="$last" '$0 ~ t { print $1; exit }' "$WR_TMP/line.events")
ent=$(sse_stamp enter entered)
if [ -n "$pub" ] && [ -n "$ent" ]; then
	lag=$(ms_between "$pub" "$ent")
	if [ "$lag" -le 1000 ]; then
		pass "entered reaches the client within 1 s of the promotion ($lag ms)"
	else
		fail "entered reaches the client within 1 s of the promotion" "$lag ms"
	fi
else
	fail "the promotion is published and entered arrives" \
	    "published at '${pub:-never}', entered at '${ent:-never}'" \
	    "$(tail -n 20 "$WR_TMP/line.events")"
fi

alive

# ---- already active: entered at once --------------------------------------------

t0=$EPOCHREALTIME
sse_start again "/v1/queues/line/tokens/$last/events"
if sse_ended again 3; then
	check_eq "$SSE_RC" 0 "a stream of an active token ends at once (curl -N exits 0)"
else
	fail "a stream of an active token ends within 3 s"
	sse_stop again
fi
check_eq "$(sse_header again Content-Type)" text/event-stream \
    "an active token's stream is text/event-stream"
check_match "$(sse_text again | tr '\n' '|')" \
    '^retry: 1000\|\|id: 1\|event: entered\|data: \{[^|]*\}\|\|$' \
    "it is retry, then one event: entered, and nothing else"
check_data again entered \
    "an already active token gets entered with the active status" \
    --arg t "$last" '.status == "active" and .token == $t and
    (.active_until | type == "number") and .redirect == "https://shop.example/line"'
e=$(sse_stamp again entered)
if [ -n "$e" ] && [ "$(ms_between "$t0" "$e")" -lt 1000 ]; then
	pass "entered arrives at once ($(ms_between "$t0" "$e") ms)"
else
	fail "entered arrives at once (within 1 s)" "opened $t0, entered at '${e:-never}'"
fi
sse_start again2 "/v1/queues/line/tokens/$last/events" -H 'Last-Event-ID: 7'
sse_ended again2 3 || sse_stop again2
check_eq "$(sse_events again2 | field 2-3 | tr '\t\n' ' |')" "8 entered|" \
    "an active token with Last-Event-ID: 7 gets entered as id 8"
alive
