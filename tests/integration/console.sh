#!/usr/bin/env bash
#
# console.sh: the operator's console, GET /admin. As curl sees it: served
# on admin_listen only (404 on the public port, and without admin_listen),
# with its own CSP, X-Frame-Options DENY, no-store, its script and style
# under /admin/assets/ and nowhere else, in English and Korean. Then in
# headless Chromium (tests/browser/console_page.py): a wrong token is
# refused and asked again, the admin token logs in and is kept in the
# tab only, pause and promote from the page change what visitors see,
# a refusal shows the server's message, and the token is in no URL, no
# cookie and no line of the daemon's log; and from the live feed, joins
# show in the waiting count within 2 s, the charts come back from the
# history after a reload, and Redis at maxmemory raises its alert; a
# notice set from the page appears on an open waiting page within 2 s;
# fail-open for a minute admits a join at once and the queue returns to
# its mode when it is over (the test moves its end to 10 s from then by
# the admin API rather than wait the minute); with a second instance on the same
# Redis both instances' streams are shown, and the second, killed, is
# shown missing within 3 s.
# Its screenshot goes to tests/browser/artifacts/console.png of the build
# tree.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

CSP="default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

APORT=$(wr_free_port) || bail "a free port for admin_listen"
ADMIN_TOKEN=console-token-of-alice-0123456789
printf '# the admins\nalice %s\nbob console-token-of-bob-0123456789\n' \
    "$ADMIN_TOKEN" >"$WR_TMP/admins"
cat >"$WR_TMP/console.conf" <<EOF2
admin_token_file = $WR_TMP/admins
admin_listen = 127.0.0.1:$APORT
push_interval = 1

[queue line]
mode        = rate
batch       = 1
interval    = 600
waiting_ttl = 600

[queue spare]
mode        = rate
batch       = 1
interval    = 600
waiting_ttl = 600

[queue sale]
mode        = rate
batch       = 1
interval    = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/console.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
PUBLIC=$WR_BASE
ADMIN=http://127.0.0.1:$APORT

# console_headers WHAT: the console's headers on the last answer.
console_headers() {
	check_header Content-Security-Policy "$CSP" "$1: the console's CSP, exactly"
	check_header X-Frame-Options DENY "$1: X-Frame-Options: DENY"
	check_header Cache-Control no-store "$1: Cache-Control: no-store"
	check_header Referrer-Policy no-referrer "$1: Referrer-Policy: no-referrer"
	check_header X-Content-Type-Options nosniff "$1: nosniff"
}

# ---- as curl sees it --------------------------------------------------------

on_admin http GET /admin
check_status 200 "admin port: GET /admin -> 200"
check_header Content-Type "text/html; charset=utf-8" "... an HTML page"
console_headers "GET /admin"
check_contains "$BODY" '<html lang="en">' "... in English by default"
check_contains "$BODY" 'src="/admin/assets/console.js"' "... loading its script from /admin/assets/"
check "... with no inline script, style or handler" \
    test -z "$(grep -Eio '<script>|<script [^s]|<style|style=| on[a-z]+=' <<<"$BODY")"
check "... and nothing from elsewhere" \
    test -z "$(grep -Eo '(src|href)="(https?:)?//[^"]*"' <<<"$BODY")"

for f in console.js:text/javascript console.css:text/css; do
	on_admin http GET "/admin/assets/${f%%:*}"
	check_status 200 "admin port: GET /admin/assets/${f%%:*} -> 200"
	check_header Content-Type "${f#*:}; charset=utf-8" "... as ${f#*:}"
	console_headers "GET /admin/assets/${f%%:*}"
done
on_admin http HEAD /admin '' -I
check_status 200 "admin port: HEAD /admin -> 200"
on_admin http GET /admin/assets/waitroom.js
check_error 404 not_found "admin port: the waiting page's script is not a console file"
on_admin http GET /admin/assets/console.html
check_error 404 not_found "admin port: the template itself is not served"
on_admin http POST /admin
check_error 405 method_not_allowed "admin port: POST /admin -> 405"

