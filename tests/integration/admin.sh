#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# admin.sh: the admin API, seen through what it changes for visitors. The
# bearer token (404 when the API is off, 401 without the right token),
# figures, pause/resume, close/open, promote N in FIFO order, kick (its
# stream gets `gone`), PUT checked with the configuration file's rules
# (a bad value is a 400 naming the field and changes nothing), creating
# and dropping queues, and a second instance on the same Redis that sees
# every change and ticks the queues the API created.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/off.conf" <<'EOF2'
[queue line]
state = paused
EOF2

wr_admin_conf "$WR_TMP/admin.conf"
cat >>"$WR_TMP/admin.conf" <<'EOF2'
push_interval    = 1

[queue line]
mode        = rate
batch       = 2
interval    = 1
state       = paused
waiting_ttl = 600
redirect    = https://shop.example/line
EOF2

start_redis

# ---- the admin API is off without admin_token_file ---------------------------

start_waitroomd "$WR_TMP/off.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
admin GET /v1/admin/queues
check_error 404 not_found "no admin_token_file: the admin API is not there (404)"
admin POST /v1/admin/queues/line/pause
check_error 404 not_found "no admin_token_file: POST pause is 404 too"
stop_waitroomd

printf 'short\n' >"$WR_TMP/short.token"
printf 'admin_token_file = %s\n' "$WR_TMP/short.token" >"$WR_TMP/short.conf"
out=$("$WAITROOMD" --config "$WR_TMP/short.conf" --check-config 2>&1)
rc=$?
check_eq "$rc" 1 "a token file with a too short token stops startup"
check_contains "$out" "$WR_TMP/short.token" "the message names the token file"

# ---- the token --------------------------------------------------------------

start_waitroomd "$WR_TMP/admin.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

http GET /v1/admin/queues
check_error 401 unauthorized "no Authorization header: 401 unauthorized"
check_header_match WWW-Authenticate '^Bearer' "401 carries WWW-Authenticate: Bearer"
http GET /v1/admin/queues "" -H "Authorization: Bearer ${ADMIN_TOKEN%?}x"
check_error 401 unauthorized "a wrong token of the right length: 401"
http GET /v1/admin/queues "" -H "Authorization: Bearer ${ADMIN_TOKEN}x"
check_error 401 unauthorized "the token with one more character: 401"
http GET /v1/admin/queues "" -H "Authorization: Basic $ADMIN_TOKEN"
check_error 401 unauthorized "the right token in another scheme: 401"
http PUT '/v1/admin/queues/bad!' '{"batch": 1}'
check_error 401 unauthorized "without the token even a malformed path is 401"
http DELETE /v1/admin/queues/line
check_error 401 unauthorized "DELETE without the token: 401"
http GET /v1/queues/line
check_json .state paused "... and the queue is still there"
http GET /v1/admin/queues "" -H "authorization: bearer $ADMIN_TOKEN"
check_status 200 "the scheme and header name in lower case are accepted"

# A query string's values are never logged: the admin token sent there by
# mistake is refused, and not written down either.
secret="query-secret-$RANDOM$RANDOM"
http GET "/v1/admin/queues?token=$secret&x=1"
check_error 401 unauthorized "the admin token in the query string: 401"
http GET "/v1/queues/line?token=$secret"
check_status 200 "a public path with a query: 200"
check_match "$(grep 'event=admin_unauthorized' "$WR_TMP/waitroomd.log" | tail -n 1)" \
    'path="/v1/admin/queues"' "the refusal is logged with its path"
check_eq "$(grep -F -- "$secret" "$WR_TMP/waitroomd.log")" "" \
    "the query's value is in no log line"

# Two Authorization headers: a proxy in front may pass on either one, so
# neither counts, whichever comes first, and nothing is done.
http PUT /v1/admin/queues/twice '{"batch": 1}' \
    -H "Authorization: Bearer $ADMIN_TOKEN" \
    -H "Authorization: Bearer ${ADMIN_TOKEN%?}x"
check_error 401 unauthorized "two Authorization headers, the right one first: 401"
check_contains "$(json .error.message)" Authorization "... naming the header"
http GET /v1/queues/twice
check_error 404 queue_not_found "... and the queue is not created"
http DELETE /v1/admin/queues/line '' \
    -H "Authorization: Bearer ${ADMIN_TOKEN%?}x" \
    -H "Authorization: Bearer $ADMIN_TOKEN"
