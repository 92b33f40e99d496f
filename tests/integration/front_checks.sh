# shellcheck shell=bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# front_checks.sh: what caddy.sh, haproxy.sh and nginx.sh all check of
# their front, sourced by each after lib.sh. The test file defines
#
#   FRONT                the front's name for the TAP lines ("Caddy")
#   front_launch Q P     start the front with its shipped example file
#                        rendered for these ports: listening on
#                        127.0.0.1:$FRONT_PORT, waitroomd at $WR_PORT, the
#                        shop at $SHOP_PORT, guarding queue Q, with policy
#                        P (busy: fail-closed, open: fail-open) when no
#                        waitroomd answers, and its bypass rule naming
#                        the address 127.0.0.2 and the header secret
#                        $BYPASS_SECRET; sets FRONT_PID ($FR is its
#                        base URL). 0 when it
#                        serves, 2 when it rejects the file (why in
#                        $FRONT_T_LOG), 1 otherwise (a port taken)
#   FRONT_LOG            the front's log (its last lines when it fails to
#                        start)
#   front_logged URI     the front's log marks the request for URI as let
#                        in unchecked (fail-open); asked until it does, as
#                        a front may write the line after it answered
#   FRONT_TWO_AUTH_STATUS  the status the front answers, itself, to a
#                        request with two Authorization headers (nginx:
#                        400), when it refuses one before any check;
#                        unset, it asks the check, and waitroomd's 400
#                        sends the visitor to the waiting page
#
# and then runs front_checks: no pass -> the waiting page; a pass -> the
# shop, which learns the token; forged, expired, other-queue and cut
# passes -> the waiting page; the live stream through the front, to its
# end after entered; the shop ending a session itself (a checkout done:
# its DELETE of the token it was handed), which admits the next waiter;
# the bypass rules (an address, a header); a renewing queue's fresh pass
# as the browser's cookie; fail-open with waitroomd up (an answer that is
# not a 2xx is no way in), hanging (the policy within the timeouts), then
# stopped: fail-open (the shop, unchecked, logged) and fail-closed (the
# busy page with Retry-After, the shop sees nothing).

BYPASS_SECRET=monitor-secret-0123456789
FRONT_LOG=${FRONT_LOG:-$WR_TMP/front.log}
FRONT_PID='' FRONT_PORT='' SHOP_PORT='' SHOP_PID='' FRONT_T_LOG=$WR_TMP/t.log
SHOP_LOG=$WR_TMP/shop.log
JAR=$WR_TMP/jar
: >"$SHOP_LOG"

# front_conf: the waitroomd configuration these checks need.
front_conf() {
	cat >"$WR_TMP/keys" <<EOF2
k1 $FRONT_SECRET
EOF2
	cat >"$WR_TMP/wr.conf" <<EOF2
pass_key_file = $WR_TMP/keys
pass_cookie_secure = no
push_interval = 1

[queue shop]
mode        = capacity
max_active  = 1
active_ttl  = 120
waiting_ttl = 600

[queue other]
mode        = capacity
max_active  = 10

[queue renewing]
mode        = capacity
max_active  = 10
active_ttl  = 4
renew       = yes
EOF2
}
FRONT_SECRET=shop-secret-0123456789abcdefghijklmnop

# shop_start: the protected site (shop.py) on a free port.
shop_start() {
	local i
	for ((i = 0; i < 5; i++)); do
		SHOP_PORT=$(wr_free_port) || continue
		python3 "$TOP_SRCDIR/tests/integration/shop.py" "$SHOP_PORT" \
		    "$SHOP_LOG" 2>>"$WR_TMP/shop.err" &
		SHOP_PID=$!
		if wait_until "curl -s -o /dev/null http://127.0.0.1:$SHOP_PORT/" 5
		then
			WR_EXTRA_PIDS+=("$SHOP_PID")
			: >"$SHOP_LOG"
			return 0
		fi
		kill "$SHOP_PID" 2>/dev/null
		wait "$SHOP_PID" 2>/dev/null
	done
	bail "the shop (shop.py) serves" "$(cat "$WR_TMP/shop.err")"
}

