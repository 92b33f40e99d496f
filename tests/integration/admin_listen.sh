#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# admin_listen.sh: with admin_listen set, the admin API is served on that
# port and only there. On the public port every admin route answers the
# 404 of an unknown path, with or without the token, and changes nothing;
# on the admin port the admin API asks for its token as before, the health
# checks and /metrics answer, and the visitors' API does not. With two
# workers both ports are served by each. One port for both is refused at
# start, and waitroomctl reaches the admin API with --admin-url.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "${WAITROOMCTL:-}" ] ||
    bail "WAITROOMCTL is set to an executable" "WAITROOMCTL='${WAITROOMCTL:-}'"

APORT=$(wr_free_port) || bail "a free port for admin_listen"
wr_admin_conf "$WR_TMP/split.conf"
cat >>"$WR_TMP/split.conf" <<EOF2
admin_listen = 127.0.0.1:$APORT

[queue line]
mode        = rate
batch       = 1
interval    = 1
state       = paused
EOF2

start_redis
start_waitroomd "$WR_TMP/split.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
PUBLIC=$WR_BASE
ADMIN=http://127.0.0.1:$APORT

join line
check_status 201 "setup: a visitor joins on the public port"
T1=$TOKEN
BEFORE=$(snap)

# ---- the public port knows no admin API ----------------------------------------

# Every admin route of the router (routes.def), each with each of its
# methods, :q as "line" and :t as the visitor's token: a route added later
# is covered without touching this test.
admin_routes() {
	awk 'BEGIN { RS = "ROUTE\\(" } NR > 1 {
		gsub(/[ \t\n]+/, " ")
		split($0, f, ", ")
		path = f[2]; gsub(/"/, "", path)
		if (path !~ /^\/(v1\/)?admin/) next
		n = split(f[3], m, " \\| ")
		for (i = 1; i <= n; i++) {
			sub(/^RM_/, "", m[i]); print m[i], path
		}
	}' "$TOP_SRCDIR/src/http/routes.def" |
	    sed -e "s|:q|line|; s|:t|$T1|; s|:f|console.js|"
}
mapfile -t ROUTES < <(admin_routes)
[ "${#ROUTES[@]}" -ge 19 ] ||
    bail "routes.def lists the admin routes" "${ROUTES[*]}"
for r in "${ROUTES[@]}"; do
	read -r method path <<<"$r"
	admin "$method" "$path" '{"count":1}'
	check_error 404 not_found "public port, $method $path with the token -> 404"
	http "$method" "$path"
	check_error 404 not_found "public port, $method $path without it -> 404"
done
check_lines "$(snap)" "$BEFORE" \
    "the admin calls on the public port changed nothing in Redis" "Redis now"
http GET /v1/queues/line
check_json .state paused "... the queue is still paused"
http GET "/v1/queues/line/tokens/$T1"
check_status 200 "... and the visitor still holds a place"

# ---- the admin port: the admin API, its token, probes ---------------------------

on_admin admin GET /v1/admin/queues
check_status 200 "admin port: GET /v1/admin/queues with the token -> 200"
check_jq '[.queues[].queue] | index("line") != null' "... lists the queue"
# Wrong, missing or a second Authorization: 401 on every admin API route
# and the feed, and nothing done (a proxy in front may have checked or
# passed on either of two).
BEFORE=$(snap)
WRONG="Authorization: Bearer wrong-token-0123456789"
for r in "${ROUTES[@]}"; do
	read -r method path <<<"$r"
	[[ $path == /v1/admin* ]] || continue
	on_admin http "$method" "$path" '{"count":1}'
	check_error 401 unauthorized "admin port: $method $path without a token -> 401"
	on_admin http "$method" "$path" '{"count":1}' -H "$WRONG"
	check_error 401 unauthorized "admin port: $method $path, a wrong token -> 401"
	on_admin admin "$method" "$path" '{"count":1}' -H "$WRONG"
	check_error 401 unauthorized "admin port: $method $path, the token then another -> 401"
	on_admin http "$method" "$path" '{"count":1}' -H "$WRONG" \
	    -H "Authorization: Bearer $ADMIN_TOKEN"
	check_error 401 unauthorized "admin port: $method $path, another then the token -> 401"
