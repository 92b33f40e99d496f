#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# invite.sh: an invite-only queue (access = invite). A join with a valid
# invitation (an HS256 JWT signed here in Python, as a site would mint
# one, or printed by waitroomctl invite) gets a place; its reuse past
# max_uses is refused on a second instance too (403 invite_used), but a
# retry by the user whose place it bought gets that place (200) and
# spends no use, on either instance, while another user is refused; none,
# one of another queue, a wrong signature, an unknown key, an expired one
# are refused (403 invite_required, invite_invalid), and nothing refused
# changes Redis. An open queue still takes joins without one, and an
# invitation stands in for a proof of work the queue asks.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

S=invite-secret-0123456789abcdefghijklm
printf 'k1 %s\n' "$S" >"$WR_TMP/keys"
cat >"$WR_TMP/invite.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue vip]
mode        = rate
batch       = 1
interval    = 3600
waiting_ttl = 600
access      = invite

[queue vippow]
mode        = rate
batch       = 1
interval    = 3600
access      = invite
join_challenge = pow
pow_bits    = 12

[queue public]
mode        = rate
batch       = 1
interval    = 3600
EOF2

start_redis
start_waitroomd "$WR_TMP/invite.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
start_more_waitroomd two "$WR_TMP/invite.conf"
FIRST=$WR_BASE SECOND=http://127.0.0.1:$MORE_PORT

now=$(date +%s)
inv() { printf '{"invite":"%s"}' "$1"; }
invu() { printf '{"invite":"%s","user":"%s"}' "$1" "$2"; }
# redis_state: what a join may write in Redis (the admission ticks write
# the rest): the lines, the seen sets, every user and use key with its
# value, the join counters and the ticket counters.
redis_state() {
	local q k
	for q in vip public; do
		printf '%s waiting %s\n' "$q" "$(rcli zrange "wr:{$q}:waiting" 0 -1 | tr '\n' ' ')"
		printf '%s seen %s\n' "$q" "$(rcli zcard "wr:{$q}:seen")"
		printf '%s active %s\n' "$q" "$(rcli zcard "wr:{$q}:active")"
		printf '%s joined %s\n' "$q" "$(rcli hget "wr:{$q}:stats" joined)"
		printf '%s seq %s\n' "$q" "$(rcli get "wr:{$q}:seq" | sed 's/^$/0/')"
	done
	rcli --scan --pattern '*:u[sl]e[rd]:*' | sort | while read -r k; do
		printf '%s %s %s\n' "$k" "$(rcli get "$k")" "$(rcli pexpiretime "$k")"
	done
}

# ---- refused, and nothing changes ------------------------------------------

before=$(redis_state)
join vip
check_error 403 invite_required "a join without an invitation -> 403 invite_required"
join vip '{"user":"u-1"}'
check_error 403 invite_required "with only a user, too"
join vip "$(inv "$(sign "$S" k1 "{\"aud\":\"public\",\"jti\":\"a1\",\"exp\":$((now + 600))}" JWT)")"
check_error 403 invite_invalid "an invitation to another queue -> 403 invite_invalid"
check_contains "$(json .error.message)" "another queue" "its message says so"
join vip "$(inv "$(sign not-the-secret-0123456789abcdefghij k1 "{\"aud\":\"vip\",\"jti\":\"a2\",\"exp\":$((now + 600))}" JWT)")"
check_error 403 invite_invalid "a wrong signature -> 403 invite_invalid"
join vip "$(inv "$(sign "$S" k9 "{\"aud\":\"vip\",\"jti\":\"a3\",\"exp\":$((now + 600))}" JWT)")"
check_error 403 invite_invalid "a key this server does not hold -> 403 invite_invalid"
join vip "$(inv "$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"a4\",\"exp\":$((now - 60))}" JWT)")"
check_error 403 invite_invalid "an expired invitation -> 403 invite_invalid"
check_contains "$(json .error.message)" "expired" "its message says so"
join vip "$(inv "$(sign "$S" k1 "{\"aud\":\"vip\",\"exp\":$((now + 600))}" JWT)")"
check_error 403 invite_invalid "one without a jti -> 403 invite_invalid"
join vip "$(inv "$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"a5\",\"exp\":$((now + 600)),\"max_uses\":0}" JWT)")"
check_error 403 invite_invalid "max_uses 0 -> 403 invite_invalid"
join vip '{"invite":42}'
check_error 400 bad_request "an invitation that is not a string -> 400"
join vip '{"invite":"not.a.jwt"}'
check_error 403 invite_invalid "one that is not a JWT -> 403 invite_invalid"
check_lines "$(redis_state)" "$before" "nothing refused changed Redis" "Redis"

# ---- a valid invitation, used up across instances --------------------------

