#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# prometheus.sh: a real Prometheus (Debian's) scrapes a real waitroomd
# every second, with etc/prometheus/scrape.yml as its configuration and
# the shipped alert rules loaded. promtool finds nothing to say about the
# rules or about a scrape that holds every metric family; the rules' own
# tests pass (waitroom-rules.test.yml); Prometheus sees the line the test
# made and the latency of requests the test stalled, runs every rule
# without an error, raises WaitroomRedisUnreachable while Redis is away,
# and answers every query of the Grafana dashboard (etc/grafana/
# waitroom.json) with data, so neither can silently rot.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

for tool in prometheus promtool; do
	command -v "$tool" >/dev/null 2>&1 ||
	    bail "$tool is installed (tools/check-all installs prometheus)"
done
SRC=${TOP_SRCDIR:-$(dirname "$0")/../..}
RULES=$SRC/etc/prometheus/waitroom-rules.yml
DASHBOARD=$SRC/etc/grafana/waitroom.json

# Paused: only the admin API admits, so the line is what the test made.
wr_admin_conf "$WR_TMP/prom.conf"
cat >>"$WR_TMP/prom.conf" <<'EOF2'
max_streams = 40

[queue concert]
state = paused
# calm, so no join needs a proof of work, but its bits are a figure
join_challenge = pow
EOF2

# ---- promtool: the rules and their tests ------------------------------------

out=$(promtool check rules "$RULES" 2>&1)
check "promtool check rules passes on waitroom-rules.yml" grep -q SUCCESS <<<"$out" ||
    diag "$out"
out=$(promtool test rules "$(dirname "$0")/waitroom-rules.test.yml" 2>&1)
check "each alert fires on its case and not on its look-alike (promtool test rules)" \
    grep -q SUCCESS <<<"$out" || diag "$out"

start_redis
start_waitroomd "$WR_TMP/prom.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- Prometheus, configured by the shipped scrape.yml --------------------------

# The shipped file with this test's target, rule file and a 1 s rhythm.
sed -e "s|/usr/share/waitroom/prometheus/waitroom-rules.yml|$RULES|" \
    -e "s|'127.0.0.1:8080'|'127.0.0.1:$WR_PORT'|" \
    -e 's/\(scrape_interval\|evaluation_interval\): 15s/\1: 1s/' \
    "$SRC/etc/prometheus/scrape.yml" >"$WR_TMP/prometheus.yml"
check_eq "$(grep -cE "$RULES|127.0.0.1:$WR_PORT|_interval: 1s" "$WR_TMP/prometheus.yml")" 5 \
    "scrape.yml names a rule file, a target and three intervals the test can set"
out=$(promtool check config "$WR_TMP/prometheus.yml" 2>&1)
check "promtool check config passes on it" grep -q 'SUCCESS: 1 rule files found' <<<"$out" ||
    diag "$out"

PROM_PID='' PROM_PORT=''
# prom_start: Prometheus on a free loopback port; retried when the port
# was taken meanwhile.
prom_start() {
	local i
	for ((i = 0; i < 10; i++)); do
		PROM_PORT=$(wr_free_port) || break
		GOMAXPROCS=1 prometheus --config.file="$WR_TMP/prometheus.yml" \
		    --storage.tsdb.path="$WR_TMP/prometheus" \
		    --web.listen-address="127.0.0.1:$PROM_PORT" \
		    --log.level=warn >>"$WR_TMP/prometheus.log" 2>&1 </dev/null &
		PROM_PID=$!
		WR_EXTRA_PIDS+=("$PROM_PID")
		if wait_until 'curl -sf -o /dev/null "http://127.0.0.1:$PROM_PORT/-/ready" ||
		    ! kill -0 "$PROM_PID" 2>/dev/null' 30 &&
		    kill -0 "$PROM_PID" 2>/dev/null; then
			return 0
		fi
		wait "$PROM_PID" 2>/dev/null
		grep -q 'address already in use' "$WR_TMP/prometheus.log" || break
	done
	bail "prometheus starts" "$(wr_tail "$WR_TMP/prometheus.log")"
}

