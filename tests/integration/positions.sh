#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# positions.sh: live positions are exact (issue 32). Two instances on one
# Redis, push_interval 1, streams on both for 35 waiters of a plain queue
# and 17 of a scheduled one. After each step (joins, leaves, abandonment,
# an admission tick, an admin promote, a kick, the pre-queue, the draw, a
# join after it), once the streams have had time to hear of it, every
# stream still open shows, in the last status it got after the step,
# position = 1 + ZRANK of its token in wr:{q}:waiting, ahead = ZRANK and
# waiting = ZCARD of the line (before the draw: prequeue, no position,
# entrants = ZCARD); the stream of an admitted token ended on `entered`,
# of a token that left or was kicked on `gone`. Whatever way the
# positions are worked out, this is what a waiter must see.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

WR_SSE_TIMEOUT=$((120 * WR_SLOW))
wr_admin_conf "$WR_TMP/pos.conf"
# A paused rate queue moves only when this file moves it: a resume lets
# one batch of 3 in (the next is an hour later). A waiter unseen for 5 s
# is dropped; a stream is seen at each push, every second.
cat >>"$WR_TMP/pos.conf" <<'EOF'
push_interval = 1

[queue line]
mode        = rate
state       = paused
batch       = 3
interval    = 3600
waiting_ttl = 5
EOF

# ---- the streams and what each should show -------------------------------

declare -A S_QUEUE=() S_TOKEN=() S_WANT=()
S_NAMES=()

# stream NAME Q TOKEN BASE: open the token's stream on the instance BASE;
# it should show the token waiting.
stream() {
	S_NAMES+=("$1")
	S_QUEUE[$1]=$2 S_TOKEN[$1]=$3 S_WANT[$1]=waiting
	on "$4" sse_start "$1" "/v1/queues/$2/tokens/$3/events"
}

# want STATE NAME...: what these streams should show from now on:
# waiting, prequeue, entered (ended on it), gone or removed (ended on
# gone, the reason "removed" for the latter).
want() {
	local s=$1 n
	shift
	for n in "$@"; do S_WANT[$n]=$s; done
}

# want_token STATE TOKEN...: want STATE of the tokens' streams.
want_token() {
	local s=$1 n t found
	shift
	for t in "$@"; do
		found=
		for n in "${S_NAMES[@]}"; do
			[ "${S_TOKEN[$n]}" = "$t" ] && found=$n
		done
		[ -n "$found" ] || bail "token $t has a stream"
		want "$s" "$found"
	done
}

# exact_now SINCE: every stream shows what it should, the open ones a
# status got after SINCE (EPOCHREALTIME) that agrees with Redis now; what
# is wrong in $WR_TMP/exact.why.
exact_now() {
	local n
	for n in "${S_NAMES[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "$n" "${S_QUEUE[$n]}" "${S_TOKEN[$n]}" \
		    "${S_WANT[$n]}"
	done >"$WR_TMP/exact.tsv"
	awk -F '\t' '{ printf "ZRANK wr:{%s}:waiting %s\nZCARD wr:{%s}:waiting\n",
	    $2, $3, $2 }' "$WR_TMP/exact.tsv" | rcli >"$WR_TMP/exact.ranks" ||
	    return 1
	python3 - "$1" "$WR_TMP" >"$WR_TMP/exact.why" <<'EOF'
import json, os, sys
since, tmp = float(sys.argv[1]), sys.argv[2]
rows = [l.rstrip('\n').split('\t') for l in open(tmp + '/exact.tsv')]
redis = open(tmp + '/exact.ranks').read().split('\n')

def events(name):
    """The stream's whole events: (stamp, event, data)."""
    out, ev, data = [], '', []
    for line in open('%s/sse.%s.out' % (tmp, name)):
        stamp, _, text = line.rstrip('\n').partition(' ')
        if text.startswith('event:'):
            ev = text[6:].strip()
        elif text.startswith('data:'):
            data.append(text[5:].lstrip(' '))
        elif text == '':
            if ev or data:
                out.append((float(stamp), ev, '\n'.join(data)))
            ev, data = '', []
    return out