done
check_lines "$(snap)" "$BEFORE" \
    "the refused admin calls changed nothing in Redis" "Redis now"
check_match "$(grep 'event=admin_unauthorized' "$WR_TMP/waitroomd.log" | tail -n 1)" \
    'reason=two_tokens' "the refusal of two tokens is logged as such"
for p in /healthz /readyz /metrics; do
	on_admin http GET "$p"
	check_status 200 "admin port: GET $p -> 200"
done
on_admin http POST /v1/queues/line/tokens '{}'
check_error 404 not_found "admin port: a join -> 404"
on_admin http GET /v1/queues/line
check_error 404 not_found "admin port: a queue's summary -> 404"
on_admin http GET /q/line
check_status 404 "admin port: the waiting page -> 404"
on_admin admin POST /v1/admin/queues/line/resume
check_status 200 "admin port: resume -> 200"
wait_until 'http GET /v1/queues/line; [ "$(jq -r .state <<<"$BODY")" = open ]' 5
check_json .state open "... and the public summary says open"
http GET /healthz
check_status 200 "public port: /healthz still answers"

# ---- waitroomctl ---------------------------------------------------------------

WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN "$WAITROOMCTL" --url "$PUBLIC" status line \
    >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
rc=$?
check_eq "$rc" 4 "waitroomctl against the public port only: exit 4"
check_contains "$(cat "$WR_TMP/ctl.err")" "--admin-url" "... and it names --admin-url"
WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN "$WAITROOMCTL" --url "$PUBLIC" \
    --admin-url "$ADMIN" status line >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
check_eq "$?" 0 "waitroomctl --admin-url: status -> 0"
check_contains "$(cat "$WR_TMP/ctl.out")" "line" "... and shows the queue"
WAITROOM_ADMIN_URL=$ADMIN WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN \
    "$WAITROOMCTL" --url "$PUBLIC" pause line >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
check_eq "$?" 0 "WAITROOM_ADMIN_URL: pause -> 0"
wait_until 'http GET /v1/queues/line; [ "$(jq -r .state <<<"$BODY")" = paused ]' 5
check_json .state paused "... and the public summary says paused"
stop_waitroomd

# ---- two workers: each serves both ports ----------------------------------------

write_conf "$WR_TMP/workers.conf" "$WR_TMP/split.conf" "workers=2"
start_waitroomd "$WR_TMP/workers.conf"
wait_ready || bail "two workers are ready" "$(wr_last)"
ok=0 pub=0
for i in $(seq 1 20); do
	on_admin admin GET /v1/admin/queues/line
	[ "$STATUS" = 200 ] && ok=$((ok + 1))
	admin GET /v1/admin/queues/line
	[ "$STATUS" = 404 ] && pub=$((pub + 1))
done
check_eq "$ok" 20 "two workers: 20 of 20 admin calls on the admin port -> 200"
check_eq "$pub" 20 "two workers: 20 of 20 on the public port -> 404"
stop_waitroomd

# ---- one port for both is refused -------------------------------------------------

P=$(wr_free_port) || bail "a free port"
for w in 1 2; do
	write_conf "$WR_TMP/same.conf" "$WR_TMP/split.conf" "workers=$w" \
	    "admin_listen=127.0.0.1:$P"
	timeout 20 "$WAITROOMD" --config "$WR_TMP/same.conf" \
	    --listen "127.0.0.1:$P" --redis "127.0.0.1:$REDIS_PORT" \
	    >"$WR_TMP/same.log" 2>&1 </dev/null
	rc=$?
	check "workers = $w, admin_listen on listen's port: the daemon stops (status $rc)" \
	    test "$rc" -ne 0 -a "$rc" -ne 124
	check_match "$(cat "$WR_TMP/same.log")" "startup_failed" \
	    "... saying why"
done

write_conf "$WR_TMP/bad.conf" "$WR_TMP/split.conf" "admin_listen=8081"
"$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config >"$WR_TMP/bad.out" 2>&1
rc=$?
check "admin_listen without a host: the configuration is refused" \
    test "$rc" -ne 0
check_contains "$(cat "$WR_TMP/bad.out")" "admin_listen" "... naming the key"

