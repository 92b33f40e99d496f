#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# draw.sh: a scheduled opening (doc/api.md, "Scheduled openings and the
# draw"). Two instances take 300 pre-queue joins before an opening some
# seconds ahead: each gets "prequeue", its ticket and no position; a join
# before prequeue_from gets 409 queue_not_open. At the opening exactly one
# draw happens; then the 300 hold places 1..300, which a few lines of
# Python (hashlib, hmac: the check doc/api.md gives) recompute from the
# published seed, commitment and order, and which differ from arrival
# order; each draw begins at its opening, not at the next tick; a later
# join is 301; the first admitted are 1, 2, 3. A queue with
# a beacon_round is "drawing" until the beacon is posted, and its order
# follows K = SHA-256(seed || beacon). A draw of 200,000 entrants whose
# instance is killed mid-draw is finished, once and whole, by another.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

wr_admin_conf "$WR_TMP/draw.conf"
# Streams push every 30 s: a stream that shows its place at once after
# the draw heard of it.
cat >>"$WR_TMP/draw.conf" <<'EOF'
push_interval = 30

[queue plain]
mode = rate
EOF

# draw_state Q: the state GET /v1/queues/Q/draw answers.
draw_state() {
	http GET "/v1/queues/$1/draw"
	json .state
}

# verify DRAW-JSON ORDER-FILE COMMIT STATUSES-FILE: the check of
# doc/api.md, then each token's position against the order. Prints
# "ok" or what is wrong.
verify() {
	python3 - "$@" <<'EOF'
import hashlib, hmac, json, sys
draw = json.load(open(sys.argv[1]))
order = open(sys.argv[2], 'rb').read()
commit = sys.argv[3]
seed, beacon = bytes.fromhex(draw['seed']), bytes.fromhex(draw['beacon'])
bad = []
if hashlib.sha256(seed).hexdigest() != commit:
    bad.append('SHA-256(seed) is not the commitment published before')
if hashlib.sha256(order).hexdigest() != draw['order_sha256']:
    bad.append('SHA-256(order) is not order_sha256')
tickets = order.decode().split('\n')[:-1]
K = hashlib.sha256(seed + beacon).digest()
key = lambda t: hmac.new(K, t.encode(), hashlib.sha256).digest()
if sorted(tickets, key=key) != tickets:
    bad.append('the order is not the tickets sorted by HMAC(K, ticket)')
place = {t: i + 1 for i, t in enumerate(tickets)}
for line in filter(str.strip, open(sys.argv[4])):
    s = json.loads(line)
    t = hashlib.sha256(s['token'].encode()).hexdigest()[:32]
    if s.get('position') != place.get(t):
        bad.append('%s: position %s, the order says %s' %
                   (s['token'], s.get('position'), place.get(t)))
print('\n'.join(bad[:5]) if bad else 'ok')
EOF
}

start_redis
start_waitroomd "$WR_TMP/draw.conf"
wait_ready || bail "waitroomd is ready"
start_more_waitroomd two "$WR_TMP/draw.conf"
TWO=http://127.0.0.1:$MORE_PORT

# ---- the schedule, and joins before the pre-queue ------------------------

now=$(date +%s)
far=$(date -u -d "@$((now + 7200))" +%Y-%m-%dT%H:%M:%SZ)
admin PUT /v1/admin/queues/sale "{\"mode\":\"rate\",\"batch\":3,
    \"interval\":1,\"waiting_ttl\":600,\"state\":\"paused\",
    \"opens_at\":\"$far\",\"prequeue_from\":$((now + 3600))}"
check_status 201 "a queue with a schedule (RFC 3339 and unix seconds)"
check_json .config.opens_at "$((now + 7200))" "opens_at is kept as unix seconds"

