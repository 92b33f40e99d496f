#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# rotation.sh: rotating the pass keys without a restart, with workers = 2.
# Append a key and SIGHUP: new passes carry it, old passes stay valid.
# Delete the old key and SIGHUP: its passes are refused. A bad key file is
# refused as a whole (the keys in force stay), and a worker that dies and is
# restarted afterwards signs with the keys in force, not those of startup.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

S1='first-secret-0123456789abcdef0123456789'
S2='second-secret-abcdefghijklmnopqrstuvwxyz'
KEYS=$WR_TMP/pass.keys
TRIES=20	# requests per claim: the kernel spreads them over the workers
printf 'k1 %s\n' "$S1" >"$KEYS"

cat >"$WR_TMP/rotation.conf" <<EOF
workers       = 2
pass_key_file = $KEYS

[queue shop]
mode        = capacity
max_active  = 1000
active_ttl  = 300
EOF

# kids: the kids of the passes of TRIES new sessions, sorted, unique.
kids() {
	local i
	for ((i = 0; i < TRIES; i++)); do
		http POST /v1/queues/shop/tokens
		[ "$STATUS" = 201 ] || { echo "join: $STATUS"; continue; }
		jwt_part "$(json .pass)" 1 | jq -r .kid
	done | sort -u | paste -sd ' '
}

# checks PASS: the statuses of TRIES checks of PASS, sorted, unique.
checks() {
	local i
	for ((i = 0; i < TRIES; i++)); do
		v1_check "$1" shop
		echo "$STATUS"
	done | sort -u | paste -sd ' '
}

# read_by_all N: until N lines event=pass_keys_read or reload_failed, over
# both workers.
read_by_all() {
	wait_lines "$WR_TMP/waitroomd.log" 'event=(pass_keys_read|reload_failed)' "$1" \
	    "$WR_READY_DEADLINE"
}

start_redis
start_waitroomd "$WR_TMP/rotation.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

http POST /v1/queues/shop/tokens
P1=$(json .pass)
check_eq "$(jwt_part "$P1" 1 | jq -r .kid)" k1 "at startup passes are signed by k1"

printf 'k1 %s\nk2 %s\n' "$S1" "$S2" >"$KEYS"
kill -HUP "$WR_PID"
check "both workers read the keys again on SIGHUP" read_by_all 2
check_eq "$(kids)" k2 "after appending k2 and SIGHUP, new passes are signed by k2"
http POST /v1/queues/shop/tokens
P2=$(json .pass)
check_eq "$(checks "$P1")" 204 "a pass signed by k1 is still accepted: nobody is logged out"
check_eq "$(checks "$P2")" 204 "a pass signed by k2 is accepted"

printf 'k2 %s\n' "$S2" >"$KEYS"
kill -HUP "$WR_PID"
check "both workers read the keys again" read_by_all 4
check_eq "$(checks "$P1")" 401 "after deleting k1 and SIGHUP, k1's passes are refused"
check_eq "$(checks "$P2")" 204 "k2's passes are still accepted"

printf 'k2 %s\nk3 tooshort\n' "$S2" >"$KEYS"
kill -HUP "$WR_PID"
check "both workers refuse the bad key file" read_by_all 6
check_contains "$(grep 'event=reload_failed' "$WR_TMP/waitroomd.log" | tail -n 1)" \
    "$KEYS:2: the secret of key 'k3'" "the error names the file, the line and the key"
check "the error does not show the secret" \
    bash -c "! grep -q tooshort '$WR_TMP/waitroomd.log'"
check_eq "$(kids)" k2 "with the bad file refused, passes are still signed by k2"
check_eq "$(checks "$P2")" 204 "and k2's passes are still accepted"

# A worker started after the reloads gets the keys in force.
victim=$(pgrep -P "$WR_PID" | head -n 1)
kill -KILL "$victim"
check "the supervisor starts a new worker" \
    wait_until '[ "$(pgrep -P "$WR_PID" | grep -vcx "$victim")" -ge 2 ]' "$WR_READY_DEADLINE"
check "the port serves again" wait_ready
check_eq "$(kids)" k2 "a restarted worker signs with k2, not with the startup key"
check_eq "$(checks "$P1")" 401 "and refuses k1's passes"

stop_waitroomd