check_error 401 unauthorized "two Authorization headers, the right one second: 401"
http GET /v1/queues/line
check_json .state paused "... and the queue is still there"

# ---- figures ----------------------------------------------------------------

tokens=()
for i in 1 2 3 4 5 6; do
	join line
	tokens+=("$TOKEN")
done
admin GET /v1/admin/queues
check_status 200 "GET /v1/admin/queues: 200"
check_jq '.queues | length == 1 and .[0].queue == "line"' "the list holds the configured queue"
admin GET /v1/admin/queues/line
check_jq '.queue == "line" and .state == "paused" and .waiting == 6 and
    .active == 0 and .totals.joined == 6 and .totals.admitted == 0 and
    .admitted_last_minute == 0 and .streams == 0' \
    "one queue: state, waiting 6, totals, admitted in the last minute, streams"
check_jq '.config == {"mode":"rate","batch":2,"interval":1,"max_active":0,
    "active_ttl":300,"waiting_ttl":600,"max_waiting":0,"state":"paused",
    "redirect":"https://shop.example/line","join_challenge":"off",
    "pow_bits":0,"pow_ttl":300,"pow_start_bits":16,"pow_max_bits":22,
    "pow_calm_rate":10,"renew":"no","access":"open",
    "report_ttl":2592000,"noshow_after":0,"noshow_refill":"no"}' \
    "its configuration, integers as numbers, as the file says"
admin GET /v1/admin/queues/nope
check_error 404 queue_not_found "an unknown queue: 404 queue_not_found"
admin GET '/v1/admin/queues/bad!'
check_error 400 bad_queue_id "a malformed queue id: 400 bad_queue_id"
admin PATCH /v1/admin/queues/line
check_error 405 method_not_allowed "PATCH: 405"
check_header Allow "GET, HEAD, PUT, DELETE"
# HEAD is GET without the body; never the path's DELETE.
http HEAD /v1/admin/queues/line '' -I -H "Authorization: Bearer $ADMIN_TOKEN"
check_status 200 "HEAD on a queue: 200, as GET"
admin GET /v1/admin/queues/line
check_status 200 "... and the queue is still there"

# ---- promote: the next N, now, in FIFO order -------------------------------

admin POST /v1/admin/queues/line/promote '{"count": 3}'
check_status 200 "promote 3 in a paused queue: 200"
expected=$(printf '%s\n' "${tokens[@]:0:3}" | jq -R . | jq -sc .)
check_eq "$(json '.tokens | tojson')" "$expected" "promote admits the first three, in the order they joined"
check_json .admitted 3 "admitted: 3"
check_eq "$(status_of line "${tokens[0]}") $(status_of line "${tokens[2]}")" \
    "active active" "the first and third are active now"
http GET "/v1/queues/line/tokens/${tokens[3]}"
check_json .position 1 "the fourth is now first in line"
admin GET /v1/admin/queues/line
check_jq '.waiting == 3 and .active == 3 and .totals.admitted == 3 and
    .admitted_last_minute == 3' "figures: 3 waiting, 3 active, 3 admitted in the last minute"

for body in '' '{}' '{"count": 0}' '{"count": "2"}' '{"count": 5001}' \
    '{"count": 1, "x": 1}' '[1]'; do
	admin POST /v1/admin/queues/line/promote "$body"
	check_error 400 bad_request "promote with '$body': 400 bad_request"
done
admin POST /v1/admin/queues/line/promote '{"count": 1'
check_error 400 bad_json "promote with broken JSON: 400 bad_json"
admin POST /v1/admin/queues/nope/promote '{"count": 1}'
check_error 404 queue_not_found "promote in an unknown queue: 404"
check_waiting line 3 "refused promotions admitted nobody"

# ---- kick: the token is gone, and so is its stream -----------------------------

victim=${tokens[5]}
sse_start kick "/v1/queues/line/tokens/$victim/events"
sse_wait kick '^event: status$' 1 5 || fail "the stream of the token to remove opens"
admin GET /v1/admin/queues/line
check_json .streams 1 "the admin view counts the open stream"
admin DELETE "/v1/admin/queues/line/tokens/$victim"
check_status 204 "kick a waiting token: 204"
check "its stream gets gone within 2 s" sse_wait kick '^event: gone$' 1 2
check_contains "$(sse_text kick | grep '^data:' | tail -n 1)" '"reason":"removed"' \
    "gone says why: removed"