http POST /v1/queues/sale/tokens
check_status 409 "a join before prequeue_from: 409"
check_jq ".error.code == \"queue_not_open\" and .error.opens_at == $((now + 7200))
    and .error.prequeue_from == $((now + 3600))" \
    "queue_not_open, with opens_at and prequeue_from"
http POST /q/sale
check_status 409 "the page's join before prequeue_from: 409"
check_contains "$BODY" 'data-state="not_open"' "the page says the line is not open yet"
check_eq "$(rcli zcard 'wr:{sale}:waiting')" 0 "the refused joins took no place"

http GET /v1/queues/sale/draw
check_status 200 "GET .../draw: 200"
check_jq '.state == "committed" and (.commit | test("^[0-9a-f]{64}$")) and
    .entrants == 0 and .beacon_round == null and (has("seed") | not)' \
    "committed: the commitment, no seed"
COMMIT=$(json .commit)

admin PUT /v1/admin/queues/sale '{"opens_at":"2026-12-01T10:00:00+09:00"}'
check_error 400 bad_request "a time not in UTC: 400"
check_json .error.field opens_at "the error names opens_at"
check_eq "$(rcli hget 'wr:{sale}:config' opens_at)" "$((now + 7200))" \
    "and nothing changed"

# Opening at T, far enough ahead for the pre-queue's joins however slow
# the machine; it is moved to a moment from now before the opening below,
# which is allowed until the opening. Moving it keeps the commitment.
T=$(($(date +%s) + 600))
admin PUT /v1/admin/queues/sale "{\"opens_at\":$T,\"prequeue_from\":\"\"}"
check_status 200 "opens_at moved before the draw"
http GET /v1/queues/sale/draw
check_json .commit "$COMMIT" "moving opens_at keeps the seed and its commitment"

admin PUT /v1/admin/queues/beacon "{\"mode\":\"rate\",\"batch\":100,
    \"interval\":1,\"waiting_ttl\":600,\"state\":\"paused\",\"opens_at\":$T,
    \"beacon_round\":\"test beacon round 7\"}"
check_status 201 "a queue with a beacon_round"
admin POST /v1/admin/queues/beacon/draw '{"beacon":"00ff"}'
check_status 409 "a beacon before the opening: 409"
check_json .error.code draw_not_due "draw_not_due"

admin PUT /v1/admin/queues/cap "{\"mode\":\"capacity\",\"max_active\":5,
    \"waiting_ttl\":600,\"opens_at\":$T}"
join cap
check_jq '.status == "prequeue"' \
    "a capacity queue with free slots admits nobody before its opening"

# A session that was active when the schedule was set, ended before the
# opening: its slot is not refilled from the pre-queue.
admin PUT /v1/admin/queues/held '{"mode":"capacity","max_active":1,
    "waiting_ttl":600}'
join held
check_jq '.status == "active"' "an unscheduled capacity queue admits at once"
HELD=$TOKEN
admin PUT /v1/admin/queues/held "{\"opens_at\":$T}"
join held
PRE_TOKEN=$TOKEN
check_jq '.status == "prequeue"' "scheduled: the next join is in the pre-queue"
http DELETE "/v1/queues/held/tokens/$HELD"
check_status 204 "the active session ends before the opening"
http GET "/v1/queues/held/tokens/$PRE_TOKEN"
check_jq '.status == "prequeue"' \
    "its freed slot is not given to a pre-queue entrant before the draw"

# ---- the pre-queue -----------------------------------------------------

join_many sale 200
join_many sale 100 "$TWO"
check_eq "$(jq -s 'map(select(.status == "prequeue" and (has("position") |
    not) and (has("eta_seconds") | not) and .opens_at == '"$T"' and
    (.ticket | test("^[0-9a-f]{32}$")))) | length' "$WR_TMP/sale.answers")" 300 \
    "300 joins on two instances: prequeue, a ticket, opens_at, no position"
