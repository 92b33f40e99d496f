#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# noshow.sh: an admitted visitor who never comes. The first GET /v1/check
# of a session, on any instance, is recorded once (the session leaves the
# queue's unchecked set).

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

printf 'k1 %s\n' 'noshow-secret-0123456789abcdefghijklm' >"$WR_TMP/keys"
wr_admin_conf "$WR_TMP/noshow.conf"
cat >>"$WR_TMP/noshow.conf" <<EOF2
pass_key_file = $WR_TMP/keys

[queue cap]
mode        = capacity
max_active  = 2
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/noshow.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
A=$WR_BASE
start_more_waitroomd b "$WR_TMP/noshow.conf"
B=http://127.0.0.1:$MORE_PORT

# on B CMD...: run CMD (http, v1_check...) against instance B.
on() {
	local keep=$WR_BASE
	WR_BASE=$1
	shift
	"$@"
	WR_BASE=$keep
}

# pass_of: the pass in the last answer's body.
pass_of() {
	json '.pass // empty'
}

unchecked() {
	rcli ZSCORE "wr:{$1}:unchecked" "$2"
}

# ---- the first check is recorded, once, on any instance -------------------

join cap
t1=$TOKEN p1=$(pass_of)
check_match "$(json .status)" '^active$' "the first join of cap is admitted"
check_match "$(unchecked cap "$t1")" '^[0-9]{13}$' \
    "an admitted session is unchecked, since its admission (ms)"
on "$B" v1_check "$p1" cap
check_status 204 "its pass is accepted on instance B, which did not admit it"
check_eq "$(unchecked cap "$t1")" "" "that first check, on B, is recorded"
on "$A" v1_check "$p1" cap
check_status 204 "and accepted on A"
check_eq "$(unchecked cap "$t1")" "" "a later check changes nothing"

stop_waitroomd
