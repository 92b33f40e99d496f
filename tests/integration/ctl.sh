#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# ctl.sh: waitroomctl's admin commands against a real waitroomd: the
# tables people read, --json for scripts, and the exit statuses: 0 done,
# 1 refused, 2 usage, 3 unreachable, 4 not authorized, 5 no such queue or
# token; each error said on stderr in one clear line.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "${WAITROOMCTL:-}" ] ||
    bail "WAITROOMCTL is set to an executable" "WAITROOMCTL='${WAITROOMCTL:-}'"

ADMIN_TOKEN=admin-token-for-tests-0123456789
printf '%s\n' "$ADMIN_TOKEN" >"$WR_TMP/admin.token"
printf 'wrong-token-for-tests-0123456789\n' >"$WR_TMP/wrong.token"
cat >"$WR_TMP/ctl.conf" <<EOF2
admin_token_file = $WR_TMP/admin.token

[queue shop]
mode        = rate
batch       = 10
interval    = 1
state       = paused
waiting_ttl = 600
EOF2

OUT='' ERR='' RC=''
# ctl ARG...: waitroomctl against the daemon with the right token; sets
# OUT, ERR and RC.
ctl() {
	ctl_raw --url "$WR_BASE" --token-file "$WR_TMP/admin.token" "$@"
}

ctl_raw() {
	"$WAITROOMCTL" "$@" >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
	RC=$?
	wr_slurp OUT "$WR_TMP/ctl.out"
	wr_slurp ERR "$WR_TMP/ctl.err"
}

# check_rc EXPECTED DESC
check_rc() {
	if [ "$RC" = "$1" ]; then
		pass "$2"
	else
		fail "$2" "exit status $RC, expected $1" "stdout: $OUT" "stderr: $ERR"
	fi
}

start_redis
start_waitroomd "$WR_TMP/ctl.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
for i in 1 2 3; do
	join shop
	tokens[i]=$TOKEN
done

# ---- status -------------------------------------------------------------------

ctl status
check_rc 0 "status: exit 0"
check_match "$(head -n 1 <<<"$OUT")" '^QUEUE +STATE +MODE +WAITING +ACTIVE +ADMITTED/MIN +JOINED' \
    "status: a table with a header line"
check_match "$(sed -n 2p <<<"$OUT")" '^shop +paused +rate +3 +0 +0 +3 ' \
    "status: one row per queue, figures under their columns"
ctl status --json
check_rc 0 "status --json: exit 0"
check_eq "$(jq -r '.queues[0] | "\(.queue) \(.waiting) \(.config.batch)"' <<<"$OUT")" \
    "shop 3 10" "status --json: the server's JSON"
ctl status shop
check_contains "$OUT" "configuration:" "status QUEUE: the configuration follows"
check_match "$OUT" $'\n  batch +10\n' "status QUEUE: batch 10 among it"
ctl status nope
check_rc 5 "status of an unknown queue: exit 5"
check_contains "$ERR" "no queue named 'nope'" "... saying so on stderr"
WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN ctl_raw status --url "$WR_BASE"
check_rc 0 "the token from WAITROOM_ADMIN_TOKEN works"
WAITROOM_URL=$WR_BASE ctl_raw status --token-file "$WR_TMP/admin.token" --json
check_rc 0 "the URL from WAITROOM_URL works"

# ---- what changes a queue -----------------------------------------------------

ctl promote shop 2
check_rc 0 "promote: exit 0"
check_eq "$OUT" "queue shop: admitted 2
  ${tokens[1]}
  ${tokens[2]}" "promote: says how many and which, in order"
http GET "/v1/queues/shop/tokens/${tokens[1]}"
check_json .status active "the first promoted token is active"
ctl kick shop "${tokens[3]}"
check_rc 0 "kick: exit 0"
check_eq "$OUT" "queue shop: removed ${tokens[3]}" "kick: says what it removed"
http GET "/v1/queues/shop/tokens/${tokens[3]}"
check_status 404 "the kicked token is gone"
ctl kick shop "${tokens[3]}"
check_rc 5 "kick it again: exit 5"
check_contains "$ERR" "token_not_found" "... naming the error code"
ctl kick shop not-a-token
check_rc 2 "kick with a malformed token: usage error, exit 2"