def wrong(name, q, token, want, rank, card):
    evs = events(name)
    ended = os.path.exists('%s/sse.%s.rc' % (tmp, name))
    last = evs[-1] if evs else (0, 'nothing', '')
    try:
        d = json.loads(last[2])
    except ValueError:
        d = {}
    if want in ('entered', 'gone', 'removed'):
        ev = 'gone' if want == 'removed' else want
        if last[1] != ev:
            return 'should have ended on %s, its last event is %s %s' % (
                ev, last[1], last[2])
        if not ended:
            return 'got %s but is still open' % ev
        if want == 'entered' and d.get('status') != 'active':
            return 'entered without the active status: %s' % last[2]
        if want == 'removed' and d.get('reason') != 'removed':
            return 'gone without the reason "removed": %s' % last[2]
        return None
    if ended:
        return 'ended (last event %s %s) while its token should be %s' % (
            last[1], last[2], want)
    if last[1] != 'status':
        return 'its last event is %s, not a status' % last[1]
    if last[0] < since:
        return 'no status since the step (the last came %.1f s before it)' % (
            since - last[0])
    if want == 'prequeue':
        if d.get('status') != 'prequeue' or 'position' in d or \
                d.get('entrants') != int(card):
            return 'shows %s, entrants %s; Redis: prequeue, %s entrants' % (
                d.get('status'), d.get('entrants'), card)
        return None
    if rank == '':
        return 'shows position %s, but the token is not in wr:{%s}:waiting' % (
            d.get('position'), q)
    r = int(rank)
    if (d.get('status'), d.get('position'), d.get('ahead'), d.get('waiting')) \
            != ('waiting', r + 1, r, int(card)):
        return ('shows %s, position %s, ahead %s, waiting %s; Redis: '
                'position %d (ZRANK %d), waiting %s (ZCARD)') % (
            d.get('status'), d.get('position'), d.get('ahead'),
            d.get('waiting'), r + 1, r, card)
    return None

for i, (name, q, token, want) in enumerate(rows):
    why = wrong(name, q, token, want, redis[2 * i], redis[2 * i + 1])
    if why:
        print('stream %s (queue %s, token %s): %s' % (name, q, token, why))
EOF
	[ ! -s "$WR_TMP/exact.why" ]
}

# check_exact DESC SINCE: exact_now holds within 5 s (more under valgrind).
check_exact() {
	if wait_until "exact_now $2" $((5 * WR_SLOW)); then
		pass "$1"
	else
		fail "$1" "$(head -n 12 "$WR_TMP/exact.why")"
	fi
}

# joined Q N BASE: N joins of Q on BASE; their tokens into TOKENS.
joined() {
	local before
	before=0
	[ -e "$WR_TMP/$1.joined" ] && before=$(wc -l <"$WR_TMP/$1.joined")
	join_many "$1" "$2" "$3"
	mapfile -t TOKENS < <(tail -n +$((before + 1)) "$WR_TMP/$1.joined")
	[ "${#TOKENS[@]}" = "$2" ] || bail "$2 joins of $1 on $3" \
	    "$(tail -n 3 "$WR_TMP/$1.answers")"
}

# total Q NAME: one of the queue's totals, as the admin API shows them.
total() {
	local STATUS BODY HEADERS WR_LAST_REQUEST
	admin GET "/v1/admin/queues/$1"
	json ".totals.$2"
}

# draw_state Q: the state of the queue's draw, as GET .../draw shows it.
draw_state() {
	local STATUS BODY HEADERS WR_LAST_REQUEST
	http GET "/v1/queues/$1/draw"
	json .state
}

# still_in Q TOKEN...: how many of the tokens are in Q's line.
still_in() {
	local q=$1
	shift
	rcli zmscore "wr:{$q}:waiting" "$@" | grep -c .
}

# check_entered_soon T0 DESC TOKEN...: the tokens' streams got entered
# within 1 s of T0 (EPOCHREALTIME before the promotion was asked for), as
# doc/api.md promises, whichever instance holds them.
check_entered_soon() {
	local t0=$1 d=$2 t n e lag lags='' late=''
	shift 2
	for t in "$@"; do
		for n in "${S_NAMES[@]}"; do
			[ "${S_TOKEN[$n]}" = "$t" ] || continue
			e=$(sse_stamp "$n" entered) lag=never
			[ -n "$e" ] && lag=$(ms_between "$t0" "$e")
			lags+="$n $lag${e:+ ms}, "
			{ [ "$lag" != never ] && [ "$lag" -le 1000 ]; } || late=1
		done
	done
	if [ -z "$late" ]; then
		pass "$d (${lags%, })"
	else
		fail "$d" "entered after the promotion was asked for: ${lags%, }"
	fi
}

# line_of Q: the tokens of the line, first first.
line_of() {
	rcli zrange "wr:{$1}:waiting" 0 -1
}

