#!/usr/bin/env bash
#
# proxy_streams.sh: max_streams_per_ip counts the client address, the one
# dispatch.c resolves once for every handler: behind trusted_proxies the
# nearest untrusted hop of X-Forwarded-For, not the proxy's own address.
# Behind the shipped nginx site every stream comes from 127.0.0.1, so a
# cap on the peer would cap the whole site.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)

cat >"$WR_TMP/proxy.conf" <<'EOF2'
push_interval      = 1
trusted_proxies    = 127.0.0.1
max_streams_per_ip = 2

[queue p]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/proxy.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

tok=()
for i in 0 1 2 3; do
	join p
	tok+=("$TOKEN")
done

# Two visitors' streams through the proxy (all from 127.0.0.1).
for i in 0 1; do
	sse_start "a$i" "/v1/queues/p/tokens/${tok[i]}/events" \
	    -H 'X-Forwarded-For: 198.51.100.7'
	sse_wait "a$i" '^event: status$' 1 "$D" ||
	    fail "198.51.100.7: stream $((i + 1)) of 2 opens" \
		"$(sse_text "a$i" | head -n 5)"
done
pass "198.51.100.7 behind the proxy: two streams open"

http GET "/v1/queues/p/tokens/${tok[2]}/events" '' \
    -H 'X-Forwarded-For: 198.51.100.7'
check_error 429 rate_limited "198.51.100.7: a third stream -> 429 rate_limited"

sse_start b0 "/v1/queues/p/tokens/${tok[3]}/events" \
    -H 'X-Forwarded-For: 198.51.100.8'
check "198.51.100.8, through the same proxy, still opens a stream" \
    sse_wait b0 '^event: status$' 1 "$D"

for s in a0 a1 b0; do
	sse_stop "$s"
done
stop_waitroomd
