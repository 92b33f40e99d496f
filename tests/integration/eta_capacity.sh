#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# eta_capacity.sh: a capacity queue's ETAs come from the ends of the
# sessions inside (doc/api.md, eta_seconds): with every slot taken by a
# session whose end is known, the p-th waiter is told when the p-th of
# them ends, within a second of when it is let in. The sessions are
# admitted SPACING apart, so their ends are too; the truth is when each
# waiter's status first reads active (polled). A DELETE that frees a slot
# early lets the next waiter in at once, and the one behind is told the
# next session's end. And eta_range is the mode's default (for a wait of
# one round; narrower, as a share, for longer ones) until 50 errors
# are counted (the stats hash's eta_errs, written here as the admissions
# would), then moves toward the queue's own p10 to p90 as the errors
# weigh against the default's 100: a third of the way on 50, two thirds
# on 200.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

TTL=6		# active_ttl, s
SPACING=1200	# ms between the sessions' admissions
cat >"$WR_TMP/eta.conf" <<EOF2
[queue known]
mode        = capacity
max_active  = 3
active_ttl  = $TTL
waiting_ttl = 600

[queue band]
mode        = capacity
max_active  = 1
active_ttl  = 60
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/eta.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# until_ms T: until the clock (now_ms) reaches T.
until_ms() {
	wait_until "[ \$(now_ms) -ge $1 ]" $(((${1} - $(now_ms)) / 1000 + 2))
}

# Three sessions, admitted in their joins SPACING ms apart.
t0=$(now_ms)
inside=()
for i in 0 1 2; do
	until_ms $((t0 + i * SPACING))
	join known
	inside+=("$TOKEN")
	check_json .status active "session $((i + 1)) is admitted in its join"
done

# joined_at TOKEN-VAR ETA-VAR AT-VAR: a waiter joins; its token, its
# eta_seconds and when it joined (ms, the middle of the request) and half
# the request's time (the slack of that).
WAITERS=() ETAS=() JOINED=() SLACK=()
join_waiter() {
	local before after
	before=$(now_ms)
	join known
	after=$(now_ms)
	WAITERS+=("$TOKEN")
	ETAS+=("$(json .eta_seconds)")
	JOINED+=($(((before + after) / 2)))
	SLACK+=($(((after - before) / 2)))
}

for i in 1 2 3; do
	join_waiter
done
http GET /v1/queues/known
check_jq '.active == 3 and .waiting == 3' "3 sessions inside, 3 waiting"

# poll_in FROM TO: until each of WAITERS[FROM..TO] reads active; sets
# IN[i] (ms, the middle between the last poll that saw it waiting and the
# first that saw it active) and IN_SLACK[i] (half of that). A deadline of
# two whole sessions.
IN=() IN_SLACK=()
poll_in() {
	local from=$1 to=$2 i left end last now
	end=$(($(now_ms) + 2 * TTL * 1000 * WR_SLOW))
	last=$(now_ms)
	while [ "$(now_ms)" -lt "$end" ]; do
		left=0
		for ((i = from; i <= to; i++)); do
			[ -n "${IN[i]:-}" ] && continue
			http GET "/v1/queues/known/tokens/${WAITERS[i]}"
			now=$(now_ms)
			if [ "$(json .status)" = active ]; then
				IN[i]=$(((last + now) / 2))
				IN_SLACK[i]=$(((now - last) / 2))
			else
				left=1
			fi
		done
		last=$(now_ms)
		[ "$left" = 0 ] && return 0
		sleep 0.05
	done
	return 1
}

# check_eta I WHAT: WAITERS[I]'s ETA is within a second of its wait (and
# of how well the two were measured).
check_eta() {
	local i=$1 wait_ms err_ms slack
	wait_ms=$((IN[i] - JOINED[i]))
	err_ms=$((ETAS[i] * 1000 - wait_ms))
	slack=$((1000 + SLACK[i] + IN_SLACK[i]))
	if [ "${err_ms#-}" -le "$slack" ]; then
		pass "$2: told ${ETAS[i]} s, waited $wait_ms ms"
	else
		fail "$2" "told ${ETAS[i]} s, waited $wait_ms ms (off by more than $slack ms)"
	fi
}