if sse_ended kick 3; then pass "the stream ends after gone"; else fail "the stream ends after gone"; fi
check_eq "$(status_of line "$victim")" 404 "the kicked token is not found any more"
admin DELETE "/v1/admin/queues/line/tokens/$victim"
check_error 404 token_not_found "kicking it again: 404 token_not_found"
admin DELETE "/v1/admin/queues/line/tokens/${tokens[0]}"
check_status 204 "kick an active token: 204"
check_eq "$(status_of line "${tokens[0]}")" 404 "the kicked session is gone"
admin DELETE /v1/admin/queues/line/tokens/not-a-token
check_error 400 bad_token "kick with a malformed token: 400 bad_token"
admin GET /v1/admin/queues/line
check_jq '.waiting == 2 and .active == 2 and .totals.removed == 2' \
    "figures: 2 waiting, 2 active, 2 removed"

# ---- PUT: the configuration file's rules; a refusal changes nothing ------------

before=$(rcli hgetall 'wr:{line}:config' | paste -sd ' ')
put_refused() {
	admin PUT /v1/admin/queues/line "$1"
	if [ "$STATUS" = 400 ] && [ "$(json .error.code)" = "${3:-bad_request}" ] &&
	    [ "$(json .error.field)" = "$2" ]; then
		pass "PUT $1: 400 naming $2"
	else
		fail "PUT $1: 400 naming $2" "$(wr_last)"
	fi
}
put_refused '{"batch": 7, "interval": "abc"}' interval
check_json .error.message "key 'interval': 'abc' is not an integer (accepted: an integer from 1 to 86400)" \
    "the message is the configuration file's"
put_refused '{"batch": -1}' batch
put_refused '{"mode": "fast"}' mode
check_contains "$(json .error.message)" "rate, capacity" "a bad mode lists what is accepted"
put_refused '{"redirect": "ftp://x"}' redirect
put_refused '{"bogus": 1}' bogus
check_contains "$(json .error.message)" "unknown key 'bogus'" "an unknown key is named"
put_refused '{"page_template": "/etc/x.html"}' page_template
put_refused '{"batch": 1.5}' batch
put_refused '{"batch": true}' batch
put_refused '{"waiting_ttl": 4}' waiting_ttl
admin PUT /v1/admin/queues/line '{"batch": '
check_error 400 bad_json "PUT with broken JSON: 400 bad_json"
admin PUT /v1/admin/queues/line '["batch"]'
check_error 400 bad_request "PUT with an array: 400 bad_request"
check_eq "$(rcli hgetall 'wr:{line}:config' | paste -sd ' ')" "$before" \
    "after all these refusals the configuration is exactly as it was"

admin PUT /v1/admin/queues/line '{"batch": "5", "max_waiting": 100}'
check_status 200 "PUT changes of an existing queue: 200"
check_jq '.result == "updated" and .config.batch == 5 and
    .config.max_waiting == 100 and .config.interval == 1 and
    .config.redirect == "https://shop.example/line"' \
    "only the fields given change (a string of digits is an integer too)"
admin PUT /v1/admin/queues/line '{"redirect": ""}'
check_jq '.config.redirect == null' "an empty redirect clears it"
http GET "/v1/queues/line/tokens/${tokens[1]}"
check_jq 'has("redirect") | not' "... and an admitted visitor is sent nowhere now"

# ---- pause and resume, close and open --------------------------------------

admin POST /v1/admin/queues/line/pause
check_jq '.state == "paused" and .previous == "paused"' "pause a paused queue: it stays paused"
admin POST /v1/admin/queues/line/resume
check_jq '.state == "open" and .previous == "paused"' "resume: open (was paused)"
check "resumed, the line moves: the next waiter is admitted within 3 s" \
    wait_until '[ "$(status_of line "${tokens[3]}")" = active ]' 3
admin POST /v1/admin/queues/line/pause
check_json .state paused "pause: paused"
http GET /v1/queues/line
check_jq '.state == "paused" and .eta_seconds_for_new == null' \
    "a visitor sees the queue paused, with no ETA"
