#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# page.sh: the waiting page as curl sees it: its headers (type, CSP), the
# language (Accept-Language, ?lang=), the no-JavaScript path (?token=
# rendered from Redis, POST /q/{q} joins), unknown and closed queues, the
# script and style it loads, CORS for cors_origins only, and operator
# templates: used when good, a startup error naming the problem when bad.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/custom.html" <<'EOF2'
<!doctype html><html lang="{{lang}}"><title>{{t_title}}</title>
<p id="q">Queue {{ queue }} in {{state}}: {{position}}</p>
EOF2

cat >"$WR_TMP/page.conf" <<EOF2
cors_origins = https://shop.example, http://other.example:8000

[queue line]
mode        = rate
state       = paused
redirect    = https://shop.example/in?from=wr

[queue shut]
state       = closed

[queue own]
state       = paused
page_template = $WR_TMP/custom.html

[queue work]
state          = paused
join_challenge = pow
pow_bits       = 4

[queue sale]
opens_at = $(($(date +%s) + 86400))
EOF2

start_redis
start_waitroomd "$WR_TMP/page.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- the page -------------------------------------------------------------

http GET /q/line
check_status 200 "GET /q/line -> 200"
check_header_match Content-Type '^text/html; charset=utf-8$' "the page is HTML"
csp=$(header Content-Security-Policy)
check_match "$csp" "default-src 'none'" "the CSP allows nothing by default"
check_match "$csp" "script-src 'self';" "scripts come only from waitroomd"
check_match "$csp" "frame-ancestors 'none'" "the page may not be framed"
check_header X-Content-Type-Options nosniff
check_header Cache-Control no-store
check_contains "$BODY" '<html lang="en">' "English by default"
check_contains "$BODY" 'data-state="join"' "without a token the page joins"
check_contains "$BODY" 'data-queue="line"' "the page names its queue"
check_contains "$BODY" '<script src="/assets/waitroom.js" defer>' "it loads its script"
check_contains "$BODY" '<noscript>' "it has a path without JavaScript"
check_contains "$BODY" 'action="/q/line?lang=en"' "whose join button posts to the page"
check "no inline script or style" \
    eval '! grep -qiE "<script>|<style|style=|on(load|click)=" <<<"$BODY"'

http GET /q/line '' -H 'Accept-Language: ko-KR,ko;q=0.9,en;q=0.8'
check_contains "$BODY" '<html lang="ko">' "Accept-Language: ko gives Korean"
check_contains "$BODY" '대기열에 계십니다' "with the Korean heading"
http GET /q/line '' -H 'Accept-Language: fr, en;q=0.5, ko;q=0.4'
check_contains "$BODY" '<html lang="en">' "the best language we have wins"
http GET '/q/line?lang=ko' '' -H 'Accept-Language: en'
check_contains "$BODY" '<html lang="ko">' "?lang=ko overrides Accept-Language"

http GET /assets/waitroom.js
check_status 200 "GET /assets/waitroom.js -> 200"
check_header_match Content-Type '^text/javascript' "the script is JavaScript"
check "the script writes with textContent, never innerHTML" \
    eval '! grep -q innerHTML <<<"$BODY" && grep -q textContent <<<"$BODY"'
http GET /assets/waitroom.css
check_header_match Content-Type '^text/css' "the style is CSS"
check_contains "$BODY" 'prefers-reduced-motion' "the style respects reduced motion"
http GET /assets/waiting.html
check_error 404 not_found "the template is not served as it is"

# ---- without JavaScript -----------------------------------------------------

