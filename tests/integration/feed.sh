#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# feed.sh: the operator's console's live feed, GET /v1/admin/events. It
# asks for the admin token and lives on admin_listen only; it starts with
# the history Redis kept before it connected, then every second a `room`
# event with every figure doc/api.md names: joins show in the waiting
# count within 2 s, waiting is the public summary's, a queue that admits
# nobody while people wait is `stalled` (and a paused one is not). Two
# instances on one Redis each show both instances' streams; one killed
# is shown missing within 3 s; Redis stopped is `redis_unreachable`. No
# secret is ever in it, nor in any answer of the admin API.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

WR_SSE_TIMEOUT=$((120 * WR_SLOW))
APORT=$(wr_free_port) || bail "a free port for admin_listen"
PASS_SECRET=pass-key-secret-for-the-feed-test-0123456789
printf 'k1 %s\n' "$PASS_SECRET" >"$WR_TMP/keys"
OPENS=$(($(date +%s) + 7200))
wr_admin_conf "$WR_TMP/two.conf"
cat >>"$WR_TMP/two.conf" <<EOF2
pass_key_file = $WR_TMP/keys
pass_cookie_secure = no

[queue concert]
mode        = rate
batch       = 1
interval    = 1
max_active  = 1
active_ttl  = 300

[queue calm]
mode        = rate
state       = paused

[queue sale]
opens_at    = $OPENS

[queue venue]
mode        = capacity
max_active  = 2
active_ttl  = 600
EOF2
write_conf "$WR_TMP/one.conf" "$WR_TMP/two.conf" "admin_listen=127.0.0.1:$APORT"

start_redis
start_waitroomd "$WR_TMP/one.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
PUBLIC=$WR_BASE
ADMIN=http://127.0.0.1:$APORT

# feed NAME BASE: open the feed on BASE as stream NAME.
feed() {
	on "$2" sse_start "$1" /v1/admin/events \
	    -H "Authorization: Bearer $ADMIN_TOKEN"
}

# room NAME: the last `room` event of stream NAME so far ({} when none).
room() {
	local d
	d=$(sse_data "$1" room 0)
	echo "${d:-{\}}"
}

# room_is NAME JQ: the last room event of NAME makes JQ true.
room_is() {
	[ "$(room "$1" | jq -r "$2" 2>/dev/null)" = true ]
}

# ---- who may read it ------------------------------------------------------------

on "$ADMIN" http GET /v1/admin/events
check_error 401 unauthorized "the feed without a token -> 401"
on "$ADMIN" http GET /v1/admin/events '' \
    -H "Authorization: Bearer wrong-token-0123456789"
check_error 401 unauthorized "the feed with a wrong token -> 401"
on "$ADMIN" admin GET /v1/admin/events '' \
    -H "Authorization: Bearer $ADMIN_TOKEN"
check_error 401 unauthorized "the feed with two Authorization headers -> 401"
on "$PUBLIC" admin GET /v1/admin/events
check_error 404 not_found "the feed on the public port, with admin_listen set -> 404"
on "$ADMIN" admin HEAD /v1/admin/events '' -I
check_status 200 "HEAD of the feed -> 200"
check_header Content-Type text/event-stream "... its head says text/event-stream"

# ---- history at connect -----------------------------------------------------------

for i in 1 2 3 4 5 6; do
	join concert
	check_status 201 "setup: join $i of concert"
	echo "$TOKEN" >>"$WR_TMP/tokens"
done
join calm
echo "$TOKEN" >>"$WR_TMP/tokens"
wait_until '[ "$(waiting_of concert)" = 5 ]' 5
check_eq "$(waiting_of concert)" 5 "setup: one of six admitted, five wait"
# samples written while nobody watched: three, the last two with the five
wait_until '[ "$(rcli zcount "wr:{concert}:series" -inf +inf)" -ge 3 ] &&
    [ "$(rcli zrange "wr:{concert}:series" -2 -1 | grep -c "\"waiting\":5,")" = 2 ]' 10