check_eq "$(python3 -c '
import hashlib, json, sys
print(all(hashlib.sha256(j["token"].encode()).hexdigest()[:32] == j["ticket"]
          for j in map(json.loads, filter(str.strip, open(sys.argv[1])))))' \
    "$WR_TMP/sale.answers")" True \
    "each ticket is the first 32 hex of SHA-256(token)"
check_eq "$(jq -s '[.[].entrants] | max' "$WR_TMP/sale.answers")" 300 \
    "entrants counts up to 300"
join_many beacon 20

FIRST=$(head -n 1 "$WR_TMP/sale.joined")
http GET "/v1/queues/sale/tokens/$FIRST"
check_jq '.status == "prequeue" and .entrants == 300' \
    "GET .../tokens/{t}: prequeue, 300 entrants"
http GET /v1/queues/sale/draw
check_jq '.state == "committed" and .entrants == 300' "the draw: 300 entrants"
admin POST /v1/admin/queues/sale/promote '{"count":1}'
check_error 409 draw_not_done \
    "an admin promote before the opening: 409 draw_not_done (the draw decides)"
http GET "/v1/queues/sale/tokens/$FIRST"
check_jq '.status == "prequeue"' "and nobody was admitted"
http GET /metrics
check_contains "$BODY" 'waitroom_queue_prequeue{queue="sale"} 300' \
    "metrics: 300 in the pre-queue"
out=$("$WAITROOMCTL" status sale --url "$WR_BASE" --token-file "$WR_TMP/admin.token")
check_contains "$out" "opens_at     $(date -u -d "@$T" +%Y-%m-%dT%H:%M:%SZ) ($T)" \
    "waitroomctl status shows the opening in UTC"
http GET /v1/queues/sale/draw/order
check_status 409 "the order before the draw: 409"
check_json .error.code draw_not_done "draw_not_done"
http GET "/q/sale?token=$FIRST&lang=ko"
check_contains "$BODY" 'data-state="prequeue"' "the page without JavaScript: prequeue"
check_match "$BODY" 'http-equiv="refresh" content="[0-9]+".*id="wr-countdown">0:[01][0-9]:[0-9]{2}<.*id="wr-entrants">300<' \
    "with its reload, the countdown and the entrants"
check_contains "$BODY" "사전 대기 인원" "in Korean"
sse_start first "/v1/queues/sale/tokens/$FIRST/events"
if sse_wait first '"status":"prequeue"' 1; then
	pass "the stream pushes prequeue"
else
	fail "the stream pushes prequeue" "$(sse_text first)"
fi

# ---- the opening -------------------------------------------------------

T=$(($(date +%s) + 2))
for q in sale beacon cap held; do
	admin PUT "/v1/admin/queues/$q" "{\"opens_at\":$T}"
	check_status 200 "$q: the opening moved to 2 s from now, before it"
done
http GET /v1/queues/sale/draw
check_json .commit "$COMMIT" "... and the commitment is the one published"

wait_until '[ "$(draw_state sale)" = drawn ]' 20 ||
    bail "the draw is done within 12 s of the opening" "$(wr_last)"
pass "the draw is done after the opening"
[ "$(date +%s)" -ge "$T" ] || fail "the draw waited for the opening"
# Each draw began at its opening, not at the next tick (up to a second
# after it): Redis's clock at the draw's first step, against opens_at.
late=()
for q in sale cap held; do
	wait_until "[ \"\$(draw_state $q)\" = drawn ]" 10
	late+=($(($(rcli HGET "wr:{$q}:draw" started_ms) - T * 1000)))
done
check_eq "$(printf '%s\n' "${late[@]}" | jq -s 'all(. >= 0 and . < 100)')" \
    true "each draw began within 0.1 s of its opening (ms late: ${late[*]})"
http GET /v1/queues/sale/draw
cp "$WR_TMP/http.body" "$WR_TMP/sale.draw"
check_jq '.entrants == 300 and .beacon == "" and (.seed | test("^[0-9a-f]{64}$"))
    and (.order_sha256 | test("^[0-9a-f]{64}$")) and .drawn_at >= '"$T" \
    "drawn: 300 entrants, the seed, the order's hash"
