#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# pow_bank.sh: a challenge is worth its stated bits, and a join needs at
# least what the queue asks at the moment of the join (doc/api.md, "Proof
# of work"), so work cannot be banked. With pow_bits = auto: a challenge
# of 0 bits fetched while the queue is calm, solved with a nonce whose
# hash happens to have more zero bits than the queue will ask, is refused
# once a burst of joins has raised the bits: 403 challenge_too_easy with
# a fresh challenge at the bits asked now, changing nothing in Redis; the
# fresh one, solved, joins. With a fixed pow_bits moved by the admin API:
# a challenge of more bits than asked joins, one of fewer is refused.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

wr_admin_conf "$WR_TMP/bank.conf"
cat >>"$WR_TMP/bank.conf" <<'EOF2'

[queue drop]
state          = paused
join_challenge = pow
pow_calm_rate  = 1
pow_start_bits = 4
pow_max_bits   = 8

[queue fixed]
state          = paused
join_challenge = pow
pow_bits       = 8
EOF2

SOLVE=$TOP_SRCDIR/tests/integration/pow_solve.py

start_redis
start_waitroomd "$WR_TMP/bank.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
for q in drop fixed; do
	wait_until "[ \"\$(rcli EXISTS 'wr:{$q}:seq')\" = 1 ]" ||
	    bail "queue $q has been ticked"
done

# ---- auto: a challenge banked while calm --------------------------------------

fetch drop
check_json .bits 0 "auto: a calm queue gives a challenge of 0 bits"
calm=$CH
join drop "$(body "$calm" 0)"
check_status 201 "... which joins while the queue is calm"
fetch drop
banked=$CH
# a nonce whose hash has at least pow_max_bits zero bits: what counts is
# the challenge's stated 0 bits, not the luck of its hash
lucky=$("$SOLVE" "$banked" 8)

# 30 joins at once: 3/s over 10 s, past pow_calm_rate = 1
urls=()
for ((i = 0; i < 30; i++)); do
	urls+=(-o /dev/null "$WR_BASE/v1/queues/drop/tokens")
done
curl -s -X POST "${urls[@]}"
wait_until 'fetch drop; [ "$BITS" -gt 0 ]' $((5 * WR_SLOW)) ||
    bail "a burst of joins raises the bits" "$(wr_last)"
pass "a burst of joins raises the bits to $BITS"
asked=$BITS rose=$EPOCHREALTIME

s1=$(snap)
w=$(waiting_of drop)
join drop "$(body "$banked" "$lucky")"
diag "the banked join came $(ms_between "$rose") ms after the bits rose"
check_error 403 challenge_too_easy \
    "the banked 0-bit challenge, spent in the burst -> 403 challenge_too_easy"
check_jq ".error.challenge | (.challenge | type == \"string\")
    and .bits >= $asked and .expires > now" \
    "... with a fresh challenge at the bits asked now ($asked)"
fresh=$(json .error.challenge.challenge) fbits=$(json .error.challenge.bits)
check_waiting drop "$w" "... and took no place"
check_eq "$(snap)" "$s1" "... and changed nothing in Redis"

join drop "$(body "$fresh" "$("$SOLVE" "$fresh" "$fbits")")"
check_status 201 "the fresh challenge, solved, joins"

# ---- fixed bits: more than asked is good, fewer is not -----------------------

fetch fixed
check_json .bits 8 "pow_bits = 8: a challenge of 8 bits"
hard=$CH hnonce=$("$SOLVE" "$CH" 8)
admin PUT /v1/admin/queues/fixed '{"pow_bits":4}'
check_status 200 "the admin lowers pow_bits to 4"
wait_until 'fetch fixed; [ "$BITS" = 4 ]' $((5 * WR_SLOW)) ||
    bail "the queue asks 4 bits" "$(wr_last)"
easy=$CH enonce=$("$SOLVE" "$CH" 4)
join fixed "$(body "$hard" "$hnonce")"
check_status 201 "a challenge of 8 bits joins a queue asking 4"

admin PUT /v1/admin/queues/fixed '{"pow_bits":10}'
check_status 200 "the admin raises pow_bits to 10"
wait_until 'fetch fixed; [ "$BITS" = 10 ]' $((5 * WR_SLOW)) ||
    bail "the queue asks 10 bits" "$(wr_last)"
s2=$(snap)
join fixed "$(body "$easy" "$enonce")"
check_error 403 challenge_too_easy \
    "a challenge of 4 bits, solved, on a queue asking 10 -> 403 challenge_too_easy"
check_json .error.challenge.bits 10 "... with a fresh challenge of 10 bits"
fresh=$(json .error.challenge.challenge)
check_eq "$(snap)" "$s2" "... and changed nothing in Redis"
join fixed "$(body "$fresh" "$("$SOLVE" "$fresh" 10)")"
check_status 201 "the fresh challenge, solved, joins"

# ---- metrics -------------------------------------------------------------------

http GET /metrics
check_match "$BODY" $'\nwaitroom_pow_joins_refused_total\\{reason="challenge_too_easy"\\} 2\n' \
    "/metrics: the two refusals, by reason"

stop_waitroomd