# front_start DESC Q P: front_launch on a free port, retried on others.
front_start() {
	local d=$1 i rc=1
	shift
	for ((i = 0; i < 5; i++)); do
		FRONT_PORT=$(wr_free_port) || continue
		FR=http://127.0.0.1:$FRONT_PORT
		front_launch "$@"
		rc=$?
		[ "$rc" = 0 ] && break
		[ "$rc" = 2 ] && bail "$FRONT accepts $d" "$(cat "$FRONT_T_LOG")"
	done
	[ "$rc" = 0 ] || bail "$FRONT starts" "$(tail -n 20 "$FRONT_LOG")"
	WR_EXTRA_PIDS+=("$FRONT_PID")
	pass "$FRONT accepts $d, and serves it"
}

# front_stop: a graceful stop (FRONT_STOP_SIGNAL, TERM unless the test
# says), checked.
front_stop() {
	local rc
	kill -"${FRONT_STOP_SIGNAL:-TERM}" "$FRONT_PID" 2>/dev/null
	check "$FRONT stops" wr_wait_exit "$FRONT_PID" 10
	wait "$FRONT_PID" 2>/dev/null
	rc=$?
	check_eq "$rc" 0 "... and exits 0"
}

# front_serving: the front answers on its port (whatever it answers).
front_serving() {
	[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
	    "http://127.0.0.1:$FRONT_PORT/q/")" != 000 ]
}

