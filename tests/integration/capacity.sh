#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# capacity.sh: a capacity queue never holds more than max_active inside,
# admits in the join while a slot is free, refills a slot in the DELETE
# that freed it, and frees slots when sessions end.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/cap.conf" <<'EOF2'
[queue cap]
mode        = capacity
max_active  = 10
active_ttl  = 8
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/cap.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# Sample the public "active" figure about every 100 ms in the background.
(
	for ((i = 0; i < 300; i++)); do
		curl -s --max-time 2 "$WR_BASE/v1/queues/cap" | jq -r '.active // empty'
		sleep 0.1
	done
) >"$WR_TMP/active.samples" 2>/dev/null &
sampler=$!
WR_EXTRA_PIDS+=("$sampler")

# 30 joins in order on one connection, fast enough to beat the session.
join_many cap 30
mapfile -t tokens < <(jq -r .token "$WR_TMP/cap.answers")
mapfile -t statuses < <(jq -r .status "$WR_TMP/cap.answers")
check_eq "${statuses[*]:0:10}" "$(printf 'active %.0s' {1..10} | sed 's/ $//')" \
    "the first 10 joins are admitted in the join itself"
check_eq "${statuses[*]:10:20}" "$(printf 'waiting %.0s' {1..20} | sed 's/ $//')" \
    "the next 20 wait"
http GET "/v1/queues/cap/tokens/${tokens[10]}"
check_jq '.status == "waiting" and .position == 1 and (.eta_seconds | type == "number")' \
    "the 11th is first in line, with an ETA"
check_jq '.eta_range == [(.eta_seconds / (1 + 0.33) | floor), (.eta_seconds / (1 - 0.12) | ceil)]' \
    "and api.md's eta_range for capacity mode: [eta / 1.33, eta / 0.88]"
http GET /v1/queues/cap
check_jq '.active == 10 and .waiting == 20' "summary: 10 active, 20 waiting"

# ---- DELETE of an active token admits the next waiter at once -------------

http DELETE "/v1/queues/cap/tokens/${tokens[0]}"
check_status 204 "DELETE of an active token -> 204"
http GET "/v1/queues/cap/tokens/${tokens[10]}"
check_json .status active "the next waiter is active right after the DELETE returns"
http GET "/v1/queues/cap/tokens/${tokens[11]}"
check_json .position 1 "the one behind moves to position 1"
http GET "/v1/queues/cap/tokens/${tokens[0]}"
check_error 404 token_not_found "the ended session is gone"

# ---- expiry frees slots ---------------------------------------------------

# Sessions last 8 s: the next ten are admitted when the first ones end.
check "sessions that end free their slots: 10 more admitted within 15 s" \
    wait_until 'http GET /v1/queues/cap; [ "$(json .waiting)" = 9 ]' 15
http GET "/v1/queues/cap/tokens/${tokens[20]}"
check_json .status active "the 21st joiner is now inside"
check "the ended sessions are counted as expired" \
    wait_until '[ "$(stat_of cap expired)" -ge 9 ]' 5

wait "$sampler" 2>/dev/null
max=$(sort -n "$WR_TMP/active.samples" | tail -n 1)
n=$(grep -c . "$WR_TMP/active.samples")
if [ "$n" -ge 50 ] && [ "${max:-99}" -le 10 ]; then
	pass "never more than 10 active in $n samples (max $max)"
else
	fail "never more than 10 active at any sampled moment" "samples $n, max ${max:-none}"
fi
