#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# nginx.sh: etc/nginx/waitroom-site.conf, run by real nginx in front of
# waitroomd and a small static shop, as a visitor's browser sees it: no
# pass -> the waiting page; join, get admitted -> the shop, with the pass
# cookie; a forged, expired, revoked or other-queue pass -> the waiting
# page again; the bypass rules let an address and a secret header in
# without a pass; the live stream comes through nginx unbuffered; the
# shop ends a session itself (a checkout done) with a DELETE of the token
# the check handed it, which refuses the pass and admits the next waiter
# at once. With fail-open and waitroomd up, a check waitroomd refuses as
# unreadable is the waiting page. Then, with waitroomd stopped, the
# site's two policies: fail-closed (the default) answers a "busy" page
# with Retry-After and the shop sees nothing (bypassed staff still get in);
# fail-open lets visitors into the shop unchecked and logs each.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || bail "nginx is installed (tools/check-all installs nginx-light)"

S=shop-secret-0123456789abcdefghijklmnop
BYPASS_SECRET=monitor-secret-0123456789
printf 'k1 %s\n' "$S" >"$WR_TMP/keys"
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

start_redis
start_waitroomd "$WR_TMP/wr.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- nginx: the example site, and the shop as a second server --------------

N=$WR_TMP/nginx
mkdir -p "$N/shop" "$N/tmp"
echo "welcome to the shop" >"$N/shop/index.html"
chmod -R a+rX "$N"

# nginx_launch [SED-ARG...]: start nginx on two free ports with the
# example site (edited further by SED-ARGs); 0 when it serves.
NGINX_PID='' NGINX_PORT='' SHOP_PORT=''
nginx_launch() {
	NGINX_PORT=$(wr_free_port) && SHOP_PORT=$(wr_free_port) || return 1
	sed -e "s/listen 80;/listen 127.0.0.1:$NGINX_PORT;/" \
	    -e "s/127\.0\.0\.1:8080/127.0.0.1:$WR_PORT/" \
	    -e "s/127\.0\.0\.1:8000/127.0.0.1:$SHOP_PORT/" \
	    -e "s/concert/shop/g" -e "s|/var/log/nginx/|$N/|" \
	    -e "s|^    192\.0\.2\.0/24 1;|    127.0.0.2 1;|" -e "/2001:db8::/d" \
	    -e "s/change-this-monitor-secret/$BYPASS_SECRET/" "$@" \
	    "$TOP_SRCDIR/etc/nginx/waitroom-site.conf" >"$N/site.conf"
	{
		[ "$(id -u)" = 0 ] && echo "user root;"
		cat <<EOF2
worker_processes 1;
error_log $N/error.log info;
events { worker_connections 256; }
http {
    access_log $N/access.log;
    client_body_temp_path $N/tmp/body;
    proxy_temp_path $N/tmp/proxy;
    fastcgi_temp_path $N/tmp/fastcgi;
    uwsgi_temp_path $N/tmp/uwsgi;
    scgi_temp_path $N/tmp/scgi;
    log_format token '\$http_x_waitroom_token \$request \$http_x_waitroom_bypass';
    include $N/site.conf;
    server {
        listen 127.0.0.1:$SHOP_PORT;
        root $N/shop;
        access_log $N/shop.log token;
    }
}
EOF2
	} >"$N/nginx.conf"
	"$NGINX" -t -p "$N" -e "$N/error.log" -c "$N/nginx.conf" \
	    -g "pid $N/nginx.pid;" >"$N/t.log" 2>&1 || return 2
	"$NGINX" -p "$N" -e "$N/error.log" -c "$N/nginx.conf" \
	    -g "daemon off; pid $N/nginx.pid;" >>"$N/error.log" 2>&1 </dev/null &
	NGINX_PID=$!
	# Asked on /q/, which never reaches the shop: nginx logs a request
	# after it has answered it, so a probe of the shop could land in the
	# shop's log after a test has counted its lines.
	wait_until "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
	    http://127.0.0.1:$NGINX_PORT/q/)\" != 000 ]" 5 && return 0
	kill "$NGINX_PID" 2>/dev/null
	wait "$NGINX_PID" 2>/dev/null
	return 1
}

