#!/usr/bin/env bash
#
# admins.sh: admin_token_file with several admins, lines NAME TOKEN: each
# one's token opens the admin API, a write is logged with its name, and a
# token of nobody's is refused; a file of one bare token still works (its
# admin is "admin"); a bad file stops the start naming its line;
# waitroomctl takes the first admin's token from such a file.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "${WAITROOMCTL:-}" ] ||
    bail "WAITROOMCTL is set to an executable" "WAITROOMCTL='${WAITROOMCTL:-}'"

ALICE=token-of-alice-0123456789
BOB=token-of-bob-0123456789xxx
printf '# who may steer the sale\nalice %s\n\nbob\t%s\n' "$ALICE" "$BOB" \
    >"$WR_TMP/admins"
cat >"$WR_TMP/named.conf" <<EOF2
admin_token_file = $WR_TMP/admins

[queue line]
state = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/named.conf" --log-level info
wait_ready || bail "the daemon is ready" "$(wr_last)"

http GET /v1/admin/queues '' -H "Authorization: Bearer $ALICE"
check_status 200 "alice's token opens the admin API"
http GET /v1/admin/queues '' -H "Authorization: Bearer $BOB"
check_status 200 "bob's token opens it too"
http GET /v1/admin/queues '' -H "Authorization: Bearer alice"
check_error 401 unauthorized "a name is not a token -> 401"
http GET /v1/admin/queues '' -H "Authorization: Bearer ${ALICE}x"
check_error 401 unauthorized "a token of nobody's -> 401"
http POST /v1/admin/queues/line/resume '' -H "Authorization: Bearer $BOB"
check_status 200 "bob resumes the queue"
wait_lines "$WR_READY_LOG" 'event=admin_write admin=bob method=POST path="/v1/admin/queues/line/resume"' 1 5
check_contains "$(cat "$WR_READY_LOG")" \
    'event=admin_write admin=bob method=POST path="/v1/admin/queues/line/resume"' \
    "... and the log names bob"
check_eq "$(grep -c "$BOB\|$ALICE" "$WR_READY_LOG")" 0 "no token is in the log"

"$WAITROOMCTL" --url "$WR_BASE" --token-file "$WR_TMP/admins" pause line \
    >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
check_eq "$?" 0 "waitroomctl --token-file with named admins: pause -> 0"
wait_lines "$WR_READY_LOG" 'event=admin_write admin=alice method=POST' 1 5
check_contains "$(cat "$WR_READY_LOG")" 'event=admin_write admin=alice method=POST' \
    "... as alice, the file's first admin"
stop_waitroomd

# ---- one bare token, as before --------------------------------------------------

printf '%s\n' "$ALICE" >"$WR_TMP/bare"
write_conf "$WR_TMP/bare.conf" "$WR_TMP/named.conf" "admin_token_file=$WR_TMP/bare"
: >"$WR_READY_LOG"
start_waitroomd "$WR_TMP/bare.conf" --log-level info
wait_ready || bail "the daemon is ready" "$(wr_last)"
http POST /v1/admin/queues/line/resume '' -H "Authorization: Bearer $ALICE"
check_status 200 "a bare token still opens the admin API"
wait_lines "$WR_READY_LOG" 'event=admin_write admin=admin ' 1 5
check_contains "$(cat "$WR_READY_LOG")" 'event=admin_write admin=admin ' \
    "... as the admin named admin"
stop_waitroomd

# ---- a bad file stops the start -------------------------------------------------

printf 'alice %s\nbob\n' "$ALICE" >"$WR_TMP/badadmins"
write_conf "$WR_TMP/bad.conf" "$WR_TMP/named.conf" "admin_token_file=$WR_TMP/badadmins"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
rc=$?
check "a file with a line of a name alone is refused" test "$rc" -ne 0
check_contains "$out" "badadmins:2: each line is NAME TOKEN" "... naming its line"