BEFORE_S=$(date +%s)
feed a "$ADMIN"
sse_wait a '^event: history$' 1 5
check_eq "$(sse_events a | head -n 1 | cut -f 3)" history \
    "the feed starts with a history event"
H=$(sse_data a history)
BODY=$H check_jq '.queues.concert.step == 1 and (.queues.concert.waiting | length) >= 3' \
    "... it holds concert's samples, one a second"
BODY=$H check_jq ".queues.concert.from <= $((BEFORE_S - 2))" \
    "... from before the feed connected"
BODY=$H check_jq '[.queues.concert.waiting[] | select(. == 5)] | length >= 2' \
    "... with the five waiting"
BODY=$H check_jq '.queues.concert | (.joins_per_s | length) == (.active | length) and (.admitted_per_s | length) == (.waiting | length)' \
    "... four series of one length"

# ---- the room, every second --------------------------------------------------------

sse_wait a '^event: room$' 2 5
check "room events follow the history" [ "$(sse_count a '^event: room$')" -ge 2 ]
for i in 1 2 3 4 5 6 7 8; do
	join concert
	echo "$TOKEN" >>"$WR_TMP/tokens"
done
T0=$EPOCHREALTIME
if wait_until 'room_is a "[.queues[] | select(.queue == \"concert\")][0].waiting == 13"' 3; then
	ms=$(ms_between "$T0")
	check "eight joins show in the waiting count within 2 s ($ms ms)" \
	    [ "$ms" -le $((2000 * WR_SLOW)) ]
else
	fail "eight joins show in the waiting count within 2 s" "$(room a)"
fi
R=$(room a)
BODY=$R check_jq '[.queues[] | select(.queue == "concert")][0].joins_per_s > 0' \
    "... and joins_per_s > 0 after the burst"
W=$(waiting_of concert)
check_eq "$(jq '[.queues[] | select(.queue == "concert")][0].waiting' <<<"$R")" \
    "$W" "... and waiting is the public summary's ($W)"

BODY=$R
check_jq '(keys | sort) == (["alerts","at","instances","queues","redis","streams"])' \
    "the room event has at, instances, streams, redis, queues and alerts"
check_jq '.at > 1700000000000 and (.streams | type) == "number"' \
    "... at is in ms, streams a number"
check_jq '.redis | .reachable == true and .role == "master" and .used_memory > 0 and (.maxmemory | type) == "number" and .latency_ms >= 0 and .latency_ms < 1000' \
    "... redis: reachable, master, memory used and max, latency in ms"
check_jq ".instances | length == 1 and (.[0] | .pid == $WR_PID and .missing == false and .seen_ms_ago < 2000 and (.id | endswith(\":$WR_PID\")) and (.host | type) == \"string\" and has(\"worker\") and .streams == 0 and .connections >= 1 and .requests_per_s >= 0 and .errors_per_s == 0)" \
    "... the instance: id host:pid, host, pid, worker, not missing, streams, connections, requests and errors per second"
Q='[.queues[] | select(.queue == "concert")][0]'
check_jq "$Q | (keys | sort) == ([\"active\",\"admitted_per_s\",\"closes_at\",\"draw\",\"entrants\",\"eta_new_s\",\"fail_open_until\",\"invites_used\",\"joins_per_s\",\"mode\",\"notice\",\"opens_at\",\"per_minute\",\"pow_bits\",\"queue\",\"refused_per_s\",\"state\",\"streams\",\"wait_p50_s\",\"wait_p90_s\",\"waiting\"] | sort)" \
    "... a queue has every field of doc/api.md"
check_jq "$Q | .state == \"open\" and .mode == \"rate\" and .draw == \"none\" and .opens_at == 0 and .active == 1 and .entrants == 0 and .eta_new_s > 0 and .pow_bits == null and .fail_open_until == 0 and .notice == null and .invites_used == 0" \
    "... concert: open, rate, no draw, one active, an ETA for a new joiner, no work asked"
check_jq "$Q | (.per_minute | keys | sort) == [\"abandoned\",\"expired\",\"left\"] and (.refused_per_s | keys | sort) == [\"invitation\",\"origin\",\"rate\",\"work\"]" \
    "... per_minute abandoned, expired, left; refused_per_s by reason"
