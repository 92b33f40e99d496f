#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# metrics.sh: GET /metrics is Prometheus text format 0.0.4, checked line by
# line (promcheck.py), and its figures follow what happens: joins,
# admissions, open streams and why they closed, requests by route and
# status class. /readyz says 503 while the daemon drains. With workers = 2,
# every scrape tells the whole daemon's figures, whichever worker answers:
# counters never go back, open streams and their cap are counted over both
# workers.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 ||
    bail "python3 is installed (tools/check-all installs it)"
PROMCHECK=$(dirname "$0")/promcheck.py

wr_admin_conf "$WR_TMP/metrics.conf"
cat >>"$WR_TMP/metrics.conf" <<'EOF2'
push_interval    = 1
max_streams      = 50

[queue shop]
mode        = rate
batch       = 1
interval    = 1
state       = paused
waiting_ttl = 600

[queue other-q]
state = paused
EOF2

# check_metric SERIES VALUE DESC
check_metric() {
	check_eq "$(metric "$1")" "$2" "$3"
}

scrape() {
	http GET /metrics
}

# check_valid DESC: the last body passes promcheck.py.
check_valid() {
	local out
	if out=$(python3 "$PROMCHECK" <<<"$BODY"); then
		pass "$1 ($out)"
	else
		fail "$1" "$out"
	fi
}

start_redis
start_waitroomd "$WR_TMP/metrics.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

scrape
check_status 200 "GET /metrics: 200"
check_header Content-Type "text/plain; version=0.0.4; charset=utf-8"
check_valid "a fresh daemon's metrics are valid text format 0.0.4"
check_metric 'waitroom_queue_waiting{queue="shop"}' 0 "shop: nobody waiting"
check_metric 'waitroom_queue_state{queue="shop",state="paused"}' 1 "shop: paused is 1"
check_metric 'waitroom_queue_state{queue="shop",state="open"}' 0 "shop: open is 0"
check_metric 'waitroom_queue_waiting{queue="other-q"}' 0 "every queue is there"
check_metric 'waitroom_streams_open' 0 "no stream open"
check_metric 'waitroom_streams_max' 50 "max_streams is exported"
check_metric 'waitroom_draining' 0 "not draining"

# ---- traffic -----------------------------------------------------------------

tokens=()
for i in 1 2 3; do
	join shop
	tokens+=("$TOKEN")
done
http GET /v1/queues/nope
http GET /nowhere
http GET /q/shop
http GET /assets/waitroom.js
http GET /assets/waitroom.css
http GET "/v1/queues/shop/tokens/${tokens[0]}"
sse_start one "/v1/queues/shop/tokens/${tokens[2]}/events"
sse_wait one '^event: status$' 1 5 || fail "a stream opens"
sse_start two "/v1/queues/shop/tokens/${tokens[1]}/events"
sse_wait two '^event: status$' 1 5 || fail "a second stream opens"

scrape
check_valid "with traffic the metrics are still valid"
check_metric 'waitroom_queue_waiting{queue="shop"}' 3 "shop: 3 waiting"
check_metric 'waitroom_queue_joined_total{queue="shop"}' 3 "shop: 3 joined"
check_metric 'waitroom_streams_open' 2 "two streams open"
check_metric 'waitroom_queue_streams{queue="shop"}' 2 "two of shop's streams open here"
check_metric 'waitroom_http_requests_total{route="join",code="2xx"}' 3 \
    "3 joins answered 2xx"
check_metric 'waitroom_http_requests_total{route="queue",code="4xx"}' 1 \
    "the unknown queue counted as queue 4xx"
check_metric 'waitroom_http_requests_total{route="none",code="4xx"}' 1 \
    "the unknown path counted as route none, 4xx"
check_metric 'waitroom_http_requests_total{route="events",code="2xx"}' 2 \
    "the streams counted as events 2xx"
check_metric 'waitroom_http_requests_total{route="page",code="2xx"}' 1 \
    "the waiting page counted as page 2xx"
check_metric 'waitroom_http_requests_total{route="asset",code="2xx"}' 2 \
    "its script and style counted as asset 2xx"
n=$(metric 'waitroom_http_request_duration_seconds_count')
check_match "$n" '^[0-9]+$' "the request latency histogram counts ($n)"
n=$(metric 'waitroom_redis_command_duration_seconds_count')
check_match "$n" '^[1-9][0-9]*$' "the Redis latency histogram counts ($n)"

# promote one (entered ends its stream), kick one (gone), leave one
admin POST /v1/admin/queues/shop/promote '{"count": 1}'
admin DELETE "/v1/admin/queues/shop/tokens/${tokens[1]}"
check "the kicked token's stream ends" sse_ended two 3
sse_stop one
wait_until 'scrape; [ "$(metric waitroom_streams_open)" = 0 ]' 5
check_metric 'waitroom_streams_open' 0 "both streams closed"
check_metric 'waitroom_stream_closes_total{reason="gone"}' 1 "one closed as gone"
check_metric 'waitroom_stream_closes_total{reason="client_gone"}' 1 \
    "one closed as client gone"
