#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# draw_record.sh: a draw's promise holds against the operator too
# (doc/api.md, "Scheduled openings and the draw"). From the first 200 of
# /readyz a file's scheduled queue shows its commitment, the one its seed
# later matches. Once the opening has passed, no admin PUT moves
# opens_at or beacon_round (409 draw_started), and once drawn the record
# never changes (409 draw_done), nor does a file edited and read again
# (which is logged). Clearing opens_at while the pre-queue has entrants
# is refused (409 draw_has_entrants), and a file that clears it is kept
# out; without entrants it is allowed and setting a schedule again keeps
# the commitment. A schedule out of order
# (closes_at before opens_at, prequeue_from after it) is 400 from the
# PUT, against the stored values too, and an error in the file. Every
# refused PUT leaves both hashes as they were.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

CONF=$WR_TMP/record.conf
now=$(date +%s)

# conf FILE [KEY=VALUE...]: FILE is the admin's file with a queue "filed"
# whose section holds the pairs given.
conf() {
	local file=$1
	shift
	wr_admin_conf "$file"
	printf '\n[queue filed]\nwaiting_ttl = 600\n' >>"$file"
	printf '%s\n' "${@/=/ = }" >>"$file"
}
conf "$CONF" "opens_at=$((now + 3600))" "beacon_round=file round 1"

# draw_state Q: the state GET /v1/queues/Q/draw answers.
draw_state() {
	http GET "/v1/queues/$1/draw"
	json .state
}

# draw_hashes Q: the queue's configuration and draw hashes, as Redis
# holds them.
draw_hashes() {
	rcli hgetall "wr:{$1}:config"
	echo --
	rcli hgetall "wr:{$1}:draw"
}