check_jq "$Q | (.wait_p50_s | type) == \"number\" and .wait_p50_s >= 0 and .wait_p90_s >= .wait_p50_s" \
    "... the admitted one's time in line: p50 and p90"
check_jq '[.queues[] | select(.queue == "sale")][0] | .draw == "committed" and .opens_at > 0 and .eta_new_s == null' \
    "... sale, scheduled: its draw committed, no ETA before the opening"
check_jq '[.queues[] | select(.queue == "calm")][0] | .state == "paused" and .eta_new_s == null' \
    "... calm: paused, no ETA"

# ---- stalled: admitting nobody while people wait --------------------------------------

# concert admits one a second but its one session slot stays taken: the
# head has not moved for three intervals.
wait_until 'room_is a "[.alerts[] | select(.kind == \"stalled\" and .queue == \"concert\")] | length == 1"' $((8 * WR_SLOW))
BODY=$(room a)
check_jq '[.alerts[] | select(.kind == "stalled" and .queue == "concert")][0].since > 1700000000' \
    "concert, open, admitting nobody while 13 wait: a stalled alert, with since"
check_jq '[.alerts[] | select(.kind == "stalled" and .queue == "calm")] | length == 0' \
    "calm, paused with a waiter: no stalled alert"
on "$ADMIN" admin POST /v1/admin/queues/concert/promote '{"count":1}'
check_status 200 "an admin promotes one"
wait_until 'room_is a "[.alerts[] | select(.kind == \"stalled\")] | length == 0"' 3
BODY=$(room a)
check_jq '[.alerts[] | select(.kind == "stalled")] | length == 0' \
    "... the head moved: the alert is gone"

# ---- a capacity queue's new joiner ----------------------------------------------------
# eta_new_s is what a visitor joining now is told, which in a capacity
# queue rests on when the sessions inside end (doc/api.md, eta_seconds):
# two sessions of ten minutes, one of them let in (as if) eight minutes
# ago, and nobody waiting. Not a mean session's turnover, 300 s a slot.

join venue
check_status 201 "setup: the first of venue's two sessions"
rcli zadd "wr:{venue}:active" XX $(($(redis_ms) + 120000)) "$TOKEN" >/dev/null
join venue
check_status 201 "setup: the second"
wait_until 'room_is a "[.queues[] | select(.queue == \"venue\")][0] | .active == 2 and .eta_new_s != null"' 5
E=$(room a | jq '[.queues[] | select(.queue == "venue")][0].eta_new_s')
join venue
V=$TOKEN
check_jq '.status == "waiting" and .position == 1' "a third joins venue and waits"
T=$(json .eta_seconds)
check "venue's eta_new_s ($E s) is what the third was told ($T s), within a second" \
    test $((E >= T - 1 && E <= T + 1)) = 1
check "... when the first session ends, two minutes from now" \
    test $((T >= 100 && T <= 121)) = 1
http DELETE "/v1/queues/venue/tokens/$V"
check_status 204 "... who leaves"

# ---- two instances ------------------------------------------------------------------------

start_more_waitroomd b "$WR_TMP/two.conf"
B_PID=$MORE_PID
B=http://127.0.0.1:$MORE_PORT
wait_until 'room_is a ".instances | length == 2"' 5
n=0
for base in "$PUBLIC" "$PUBLIC" "$B" "$B" "$B"; do
	n=$((n + 1))
	on "$base" join concert
	on "$base" sse_start "v$n" "/v1/queues/concert/tokens/$TOKEN/events"
	echo "$TOKEN" >>"$WR_TMP/tokens"
done
for i in 1 2 3 4 5; do sse_wait "v$i" '^event: status$' 1 5; done
feed b "$B"
sse_wait b '^event: room$' 1 5
WANT=".streams == 5 and ([.instances[] | select(.pid == $WR_PID)][0].streams == 2) and ([.instances[] | select(.pid == $B_PID)][0].streams == 3) and ([.queues[] | select(.queue == \"concert\")][0].streams == 5)"
wait_until "room_is a '$WANT' && room_is b '$WANT'" 5
BODY=$(room a) check_jq "$WANT" \
    "the feed on the first instance: its 2 streams, the second's 3, 5 in all"