check_metric 'waitroom_queue_admitted_total{queue="shop"}' 1 "shop: 1 admitted"
check_metric 'waitroom_queue_removed_total{queue="shop"}' 1 "shop: 1 removed"
check_metric 'waitroom_queue_admitted_last_minute{queue="shop"}' 1 \
    "shop: 1 admitted in the last minute"
check_metric 'waitroom_queue_active{queue="shop"}' 1 "shop: 1 active"
check_metric 'waitroom_queue_waiting{queue="shop"}' 1 "shop: 1 waiting"
check_valid "still valid"

# ---- without Redis the process's figures remain ---------------------------------

stop_redis
wait_until 'http GET /readyz; [ "$STATUS" = 503 ]' 5
scrape
check_status 200 "with Redis down /metrics still answers 200"
check_valid "... valid, with the process's figures"
check_contains "$BODY" "waitroom_streams_open 0" "... such as open streams"
restart_redis
wait_ready || fail "ready again once Redis is back"
scrape
check_metric 'waitroom_redis_reconnects_total{connection="commands"}' 1 \
    "the commands connection's reconnection is counted"

# ---- /readyz while draining ---------------------------------------------------------

# One keep-alive connection stays served after SIGTERM stops accepting;
# a stream shows when the drain has begun.
join shop
sse_start drain "/v1/queues/shop/tokens/$TOKEN/events"
sse_wait drain '^event: status$' 1 5 || fail "a stream opens before the drain"
exec 3<>"/dev/tcp/127.0.0.1/$WR_PORT"
# readyz_on_fd3: GET /readyz on the kept connection; sets STATUS and BODY.
readyz_on_fd3() {
	local line len=0
	printf 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n' >&3
	STATUS=000 BODY=
	IFS= read -r -t 2 line <&3 || return 1
	[[ $line =~ ^HTTP/1\.[01]\ ([0-9]{3}) ]] && STATUS=${BASH_REMATCH[1]}
	while IFS= read -r -t 2 line <&3; do
		line=${line%$'\r'}
		[ -z "$line" ] && break
		[[ ${line,,} =~ ^content-length:\ *([0-9]+) ]] && len=${BASH_REMATCH[1]}
	done
	[ "$len" -gt 0 ] && IFS= read -r -N "$len" -t 2 BODY <&3
	return 0
}
readyz_on_fd3
check_eq "$STATUS" 200 "before SIGTERM: /readyz 200 on a kept connection"
kill -TERM "$WR_PID"
check "the drain begins: the stream ends" sse_ended drain 3
readyz_on_fd3
check_eq "$STATUS" 503 "while draining: /readyz 503"
check_contains "$BODY" '"code":"draining"' "... with code draining"
exec 3<&-
stop_waitroomd

# ---- workers = 2: one scrape tells the figures of both --------------------

{ echo 'workers = 2'; cat "$WR_TMP/metrics.conf"; } >"$WR_TMP/workers.conf"
start_waitroomd "$WR_TMP/workers.conf"
wait_ready || bail "the daemon with 2 workers is ready" "$(wr_last)"
HEALTHZ='waitroom_http_requests_total{route="healthz",code="2xx"}'
for ((i = 0; i < 30; i++)); do
	curl -s -o /dev/null --max-time 5 "$WR_BASE/healthz"
done
# Each scrape is a new connection: the kernel spreads them over the workers.
seen=()
for ((i = 0; i < 10; i++)); do
	scrape
	seen+=("$(metric "$HEALTHZ")")
done
ok=1 prev=0
for v in "${seen[@]}"; do
	[[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge 30 ] && [ "$v" -ge "$prev" ] || ok=0
	prev=${v:-0}
done
check_eq "$ok" 1 "10 scrapes all count the 30 /healthz of both workers, never going back (${seen[*]})"
check_valid "the summed exposition is valid"
check_metric 'waitroom_streams_max' 100 "streams_max: max_streams of each of the 2 workers, added"

# streams_all N: 6 scrapes in a row all say N streams open, N of them
# shop's, and so does the admin view of shop each time.
streams_all() {
	local i
	for ((i = 0; i < 6; i++)); do
		scrape
		[ "$(metric waitroom_streams_open)" = "$1" ] &&
		    [ "$(metric 'waitroom_queue_streams{queue="shop"}')" = "$1" ] ||
		    return 1
		admin GET /v1/admin/queues/shop
		[ "$(json .streams)" = "$1" ] || return 1
	done
}
for n in 1 2 3 4; do
	join shop
	sse_start "w$n" "/v1/queues/shop/tokens/$TOKEN/events"
	sse_wait "w$n" '^event: status' || fail "stream w$n starts" "$(sse_text "w$n")"
done
check "every scrape and admin view count the 4 streams open over both workers" \
    wait_until 'streams_all 4' "$WR_READY_DEADLINE"
for n in 1 2 3 4; do
	sse_stop "w$n"
done
check "and 0 once they close" wait_until 'streams_all 0' "$WR_READY_DEADLINE"
stop_waitroomd
