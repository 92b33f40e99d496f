#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# openapi.sh: doc/openapi.yaml is the API the daemon serves. Every route
# of src/http/routes.def is a path of the spec with the same methods, and
# every path of the spec a route; every operation's x-checks are made
# against a real daemon (success, and each error that is cheap to
# provoke), and each answer's status, Content-Type and JSON body (a
# stream's events too) are validated against what the spec documents
# for that status, with python3-jsonschema (openapi.py). Needs
# python3-jsonschema and python3-yaml: skipped without them, unless CI
# is set, where that is a failure.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	if [ -n "${CI:-}" ] && [ "${CI:-}" != false ]; then
		bail "python3-jsonschema and python3-yaml are installed (Debian packages)"
	fi
	echo "1..0 # SKIP python3-jsonschema or python3-yaml is missing"
	exit 0
fi

APORT=$(wr_free_port) || bail "a free port for admin_listen"
printf 'k1 %s\n' 0123456789abcdef0123456789abcdef01 >"$WR_TMP/pass.keys"
now=$(date +%s)
wr_admin_conf "$WR_TMP/openapi.conf"
cat >>"$WR_TMP/openapi.conf" <<EOF
admin_listen  = 127.0.0.1:$APORT
pass_key_file = $WR_TMP/pass.keys
pass_cookie_secure = no

[queue concert]
mode  = rate
state = paused

[queue open]
mode = passthrough

[queue closed]
mode  = rate
state = closed

[queue sched]
mode          = rate
opens_at      = $((now + 7200))
prequeue_from = $((now + 3600))

[queue pre]
mode     = rate
opens_at = $((now + 7200))

[queue pow]
mode           = rate
state          = paused
join_challenge = pow
pow_bits       = 8

[queue club]
mode   = rate
access = invite

[queue full]
mode        = rate
state       = paused
max_waiting = 1

[queue states]
mode = rate

[queue drawn]
mode     = rate
opens_at = $((now + 2))

[queue beacon]
mode         = rate
opens_at     = $((now + 2))
beacon_round = round 1
EOF

start_redis
start_waitroomd "$WR_TMP/openapi.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
ADMIN=http://127.0.0.1:$APORT

# The scheduled queues past their opening: one drawn, one awaiting its beacon.
wait_until 'http GET /v1/queues/drawn/draw; [ "$(json .state)" = drawn ]' 15 ||
    bail "queue drawn is drawn" "$(wr_last)"
wait_until 'http GET /v1/queues/beacon/draw; [ "$(json .state)" = drawing ]' 15 ||
    bail "queue beacon awaits its beacon" "$(wr_last)"

n=0
while IFS=$'\t' read -r verdict what why; do
	n=$((n + 1))
	if [ "$verdict" = ok ]; then
		pass "$what"
	else
		fail "$what" "$why"
	fi
done < <(timeout 60 python3 -u "$TOP_SRCDIR/tests/integration/openapi.py" \
    "$TOP_SRCDIR/doc/openapi.yaml" "$TOP_SRCDIR/src/http/routes.def" \
    "$WR_BASE" "$ADMIN" "$ADMIN_TOKEN" "$TOP_SRCDIR/doc/api.md" \
    2>"$WR_TMP/openapi.err")
[ -s "$WR_TMP/openapi.err" ] && diag "$(head -n 20 "$WR_TMP/openapi.err")"
check_match "$n" '^[0-9]{3,}$' "openapi.py made its checks ($n)"

stop_waitroomd