BODY=$(room b) check_jq "$WANT" \
    "the feed on the second instance shows the same"

kill -KILL "$B_PID"
T0=$EPOCHREALTIME
MISSING=".instances | map(select(.pid == $B_PID))[0].missing == true"
if wait_until "room_is a '$MISSING'" $((10 * WR_SLOW)); then
	ms=$(ms_between "$T0")
	check "the second instance, killed, is shown missing within 3 s ($ms ms)" \
	    [ "$ms" -le $((3000 * WR_SLOW)) ]
else
	fail "the second instance, killed, is shown missing within 3 s" "$(room a)"
fi
BODY=$(room a)
check_jq "[.alerts[] | select(.kind == \"instance_missing\" and (.instance | endswith(\":$B_PID\")))] | length == 1" \
    "... with an instance_missing alert naming it"
check_jq ".streams == 2" "... and its streams no longer count in all"

# ---- no secret ----------------------------------------------------------------------------

POWKEY=$(rcli get wr:powkey)
SEED=$(rcli hget "wr:{sale}:draw" seed)
check "setup: Redis holds the proof-of-work key and sale's seed" \
    [ -n "$POWKEY" -a -n "$SEED" ]
sse_text a >"$WR_TMP/feed.text"
sse_text b >>"$WR_TMP/feed.text"
leaks=()
while read -r t; do
	grep -qF -- "$t" "$WR_TMP/feed.text" && leaks+=("token ${t:0:8}")
done <"$WR_TMP/tokens"
check_eq "${leaks[*]-}" "" "the feeds' output holds no visitor's token"
# ... nor any answer of the admin API, reads and writes, with its headers.
ADMIN_CALLS=(
	"GET /v1/admin/queues" "GET /v1/admin/queues/concert"
	"GET /v1/admin/queues/calm" "GET /v1/admin/queues/sale"
	"GET /v1/admin/audit" "POST /v1/admin/queues/calm/resume"
	"POST /v1/admin/queues/calm/pause" 'PUT /v1/admin/queues/sale {"batch":2}'
	'PUT /v1/admin/queues/calm/notice {"text":"a notice"}'
	'POST /v1/admin/queues/calm/fail-open {"minutes":1}'
	"DELETE /v1/admin/queues/calm/fail-open"
	'POST /v1/admin/queues/concert/promote {"count":1}'
)
for c in "${ADMIN_CALLS[@]}"; do
	read -r method path body <<<"$c"
	on "$ADMIN" admin "$method" "$path" "$body"
	[[ $STATUS == 2* ]] || fail "setup: $method $path answers 2xx" "$(wr_last)"
	printf '%s\n%s\n' "$HEADERS" "$BODY" >>"$WR_TMP/feed.text"
done
on "$PUBLIC" http GET /v1/queues/sale/draw
check_json .state committed "setup: sale's draw is committed, not yet open"
printf '%s\n%s\n' "$HEADERS" "$BODY" >>"$WR_TMP/feed.text"
leaks=()
for s in "$ADMIN_TOKEN" "$PASS_SECRET" "$POWKEY" "$SEED"; do
	grep -qF -- "$s" "$WR_TMP/feed.text" && leaks+=("${s:0:12}...")
done
check_eq "${leaks[*]-}" "" \
    "the feeds' output and ${#ADMIN_CALLS[@]} admin answers hold no admin token, pass key, proof-of-work key or unopened draw's seed"

# ---- Redis stopped ---------------------------------------------------------------------------

stop_redis
wait_until 'room_is a "[.alerts[] | select(.kind == \"redis_unreachable\")] | length == 1"' 5
BODY=$(room a)
check_jq '.redis.reachable == false and ([.alerts[] | select(.kind == "redis_unreachable")] | length == 1)' \
    "Redis stopped: the feed says redis_unreachable"

sse_stop a
sse_stop b
for i in 1 2 3 4 5; do sse_stop "v$i"; done
stop_waitroomd
