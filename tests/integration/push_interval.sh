#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# push_interval.sh: a stream is never left without news (issue 32). In a
# line of 250, the stream of the first waiter and that of the last, on two
# instances, each get a status at least every push_interval (1 s here),
# give or take a tolerance of 1.5 times it plus 0.5 s, over six gaps,
# each status with the waiter's exact place. Should waiters far back be
# pushed less often, FAR_MAX is the longest interval any of them may wait.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

PUSH=1		# push_interval, seconds
FAR_MAX=$PUSH	# the longest interval of a waiter far back, seconds
GAPS=6		# gaps measured on each stream

cat >"$WR_TMP/push.conf" <<EOF
push_interval = $PUSH

[queue long]
mode        = rate
state       = paused
waiting_ttl = 600
EOF

# check_gaps NAME MAX DESC: the stream got GAPS + 1 statuses, each (but
# the first, at once on connect) within MAX seconds, 1.5 times plus 0.5 s,
# of the one before.
check_gaps() {
	local name=$1 limit gaps worst
	limit=$(awk -v m="$2" 'BEGIN { printf "%d\n", (1.5 * m + 0.5) * 1000 }')
	sse_events "$name" | awk -F '\t' '$3 == "status" { print $1 }' |
	    head -n $((GAPS + 1)) >"$WR_TMP/$name.stamps"
	gaps=$(awk 'NR > 1 { printf "%d ", ($1 - prev) * 1000 } { prev = $1 }' \
	    "$WR_TMP/$name.stamps")
	worst=$(tr ' ' '\n' <<<"$gaps" | sort -n | tail -n 1)
	if [ "$(wc -w <<<"$gaps")" = "$GAPS" ] && [ "$worst" -le "$limit" ]; then
		pass "$3 (gaps ${gaps% } ms; at most $limit)"
	else
		fail "$3" "gaps between statuses: '${gaps% }' ms, at most $limit ms allowed" \
		    "$(sse_text "$name" | tail -n 12)"
	fi
}

start_redis
start_waitroomd "$WR_TMP/push.conf"
wait_ready || bail "waitroomd is ready"
start_more_waitroomd two "$WR_TMP/push.conf"
TWO=http://127.0.0.1:$MORE_PORT

join_many long 250
check_eq "$(rcli zcard 'wr:{long}:waiting')" 250 "250 join a paused line"
first=$(head -n 1 "$WR_TMP/long.joined")
last=$(tail -n 1 "$WR_TMP/long.joined")

WR_SSE_TIMEOUT=$((60 * WR_SLOW))
sse_start near "/v1/queues/long/tokens/$first/events"
on "$TWO" sse_start far "/v1/queues/long/tokens/$last/events"
wait_s=$(((GAPS + 2) * (FAR_MAX > PUSH ? FAR_MAX : PUSH) * 2 * WR_SLOW))
if ! sse_wait near '^event: status$' $((GAPS + 1)) "$wait_s" ||
    ! sse_wait far '^event: status$' $((GAPS + 1)) "$wait_s"; then
	fail "$((GAPS + 1)) statuses on each stream within $wait_s s" \
	    "near: $(sse_statuses near), far: $(sse_statuses far)"
fi

check_gaps near "$PUSH" "the first in line gets a status every push_interval"
check_gaps far "$FAR_MAX" "the 250th gets a status at least every $FAR_MAX s"
check_eq "$(sse_data near status 0 | jq -c '[.position, .waiting]')" "[1,250]" \
    "the first's stream says position 1 of 250"
check_eq "$(sse_data far status 0 | jq -c '[.position, .waiting]')" "[250,250]" \
    "the last's stream says position 250 of 250"
sse_stop near
sse_stop far