# promql EXPR: an instant query; PROM_JSON is the answer, PROM_N the number
# of series and PROM_VALUE the first one's value.
PROM_JSON='' PROM_N=0 PROM_VALUE=''
promql() {
	PROM_JSON=$(curl -sS --max-time 10 --data-urlencode "query=$1" \
	    "http://127.0.0.1:$PROM_PORT/api/v1/query" 2>&1)
	PROM_N=$(jq -r 'if .status == "success" then .data.result | length
	    else -1 end' <<<"$PROM_JSON" 2>/dev/null) || PROM_N=-1
	PROM_VALUE=$(jq -r '.data.result[0].value[1] // ""' <<<"$PROM_JSON" 2>/dev/null)
}

# prom_is EXPR VALUE: the query answers one series with VALUE.
prom_is() {
	promql "$1"
	[ "$PROM_N" = 1 ] && [ "$PROM_VALUE" = "$2" ]
}

prom_start
check "Prometheus scrapes waitroomd (up == 1)" \
    wait_until 'prom_is "up{job=\"waitroom\"}" 1' 15

# ---- Redis away: the alert ---------------------------------------------------

# shellcheck disable=SC2034 # read by wait_until's code
PENDING='ALERTS{alertname="WaitroomRedisUnreachable"}'
stop_redis
check "without Redis, WaitroomRedisUnreachable is raised (pending its minute)" \
    wait_until 'prom_is "$PENDING" 1' 15
restart_redis
wait_ready || fail "ready again once Redis is back"
check "with Redis back, the alert goes" \
    wait_until 'promql "$PENDING"; [ "$PROM_N" = 0 ]' 15

# ---- requests stalled past the top bucket -------------------------------------

# With Redis stopped, five summaries wait for the store's 3 s command
# timeout: slower than the histogram's top bucket (2.5 s), and 503.
kill -STOP "$REDIS_PID"
codes=$(curl -s -Z --parallel-immediate --max-time 10 -o /dev/null -o /dev/null \
    -o /dev/null -o /dev/null -o /dev/null -w '%{http_code}\n' \
    "$WR_BASE/v1/queues/concert" "$WR_BASE/v1/queues/concert" \
    "$WR_BASE/v1/queues/concert" "$WR_BASE/v1/queues/concert" \
    "$WR_BASE/v1/queues/concert" | sort | uniq -c | awk '{ print $1 "x" $2 }')
kill -CONT "$REDIS_PID"
check_eq "$codes" "5x503" "five requests to a stopped Redis answer 503 after the timeout"
wait_ready || fail "ready again once Redis runs again"

# ---- a line, a stream, an admission, a 404 -------------------------------------

tokens=()
for i in 1 2 3 4; do
	join concert
	tokens+=("$TOKEN")
done
http GET "/v1/queues/concert/tokens/${tokens[1]}"
http GET /nowhere
admin POST /v1/admin/queues/concert/promote '{"count": 1}'
check_status 200 "promote one of the four"
sse_start s "/v1/queues/concert/tokens/${tokens[3]}/events"
sse_wait s '^event: status$' || fail "a stream opens"

# ---- promtool check metrics on a scrape with every family -----------------------

FAMILIES='waitroom_connection_closes_total
waitroom_connections_open
waitroom_draining
waitroom_http_request_duration_seconds
waitroom_http_requests_total
waitroom_pow_challenges_issued_total
waitroom_pow_joins_refused_total
waitroom_queue_abandoned_total
waitroom_queue_active
waitroom_queue_admitted_last_minute
waitroom_queue_admitted_total
waitroom_queue_draw_seconds
waitroom_queue_eta_new_seconds
waitroom_queue_expired_total
waitroom_queue_joined_total
waitroom_queue_left_total
waitroom_queue_noshows_total
waitroom_queue_pow_difficulty
waitroom_queue_prequeue
waitroom_queue_removed_total
waitroom_queue_state
waitroom_queue_streams
waitroom_queue_wait_seconds
waitroom_queue_waiting
waitroom_redis_command_duration_seconds
waitroom_redis_reconnects_total
waitroom_store_full
waitroom_store_replicas_short
waitroom_store_resets_total
waitroom_stream_closes_total
waitroom_streams_max
waitroom_streams_open'
http GET /metrics
check_lines "$(awk '/^# TYPE / { print $3 }' <<<"$BODY" | sort)" "$FAMILIES" \
    "the scrape holds every metric family doc/operating.md lists" "the scrape"
empty=$(awk '/^# TYPE / { f[$3] = 1; next } /^#/ { next }
	{ n = $1; sub(/[{ ].*/, "", n); sub(/_(bucket|sum|count)$/, "", n); s[n]++ }
	END { for (x in f) if (!(x in s)) print x }' <<<"$BODY")
check_eq "$empty" "" "every family has a sample"
out=$(promtool check metrics <<<"$BODY" 2>&1)
check_eq "$out" "" "promtool check metrics reports nothing"

# ---- what Prometheus saw ------------------------------------------------------

check "Prometheus: waitroom_queue_waiting{queue=\"concert\"} is 3 (4 joined, 1 admitted)" \
    wait_until 'prom_is "waitroom_queue_waiting{queue=\"concert\"}" 3' 15
check "Prometheus: one stream open" \
    wait_until 'prom_is waitroom_streams_open 1' 15
check "Prometheus: the reconnections after Redis's restart and stall are counted" \
    wait_until 'promql "waitroom_redis_reconnects_total{connection=\"commands\"} >= 2";
	[ "$PROM_N" = 1 ]' 15
H=waitroom_http_request_duration_seconds
promql "$H""_count"
n=${PROM_VALUE:-0}
check_match "$n" '^[0-9]+$' "Prometheus: $n requests in the latency histogram"
if [ "${n:-0}" -lt 500 ] 2>/dev/null; then
	pass "fewer than 500, so the five stalled ones are over 1%"
else
	fail "fewer than 500 requests, so the five stalled ones are over 1%" "count: $n"
fi
promql "$H""_count - ignoring(le) $H""_bucket{le=\"2.5\"}"
check_match "$PROM_VALUE" '^([5-9]|[1-9][0-9])$' \
    "Prometheus: the stalled requests are past the 2.5 s bucket ($PROM_VALUE)"
promql "histogram_quantile(0.99, $H""_bucket)"
check_eq "$PROM_VALUE" 2.5 \
    "Prometheus: histogram_quantile(0.99) is the top bucket's bound, 2.5 s (the stalled requests)"
promql "histogram_quantile(0.5, $H""_bucket) < 0.25"
check_eq "$PROM_N" 1 "Prometheus: histogram_quantile(0.5) is under 0.25 s ($PROM_VALUE)"

# ---- the rules as Prometheus runs them -----------------------------------------

rules=$(curl -sS --max-time 10 "http://127.0.0.1:$PROM_PORT/api/v1/rules")
check_eq "$(jq '[.data.groups[].rules[]] | length' <<<"$rules")" \
    "$(grep -c '^ *- alert:' "$RULES")" "Prometheus loaded every rule of the file"
check_eq "$(jq -r '[.data.groups[].rules[] | select(.health != "ok") |
    "\(.name): \(.health) \(.lastError // "")"] | join("; ")' <<<"$rules")" "" \
    "Prometheus evaluates every rule without an error"

# ---- the dashboard -------------------------------------------------------------

BODY=$(<"$DASHBOARD")
check_jq 'type == "object"' "waitroom.json is JSON"
check_jq '.templating.list | map(select(.type == "datasource" and .name == "datasource")) | length == 1' \
    "the dashboard has a datasource variable"
check_jq '.templating.list | map(select(.name == "queue" and .type == "query")) | length == 1' \
    "the dashboard has a queue variable"
check_jq '[.. | objects | select(has("datasource")) | .datasource | objects | .uid] |
    all(. == "${datasource}")' "every panel, target and variable queries \${datasource}"
check_jq '[.panels[] | select(.type != "row")] | all(.targets | length > 0)' \
    "every panel has a query"
vq=$(jq -r '.templating.list[] | select(.name == "queue") | .query.query' "$DASHBOARD")
check_eq "$vq" "label_values(waitroom_queue_waiting, queue)" "the queue variable lists the queues"
check_contains "$(curl -sS --max-time 10 -G --data-urlencode 'match[]=waitroom_queue_waiting' \
    "http://127.0.0.1:$PROM_PORT/api/v1/label/queue/values")" '"concert"' \
    "... and Prometheus answers it with concert"

# Grafana's variables, as Grafana would put them: the queue, the rate
# window (4 scrape intervals or more).
n=0
while IFS=$'\t' read -r title expr; do
	n=$((n + 1))
	q=${expr//\$queue/concert}
	q=${q//\$__rate_interval/15s}
	wait_until 'promql "$q"; [ "$PROM_N" -gt 0 ]' 10
	if [ "$PROM_N" -gt 0 ]; then
		pass "panel '$title': $q answers ($PROM_N series)"
	elif [ "$PROM_N" = 0 ]; then
		fail "panel '$title': $q answers" "no series: a metric or label it names does not exist"
	else
		fail "panel '$title': $q answers" "$(wr_clip "$PROM_JSON")"
	fi
done < <(jq -r '.panels[] | select(.type != "row") | .title as $t |
    .targets[] | [$t, .expr] | @tsv' "$DASHBOARD")
check_match "$n" '^[1-9][0-9]+$' "the dashboard's $n queries ran"
line=$(jq -r '.panels[] | select(.title == "Line length") | .targets[0].expr' "$DASHBOARD")
check "panel 'Line length' says concert has 3 waiting" prom_is "${line//\$queue/concert}" 3
eta=$(jq -r '.panels[] | select(.title == "ETA for a newcomer") | .targets[0].expr' "$DASHBOARD")
check "panel 'ETA for a newcomer': 3 waiting at 1 admitted a minute is 180 s" \
    prom_is "${eta//\$queue/concert}" 180

sse_stop s
stop_waitroomd