check "the three waiters are let in as the sessions end" poll_in 0 2
for i in 0 1 2; do
	check_eta "$i" "position $((i + 1)) is told when session $((i + 1)) ends"
done

# ---- a DELETE frees a slot early ------------------------------------------

join_waiter
join_waiter
http DELETE "/v1/queues/known/tokens/${WAITERS[0]}"
check_status 204 "the first waiter's session ends by DELETE"
http GET "/v1/queues/known/tokens/${WAITERS[3]}"
check_json .status active "the next waiter is let in at once"
before=$(now_ms)
http GET "/v1/queues/known/tokens/${WAITERS[4]}"
after=$(now_ms)
check_json .position 1 "the one behind is first in line"
ETAS[4]=$(json .eta_seconds)
JOINED[4]=$(((before + after) / 2)) SLACK[4]=$(((after - before) / 2))
check "it is let in when the next session ends" poll_in 4 4
check_eta 4 "and was told when that session ends"

# ---- the band: the mode's default, then the queue's own -------------------

# One session of 60 s inside, a waiter behind it and one behind that. A
# new room's mean session is 60 s / 1.1 (a fifth of a round of sessions
# taken to end early, eta.c's prior): once the session inside has run 8
# s, the first waiter's wait is less than one, and its band the mode's
# default for one round, -20% / +30%.
join band
held_at=$(now_ms)
join band
band_token=$TOKEN
join band
second_token=$TOKEN
until_ms $((held_at + 8000))
http GET "/v1/queues/band/tokens/$band_token"
check_jq '.position == 1 and .eta_range == [(.eta_seconds / 1.3 | round),
    (.eta_seconds / 0.8 | round)]' "a new capacity queue's band is the default"
width1=$(json '(.eta_range[1] - .eta_range[0]) / .eta_seconds')
http GET "/v1/queues/band/tokens/$second_token"
check "a wait of two rounds gets a narrower band, as a share of it" \
	jq -e --argjson w1 "$width1" '.position == 2 and
	    (.eta_range[1] - .eta_range[0]) / .eta_seconds < $w1 * 0.8' \
	    <<<"$BODY"
diag "band widths: one round $width1, two $(json '(.eta_range[1] - .eta_range[0]) / .eta_seconds')"

# errs N: N errors, half -10% and half +10% (thousandths, oldest first).
errs() {
	local i out=
	for ((i = 0; i < $1; i++)); do
		out+="$(((i % 2) * 200 - 100)) "
	done
	echo "${out% }"
}
# samples: the queue's samples so far (room_beat.lua's, one a second).
samples() {
	rcli zcard "wr:{band}:series"
}
rcli hset "wr:{band}:stats" eta_errs "$(errs 49)" eta_errs_n 49 >/dev/null
n=$(samples)
check "a report runs after 49 errors" wait_until "[ \$(samples) -gt $n ]" 5
n=$(samples)
check "and another" wait_until "[ \$(samples) -gt $n ]" 5
check_eq "$(rcli hget "wr:{band}:stats" eta_band)" "" "49 errors make no band"

rcli hset "wr:{band}:stats" eta_errs "$(errs 50)" eta_errs_n 50 >/dev/null
check "50 make the queue's own band: p10 -10%, p90 +10%, on 50" wait_until \
    '[ "$(rcli hget "wr:{band}:stats" eta_band)" = "-100 100 50" ]' 5
http GET "/v1/queues/band/tokens/$band_token"
check_jq '.eta_range == [(.eta_seconds / (1 + 0.3 - 0.2 / 3) | round),
    (.eta_seconds / (1 - 0.2 + 0.1 / 3) | round)]' \
    "and a waiter's eta_range is a third of the way from the default to it"
rcli hset "wr:{band}:stats" eta_errs "$(errs 200)" eta_errs_n 260 >/dev/null
check "200 make it the band on 200" wait_until \
    '[ "$(rcli hget "wr:{band}:stats" eta_band)" = "-100 100 200" ]' 5
http GET "/v1/queues/band/tokens/$band_token"
check_jq '.eta_range == [(.eta_seconds / (1 + 0.3 - 0.2 * 2 / 3) | round),
    (.eta_seconds / (1 - 0.2 + 0.1 * 2 / 3) | round)]' \
    "and a waiter's eta_range two thirds of the way"