# visit PATH [CURL-ARG...]: a browser's GET through the front with the
# cookie jar; sets STATUS, BODY, HEADERS and LOCATION.
visit() {
	local path=$1
	shift
	STATUS=$(curl -s --max-time 10 -b "$JAR" -c "$JAR" -o "$WR_TMP/v.body" \
	    -D "$WR_TMP/v.h" -w '%{http_code}' "$@" "$FR$path")
	wr_slurp BODY "$WR_TMP/v.body"
	HEADERS=$(tr -d '\r' <"$WR_TMP/v.h")
	LOCATION=$(header Location)
	LOCATION=${LOCATION#"$FR"}
}

# through_front PASS [CURL-ARG...]: what the front does with a request
# for / carrying only PASS (no jar).
through_front() {
	local p=$1
	shift
	STATUS=$(curl -s --max-time 10 -o "$WR_TMP/p.body" -D "$WR_TMP/p.h" \
	    -w '%{http_code}' -H "Cookie: waitroom_pass=$p" "$@" "$FR/")
	wr_slurp BODY "$WR_TMP/p.body"
	HEADERS=$(tr -d '\r' <"$WR_TMP/p.h")
	LOCATION=$(header Location)
	LOCATION=${LOCATION#"$FR"}
}

# shop_last: the shop's last request, as shop.py logs it.
shop_last() {
	tail -n 1 "$SHOP_LOG"
}

# shop_saw_since N: the requests the shop logged after its first N, one a
# line (shop.py logs a request before it answers it).
shop_saw_since() {
	tail -n "+$(($1 + 1))" "$SHOP_LOG"
}

jar_pass() { awk -F '\t' '$6 == "waitroom_pass" { print $7 }' "$JAR"; }

front_checks() {
	front_conf
	start_redis
	start_waitroomd "$WR_TMP/wr.conf"
	wait_ready || bail "the daemon is ready" "$(wr_last)"
	shop_start
	front_start "the example file" shop busy
	front_visitor
	front_bad_passes
	front_stream
	front_checkout
	front_bypass
	front_renewing
	front_down
}

# ---- a visitor without a pass, then admitted ----------------------------

front_visitor() {
	visit /
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "no pass: $FRONT sends the visitor to the waiting page /q/shop"
	check_eq "$(shop_saw_since 0)" "" "... and the shop saw nothing"
	visit /q/shop
	check_eq "$STATUS" 200 "the waiting page comes through $FRONT"
	check_contains "$(header Content-Type)" text/html "... as HTML"
	visit /v1/queues/shop/tokens -X POST
	check_eq "$STATUS $(jq -r .status <<<"$BODY")" "201 active" \
	    "the join through $FRONT is admitted at once (a free slot)"
	T1=$(jq -r .token <<<"$BODY")
	P1=$(jq -r .pass <<<"$BODY")
	visit "/v1/queues/shop/tokens/$T1"
	check_eq "$STATUS" 200 "the status GET through $FRONT -> 200"
	check "the status GET set the pass cookie in the browser" \
	    grep -qE "$(printf '\t')waitroom_pass$(printf '\t')eyJ" "$JAR"
	visit /
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "with the pass cookie $FRONT lets the visitor into the shop"
	check_eq "$(header Set-Cookie)" "" \
	    "... and sets no cookie (the queue does not renew)"
	visit /index.html -H "X-Waitroom-Token: forged-token" \
	    -H "X-Waitroom-Set-Cookie: waitroom_pass=made-up"
	check_eq "$STATUS" 200 "every page of the shop, not just the first"
	check_match "$(shop_last)" "^$T1 - - GET /index.html$" \
	    "the shop learns who came in: X-Waitroom-Token from the check, and neither of the visitor's headers"
	check_eq "$(header Set-Cookie)" "" \
	    "a visitor's own X-Waitroom-Set-Cookie does not come back as a cookie"
	through_front "$P1"
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "the real pass alone (no jar) opens the shop"
}

# ---- passes that must not open the shop ------------------------------------

front_claims() {
	printf '{"aud":"%s","sub":"%s","iat":%d,"nbf":%d,"exp":%d}' "$1" "$T1" \
	    "$2" "$2" "$3"
}

front_bad_passes() {
	local now seen
	now=$(date +%s)
	seen=$(wc -l <"$SHOP_LOG")
	through_front "$(sign not-the-shop-secret-0123456789abcdef k1 \
	    "$(front_claims shop "$now" $((now + 60)))")"
	check_eq "$STATUS $LOCATION" "302 /q/shop" "a forged pass -> the waiting page"
	through_front "$(sign "$FRONT_SECRET" k1 \
	    "$(front_claims shop $((now - 600)) $((now - 60)))")"
	check_eq "$STATUS $LOCATION" "302 /q/shop" "an expired pass -> the waiting page"
	http POST /v1/queues/other/tokens
	through_front "$(json .pass)"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "a valid pass of another queue -> the waiting page"
	through_front "${P1%?}"
	check_eq "$STATUS $LOCATION" "302 /q/shop" "a truncated pass -> the waiting page"
	through_front "" -H "X-Waitroom-Token: $T1"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "no pass but a visitor's own X-Waitroom-Token -> the waiting page"
	check_eq "$(shop_saw_since "$seen")" "" "the shop saw none of these"
}

# ---- the live stream through the front, and revocation -----------------

front_stream() {
	visit /v1/queues/shop/tokens -X POST
	T2=$(jq -r .token <<<"$BODY")
	check_eq "$(jq -r .status <<<"$BODY")" waiting \
	    "a second visitor waits (max_active 1)"
	local saved=$WR_BASE
	WR_BASE=$FR
	sse_start s2 "/v1/queues/shop/tokens/$T2/events"
	WR_BASE=$saved
	check "the first status event arrives through $FRONT within 2 s" \
	    sse_wait s2 '^event: status' 1 2
	check "a second one a push_interval later: $FRONT does not hold them back" \
	    sse_wait s2 '^event: status' 2 3
	visit "/v1/queues/shop/tokens/$T1" -X DELETE
	check_eq "$STATUS" 204 "the first visitor ends the session (DELETE through $FRONT)"
	check "entered reaches the stream through $FRONT within 1 s" \
	    sse_wait s2 '^event: entered' 1 1
	check "the stream ends after entered" sse_ended s2 5
	visit /
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "after the DELETE the revoked pass cookie -> the waiting page"
	P2=$(sse_data s2 entered | jq -r .pass)
	through_front "$P2"
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "the pass of the entered event opens the shop"
}

# ---- the shop ends a session itself: a checkout done ---------------------

# The shop knows a visitor only by the X-Waitroom-Token the front set
# from the check's answer. Once the visit is over it DELETEs that token:
# the pass opens nothing any more, and the next waiter has the slot at
# once (capacity mode). P3 is that waiter's pass, its session open.
front_checkout() {
	local t3 t
	on "$FR" http POST /v1/queues/shop/tokens
	t3=$(json .token)
	check_json .status waiting "a third visitor waits"
	t=$(shop_last | cut -d " " -f 1)
	check_eq "$t" "$T2" "the shop was handed the second visitor's token"
	on "$FR" http DELETE "/v1/queues/shop/tokens/$t"
	check_status 204 "the shop's DELETE of that token through $FRONT -> 204"
	through_front "$P2"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "the ended session's pass no longer opens the shop"
	http GET "/v1/queues/shop/tokens/$t3"
	check_json .status active \
	    "the waiter has the freed slot at once (capacity mode)"
	P3=$(json .pass)
	through_front "$P3"
	check_eq "$STATUS $BODY" "200 welcome to the shop" "... and its pass opens the shop"
}

# ---- bypass rules: an address, a header ----------------------------------

front_bypass() {
	rm -f "$JAR"
	visit /bypass.html --interface 127.0.0.2
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "a bypassed address (127.0.0.2) reaches the shop without a pass"
	check_match "$(shop_last)" '^- - - GET /bypass.html$' \
	    "... unchecked: the shop gets no X-Waitroom-Token"
	visit /bypass.html --interface 127.0.0.3
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "another address (127.0.0.3) without a pass -> the waiting page"
	visit /monitor.html -H "X-Waitroom-Bypass: $BYPASS_SECRET" \
	    -H "X-Waitroom-Token: $T1"
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "the bypass header with the secret reaches the shop without a pass"
	check_match "$(shop_last)" '^- - - GET /monitor.html$' \
	    "... and the shop sees neither the secret nor the visitor's X-Waitroom-Token"
	visit /monitor.html -H "X-Waitroom-Bypass: ${BYPASS_SECRET}x"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "the header with another value -> the waiting page"
	visit /monitor.html -H "X-Waitroom-Bypass: ${BYPASS_SECRET%?}"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "the header with a prefix of the secret -> the waiting page"
}

# ---- a renewing queue: the fresh pass becomes the browser's cookie -------

front_renewing() {
	local r1 seen
	front_stop
	front_start "the site guarding a renewing queue" renewing busy
	rm -f "$JAR"
	seen=$(wc -l <"$SHOP_LOG")
	visit /v1/queues/renewing/tokens -X POST
	check_eq "$STATUS $(jq -r .status <<<"$BODY")" "201 active" \
	    "a visitor of the renewing queue is admitted"
	check_eq "$(jar_pass)" "$(jq -r .pass <<<"$BODY")" \
	    "the browser holds the join's pass as its cookie"
	visit "/v1/queues/renewing/tokens/$(jq -r .token <<<"$BODY")"
	r1=$(jq -r .pass <<<"$BODY")
	check_eq "$(jar_pass)" "$r1" "... and then the status answer's pass"
	# Half of the 4 s pass is gone after 2 s: a visit then brings a
	# fresh one.
	check "$FRONT sends the fresh pass of /v1/check as Set-Cookie within 4 s" \
	    wait_until 'visit /; [ "$STATUS" = 200 ] && [ -n "$(header Set-Cookie)" ]' 4
	check_match "$(header Set-Cookie)" \
	    '^waitroom_pass=eyJ[^;]+; Path=/; Max-Age=[0-9]+; HttpOnly; SameSite=Lax$' \
	    "... the whole cookie, as a join sets it"
	check_eq "$(grep -ci '^set-cookie:' <<<"$HEADERS")" 1 "... once"
	check_eq "$(header X-Waitroom-Set-Cookie)" "" \
	    "... and not the check's X-Waitroom-Set-Cookie header"
	check "the browser's cookie is now the fresh pass" \
	    test "$(jar_pass)" != "$r1" -a -n "$(jar_pass)"
	through_front "$(jar_pass)"
	check_eq "$STATUS $BODY" "200 welcome to the shop" "the fresh pass opens the shop"
	check_eq "$(shop_saw_since "$seen" | grep waitroom_pass)" "" \
	    "the shop never sees the cookie header of the check"
	front_stop
}

# ---- fail-open, with waitroomd up, then stopped; then fail-closed ---------

front_down() {
	local seen pad t0 ms
	front_start "the file switched to fail-open" shop open
	seen=$(wc -l <"$SHOP_LOG")
	through_front "$P3" -H "Authorization: Bearer $P3" -H "Authorization: Bearer x"
	if [ -n "${FRONT_TWO_AUTH_STATUS-}" ]; then
		check_eq "$STATUS" "$FRONT_TWO_AUTH_STATUS" \
		    "fail-open, waitroomd up: two Authorization headers -> $FRONT refuses the request itself ($FRONT_TWO_AUTH_STATUS)"
	else
		check_eq "$STATUS $LOCATION" "302 /q/shop" \
		    "fail-open, waitroomd up: a check it refuses as bad_request (two Authorization headers) -> the waiting page"
	fi
	# Two cookie lines of 5,000 bytes, which a front takes: waitroomd
	# refuses headers over 8 KiB (400 bad_request).
	pad=$(printf '%05000d' 0)
	through_front "" -H "Cookie: pad1=$pad" -H "Cookie: pad2=$pad"
	check_eq "$STATUS $LOCATION" "302 /q/shop" \
	    "fail-open, waitroomd up: a check it refuses as too large (10 KB of cookies) -> the waiting page"
	check_eq "$(shop_saw_since "$seen")" "" "... and the shop saw none of these"
	# A waitroomd that hangs: the check gives up within 5 s (the
	# examples' timeouts), and then the policy holds.
	kill -STOP "$WR_PID"
	t0=$EPOCHREALTIME
	visit /hung.html
	ms=$(ms_between "$t0")
	kill -CONT "$WR_PID"
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "fail-open, waitroomd hangs (SIGSTOP): the shop, unchecked"
	check "... after at most 6.5 s (took $ms ms)" test "$ms" -le 6500
	stop_waitroomd
	visit /index.html?unchecked=1 -H "X-Waitroom-Token: $T1"
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "fail-open: with waitroomd stopped, a visitor without a pass reaches the shop"
	check_match "$(shop_last)" '^- - - GET /index.html\?unchecked=1$' \
	    "the shop got the request, with no X-Waitroom-Token (not even the visitor's)"
	check "$FRONT's log marks the request let in unchecked" \
	    wait_until "front_logged '/index.html?unchecked=1'" 5
	visit /q/shop
	check_eq "$STATUS" 503 "the waiting page's address answers the busy page, whatever the policy"
	front_stop

	front_start "the example file" shop busy
	seen=$(wc -l <"$SHOP_LOG")
	through_front "$P3"
	check_eq "$STATUS" 503 \
	    "fail-closed: with waitroomd stopped, a visitor with a valid pass gets 503"
	check_contains "$BODY" "The waiting room is busy" "$FRONT's own small busy page"
	check_eq "$(header Retry-After)" 10 "with Retry-After: 10"
	check_eq "$(header Cache-Control)" no-store "and Cache-Control: no-store"
	check_contains "$(header Content-Type)" text/html "as HTML"
	visit /
	check_eq "$STATUS" 503 "a visitor without a pass gets the busy page too"
	visit /q/shop
	check_eq "$STATUS" 503 "the waiting page's address answers 503, not a 502"
	check_contains "$BODY" "The waiting room is busy" "and the busy page"
	check_eq "$(shop_saw_since "$seen")" "" "the shop saw none of these"
	visit /staff.html --interface 127.0.0.2
	check_eq "$STATUS $BODY" "200 welcome to the shop" \
	    "a bypassed address still reaches the shop"
	front_stop
}