if sse_wait first '"status":"waiting"' 1 5; then
	pass "the stream shows the place at once, without a reconnect"
else
	fail "the stream shows the place at once, without a reconnect" \
	    "$(sse_text first)"
fi
sse_stop first

curl -s --max-time 30 -D "$WR_TMP/order.headers" -o "$WR_TMP/sale.order" \
    "$WR_BASE/v1/queues/sale/draw/order"
check_eq "$(wc -l <"$WR_TMP/sale.order")" 300 "GET .../draw/order: 300 lines"
check_contains "$(tr -d '\r' <"$WR_TMP/order.headers")" \
    "Content-Type: text/plain" "the order is text/plain"

statuses sale
check_eq "$(jq -s '[.[].position] | sort == [range(1; 301)]' "$WR_TMP/sale.statuses")" \
    true "the 300 hold distinct places 1..300"
check_eq "$(verify "$WR_TMP/sale.draw" "$WR_TMP/sale.order" "$COMMIT" \
    "$WR_TMP/sale.statuses")" ok \
    "Python recomputes the order and every place from the seed"
check_eq "$(jq -s '[.[].position] == [range(1; 301)]' "$WR_TMP/sale.statuses")" \
    false "the order is not the order of arrival"

# The check doc/api.md gives, as written there.
awk '/^Anyone can check a draw/ { on = 1; next }
    on && /^    / { print substr($0, 5); code = 1; next }
    on && code && !/^$/ { exit }' "$TOP_SRCDIR/doc/api.md" >"$WR_TMP/check.py"
place=$(jq -r "select(.token == \"$FIRST\") | .position" "$WR_TMP/sale.statuses")
check_eq "$(python3 "$WR_TMP/check.py" "$WR_BASE" sale "$FIRST" 2>&1)" \
    "place $place of 300" "doc/api.md's check script passes and finds a token"

out=$("$WAITROOMCTL" draw verify sale --ticket "$FIRST" --url "$WR_BASE" 2>&1)
check_contains "$out" "ticket $(jq -r "select(.token == \"$FIRST\") | .ticket" \
    "$WR_TMP/sale.answers"): place $place of 300" \
    "waitroomctl draw verify: verified, and where a token stands"
out=$("$WAITROOMCTL" draw sale --url "$WR_BASE" 2>&1)
check_contains "$out" "$COMMIT" "waitroomctl draw shows the draw"

http GET /metrics
check_match "$BODY" 'waitroom_queue_prequeue\{queue="sale"\} 0.*waitroom_queue_draw_seconds\{queue="sale"\} [0-9]+\.[0-9]{3}' \
    "metrics: nobody left in the pre-queue, and the draw's duration"

join sale
check_jq '.status == "waiting" and .position == 301' \
    "a join after the opening is 301st"
check_eq "$(cat "$WR_TMP"/waitroomd*.log | grep -c 'event=draw queue=sale ')" 1 \
    "two instances, exactly one draw"

# The first admitted are places 1, 2, 3.
subscribe sale || bail "subscribe to the events of sale"
admin POST /v1/admin/queues/sale/resume
wait_until 'grep -q "^entered " "$WR_TMP/sale.events"' 10 ||
    fail "an admission after resume"
first3=$(awk '$1 == "entered" { print $3, $4, $5; exit }' "$WR_TMP/sale.events")
want3=$(jq -r 'select(.position <= 3) | "\(.position) \(.token)"' \
    "$WR_TMP/sale.statuses" | sort -n | cut -d' ' -f2 | paste -sd' ')
check_eq "$first3" "$want3" "the first admitted are places 1, 2, 3, in order"

# ---- after the draw: its schedule is fixed -----------------------------

