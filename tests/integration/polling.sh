#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# polling.sh: clients without streams (doc/api.md, "Apps and clients
# without streams"). Every status object carries poll_after: the join's,
# the GET's (with the same Retry-After while waiting), a stream's status
# event and the no-JavaScript page's reload agree; it grows with the
# position, never exceeds 30 s nor half of waiting_ttl; a client that
# polls as told keeps its place while one that stops is dropped; and the
# Python client doc/api.md prints runs as printed and reaches the site.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

# The site behind the queue: a static page on loopback.
SITE_PORT=$(wr_free_port) || bail "a free port for the site"
mkdir -p "$WR_TMP/site"
echo 'the site: welcome in' >"$WR_TMP/site/index.html"
python3 -m http.server --bind 127.0.0.1 --directory "$WR_TMP/site" \
    "$SITE_PORT" >"$WR_TMP/site.log" 2>&1 </dev/null &
WR_EXTRA_PIDS+=($!)

conf=$WR_TMP/polling.conf
cat >"$conf" <<EOF
push_interval = 2

[queue paused]
mode  = rate
state = paused

[queue slow]
mode     = rate
batch    = 1
interval = 60

[queue short]
mode        = rate
state       = paused
waiting_ttl = 10

[queue sweep]
mode        = rate
state       = paused
waiting_ttl = 5

[queue open]
mode = passthrough

[queue sale]
mode     = rate
opens_at = $(($(date +%s) + 7200))

[queue concert]
mode     = rate
batch    = 1
interval = 1
redirect = http://127.0.0.1:$SITE_PORT/
EOF

start_redis
start_waitroomd "$conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- one waiter, everywhere its status is told ------------------------------

# Without an estimate (a paused queue) push_interval a place: 2, 4, 6...
for i in 1 2 3; do
	join paused
	check_json .poll_after $((2 * i)) \
	    "the join of place $i in a paused queue says poll_after $((2 * i))"
done
t3=$TOKEN
http GET "/v1/queues/paused/tokens/$t3"
check_status 200
check_json .poll_after 6 "GET of place 3 says poll_after 6"
check_header Retry-After 6 "and Retry-After: 6, the same"

WR_SSE_TIMEOUT=10 sse_start s3 "/v1/queues/paused/tokens/$t3/events"
sse_wait s3 '^event: status$' 1 5 || fail "the stream sends a status"
check_eq "$(sse_data s3 status | jq -r .poll_after)" 6 \
    "the stream's status event says poll_after 6 too"
sse_stop s3

http GET "/q/paused?token=$t3"
check_contains "$BODY" '<meta http-equiv="refresh" content="6">' \
    "the page without JavaScript reloads after poll_after, 6 s"

# ---- grows with the position, capped ----------------------------------------

for i in $(seq 4 20); do join paused; done
check_json .poll_after 30 "place 20 of a paused queue: 40 s capped at 30"
http GET "/v1/queues/paused/tokens/$TOKEN"
check_header Retry-After 30 "its Retry-After is 30"

# With an estimate: a tenth of the ETA, one admission a minute.
: >"$WR_TMP/slow"
for i in $(seq 1 12); do
	join slow
	printf '%s\n' "$BODY" >>"$WR_TMP/slow"
done
check_eq "$(jq -s '[.[].status] | unique' -c "$WR_TMP/slow")" '["waiting"]' \
    "twelve wait in a queue that admits one a minute"
check_eq "$(jq -s '[.[] | .poll_after >= 2 and .poll_after <= 30 and
    .poll_after == ([2, (.eta_seconds / 10 | floor)] | max | [., 30] | min)]
    | all' "$WR_TMP/slow")" true \
    "each poll_after is max(push_interval, eta / 10), at most 30"
check_eq "$(jq -s '[.[].poll_after] as $p | $p == ($p | sort) and $p[0] < 30
    and $p[-1] == 30' "$WR_TMP/slow")" true \
    "poll_after grows with the position up to 30 ($(jq -s -c \
    '[.[].poll_after]' "$WR_TMP/slow"))"

# waiting_ttl 10: never more than 5, so a poller is seen twice per TTL.
for i in $(seq 1 6); do join short; done
check_json .poll_after 5 "waiting_ttl = 10 caps poll_after at 5"

# ---- a poller keeps its place; a client that stops loses it ------------------

# Third in a paused line: 3 x push_interval would be 6 s, more than
# waiting_ttl; told 2 s, it is seen in time.
join sweep
idle=$TOKEN
join sweep
join sweep
poller=$TOKEN
check_json .poll_after 2 "third, waiting_ttl = 5: poll_after 2, not 6"
end=$(($(now_ms) + 9000))
kept=1
while [ "$(now_ms)" -lt "$end" ]; do
	http GET "/v1/queues/sweep/tokens/$poller"
	[ "$STATUS" = 200 ] || { kept=0; break; }
	sleep "$(json .poll_after)"
done
check_eq "$kept" 1 "a client polling after poll_after for 9 s (waiting_ttl 5) keeps its place"
http GET "/v1/queues/sweep/tokens/$idle"
check_error 404 token_not_found "one that stopped asking is dropped as abandoned"
http GET "/v1/queues/sweep/tokens/$poller"
check_json .position 1 "and the poller moved up to place 1"

# ---- active and pre-queue ----------------------------------------------------

join open
check_json .status active "a passthrough join is active"
check_json .poll_after 2 "an active status says push_interval"
http GET "/v1/queues/open/tokens/$TOKEN"
check_json .poll_after 2 "so does its GET"
if has_header Retry-After; then
	fail "no Retry-After once active" "$HEADERS"
else
	pass "no Retry-After once active"
fi

join sale
check_json .status prequeue "a join two hours before the opening: prequeue"
check_json .poll_after 30 "the opening is far: poll_after 30"
http GET "/v1/queues/sale/tokens/$TOKEN"
check_header Retry-After 30 "Retry-After 30 while it awaits the draw"

# ---- doc/api.md's client, as printed ----------------------------------------

awk '/^A complete client in Python/ { on = 1; next }
    on && /^    / { print substr($0, 5); code = 1; next }
    on && code && !/^$/ { exit }' "$TOP_SRCDIR/doc/api.md" |
    sed "s|http://127.0.0.1:8080|$WR_BASE|" >"$WR_TMP/client.py"
check_match "$(wc -l <"$WR_TMP/client.py")" '^[1-9][0-9]+$' \
    "doc/api.md has the client's code"
join concert '{"user":"ahead"}'		# someone ahead, admitted first
out=$(timeout 30 python3 "$WR_TMP/client.py" 2>&1)
check_match "$out" '^waiting [12] ' "the client waits, and says where"
check_match "$out" 'the site: welcome in$' \
    "then goes through the redirect to the site ($(tail -n 1 <<<"$out"))"

stop_waitroomd
