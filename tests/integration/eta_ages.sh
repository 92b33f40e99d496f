#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# eta_ages.sh: the ETA counts abandonment by age. Those who abandon leave
# young; a waiter whose places ahead are all older than any abandoner was
# is told that none of them will leave, however many of the line's
# leavers abandoned. Real joins, real abandonments (waiters that stop
# asking), the ages as tick.lua counts them.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# One admitted a minute: the test runs between two admissions. Paused
# at first, so its first admission comes when it opens.
wr_admin_conf "$WR_TMP/ages.conf"
cat >>"$WR_TMP/ages.conf" <<'EOF2'
[queue ag]
mode        = rate
batch       = 1
interval    = 60
waiting_ttl = 5
state       = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/ages.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# seen: ask about every polled waiter once (each must be asked about
# within waiting_ttl to keep its place).
seen() {
	local urls=() t
	for t in "${polled[@]}"; do
		urls+=("$WR_BASE/v1/queues/ag/tokens/$t")
	done
	curl -s "${urls[@]}" >/dev/null
}

# Two join before the queue opens: the first is admitted at once, and
# the second is the line's first from then on, which tick.lua keeps as
# joined when the admitted did.
join ag
# shellcheck disable=SC2034 # read by wait_until's code below
first=$TOKEN first_at=$(redis_ms)
join ag
polled=("$TOKEN")
admin PUT /v1/admin/queues/ag '{"state": "open"}'
check_json .result updated "the queue opens"
wait_until '[ "$(status_of ag "$first")" = active ]' 10 ||
	bail "the first joiner is admitted" "$BODY"
# ages: the stats hash's eta_ages, 'head_at sum n' (lib.lua's ages_put).
ages() {
	rcli hget "wr:{ag}:stats" eta_ages
}
read -r head_at _ _ <<<"$(ages)"
head_at=${head_at:-0}
diag "first joined $first_at, the line's first taken at $head_at"
check "the line's first is taken to have joined when the admitted did" \
	test "$(((head_at >= first_at - 1000) && (head_at <= first_at + 1500)))" = 1

# Nine more waiters asked about, then five who never ask again.
for ((i = 0; i < 9; i++)); do
	join ag
	polled+=("$TOKEN")
done
quiet_at=$(redis_ms)
for ((i = 0; i < 5; i++)); do
	join ag
done
check_eq "$(rcli zcard "wr:{ag}:waiting")" 15 "fifteen wait"

# The five are dropped after waiting_ttl (5 s); the ten stay.
wait_until 'seen; [ "$(rcli zcard "wr:{ag}:waiting")" = 10 ]' 20 ||
	bail "the five quiet waiters are dropped" "$(rcli zcard "wr:{ag}:waiting")"
dropped_at=$(redis_ms)
check_eq "$(rcli hget "wr:{ag}:stats" abandoned)" 5 "five abandoned"
read -r _ sum aged <<<"$(ages)"
check_eq "$aged" 5 "the age at which each left the line is counted"
sum=${sum:-0}
# Each age runs from its join mark (up to a second after the join) to the
# sweep that dropped it: at least waiting_ttl less that second, at most
# until the drop was seen here.
check "their mean age lies between waiting_ttl less a second and the drop" \
	test "$(((sum / 5 >= 4000) && (sum / 5 <= dropped_at - quiet_at + 100)))" = 1

# Half or more of the leavers abandoned (one admitted, five abandoned;
# keep is never below a half), so the line was read as moving two places
# an admission: the third in line told the second admission from now.
# But once the two ahead of the third (the oldest fifth of the line of
# ten, as eta.c spreads their ages: from 0.8 of the first's age up) are
# older than twice the abandoners' mean age, older than any abandoner
# was, neither will leave, and the third waits for the third admission.
wait_until 'seen; (( ($(redis_ms) - head_at) * 4 > (2 * sum / 5 + 1000) * 5 ))' 40 ||
	bail "the line outgrows the abandoners' ages"
http GET "/v1/queues/ag/tokens/${polled[0]}"
check_jq '.position == 1' "the first of the ten is first in line"
eta1=$(json .eta_seconds)
http GET "/v1/queues/ag/tokens/${polled[2]}"
check_jq '.position == 3' "the third is third"
eta3=$(json .eta_seconds)
check "the third waits two admissions (120 s) longer than the first" \
	test "$(((eta3 - eta1 >= 119) && (eta3 - eta1 <= 121)))" = 1
diag "ETAs: first $eta1 s, third $eta3 s; abandoners $((sum / 5)) ms on average"