start_redis
start_waitroomd "$WR_TMP/pos.conf"
wait_ready || bail "waitroomd is ready"
ONE=$WR_BASE
start_more_waitroomd two "$WR_TMP/pos.conf"
TWO=http://127.0.0.1:$MORE_PORT
BASES=("$ONE" "$TWO")

# ---- joins ---------------------------------------------------------------

# 20 waiters joined on one, 5 who will walk away (no stream; kept in line
# by a poller until the abandonment step), 15 joined on two; the streams
# alternate between the instances.
joined line 20 "$ONE"
FRONT=("${TOKENS[@]}")
joined line 5 "$ONE"
AWAY=("${TOKENS[@]}")
joined line 15 "$TWO"
BACK=("${TOKENS[@]}")

# The poller asks about the tokens of $WR_TMP/keep every second while the
# file is there: all 40 until their streams are open (opening them may take
# longer than waiting_ttl on a busy machine), then only the 5.
printf '%s\n' "${FRONT[@]}" "${AWAY[@]}" "${BACK[@]}" >"$WR_TMP/keep"
(
	while [ -e "$WR_TMP/keep" ]; do
		sed "s|^|$ONE/v1/queues/line/tokens/|" "$WR_TMP/keep" 2>/dev/null |
		    xargs -r curl -s --max-time 5 >/dev/null
		sleep 1
	done
) &
KEEPER=$!
WR_EXTRA_PIDS+=("$KEEPER")

i=0
for t in "${FRONT[@]}" "${BACK[@]}"; do
	i=$((i + 1))
	stream "l$i" line "$t" "${BASES[i % 2]}"
done
printf '%s\n' "${AWAY[@]}" >"$WR_TMP/keep.new"
mv "$WR_TMP/keep.new" "$WR_TMP/keep"
check_exact "after 40 joins, 35 streams on two instances show their exact place" \
    "$EPOCHREALTIME"

# ---- leaves --------------------------------------------------------------

# The first, one in the middle and the last leave, through both instances.
i=0
for t in "${FRONT[0]}" "${FRONT[9]}" "${BACK[14]}"; do
	i=$((i + 1))
	on "${BASES[i % 2]}" http DELETE "/v1/queues/line/tokens/$t"
	check_status 204 "a waiter leaves (DELETE)"
	want_token gone "$t"
done
check_exact "after 3 leaves: gone for them, the exact place for the rest" \
    "$EPOCHREALTIME"

# ---- abandonment ---------------------------------------------------------

rm -f "$WR_TMP/keep"
wr_wait_exit "$KEEPER" 10 || bail "the poller of the 5 stops"
before=$(rcli zcard 'wr:{line}:waiting')
wait_until '[ "$(still_in line "${AWAY[@]}")" = 0 ]' $((15 * WR_SLOW)) ||
    bail "the 5 unseen waiters are dropped within 15 s of their last poll" \
	"$(still_in line "${AWAY[@]}") of them are still in line"
dropped_at=$EPOCHREALTIME
pass "the 5 unseen waiters are dropped"
check_eq "$(rcli zcard 'wr:{line}:waiting')" $((before - 5)) \
    "the streamed ones stay"
check_eq "$(total line abandoned)" 5 "five abandonments are counted"
check_exact "after the abandonment, every stream shows its exact place" \
    "$dropped_at"

# ---- what a quiet line's streams cost Redis ------------------------------

# For 3 s of a quiet line (32 streams, pushed every second), no stream is
# asked of Redis one by one (ranks.lua): each instance reads the line of
# its streams' queue once a second (line.lua), however many they are.
sha_of() {
	sha1sum "$TOP_BUILDDIR/src/store/loaded/$1.lua" | cut -c 1-40
}
RANKS_SHA=$(sha_of ranks) LINE_SHA=$(sha_of line)
check_eq "$(rcli SCRIPT EXISTS "$RANKS_SHA" "$LINE_SHA" | tr -d '\n')" 11 \
    "Redis holds ranks.lua and line.lua as the build wrote them"
timeout 3 redis-cli -p "$REDIS_PORT" MONITOR >"$WR_TMP/monitor" 2>&1
ranks=$(grep -c "\"$RANKS_SHA\"" "$WR_TMP/monitor")
lines=$(grep -c "\"$LINE_SHA\"" "$WR_TMP/monitor")
check_eq "$ranks" 0 "a quiet line: 3 s of pushes ask no stream's rank"
least=4
[ "${WR_SLOW:-1}" -gt 1 ] && least=1	# valgrind: slower reads
check "two instances read the line $least to 9 times in 3 s ($lines)" \
    test "$lines" -ge "$least" -a "$lines" -le 9

