#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# pow.sh: the proof of work at the join (join_challenge = pow). With
# pow_bits = 12: GET .../challenge; a join without a challenge is 403
# challenge_required with a fresh one; a solved one joins (201); the same
# challenge again, here or on a second instance, is 403 challenge_used; a
# wrong nonce, a changed character, another queue's challenge are 403
# challenge_failed, an expired one 403 challenge_expired with a fresh one;
# none of these changes anything in Redis. With pow_bits = auto: a calm
# queue asks 0 bits, a burst of joins raises them. The challenges are
# solved by pow_solve.py, written from doc/api.md, not from the daemon;
# and doc/api.md's own 15-line solver is run as printed.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/pow.conf" <<'EOF2'
[queue q]
state          = paused
join_challenge = pow
pow_bits       = 12

[queue other]
state          = paused
join_challenge = pow
pow_bits       = 12

[queue brief]
state          = paused
join_challenge = pow
pow_bits       = 4
pow_ttl        = 1

[queue free]
state = paused

[queue busy]
state          = paused
join_challenge = pow
pow_calm_rate  = 2
pow_start_bits = 5
pow_max_bits   = 9
EOF2

SOLVE=$TOP_SRCDIR/tests/integration/pow_solve.py

start_redis
start_waitroomd "$WR_TMP/pow.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
# Every queue ticked once: the tick makes keys of its own (seq), which
# the snapshots below must not see appear.
for q in q other brief busy free; do
	wait_until "[ \"\$(rcli EXISTS 'wr:{$q}:seq')\" = 1 ]" ||
	    bail "queue $q has been ticked"
done

# ---- the challenge -------------------------------------------------------

fetch q
check_status 200 "GET /v1/queues/q/challenge -> 200"
check_header Cache-Control no-store "... not to be cached"
check_json .bits 12 "... at the queue's pow_bits"
check_jq '.expires - now | . > 290 and . <= 301' \
    "... expiring pow_ttl (300 s) from now"
check_match "$CH" '^[!-~]{1,200}$' "... an ASCII string of at most 200 chars"
fetch nosuch
check_error 404 queue_not_found "a queue that does not exist -> 404"

# ---- refusals, which change nothing ---------------------------------------

s1=$(snap)
w=$(waiting_of q)

join q
check_error 403 challenge_required "a join without a challenge -> 403 challenge_required"
check_jq '.error.challenge | (.challenge | type == "string") and .bits == 12 and
    (.expires | type == "number")' "... with a fresh challenge in the error"
fresh=$(json .error.challenge.challenge) fresh_exp=$(json .error.challenge.expires)

fetch q
wrong=$("$SOLVE" "$CH" 12 --wrong)
join q "$(body "$CH" "$wrong")"
check_error 403 challenge_failed "a wrong nonce -> 403 challenge_failed"