admin PUT /v1/admin/queues/sale "{\"opens_at\":$((T + 60))}"
check_status 409 "moving opens_at after the draw: 409"
check_json .error.code draw_done "draw_done"
check_eq "$(rcli hget 'wr:{sale}:config' opens_at)" "$T" "opens_at is unchanged"
admin POST /v1/admin/queues/sale/draw '{"beacon":"00ff"}'
check_status 409 "a beacon after the draw: 409"
http GET /v1/queues/plain/draw
check_status 404 "a queue without a schedule has no draw"
check_json .error.code draw_not_found "draw_not_found"
admin POST /v1/admin/queues/beacon/draw '{"beacon":"xyz"}'
check_status 400 "a beacon that is not hex: 400"
admin POST /v1/admin/queues/beacon/draw '{"beacon":"00","x":1}'
check_status 400 "a beacon body with another field: 400"
check_eq "$(rcli hget 'wr:{beacon}:draw' beacon)" "" "bad beacons changed nothing"

admin PUT /v1/admin/queues/plain "{\"closes_at\":$(($(date +%s) - 1))}"
http POST /v1/queues/plain/tokens
check_error 409 queue_closed "after closes_at a join is refused as closed"
http GET /v1/queues/plain
check_json .state closed "after closes_at the summary says closed"

# ---- a beacon ----------------------------------------------------------

check_eq "$(draw_state beacon)" drawing \
    "a queue awaiting its beacon is drawing after the opening"
join beacon
check_jq '.status == "waiting" and .position == 21' \
    "a join then goes behind the 20 entrants"
BEACON=7a3f0c9e51d2b6a48e0f1c2d3b4a5968778695a4b3c2d1e0f0e1d2c3b4a59687
admin POST /v1/admin/queues/beacon/draw "{\"beacon\":\"$BEACON\"}"
check_status 200 "the beacon is taken"
wait_until '[ "$(draw_state beacon)" = drawn ]' 10 ||
    fail "the beacon's draw is done" "$(wr_last)"
http GET /v1/queues/beacon/draw
cp "$WR_TMP/http.body" "$WR_TMP/beacon.draw"
check_json .beacon "$BEACON" "the draw shows the beacon"
http GET /v1/queues/beacon/draw/order
printf '%s\n' "$BODY" >"$WR_TMP/beacon.order"
statuses beacon
check_eq "$(verify "$WR_TMP/beacon.draw" "$WR_TMP/beacon.order" \
    "$(jq -r .commit "$WR_TMP/beacon.draw")" "$WR_TMP/beacon.statuses")" ok \
    "the order follows K = SHA-256(seed || beacon)"
check "waitroomctl draw verify passes the beacon's draw" \
    "$WAITROOMCTL" draw verify beacon --url "$WR_BASE"
# Two tickets swapped in Redis: the check must catch it.
piece=$(rcli lindex 'wr:{beacon}:draw:order' 0)
rcli lset 'wr:{beacon}:draw:order' 0 "${piece:33:33}${piece:0:33}${piece:66}" \
    >/dev/null
"$WAITROOMCTL" draw verify beacon --url "$WR_BASE" >/dev/null 2>&1
check_eq "$?" 1 "waitroomctl draw verify fails a tampered order"

# ---- the drawing instance dies mid-draw --------------------------------

# Two fresh instances; the first two leave, so the lock is between these.
stop_waitroomd
kill "$MORE_PID" && wr_wait_exit "$MORE_PID" 10
start_more_waitroomd three "$WR_TMP/draw.conf"
PID3=$MORE_PID BASE3=http://127.0.0.1:$MORE_PORT
start_more_waitroomd four "$WR_TMP/draw.conf"
PID4=$MORE_PID
WR_BASE=$BASE3
admin PUT /v1/admin/queues/big '{"waiting_ttl":600,"state":"paused",
    "opens_at":"2099-01-01T00:00:00Z"}'