# ---- an admission tick ---------------------------------------------------

mapfile -t NEXT < <(rcli zrange 'wr:{line}:waiting' 0 2)
admin POST /v1/admin/queues/line/resume
check_status 200 "resume: one batch of 3 (the next is an hour later)"
wait_until '[ "$(total line admitted)" -ge 3 ]' $((10 * WR_SLOW)) ||
    fail "the tick admits a batch within 10 s" "admitted $(total line admitted)"
admitted_at=$EPOCHREALTIME
admin POST /v1/admin/queues/line/pause
check_status 200 "pause again"
check_eq "$(total line admitted)" 3 "the tick admitted 3"
want_token entered "${NEXT[@]}"
check_exact "after a batch of 3: entered for the first 3, the exact place for the rest" \
    "$admitted_at"

# ---- an admin promote ----------------------------------------------------

asked_at=$EPOCHREALTIME
on "$TWO" admin POST /v1/admin/queues/line/promote '{"count":2}'
check_status 200 "promote 2 (on two)"
promoted_at=$EPOCHREALTIME
mapfile -t PROMOTED < <(json '.tokens[]')
check_eq "${#PROMOTED[@]}" 2 "two tokens promoted"
want_token entered "${PROMOTED[@]}"
check_exact "after a promote of 2: entered for them, the exact place for the rest" \
    "$promoted_at"
check_entered_soon "$asked_at" "their entered came within 1 s" "${PROMOTED[@]}"

# ---- a kick --------------------------------------------------------------

mapfile -t LINE < <(line_of line)
kicked=${LINE[${#LINE[@]} / 2]}
admin DELETE "/v1/admin/queues/line/tokens/$kicked"
check_status 204 "an operator removes a waiter in the middle"
want_token removed "$kicked"
check_exact "after a kick: gone (removed) for it, the exact place for the rest" \
    "$EPOCHREALTIME"
check_eq "$(rcli zcard 'wr:{line}:waiting')" $((40 - 3 - 5 - 3 - 2 - 1)) \
    "26 are left in line"

# ---- a scheduled queue: the pre-queue ------------------------------------

admin PUT /v1/admin/queues/sale "{\"mode\":\"rate\",\"state\":\"paused\",
    \"batch\":3,\"interval\":3600,\"waiting_ttl\":600,
    \"opens_at\":$(($(date +%s) + 600))}"
check_status 201 "a scheduled queue, opening in 10 minutes"
joined sale 8 "$ONE"
PRE=("${TOKENS[@]}")
joined sale 8 "$TWO"
PRE+=("${TOKENS[@]}")
i=0
for t in "${PRE[@]}"; do
	i=$((i + 1))
	stream "s$i" sale "$t" "${BASES[i % 2]}"
done
want_token prequeue "${PRE[@]}"
check_exact "16 entrants' streams show prequeue and the entrants, no position" \
    "$EPOCHREALTIME"

http DELETE "/v1/queues/sale/tokens/${PRE[4]}"
check_status 204 "an entrant leaves before the draw"
want_token gone "${PRE[4]}"
check_exact "after it left: gone for it, 15 entrants for the others" \
    "$EPOCHREALTIME"

# ---- the draw ------------------------------------------------------------

admin PUT /v1/admin/queues/sale "{\"opens_at\":$(($(date +%s) + 1))}"
check_status 200 "the opening moved to a second from now"
wait_until '[ "$(draw_state sale)" = drawn ]' $((15 * WR_SLOW)) ||
    bail "the draw is done within 15 s"
drawn_at=$EPOCHREALTIME
pass "the draw is done"
for n in "${S_NAMES[@]}"; do
	[ "${S_WANT[$n]}" = prequeue ] && want waiting "$n"
done
check_exact "after the draw, the 15 entrants' streams show their drawn place" \
    "$drawn_at"

joined sale 1 "$TWO"
stream s17 sale "${TOKENS[0]}" "$ONE"
check_exact "a join after the draw is streamed at the end of the line, the others unmoved" \
    "$EPOCHREALTIME"

asked_at=$EPOCHREALTIME
admin POST /v1/admin/queues/sale/promote '{"count":2}'
check_status 200 "promote the first 2 drawn"
promoted_at=$EPOCHREALTIME
mapfile -t PROMOTED < <(json '.tokens[]')
want_token entered "${PROMOTED[@]}"
check_exact "after a promote of 2 drawn places: entered for them, the exact place for the rest" \
    "$promoted_at"
check_entered_soon "$asked_at" "their entered came within 1 s" "${PROMOTED[@]}"