on_admin http GET '/admin?lang=ko'
check_contains "$BODY" '<html lang="ko">' "?lang=ko: the page in Korean"
check_contains "$BODY" '<title>waitroom 콘솔</title>' "... its title too"
on_admin http GET /admin '' -H 'Accept-Language: ko-KR,ko;q=0.9,en;q=0.5'
check_contains "$BODY" '<html lang="ko">' "Accept-Language: ko -> Korean"

for p in /admin /admin/assets/console.js /admin/assets/console.css /admin/x; do
	http GET "$p"
	check_error 404 not_found "public port: GET $p -> 404"
done
http GET /admin '' -H "Authorization: Bearer $ADMIN_TOKEN"
check_error 404 not_found "public port: GET /admin with the token -> 404 too"
for f in console.js console.css; do
	http GET "/assets/$f"
	check_error 404 not_found "public port: /assets/$f is not served"
done

# ---- in the browser -----------------------------------------------------------

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
if [ -x "$CHROMIUM" ] && command -v python3 >/dev/null; then
	# A second instance on the same Redis, which the page's test kills.
	BPORT=$(wr_free_port) || bail "a free port for the second admin_listen"
	sed "s/^admin_listen = .*/admin_listen = 127.0.0.1:$BPORT/" \
	    "$WR_TMP/console.conf" >"$WR_TMP/console-b.conf"
	start_more_waitroomd b "$WR_TMP/console-b.conf"
	B_PID=$MORE_PID B_URL=http://127.0.0.1:$MORE_PORT

	artifacts=$(pwd)/tests/browser/artifacts
	mkdir -p "$artifacts"
	rm -f "$artifacts/console.png"
	start=$SECONDS
	ADMIN_URL=$ADMIN ADMIN_TOKEN=$ADMIN_TOKEN B_URL=$B_URL B_PID=$B_PID \
	    WR_BROWSER_SECS=100 wr_browser console_page.py "$artifacts"
	diag "browser run: $((SECONDS - start)) s"
	check "screenshot console.png saved" test -s "$artifacts/console.png"
	check "the second instance was killed by the page's test" \
	    test -z "$(ps -o pid= -p "$B_PID")"
else
	pass "the console in a browser # SKIP chromium or python3 is missing"
fi

check "the daemon's log holds no admin token" \
    test -z "$(grep -F -e "$ADMIN_TOKEN" -e console-token-of-bob "$WR_TMP/waitroomd.log")"
check_contains "$(cat "$WR_TMP/waitroomd.log")" "event=admin_write admin=alice" \
    "... and names alice for the writes"
stop_waitroomd

# ---- no admin_listen: no console ----------------------------------------------

grep -v '^admin_listen' "$WR_TMP/console.conf" >"$WR_TMP/one-port.conf"
start_waitroomd "$WR_TMP/one-port.conf"
wait_ready || bail "the daemon is ready on one port" "$(wr_last)"
http GET /admin
check_error 404 not_found "without admin_listen: GET /admin -> 404"
http GET /admin/assets/console.js
check_error 404 not_found "without admin_listen: its script -> 404"
admin GET /v1/admin/queues
check_status 200 "... while the admin API answers as before"
stop_waitroomd

# ---- admin_listen without admin_token_file: no console ---------------------------

grep -v '^admin_token_file' "$WR_TMP/console.conf" >"$WR_TMP/no-admins.conf"
start_waitroomd "$WR_TMP/no-admins.conf"
wait_ready || bail "the daemon is ready without admins" "$(wr_last)"
on_admin http GET /admin
check_error 404 not_found "admin_listen without admin_token_file: GET /admin -> 404"
check_contains "$BODY" "admin_token_file" "... saying the admin API is off"