check_status 201 "a queue for a large pre-queue"
# 200,000 entrants put into Redis as join.lua would: PRE + ticket.
python3 - "$WR_TMP/big.tokens" <<'EOF' | redis-cli -p "$REDIS_PORT" --pipe >/dev/null
import sys, uuid
toks = [str(uuid.uuid4()) for _ in range(200000)]
open(sys.argv[1], 'w').write('\n'.join(toks) + '\n')
for i in range(0, len(toks), 1000):
    args = []
    for j, t in enumerate(toks[i:i + 1000]):
        args += [str(-1125899906842624 + i + j + 1), t]
    cmd = ['ZADD', 'wr:{big}:waiting'] + args
    sys.stdout.write('*%d\r\n' % len(cmd) + ''.join(
        '$%d\r\n%s\r\n' % (len(a), a) for a in cmd))
EOF
check_eq "$(rcli zcard 'wr:{big}:waiting')" 200000 "200,000 in the pre-queue"
BIG_COMMIT=$(rcli hget 'wr:{big}:draw' commit)
admin PUT /v1/admin/queues/big "{\"opens_at\":$(date +%s)}"
wait_until '[ -n "$(rcli hget "wr:{big}:draw" phase)" ] &&
    [ -n "$(rcli get "wr:{big}:draw:lock")" ]' 15 ||
    bail "the draw of big starts"
owner=$(rcli get 'wr:{big}:draw:lock')
if grep -q "event=draw_take queue=big owner=$owner" "$WR_TMP/waitroomd-three.log"; then
	victim=$PID3 survivor=four
else
	victim=$PID4 survivor=three
fi
kill -KILL "$victim"
phase=$(rcli hget 'wr:{big}:draw' phase)
diag "killed the drawing instance in phase $phase"
check "the draw was not done when its instance died" \
    test "$(rcli hget 'wr:{big}:draw' state)" != drawn
wait_until '[ "$(rcli hget "wr:{big}:draw" state)" = drawn ]' 40 ||
    bail "another instance finishes the draw"
pass "another instance finishes the draw"
check_eq "$(grep -c 'event=draw queue=big ' "$WR_TMP/waitroomd-$survivor.log")" 1 \
    "it was drawn once, by the survivor"
[ "$survivor" = four ] && WR_BASE=http://127.0.0.1:$MORE_PORT
http GET /v1/queues/big/draw
cp "$WR_TMP/http.body" "$WR_TMP/big.draw"
check_json .entrants 200000 "all 200,000 are in the draw"
curl -s --max-time 30 -o "$WR_TMP/big.order" "$WR_BASE/v1/queues/big/draw/order"
check_eq "$(python3 - "$WR_TMP/big.draw" "$WR_TMP/big.order" "$BIG_COMMIT" \
    "$WR_TMP/big.tokens" <<'EOF'
import hashlib, hmac, json, sys
draw = json.load(open(sys.argv[1]))
order = open(sys.argv[2], 'rb').read()
seed = bytes.fromhex(draw['seed'])
K = hashlib.sha256(seed).digest()
tickets = sorted((hashlib.sha256(t.encode()).hexdigest()[:32]
                  for t in open(sys.argv[4]).read().split()),
                 key=lambda t: hmac.new(K, t.encode(), hashlib.sha256).digest())
ok = (hashlib.sha256(seed).hexdigest() == sys.argv[3] and
      hashlib.sha256(order).hexdigest() == draw['order_sha256'] and
      order.decode() == ''.join(t + '\n' for t in tickets))
print('ok' if ok else 'differs')
EOF
)" ok "the order is whole and correct: each entrant once, by HMAC"
check "waitroomctl draw verify checks the 200,000" \
    "$WAITROOMCTL" draw verify big --url "$WR_BASE"
check_eq "$(rcli zcount 'wr:{big}:waiting' '(-1125899906842624' '(-562949953421312')" 0 \
    "nobody is left undrawn"