join line
paused_token=$TOKEN
check_status 201 "a paused queue still takes joins"
admin GET /v1/admin/queues/line
a0=$(json .totals.admitted)
# Absence takes time to show: two intervals of 1 s, polled.
wait_until '[ "$(status_of line "$paused_token")" = active ]' 2
check_eq "$(status_of line "$paused_token")" waiting "paused: nobody is admitted over two intervals"
admin GET /v1/admin/queues/line
check_json .totals.admitted "$a0" "paused: the admitted total does not move"

admin POST /v1/admin/queues/line/close
check_jq '.state == "closed" and .previous == "paused"' "close: closed"
join line
check_error 409 queue_closed "closed: a join gets 409 queue_closed"
admin POST /v1/admin/queues/line/resume
check_json .state closed "resume leaves a closed queue closed"
admin POST /v1/admin/queues/line/open
check_jq '.state == "open" and .previous == "closed"' "open: open again"
join line
check_status 201 "open: joins are taken again"
admin POST /v1/admin/queues/nope/pause
check_error 404 queue_not_found "pause an unknown queue: 404"
admin GET /v1/admin/queues/line/pause
check_error 405 method_not_allowed "GET on pause: 405"

# ---- a second instance sees it all, and ticks new queues ----------------------

start_more_waitroomd two "$WR_TMP/admin.conf"
B=http://127.0.0.1:$MORE_PORT
admin PUT /v1/admin/queues/fresh '{"mode": "rate", "batch": 10, "interval": 1, "state": "paused"}'
check_status 201 "PUT of a new queue: 201 created"
check_jq '.result == "created" and .config.batch == 10 and .config.max_active == 0' \
    "a new queue gets the given fields over the defaults"
out=$(curl -s -X POST "$B/v1/queues/fresh/tokens")
# shellcheck disable=SC2034 # read by wait_until's code below
fresh_token=$(jq -r .token <<<"$out")
check_eq "$(jq -r .status <<<"$out")" waiting "the second instance takes joins to the new queue at once"
check_eq "$(curl -s "$B/v1/queues/line" | jq -r .state)" open \
    "the second instance sees the state set through the first"
for call in pause:paused resume:open close:closed open:open; do
	admin POST "/v1/admin/queues/line/${call%:*}"
	on "$B" http GET /v1/queues/line
	check_json .state "${call#*:}" \
	    "${call%:*} through the first: the second's summary says ${call#*:} at once"
done
check "the second instance lists the new queue within a tick" \
    wait_until 'WR_BASE=$B admin GET /v1/admin/queues;
	[ "$(json "[.queues[].queue] | join(\",\")")" = fresh,line ]' 2
admin PUT /v1/admin/queues/fresh '{"state": "open"}'
check_json .result updated "PUT again: updated"

# Only the second instance runs now: it must tick the queue it never read
# from a file.
stop_waitroomd
WR_BASE=$B
check "the second instance admits in the queue the API made (within 3 s)" \
    wait_until '[ "$(status_of fresh "$fresh_token")" = active ]' 3
WR_PORT=$MORE_PORT
admin GET /v1/admin/queues/fresh
check_jq '.totals.admitted == 1 and .admitted_last_minute == 1' "its figures count the admission"

# ---- drop a queue ------------------------------------------------------------

join fresh
drop_token=$TOKEN
admin PUT /v1/admin/queues/fresh '{"state": "paused"}'
join fresh
sse_start drop "/v1/queues/fresh/tokens/$TOKEN/events"
sse_wait drop '^event: status$' 1 5 || fail "a stream in the queue to drop opens"
admin DELETE /v1/admin/queues/fresh
check_status 204 "DELETE a queue: 204"
check "its streams get gone within 2 s" sse_wait drop '^event: gone$' 1 2
http GET /v1/queues/fresh
check_error 404 queue_not_found "a dropped queue is not found"
check_eq "$(status_of fresh "$drop_token")" 404 "its tokens are gone"
check_eq "$(rcli exists 'wr:{fresh}:waiting' 'wr:{fresh}:active' 'wr:{fresh}:config' 'wr:{fresh}:stats')" 0 \
    "its keys are gone from Redis"
admin DELETE /v1/admin/queues/fresh
check_error 404 queue_not_found "DELETE it again: 404"
admin GET /v1/admin/queues
check_jq '[.queues[].queue] == ["line"]' "the list holds only line again"
