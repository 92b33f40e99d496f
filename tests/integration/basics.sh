#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# basics.sh: the daemon's command line (--version, --help, --check-config),
# its start and stop, and the health endpoints.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

good=$WR_TMP/good.conf
cat >"$good" <<'EOF'
# A configuration that uses every key the tests rely on.
log_level = info
max_body  = 4096
key_prefix = wrtest

[queue main]
mode        = rate
batch       = 10
interval    = 5
active_ttl  = 300
waiting_ttl = 120
state       = paused     # nobody is admitted

[queue shop]
mode        = capacity
max_active  = 5
active_ttl  = 60
waiting_ttl = 30
max_waiting = 0
redirect    = https://shop.example/
EOF

# ---- the command line, no server needed ------------------------------------

out=$("$WAITROOMD" --version 2>"$WR_TMP/err")
rc=$?
check_eq "$rc" 0 "--version exits 0"
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")
check_contains "$out" "${version:-no version in configure.ac}" \
    "--version prints the version of configure.ac ($version)"

out=$("$WAITROOMD" --help 2>"$WR_TMP/err")
rc=$?
check_eq "$rc" 0 "--help exits 0"
for flag in --config --listen --redis --port-file --log-level --check-config; do
	check_contains "$out" "$flag" "--help mentions $flag"
done

"$WAITROOMD" --no-such-flag >/dev/null 2>"$WR_TMP/err"
rc=$?
check "an unknown flag exits non-zero" test "$rc" -ne 0
check "an unknown flag gets a message on stderr" test -s "$WR_TMP/err"

"$WAITROOMD" --config "$good" --check-config >"$WR_TMP/out" 2>"$WR_TMP/err"
rc=$?
check_eq "$rc" 0 "--check-config accepts a good file"
[ "$rc" = 0 ] || diag "stderr: $(cat "$WR_TMP/err")"

# bad_config NAME LINE KEY DESC: the file $WR_TMP/NAME (already written) is
# refused by --check-config with a message naming NAME:LINE and KEY.
bad_config() {
	local file=$WR_TMP/$1 line=$2 key=$3 d=$4 rc err
	"$WAITROOMD" --config "$file" --check-config >/dev/null 2>"$WR_TMP/err"
	rc=$?
	err=$(cat "$WR_TMP/err")
	check "--check-config refuses $d (exit $rc)" test "$rc" -ne 0
	check_contains "$err" "$1:$line" "the message for $d names $1:$line"
	check_contains "$err" "$key" "the message for $d names the key $key"
}

cat >"$WR_TMP/badvalue.conf" <<'EOF'
[queue main]
mode = rate
batch = lots
interval = 5
EOF
bad_config badvalue.conf 3 batch "a number that is not one"

cat >"$WR_TMP/unknownkey.conf" <<'EOF'
# comment

colour = blue
[queue main]
EOF
bad_config unknownkey.conf 3 colour "an unknown global key"

cat >"$WR_TMP/badmode.conf" <<'EOF'
log_level = info
[queue main]
batch = 10
mode = fast
EOF
bad_config badmode.conf 4 mode "an unknown mode"

cat >"$WR_TMP/badstate.conf" <<'EOF'
[queue main]
state = sleeping
EOF
bad_config badstate.conf 2 state "an unknown state"

cat >"$WR_TMP/queuekey.conf" <<'EOF'
max_waiting = 3
[queue main]
EOF
bad_config queuekey.conf 1 max_waiting "a queue key outside a queue"

"$WAITROOMD" --config "$WR_TMP/missing.conf" --check-config \
    >/dev/null 2>"$WR_TMP/err"
rc=$?
check "--check-config refuses a missing file (exit $rc)" test "$rc" -ne 0
check_contains "$(cat "$WR_TMP/err")" missing.conf \
    "the message for a missing file names it"

# ---- a running daemon -----------------------------------------------------

start_redis
start_waitroomd "$good"

port_file=$(cat "$WR_TMP/waitroomd.port")
check_match "$port_file" '^[0-9]+$' "the port file holds the port number"
check_eq "$(tail -c 1 "$WR_TMP/waitroomd.port" | od -An -c | tr -d ' ')" '\n' \
    "the port file ends with a newline"
check "the reported port is not 0" test "$WR_PORT" -gt 0

http GET /healthz
check_status 200 "GET /healthz -> 200"
wait_ready
check_status 200 "GET /readyz -> 200 with Redis up"

http GET /v1/queues/main
check_status 200
check_json .queue main
check_json .state paused
http GET /v1/queues/shop
check_status 200
check_json .state open "a queue without state is open"

# A second daemon cannot take the port of the first: it says so and exits.
timeout $((WR_START_DEADLINE + 10)) "$WAITROOMD" --config "$good" \
    --listen "127.0.0.1:$WR_PORT" --redis "127.0.0.1:$REDIS_PORT" \
    --log-level info >/dev/null 2>"$WR_TMP/err" </dev/null
rc=$?
check "a second daemon on a taken port exits non-zero (exit $rc)" \
    test "$rc" -ne 0 -a "$rc" -ne 124
check "... with a message" test -s "$WR_TMP/err"
http GET /healthz
check_status 200 "the first daemon still serves"

# Logs are logfmt: every line holds key=value pairs.
bad_lines=$(grep -cvE '^$|[A-Za-z_][A-Za-z0-9_.-]*=' "$WR_TMP/waitroomd.log")
check_eq "$bad_lines" 0 "every log line is key=value"
check "the daemon logs something at debug level" test -s "$WR_TMP/waitroomd.log"

stop_waitroomd INT

# It starts again on the same Redis, and SIGTERM stops it; with nothing
# open and Redis owing it nothing, at once, not after the half second
# of flush time that open streams' last words get.
start_waitroomd "$good" --log-level warn
http GET /healthz
check_status 200 "GET /healthz -> 200 after a restart"
t0=$(now_ms)
stop_waitroomd TERM
ms=$(($(now_ms) - t0))
if [ "${WAITROOM_VALGRIND:-0}" = 1 ]; then
	pass "an idle daemon stops at once # SKIP under valgrind, whose leak check the time would count"
elif [ "$ms" -lt 400 ]; then
	pass "an idle daemon stops ${ms} ms after SIGTERM (under 400 ms)"
else
	fail "an idle daemon stops within 400 ms of SIGTERM" \
	    "it took ${ms} ms"
fi