# nginx_start DESC [SED-ARG...]: nginx_launch, retried on other ports.
nginx_start() {
	local d=$1 i rc
	shift
	for ((i = 0; i < 5; i++)); do
		nginx_launch "$@"
		rc=$?
		[ "$rc" = 0 ] && break
		[ "$rc" = 2 ] && bail "nginx -t accepts $d" "$(cat "$N/t.log")"
	done
	[ "$rc" = 0 ] || bail "nginx starts" "$(tail -n 20 "$N/error.log")"
	WR_EXTRA_PIDS+=("$NGINX_PID")
	pass "nginx -t accepts $d, and nginx serves it"
	NG=http://127.0.0.1:$NGINX_PORT
}

# nginx_stop: a graceful stop, checked.
nginx_stop() {
	kill -QUIT "$NGINX_PID" 2>/dev/null
	check "nginx stops" wr_wait_exit "$NGINX_PID" 10
	wait "$NGINX_PID" 2>/dev/null
}

nginx_start etc/nginx/waitroom-site.conf

JAR=$WR_TMP/jar

# visit PATH [CURL-ARG...]: a browser's GET through nginx with the cookie
# jar; sets STATUS, BODY and LOCATION.
visit() {
	local path=$1
	shift
	STATUS=$(curl -s --max-time 10 -b "$JAR" -c "$JAR" -o "$WR_TMP/v.body" \
	    -D "$WR_TMP/v.h" -w '%{http_code}' "$@" "$NG$path")
	wr_slurp BODY "$WR_TMP/v.body"
	LOCATION=$(tr -d '\r' <"$WR_TMP/v.h" | sed -n 's/^Location: //Ip')
	LOCATION=${LOCATION#"$NG"}	# nginx makes redirects absolute
}

# through_nginx PASS [CURL-ARG...]: what nginx does with a request
# carrying only PASS.
through_nginx() {
	local p=$1
	shift
	STATUS=$(curl -s --max-time 10 -o "$WR_TMP/p.body" -D "$WR_TMP/p.h" \
	    -w '%{http_code}' -H "Cookie: waitroom_pass=$p" "$@" "$NG/")
	LOCATION=$(tr -d '\r' <"$WR_TMP/p.h" | sed -n 's/^Location: //Ip')
	LOCATION=${LOCATION#"$NG"}
}

# ---- a visitor without a pass, then admitted ----------------------------

visit /
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "no pass: nginx sends the visitor to the waiting page /q/shop"
visit /v1/queues/shop/tokens -X POST
check_eq "$STATUS $(jq -r .status <<<"$BODY")" "201 active" \
    "the join through nginx is admitted at once (a free slot)"
T1=$(jq -r .token <<<"$BODY")
P1=$(jq -r .pass <<<"$BODY")
visit "/v1/queues/shop/tokens/$T1"
check_eq "$STATUS" 200 "the status GET through nginx -> 200"
check "the status GET set the pass cookie in the browser" \
    grep -qE "$(printf '\t')waitroom_pass$(printf '\t')eyJ" "$JAR"
visit /
check_eq "$STATUS $BODY" "200 welcome to the shop" \
    "with the pass cookie nginx lets the visitor into the shop"
visit /index.html
check_eq "$STATUS" 200 "every page of the shop, not just the first"
check "the shop learns who came in: X-Waitroom-Token from the check" \
    grep -q "^$T1 GET /index.html" "$N/shop.log"

# ---- passes that must not open the shop ------------------------------------

through_nginx "$P1"
check_eq "$STATUS" 200 "the real pass alone (no jar) opens the shop"
now=$(date +%s)
claims() {
	printf '{"aud":"%s","sub":"%s","iat":%d,"nbf":%d,"exp":%d}' "$1" "$T1" \
	    "$2" "$2" "$3"
}
through_nginx "$(sign not-the-shop-secret-0123456789abcdef k1 "$(claims shop "$now" $((now + 60)))")"
check_eq "$STATUS $LOCATION" "302 /q/shop" "a forged pass -> the waiting page"
through_nginx "$(sign "$S" k1 "$(claims shop $((now - 600)) $((now - 60)))")"
check_eq "$STATUS $LOCATION" "302 /q/shop" "an expired pass -> the waiting page"
http POST /v1/queues/other/tokens
PO=$(json .pass)
through_nginx "$PO"
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "a valid pass of another queue -> the waiting page"
through_nginx "${P1%?}"
check_eq "$STATUS $LOCATION" "302 /q/shop" "a truncated pass -> the waiting page"

# ---- bypass rules: an address, a header -------------------------------------

shop_last() { tail -n 1 "$N/shop.log"; }
through_nginx "" --interface 127.0.0.2
check_eq "$STATUS $(cat "$WR_TMP/p.body")" "200 welcome to the shop" \
    "a bypassed address (127.0.0.2) reaches the shop without a pass"
check_eq "$(shop_last)" "- GET / HTTP/1.1 -" \
    "... unchecked: the shop gets no X-Waitroom-Token"
through_nginx "" --interface 127.0.0.3
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "another address (127.0.0.3) without a pass -> the waiting page"
through_nginx "" -H "X-Waitroom-Bypass: $BYPASS_SECRET" -H "X-Waitroom-Token: $T1"
check_eq "$STATUS $(cat "$WR_TMP/p.body")" "200 welcome to the shop" \
    "the bypass header with the secret reaches the shop without a pass"
check_eq "$(shop_last)" "- GET / HTTP/1.1 -" \
    "... and the shop sees neither the secret nor the visitor's X-Waitroom-Token"
through_nginx "" -H "X-Waitroom-Bypass: ${BYPASS_SECRET}x"
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "the header with another value -> the waiting page"
through_nginx "" -H "X-Waitroom-Bypass: ${BYPASS_SECRET%?}"
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "the header with a prefix of the secret -> the waiting page"

# ---- the live stream through nginx, and revocation -----------------------

visit /v1/queues/shop/tokens -X POST
T2=$(jq -r .token <<<"$BODY")
check_eq "$(jq -r .status <<<"$BODY")" waiting "a second visitor waits (max_active 1)"
WR_BASE_SAVED=$WR_BASE
WR_BASE=$NG
sse_start s2 "/v1/queues/shop/tokens/$T2/events"
WR_BASE=$WR_BASE_SAVED
check "the first status event arrives through nginx within 2 s" \
    sse_wait s2 '^event: status' 1 2
check "a second one a push_interval later: nginx does not hold them back" \
    sse_wait s2 '^event: status' 2 3
visit "/v1/queues/shop/tokens/$T1" -X DELETE
check_eq "$STATUS" 204 "the first visitor ends the session (DELETE through nginx)"
check "entered reaches the stream through nginx within 1 s" \
    sse_wait s2 '^event: entered' 1 1
check "the stream ends after entered" sse_ended s2 5
P2=$(sse_data s2 entered | jq -r .pass)

visit /
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "after the DELETE the revoked pass cookie -> the waiting page"
through_nginx "$P2"
check_eq "$STATUS $(cat "$WR_TMP/p.body")" "200 welcome to the shop" \
    "the pass of the entered event opens the shop"

# ---- the shop ends the session itself: a checkout done --------------------

visit /v1/queues/shop/tokens -X POST -b /dev/null -c /dev/null
T3=$(jq -r .token <<<"$BODY")
check_eq "$(jq -r .status <<<"$BODY")" waiting "a third visitor waits"
# The shop knows the visitor only by X-Waitroom-Token, which nginx set
# from the check's answer: the last line of its log.
T=$(tail -n 1 "$N/shop.log" | cut -d ' ' -f 1)
check_eq "$T" "$T2" "the shop was handed the second visitor's token"
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE --max-time 10 \
    "$NG/v1/queues/shop/tokens/$T")
check_eq "$STATUS" 204 "the shop's DELETE of that token through nginx -> 204"
through_nginx "$P2"
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "the ended session's pass no longer opens the shop"
check_eq "$(status_of shop "$T3")" active \
    "the waiter has the freed slot at once (capacity mode)"

# ---- a renewing queue: the fresh pass becomes the browser's cookie -------

nginx_stop
nginx_start "the site guarding a renewing queue" \
    -e 's|check?queue=shop|check?queue=renewing|' -e 's|/q/shop|/q/renewing|'
rm -f "$JAR"
visit /v1/queues/renewing/tokens -X POST
check_eq "$STATUS $(jq -r .status <<<"$BODY")" "201 active" \
    "a visitor of the renewing queue is admitted"
jar_pass() { awk -F '\t' '$6 == "waitroom_pass" { print $7 }' "$JAR"; }
check_eq "$(jar_pass)" "$(jq -r .pass <<<"$BODY")" \
    "the browser holds the join's pass as its cookie"
# A status answer carries a pass made now, a new one once the second has
# turned since the join's: the cookie is the last answer's.
visit "/v1/queues/renewing/tokens/$(jq -r .token <<<"$BODY")"
R1=$(jq -r .pass <<<"$BODY")
check_eq "$(jar_pass)" "$R1" "... and then the status answer's pass"
# Half of the 4 s pass is gone after 2 s: a visit then brings a fresh one.
check "nginx sets the fresh pass of /v1/check as the cookie within 4 s" \
    wait_until 'visit /; [ "$STATUS" = 200 ] && [ "$(jar_pass)" != "$R1" ]' 4
R2=$(jar_pass)
through_nginx "$R2"
check_eq "$STATUS $(cat "$WR_TMP/p.body")" "200 welcome to the shop" \
    "the fresh pass opens the shop"
check "the shop never sees the cookie header of the check" \
    bash -c "! grep -qi 'x-waitroom-set-cookie' '$N/v.h'"
nginx_stop

# ---- fail-open, waitroomd up: only a missing answer opens -----------------

nginx_start "the site switched to fail-open" \
    -e 's/error_page 500 = @waitroom_busy;/error_page 500 = @waitroom_open;/'
shop_seen=$(wc -l <"$N/shop.log")
# Two cookie lines of 5,000 bytes: nginx takes them (8k a line), waitroomd
# refuses headers over 8 KiB with a 413.
pad=$(printf '%05000d' 0)
through_nginx "" -H "Cookie: pad1=$pad" -H "Cookie: pad2=$pad"
check_eq "$STATUS $LOCATION" "302 /q/shop" \
    "fail-open, waitroomd up: a check it refuses as too large (10 KB of cookies) -> the waiting page"
check_eq "$(wc -l <"$N/shop.log")" "$shop_seen" "... and the shop saw nothing"
nginx_stop
nginx_start etc/nginx/waitroom-site.conf

# ---- no waitroomd: fail-closed, the default -----------------------------

stop_waitroomd
shop_seen=$(wc -l <"$N/shop.log")
visit /
check_eq "$STATUS" 503 \
    "fail-closed: with waitroomd stopped, a visitor with a valid pass gets 503"
check_contains "$BODY" "The waiting room is busy" "nginx's own small busy page"
check_eq "$(tr -d '\r' <"$WR_TMP/v.h" | sed -n 's/^Retry-After: //Ip')" 10 \
    "with Retry-After: 10"
check_contains "$(tr -d '\r' <"$WR_TMP/v.h" | sed -n 's/^Content-Type: //Ip')" \
    "text/html" "as HTML"
through_nginx "$P2"
check_eq "$STATUS" 503 "a pass alone gets the busy page too"
visit /q/shop
check_eq "$STATUS" 503 "the waiting page's address answers 503, not a 502"
check_contains "$BODY" "The waiting room is busy" "and the busy page"
check_eq "$(wc -l <"$N/shop.log")" "$shop_seen" "the shop saw none of these"
through_nginx "" --interface 127.0.0.2
check_eq "$STATUS $(cat "$WR_TMP/p.body")" "200 welcome to the shop" \
    "a bypassed address still reaches the shop"
check "nginx logged why: the check got no answer" \
    grep -q 'auth request unexpected status: 50[24]' "$N/error.log"
check "nginx logged no emergency or alert" \
    bash -c "! grep -q '\[emerg\]\|\[alert\]' '$N/error.log'"
nginx_stop

# ---- no waitroomd: fail-open ----------------------------------------------

nginx_start "the site switched to fail-open" \
    -e 's/error_page 500 = @waitroom_busy;/error_page 500 = @waitroom_open;/'
visit /index.html?unchecked=1 -H "X-Waitroom-Token: $T1"
check_eq "$STATUS $BODY" "200 welcome to the shop" \
    "fail-open: with waitroomd stopped, a visitor without a pass reaches the shop"
check "the shop got the request, with no X-Waitroom-Token (not even the visitor's)" \
    grep -q '^- GET /index.html?unchecked=1 ' "$N/shop.log"
# nginx writes the line once the answer has left: wait for it.
check "waitroom-unchecked.log names the request let in unchecked" \
    wait_lines "$N/waitroom-unchecked.log" \
    '"GET /index\.html\?unchecked=1 HTTP/1\.1" 200' 1 5
check "and the error log says the check got no answer" \
    grep -q 'auth request unexpected status: 50[24]' "$N/error.log"
nginx_stop
