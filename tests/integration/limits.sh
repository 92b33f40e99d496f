#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# limits.sh: what a join must pass before it reaches the line:
# join_rate_per_ip (429 rate_limited with Retry-After, per client address,
# X-Forwarded-For believed only from trusted_proxies) and the browser
# origin rule (403 forbidden_origin unless same-origin or in cors_origins).
# With workers = 2 the buckets are the daemon's, not each worker's.
# A refused join changes nothing.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/limits.conf" <<'EOF2'
join_rate_per_ip = 1
trusted_proxies  = 127.0.0.1, ::1
cors_origins     = https://shop.example

[queue q]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/limits.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# join_as ADDR [CURL-ARG...]: a join from ADDR, behind our trusted proxy.
join_as() {
	local a=$1
	shift
	http POST /v1/queues/q/tokens '' -H "X-Forwarded-For: 6.6.6.6, $a" "$@"
}

# burst N PORT [CURL-ARG...]: N joins in a row on one connection (a few
# ms in all, far below the 1 s a token takes to come back); CODES is
# their statuses, $WR_TMP/burst.h their headers, burst.I the bodies.
burst() {
	local n=$1 port=$2 urls=() i
	shift 2
	for ((i = 0; i < n; i++)); do
		urls+=(-o "$WR_TMP/burst.$i" "http://127.0.0.1:$port/v1/queues/q/tokens")
	done
	CODES=$(curl -s --max-time 10 -X POST -D "$WR_TMP/burst.h" \
	    -w '%{http_code} ' "$@" "${urls[@]}")
	CODES=${CODES% }
}

# ---- join_rate_per_ip (1 a second, a burst of 1) ---------------------------

w=$(waiting_of q)
burst 3 "$WR_PORT" -H 'X-Forwarded-For: 198.51.100.1'
check_eq "$CODES" "201 429 429" \
    "joins of one address past join_rate_per_ip -> 429"
check "429 comes with Retry-After: 1" grep -qi '^Retry-After: 1' "$WR_TMP/burst.h"
check_waiting q $((w + 1)) "the refused joins added nobody"
check_eq "$(jq -r .error.code "$WR_TMP/burst.2")" rate_limited \
    "the 429 is the JSON error rate_limited"
join_as 198.51.100.2
check_status 201 "another client address has its own bucket"
http POST /v1/queues/q/tokens
check_status 201 "the proxy itself (no X-Forwarded-For) has its own bucket"
check "198.51.100.1 may join again once its bucket refills (within 2 s)" \
    wait_until 'join_as 198.51.100.1; [ "$STATUS" = 201 ]' 3

for ((i = 0; i < 5; i++)); do
	join_as 198.51.100.3 -d 'not json'
done
check_error 400 bad_json "a malformed join is refused as such"
join_as 198.51.100.3
check_status 201 "malformed joins took no tokens: the next good one -> 201"

# A peer that is not a trusted proxy: its X-Forwarded-For means nothing.
cat >"$WR_TMP/untrusted.conf" <<'EOF2'
join_rate_per_ip = 1
[queue q]
mode        = rate
state       = paused
EOF2
start_more_waitroomd untrusted "$WR_TMP/untrusted.conf"
burst 1 "$MORE_PORT" -H 'X-Forwarded-For: 1.1.1.1'
codes=$CODES
burst 1 "$MORE_PORT" -H 'X-Forwarded-For: 2.2.2.2'
check_eq "$codes $CODES" "201 429" \
    "an untrusted peer cannot pick its address with X-Forwarded-For"

# ---- workers = 2: one bucket per address for the whole daemon -----------

cat >"$WR_TMP/workers.conf" <<'EOF2'
workers          = 2
join_rate_per_ip = 1
trusted_proxies  = 127.0.0.1
[queue q]
mode        = rate
state       = paused
EOF2
start_more_waitroomd workers "$WR_TMP/workers.conf"
# Ten joins of one address, each on a connection of its own, so the
# kernel spreads them over both workers; one token a second may pass.
start=$(now_ms) codes=()
for ((i = 0; i < 10; i++)); do
	codes+=("$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -X POST \
	    -H 'X-Forwarded-For: 203.0.113.7' \
	    "http://127.0.0.1:$MORE_PORT/v1/queues/q/tokens")")
done
elapsed=$(($(now_ms) - start))
passed=$(printf '%s\n' "${codes[@]}" | grep -c '^201$')
refused=$(printf '%s\n' "${codes[@]}" | grep -c '^429$')
check "with 2 workers, 10 joins of one address in $elapsed ms: $passed pass, at most 1 + 1 a second (${codes[*]})" \
    test "$passed" -ge 1 -a "$passed" -le $((1 + elapsed / 1000)) \
    -a $((passed + refused)) = 10

# ---- the browser origin rule ---------------------------------------------

w=$(waiting_of q)
join_as 198.51.100.10 -H 'Origin: https://evil.example' \
    -H 'Sec-Fetch-Site: cross-site'
check_error 403 forbidden_origin "a join from a browser on another site -> 403"
check_contains "$(json .error.message)" evil.example "the message names the origin"
check_waiting q "$w" "the refused join added nobody"
join_as 198.51.100.11 -H 'Origin: https://shop.example' \
    -H 'Sec-Fetch-Site: cross-site'
check_status 201 "a join from an origin of cors_origins -> 201"
join_as 198.51.100.12 -H "Origin: $WR_BASE" -H 'Sec-Fetch-Site: same-origin'
check_status 201 "a join from the waiting page's own origin -> 201"
join_as 198.51.100.13 -H "Origin: $WR_BASE"
check_status 201 "same origin without Sec-Fetch-Site (Origin names the Host) -> 201"
join_as 198.51.100.14 -H 'Origin: null'
check_error 403 forbidden_origin "Origin: null -> 403"
join_as 198.51.100.15 -H 'Sec-Fetch-Site: cross-site'
check_error 403 forbidden_origin "cross-site without an Origin -> 403"

# ---- configuration -------------------------------------------------------

printf 'trusted_proxies = 10.0.0.0/33\n' >"$WR_TMP/bad.conf"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
check_eq "$?" 1 "a bad trusted_proxies stops startup"
check_contains "$out" "bad.conf:1: key 'trusted_proxies'" "naming file, line and key"

stop_waitroomd