http POST /q/line
check_status 303 "POST /q/line (the join button) -> 303"
loc=$(header Location)
check_match "$loc" '^/q/line\?token=[0-9a-f-]{36}&lang=en$' "to the page of the new token"
t=${loc#*token=}
t=${t%%&*}
http GET "$loc"
check_status 200 "GET $loc -> 200"
check_contains "$BODY" 'data-state="waiting"' "the token's page shows it waiting"
check_contains "$BODY" '<span id="wr-position" class="number">1</span>' \
    "with its position rendered by the server"
check_contains "$BODY" '<dd id="wr-eta">no estimate while admissions are paused</dd>' \
    "and the wait in words"
check_contains "$BODY" '<meta http-equiv="refresh" content="3">' \
    "and it reloads itself without JavaScript, after poll_after"
join line
http GET "/q/line?token=$TOKEN"
check_contains "$BODY" '<span id="wr-position" class="number">2</span>' \
    "a second token is second"
check_contains "$BODY" '<dd id="wr-ahead">1</dd>' "with one ahead"

rcli HSET 'wr:{line}:config' state open >/dev/null
# shellcheck disable=SC2016
wait_until 'http GET "/q/line?token=$t"; [[ $BODY == *data-state=\"active\"* ]]' 15
check_contains "$BODY" 'data-state="active"' "an admitted token's page says so"
check_contains "$BODY" \
    "content=\"0; url=https://shop.example/in?from=wr&amp;waitroom_token=$t\"" \
    "and sends the browser to the redirect with its token, escaped"

http GET '/q/line?token=not-a-token'
check_status 400 "a malformed ?token= -> 400"
check_contains "$BODY" 'data-state="bad_token"' "with a page that says so"
http GET "/q/line?token=$(random_uuid)"
check_status 404 "an unknown ?token= -> 404"
check_contains "$BODY" 'data-state="gone"' "with the rejoin message"
check_contains "$BODY" 'Join the line again' "and a button to join again"

# ---- unknown and closed queues ----------------------------------------------

http GET /q/nosuch
check_status 404 "GET /q/nosuch -> 404"
check_header_match Content-Type '^text/html' "as a page"
check_contains "$BODY" 'There is no waiting line at this address.' "that says so"
http GET /q/shut
check_status 409 "GET /q/shut (closed) -> 409, as a join would get"
check_contains "$BODY" 'data-state="closed"' "with a page that says it is closed"
http POST /q/shut
check_status 409 "POST /q/shut -> 409"
http GET '/q/bad!'
check_error 400 bad_queue_id "a malformed queue id -> 400"

# ---- CORS ---------------------------------------------------------------------

http GET /v1/queues/line '' -H 'Origin: https://shop.example'
check_header Access-Control-Allow-Origin https://shop.example \
    "a listed origin is allowed"
check_header Vary Origin
http GET /v1/queues/line '' -H 'Origin: https://evil.example'
check "an origin not listed gets no Access-Control-Allow-Origin" \
    eval '! has_header Access-Control-Allow-Origin'
http POST /v1/queues/line/tokens '' -H 'Origin: https://evil.example'
check_error 403 forbidden_origin "a join from an origin not listed -> 403"
http POST /v1/queues/line/tokens '' -H 'Origin: http://other.example:8000'
check_status 201 "a join from a listed origin -> 201"
check_header Access-Control-Allow-Origin http://other.example:8000
http POST /v1/queues/line/tokens '' -H "Origin: $WR_BASE"
check_status 201 "a join from the page's own origin -> 201"
http OPTIONS /v1/queues/line/tokens '' -H 'Origin: https://shop.example' \
    -H 'Access-Control-Request-Method: POST'
check_status 204 "a preflight from a listed origin -> 204"
check_header Access-Control-Allow-Methods POST
check_header_match Access-Control-Allow-Headers 'Content-Type'
http OPTIONS /v1/queues/line/tokens '' -H 'Origin: https://evil.example'
check_error 403 forbidden_origin "a preflight from another origin -> 403"
http POST /q/line '' -H 'Origin: https://evil.example'
check_error 403 forbidden_origin "the join button posted from elsewhere -> 403"

# What a page needs before it joins or to check a draw: the challenge of
# a queue with a proof of work, the draw and its order. Each answers CORS
# as the join does, its errors too (the page reads them), and a preflight.
for p in /v1/queues/work/challenge /v1/queues/sale/draw \
    /v1/queues/sale/draw/order; do
	http GET "$p" '' -H 'Origin: https://shop.example'
	check_header Access-Control-Allow-Origin https://shop.example \
	    "GET $p from a listed origin ($STATUS) is allowed"
	check_header Vary Origin "GET $p: Vary: Origin"
	http GET "$p" '' -H 'Origin: https://evil.example'
	check "GET $p from an origin not listed gets no Access-Control-Allow-Origin" \
	    eval '! has_header Access-Control-Allow-Origin'
	http OPTIONS "$p" '' -H 'Origin: http://other.example:8000' \
	    -H 'Access-Control-Request-Method: GET'
	check_status 204 "a preflight of $p from a listed origin -> 204"
	check_header Access-Control-Allow-Origin http://other.example:8000 \
	    "... naming the origin"
	check_header_match Access-Control-Allow-Methods '(^|, )GET(,|$)' \
	    "... allowing GET"
	http OPTIONS "$p" '' -H 'Origin: https://evil.example'
	check_error 403 forbidden_origin "a preflight of $p from another origin -> 403"
done
http GET /v1/queues/sale/draw/order '' -H 'Origin: https://shop.example'
check_error 409 draw_not_done "the order before the draw: 409, read cross-origin"

# ---- templates ------------------------------------------------------------------

http GET /q/own
check_status 200 "a queue's own page_template is used"
check_contains "$BODY" '<p id="q">Queue own in join: –</p>' \
    "with its placeholders filled"

cat >"$WR_TMP/bad.html" <<'EOF2'
<html>
<p>{{position}} and {{postion}}</p>
EOF2
printf 'page_template = %s\n' "$WR_TMP/bad.html" >"$WR_TMP/bad.conf"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
rc=$?
check_eq "$rc" 1 "--check-config fails on a bad template"
check_contains "$out" "$WR_TMP/bad.html: line 2: unknown placeholder '{{postion}}'" \
    "naming the file, the line and the placeholder"
check_contains "$out" "accepted: lang, queue, state" "and what is accepted"
printf '<p>{{queue</p>\n' >"$WR_TMP/bad.html"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
check_contains "$out" "line 1: '{{' without a closing '}}'" "an unclosed placeholder is named"
printf '[queue x]\npage_template = %s/missing.html\n' "$WR_TMP" >"$WR_TMP/bad.conf"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
check_contains "$out" "missing.html: cannot read: No such file or directory" \
    "a missing template is named"
printf 'page_template = %s\n' "$WR_TMP/custom.html" >"$WR_TMP/good.conf"
out=$("$WAITROOMD" --config "$WR_TMP/good.conf" --check-config 2>&1)
check_eq "$?" 0 "--check-config accepts a good template"