# check_unchanged Q BEFORE DESC: draw_hashes Q is still BEFORE.
check_unchanged() {
	local after
	after=$(draw_hashes "$1")
	if [ "$after" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "before: $(wr_clip "$2")" "after: $(wr_clip "$after")"
	fi
}

# ---- the commitment exists before the instance says it is ready ----------

# first_ready: start the daemon on an empty Redis, poll /readyz without a
# pause until it answers 200, then at once GET the file's queue's draw.
first_ready() {
	local end code=000
	rcli flushall >/dev/null
	start_waitroomd "$CONF"
	end=$(($(now_ms) + WR_READY_DEADLINE * 1000))
	while [ "$(now_ms)" -lt "$end" ]; do
		code=$(curl -s -o /dev/null -w '%{http_code}' "$WR_BASE/readyz")
		[ "$code" = 200 ] && break
	done
	[ "$code" = 200 ] || bail "/readyz answers 200 within the deadline"
	http GET /v1/queues/filed/draw
}

# The window was a few hundred ms after the start: a few starts see it.
start_redis
for i in 1 2 3 4; do
	first_ready
	[ "$STATUS" = 200 ] && [ "$i" = 4 ] && break
	[ "$STATUS" = 200 ] || break
	stop_waitroomd
done
check_status 200 "at the first 200 of /readyz, the file's draw is there (start $i)"
check_jq '.state == "committed" and (.commit | test("^[0-9a-f]{64}$"))' \
    "committed, with its commitment"
FILED_COMMIT=$(json .commit)
wait_ready || bail "waitroomd is ready"

# An entrant; then the file, read again (SIGHUP), clears opens_at.
join filed
check_jq '.status == "prequeue"' "an entrant in the file's pre-queue"
conf "$CONF" "beacon_round=file round 1"
kill -HUP "$WR_PID"
if wait_lines "$WR_TMP/waitroomd.log" "event=config_kept queue=filed \
why=draw_has_entrants keys=opens_at " 1 $((10 * WR_SLOW)); then
	pass "a reload logs that the file cannot clear opens_at with an entrant"
else
	fail "a reload logs that the file cannot clear opens_at with an entrant" \
	    "$(grep -E 'queue=filed|reload' "$WR_TMP/waitroomd.log" | tail -n 5)"
fi
http GET /v1/queues/filed/draw
check_jq '.state == "committed" and .opens_at == '"$((now + 3600))"' and
    .entrants == 1 and .commit == "'"$FILED_COMMIT"'"' \
    "and the draw keeps its opening, its entrant and its commitment"

# ---- after the opening: opens_at and beacon_round are fixed ----------------

T=$(($(date +%s) + 4 * WR_SLOW))
admin PUT /v1/admin/queues/started "{\"waiting_ttl\":600,\"state\":\"paused\",
    \"opens_at\":$T,\"beacon_round\":\"round 42\"}"
check_status 201 "a queue opening in 4 s (more under valgrind), awaiting round 42"
join started
check_jq '.status == "prequeue"' "an entrant in its pre-queue"
http GET /v1/queues/started/draw
STARTED_COMMIT=$(json .commit)
admin PUT /v1/admin/queues/filed "{\"opens_at\":$T}"
check_status 200 "the file's queue moved to open at the same time, before its opening"
http GET /v1/queues/filed/draw
check_json .commit "$FILED_COMMIT" "moving it kept its commitment"

wait_until '[ "$(draw_state started)" = drawing ]' $((10 * WR_SLOW)) ||
    bail "the draw awaits its beacon after the opening" "$(wr_last)"
pass "after the opening the draw awaits its beacon"
before=$(draw_hashes started)
admin PUT /v1/admin/queues/started '{"beacon_round":"round 43"}'
check_error 409 draw_started "another beacon_round once the opening passed: 409"
admin PUT /v1/admin/queues/started "{\"opens_at\":$((T + 600))}"
check_error 409 draw_started "opens_at moved later once the opening passed: 409"
admin PUT /v1/admin/queues/started '{"opens_at":"","batch":5}'
check_error 409 draw_started "opens_at cleared once the opening passed: 409"
check_unchanged started "$before" "the refused PUTs changed nothing in Redis"
http GET /v1/queues/started/draw
check_jq '.state == "drawing" and .commit == "'"$STARTED_COMMIT"'" and
    .opens_at == '"$T"' and .beacon_round == "round 42"' \
    "the draw still awaits round 42's beacon, with its commitment"
admin PUT /v1/admin/queues/started "{\"closes_at\":$((T + 3600))}"
check_status 200 "closes_at may still move"

# The file's queue awaits its beacon too: its file edited and read again.
conf "$CONF" "opens_at=$((T + 600))" "beacon_round=file round 9"
kill -HUP "$WR_PID"
if wait_lines "$WR_TMP/waitroomd.log" "event=config_kept queue=filed \
why=draw_started keys=opens_at,beacon_round" 1 $((10 * WR_SLOW)); then
	pass "a reload logs that the file's opens_at and beacon_round are ignored"
else
	fail "a reload logs that the file's opens_at and beacon_round are ignored" \
	    "$(grep -E 'queue=filed|reload' "$WR_TMP/waitroomd.log" | tail -n 5)"
fi
http GET /v1/queues/filed/draw
check_jq '.state == "drawing" and .opens_at == '"$T"' and
    .beacon_round == "file round 1" and .commit == "'"$FILED_COMMIT"'"' \
    "and the draw still awaits file round 1, opening at T"

# ---- once drawn, the record never changes --------------------------------

admin POST /v1/admin/queues/started/draw '{"beacon":"00ff"}'
check_status 200 "round 42's beacon is taken"
wait_until '[ "$(draw_state started)" = drawn ]' $((10 * WR_SLOW)) ||
    bail "the draw is done" "$(wr_last)"
http GET /v1/queues/started/draw
drawn=$BODY
before=$(draw_hashes started)
admin PUT /v1/admin/queues/started '{"beacon_round":"round 44"}'
check_error 409 draw_done "a beacon_round after the draw: 409"
admin PUT /v1/admin/queues/started "{\"opens_at\":$((T + 60))}"
check_error 409 draw_done "opens_at after the draw: 409"
check_unchanged started "$before" "the refused PUTs changed nothing in Redis"
http GET /v1/queues/started/draw
check_eq "$BODY" "$drawn" "the published record is byte for byte the same"

admin POST /v1/admin/queues/filed/draw '{"beacon":"0a0b"}'
check_status 200 "the file's queue takes its beacon"
wait_until '[ "$(draw_state filed)" = drawn ]' $((10 * WR_SLOW)) ||
    bail "the file's queue is drawn" "$(wr_last)"
http GET /v1/queues/filed/draw
FILED_DRAWN=$BODY
check_eq "$(python3 -c 'import hashlib, json, sys
print(hashlib.sha256(bytes.fromhex(json.loads(sys.argv[1])["seed"])).hexdigest())' \
    "$FILED_DRAWN")" "$FILED_COMMIT" \
    "its seed matches the commitment shown at the first 200 of /readyz"

# ---- clearing a schedule ---------------------------------------------------

admin PUT /v1/admin/queues/cancel "{\"waiting_ttl\":600,\"opens_at\":$((now + 3600))}"
join cancel
ENTRANT=$TOKEN
before=$(draw_hashes cancel)
admin PUT /v1/admin/queues/cancel '{"opens_at":""}'
check_error 409 draw_has_entrants "clearing opens_at with an entrant: 409"
admin PUT /v1/admin/queues/cancel '{"opens_at":0}'
check_error 409 draw_has_entrants "opens_at 0 with an entrant: 409"
check_unchanged cancel "$before" "the refused PUTs changed nothing in Redis"
http GET "/v1/queues/cancel/tokens/$ENTRANT"
check_jq '.status == "prequeue"' "the entrant still awaits the draw"

admin PUT /v1/admin/queues/empty "{\"opens_at\":$((now + 3600))}"
http GET /v1/queues/empty/draw
EMPTY_COMMIT=$(json .commit)
admin PUT /v1/admin/queues/empty '{"opens_at":""}'
check_status 200 "clearing opens_at without entrants: 200"
http GET /v1/queues/empty/draw
check_error 404 draw_not_found "then the queue has no draw"
admin PUT /v1/admin/queues/empty "{\"opens_at\":$((now + 7200))}"
http GET /v1/queues/empty/draw
check_jq '.state == "committed" and .commit == "'"$EMPTY_COMMIT"'"' \
    "a schedule set again keeps the commitment published before"

# ---- a schedule out of order --------------------------------------------

admin PUT /v1/admin/queues/bad "{\"opens_at\":$((now + 100)),\"closes_at\":$((now + 50))}"
check_error 400 bad_request "closes_at before opens_at: 400"
check_json .error.field closes_at "the error names closes_at"
admin PUT /v1/admin/queues/bad "{\"opens_at\":$((now + 100)),\"prequeue_from\":$((now + 200))}"
check_error 400 bad_request "prequeue_from after opens_at: 400"
check_json .error.field prequeue_from "the error names prequeue_from"
check_eq "$(rcli exists 'wr:{bad}:config')" 0 "and no queue was made"
before=$(draw_hashes cancel)
admin PUT /v1/admin/queues/cancel "{\"closes_at\":$((now + 10))}"
check_error 400 bad_request "a closes_at before the stored opens_at: 400"
admin PUT /v1/admin/queues/cancel "{\"prequeue_from\":$((now + 7200))}"
check_error 400 bad_request "a prequeue_from after the stored opens_at: 400"
check_unchanged cancel "$before" "the refused PUTs changed nothing in Redis"

conf "$WR_TMP/bad.conf" "opens_at=$((now + 3600))" "closes_at=$((now + 60))"
out=$("$WAITROOMD" --check-config --config "$WR_TMP/bad.conf" 2>&1)
rc=$?
check "a file with closes_at before opens_at is refused" test "$rc" != 0
check_match "$out" "bad\\.conf:[0-9]+: .*closes_at" \
    "the error names the file, the line and closes_at"

# ---- the file edited after the draw ---------------------------------------

stop_waitroomd
conf "$CONF" "opens_at=$((now + 7200))" "beacon_round=file round 2"
start_waitroomd "$CONF"
wait_ready || bail "waitroomd is ready again"
http GET /v1/queues/filed/draw
check_eq "$BODY" "$FILED_DRAWN" \
    "a drawn queue's record survives the file edited and read again"
check_match "$(grep 'queue=filed' "$WR_TMP/waitroomd.log")" \
    "event=config_kept queue=filed why=draw_done keys=opens_at,beacon_round" \
    "the daemon logs that the file's opens_at was ignored"
stop_waitroomd