ctl resume shop
check_eq "$RC $OUT" "0 queue shop: open (was paused)" "resume: exit 0, open (was paused)"
ctl close shop
check_eq "$RC $OUT" "0 queue shop: closed (was open)" "close: exit 0"
join shop
check_error 409 queue_closed "visitors see the queue closed"
ctl open shop --json
check_rc 0 "open --json: exit 0"
check_eq "$(jq -r .state <<<"$OUT")" open "open --json: the server's JSON"
ctl pause shop
check_eq "$RC $OUT" "0 queue shop: paused (was open)" "pause: exit 0"
ctl pause shop
check_eq "$RC $OUT" "0 queue shop: paused (unchanged)" "pause again: unchanged"

ctl set shop batch=25 redirect=https://shop.example/
check_rc 0 "set: exit 0"
check_contains "$OUT" "queue shop: updated" "set: updated"
check_eq "$(rcli hget 'wr:{shop}:config' batch)" 25 "set: batch is 25 in the shared configuration"
ctl set shop batch=lots
check_rc 1 "set with a bad value: exit 1"
check_contains "$ERR" "key 'batch': 'lots' is not an integer" "... naming key and value"
check_eq "$(rcli hget 'wr:{shop}:config' batch)" 25 "... and nothing changed"
ctl set shop batch
check_rc 2 "set without KEY=VALUE: exit 2"
ctl set newq mode=capacity max_active=3 --json
check_rc 0 "set creates a queue: exit 0"
check_eq "$(jq -r '"\(.result) \(.config.max_active)"' <<<"$OUT")" "created 3" \
    "set --json: created, max_active 3"
join newq
check_json .status active "visitors can join the new queue"

# ---- usage errors ---------------------------------------------------------------

ctl pause 'bad!'
check_rc 2 "a malformed queue name: exit 2"
check_contains "$ERR" "is not a queue name" "... saying what a name is"
ctl promote shop zero
check_rc 2 "promote with a non-number: exit 2"
ctl status shop extra
check_rc 2 "too many arguments: exit 2"
ctl status --bogus
check_rc 2 "an unknown option: exit 2"
(unset WAITROOM_ADMIN_TOKEN; ctl_raw status --url "$WR_BASE"
 [ "$RC" = 2 ] && [[ $ERR == *"no admin token"* ]])
check_eq "$?" 0 "no token at all: exit 2, saying how to give one"
ctl_raw status --url "$WR_BASE" --token-file "$WR_TMP/none.token"
check_rc 2 "a token file that is not there: exit 2"
check_contains "$ERR" "none.token" "... naming it"
ctl_raw --help
check_rc 0 "--help: exit 0"
check_contains "$OUT" "exit status: 0 done" "--help documents the exit statuses"

# ---- the server refuses or is not there -------------------------------------------

ctl_raw status --url "$WR_BASE" --token-file "$WR_TMP/wrong.token"
check_rc 4 "a wrong token: exit 4"
check_contains "$ERR" "HTTP 401 unauthorized" "... saying 401 unauthorized"
port=$(wr_free_port)
ctl_raw status --url "http://127.0.0.1:$port" --token-file "$WR_TMP/admin.token"
check_rc 3 "nothing listening: exit 3"
check_contains "$ERR" "cannot connect to 127.0.0.1:$port" "... saying it cannot connect"
ctl_raw status --url "ftp://127.0.0.1:$port" --token-file "$WR_TMP/admin.token"
check_rc 3 "a URL that is not http://: exit 3"
check_contains "$ERR" "bad URL" "... saying the URL is bad"

cat >"$WR_TMP/off.conf" <<'EOF2'
[queue shop]
state = paused
EOF2
start_more_waitroomd off "$WR_TMP/off.conf"
ctl_raw status --url "http://127.0.0.1:$MORE_PORT" --token-file "$WR_TMP/admin.token"
check_rc 4 "a server with the admin API off: exit 4"
check_contains "$ERR" "it is off (no admin_token_file)" "... saying the admin API is off"

stop_redis
wait_until 'http GET /readyz; [ "$STATUS" = 503 ]' 5
ctl status
check_rc 1 "Redis down: exit 1 (the server refused)"
check_contains "$ERR" "store_unavailable" "... naming store_unavailable"