TWO=$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"guest-7\",\"exp\":$((now + 600)),\"max_uses\":2}" JWT)
join vip "$(inv "$TWO")"
check_jq '.status == "waiting" and .position == 1' \
    "a valid invitation (max_uses 2) joins: 201, first in line"
check_status 201 "-> 201"
WR_BASE=$SECOND
join vip "$(inv "$TWO")"
check_status 201 "its second use, on the second instance: 201"
before=$(redis_state)
join vip "$(inv "$TWO")"
check_error 403 invite_used "its third, on the second instance: 403 invite_used"
WR_BASE=$FIRST
join vip "$(inv "$TWO")"
check_error 403 invite_used "and on the first: 403 invite_used"
join vip "$(invu "$TWO" u-2)"
check_error 403 invite_used "with a user who holds no place too"
check_lines "$(redis_state)" "$before" "the refused reuses changed nothing in Redis" "Redis"
ONE=$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"guest-8\",\"exp\":$((now + 600))}" JWT)
join vip "$(inv "$ONE")"
check_status 201 "max_uses left out is 1: the first use joins"
join vip "$(inv "$ONE")"
check_error 403 invite_used "and the second is refused"
http GET /v1/queues/vip
check_json .waiting 3 "three invited joins wait in line"

# ---- a retry by the user who holds the place -------------------------------

ANN=$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"ann-1\",\"exp\":$((now + 600))}" JWT)
join vip "$(invu "$ANN" ann)"
check_status 201 "ann joins with a one-use invitation: 201"
ann=$TOKEN
before=$(redis_state)
join vip "$(invu "$ANN" ann)"
check_status 200 "ann retries with it: 200, not invite_used"
check_eq "$TOKEN" "$ann" "... with her place's token"
WR_BASE=$SECOND
join vip "$(invu "$ANN" ann)"
check_status 200 "... and on the second instance"
check_eq "$TOKEN" "$ann" "... the same token"
WR_BASE=$FIRST
# (a retry marks its token seen, as any status does: not compared)
check_lines "$(redis_state | grep -v ' seen ')" "$(grep -v ' seen ' <<<"$before")" \
    "the retries spent no use, took no place and left the user key as it was" "Redis"
before=$(redis_state)
join vip "$(invu "$ANN" bob)"
check_error 403 invite_used "bob with ann's used invitation: 403 invite_used"
join vip "$(invu "$ONE" ann)"
check_error 403 invite_used \
    "ann with another used invitation than the one of her place: 403 invite_used"
check_lines "$(redis_state)" "$before" "... and neither changed Redis" "Redis"
PAIR=$(sign "$S" k1 "{\"aud\":\"vip\",\"jti\":\"pair-1\",\"exp\":$((now + 600)),\"max_uses\":2}" JWT)
join vip "$(invu "$PAIR" cy)"
check_status 201 "cy joins with an invitation of two uses"
join vip "$(invu "$PAIR" cy)"
check_status 200 "cy retries: 200, her place"
join vip "$(invu "$PAIR" dee)"
check_status 201 "dee joins with its second use: the retry spent none"
join vip "$(invu "$PAIR" eve)"
check_error 403 invite_used "eve, after both uses: 403 invite_used"
http GET /v1/queues/vip
check_json .waiting 6 "ann, cy and dee took one place each"
http DELETE "/v1/queues/vip/tokens/$ann"
check_status 204 "ann leaves the line"
before=$(redis_state)
join vip "$(invu "$ANN" ann)"
check_error 403 invite_used "... and her invitation, used up, buys her no new place"
check_lines "$(redis_state)" "$before" "... and changes nothing in Redis" "Redis"

# ---- an invitation stands in for the proof of work ------------------------

join vippow
check_error 403 challenge_required \
    "an invite-only queue that asks work: a bare join -> 403 challenge_required"
join vippow "$(inv "$(sign "$S" k1 "{\"aud\":\"vippow\",\"jti\":\"p1\",\"exp\":$((now + 600))}" JWT)")"
check_status 201 "a join with a valid invitation is not asked for the work: 201"
join vippow "$(inv "$(sign "$S" k1 "{\"aud\":\"vippow\",\"jti\":\"p1\",\"exp\":$((now + 600))}" JWT)")"
check_error 403 invite_used "its reuse: 403 invite_used, not challenge_used"

# ---- waitroomctl invite ---------------------------------------------------

mapfile -t minted < <("$WAITROOMCTL" invite vip --uses 1 --ttl 600 --count 3 \
    --key-file "$WR_TMP/keys")
check_eq "${#minted[@]}" 3 "waitroomctl invite --count 3 prints three invitations"
join vip "$(inv "${minted[0]}")"
check_status 201 "the first joins"
join vip "$(inv "${minted[1]}")"
check_status 201 "the second is another invitation: it joins too"
join vip "$(inv "${minted[0]}")"
check_error 403 invite_used "the first again: 403 invite_used"
join public
check_status 201 "an open queue takes joins without an invitation"