good=$("$SOLVE" "$CH" 12)
# one character of the random part changed (the nonce solves the original)
i=$((${#CH} - 30))
c=${CH:i:1}
[ "$c" = A ] && r=B || r=A
join q "$(body "${CH:0:i}$r${CH:i+1}" "$good")"
check_error 403 challenge_failed "the challenge with one character changed -> 403 challenge_failed"

fetch other
ochal=$CH
onon=$("$SOLVE" "$ochal" 12)
join q "$(body "$ochal" "$onon")"
check_error 403 challenge_failed "another queue's solved challenge -> 403 challenge_failed"

fetch brief
# shellcheck disable=SC2034 # bexp is read by wait_until's code
bch=$CH bexp=$(json .expires)
bnon=$("$SOLVE" "$bch" 4)
wait_until '[ "$(date +%s)" -ge "$bexp" ]' 5 || bail "the brief challenge expires"
join brief "$(body "$bch" "$bnon")"
check_error 403 challenge_expired "an expired challenge -> 403 challenge_expired"
check_jq '.error.challenge.bits == 4 and .error.challenge.expires > now - 1' \
    "... with a fresh challenge in the error"

join q '{"challenge":"x"}'
check_error 400 bad_request "a challenge without a nonce -> 400"
join q "$(body "$fresh" "not-a-nonce")"
check_error 400 bad_request "a nonce that is not letters and digits -> 400"
join q '{"challenge":7,"nonce":"1"}'
check_error 400 bad_request "a challenge that is not a string -> 400"

check_waiting q "$w" "the refused joins took no place"
check_eq "$(snap)" "$s1" "... and changed nothing in Redis"

# ---- a solved challenge buys one join, on every instance ---------------

fnon=$("$SOLVE" "$fresh" 12)
join q "$(body "$fresh" "$fnon")"
check_status 201 "the solved challenge of the 403 -> 201"
check_jq '.position == 1' "... with a place"
check_waiting q $((w + 1)) "... in the line"
IFS=. read -r _ _ _ _ rnd _ <<<"$fresh"
check_eq "$(rcli PEXPIRETIME "wr:{q}:used:pow:$rnd")" $(((fresh_exp + 60) * 1000)) \
    "... and its use is kept until a minute after the challenge expires"

s2=$(snap)
join q "$(body "$fresh" "$fnon")"
check_error 403 challenge_used "the same challenge again -> 403 challenge_used"

start_more_waitroomd two "$WR_TMP/pow.conf"
saved=$WR_BASE
WR_BASE=http://127.0.0.1:$MORE_PORT
wait_until 'http GET /v1/queues/q/challenge; [ "$STATUS" = 200 ]' ||
    bail "the second instance answers" "$(wr_last)"
join q "$(body "$fresh" "$fnon")"
check_error 403 challenge_used "... and on a second instance -> 403 challenge_used"
check_eq "$(snap)" "$s2" "the used challenge's refusals changed nothing in Redis"
fetch q
n2=$("$SOLVE" "$CH" 12)
WR_BASE=$saved
join q "$(body "$CH" "$n2")"
check_status 201 "a challenge of the second instance joins on the first"
WR_BASE=http://127.0.0.1:$MORE_PORT
join q "$(body "$CH" "$n2")"
check_error 403 challenge_used "... once"
WR_BASE=$saved
check_waiting q $((w + 2)) "two solved challenges, two places"

# ---- a user who holds a place ------------------------------------------------

fetch q
a1=$CH n1=$("$SOLVE" "$CH" 12)
join q "$(body "$a1" "$n1" ann)"
check_status 201 "ann joins with a solved challenge"
ann=$TOKEN
fetch q
n3=$("$SOLVE" "$CH" 12)
join q "$(body "$CH" "$n3" ann)"
check_status 200 "ann with a new solved challenge -> 200, her place"
check_eq "$TOKEN" "$ann" "... the same token"
join q "$(body "$a1" "$n1" ann)"
check_error 403 challenge_used "ann with her first challenge again -> 403 challenge_used"

# ---- off --------------------------------------------------------------------

join free
check_status 201 "a queue with join_challenge = off asks nothing -> 201"
fetch free
check_json .bits 0 "... and its challenge asks 0 bits"

# ---- auto ------------------------------------------------------------------

fetch busy
check_json .bits 0 "auto: a calm queue asks 0 bits"
join busy
check_status 201 "... and a join needs no challenge"
# 60 joins in a few ms: 6/s over 10 s, past pow_calm_rate = 2
urls=()
for ((i = 0; i < 60; i++)); do
	urls+=(-o /dev/null "$WR_BASE/v1/queues/busy/tokens")
done
codes=$(curl -s -X POST -w '%{http_code} ' "${urls[@]}")
# All 60 join, unless the tick measured the burst before its end (a slow
# daemon, as under valgrind): then the rest are asked for the work. At
# least the 20 that pow_calm_rate allows in 10 s get in first.
ok=$(tr ' ' '\n' <<<"$codes" | grep -c 201)
asked=$(tr ' ' '\n' <<<"$codes" | grep -c 403)
if [ $((ok + asked)) -eq 60 ] && [ "$ok" -ge 20 ]; then
	pass "a burst of 60 joins: $ok joined, $asked asked for work"
else
	fail "a burst of 60 joins" "codes: $codes"
fi
# A tick that measured the burst before its end saw between 21 and 39
# joins in 10 s: the rest were refused, and the bits stay at
# pow_start_bits (5), or reach 6 once 40 are in. All 60 in: 6 at the first
# tick that sees them (60 joins over at most 12 s of marks is 3x calm).
if [ "$ok" -eq 60 ]; then
	wait_until 'fetch busy; [ "$BITS" -eq 6 ]' 5
	check_eq "$BITS" 6 "... raises the bits: pow_start_bits + 1 for 3x the calm rate"
else
	wait_until 'fetch busy; [ "$BITS" -gt 0 ]' 5
	check_match "$BITS" '^[56]$' \
	    "... raises the bits: pow_start_bits, + 1 from 4x the calm rate ($ok joined)"
fi
join busy
check_error 403 challenge_required "... and a join now needs a challenge"

# ---- doc/api.md's Python solver, as printed ------------------------------------

awk '/^    import hashlib/ { on = 1 } on { print } /^    print\(json.load/ { exit }' \
    "$TOP_SRCDIR/doc/api.md" | sed -e 's/^    //' \
    -e "s|http://127.0.0.1:8080/v1/queues/concert|$WR_BASE/v1/queues/q|" \
    >"$WR_TMP/solver.py"
check_eq "$(wc -l <"$WR_TMP/solver.py")" 15 "doc/api.md's solver is 15 lines"
out=$(timeout 60 python3 "$WR_TMP/solver.py" 2>&1)
check_match "$out" "'status': 'waiting'" "... and joins a queue asking 12 bits"

# ---- metrics ---------------------------------------------------------------

http GET /metrics
check_match "$BODY" $'\nwaitroom_queue_pow_difficulty\\{queue="q"\\} 12\n' \
    "/metrics: the bits q asks now"
check_match "$BODY" $'\nwaitroom_pow_joins_refused_total\\{reason="challenge_used"\\} 2\n' \
    "/metrics: joins refused by reason"
check_match "$BODY" $'\nwaitroom_pow_challenges_issued_total [1-9][0-9]*\n' \
    "/metrics: challenges issued"

stop_waitroomd
