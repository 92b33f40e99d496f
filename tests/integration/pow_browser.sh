#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# pow_browser.sh: the waiting page on a queue that asks for a proof of
# work. Without JavaScript the page and its join button say the line
# needs JavaScript (403 for the button); in headless Chromium
# (tests/browser/pow_page.py) the page solves a 16-bit challenge in its
# Web Worker and reaches a position, with nothing in the console; on a
# queue whose bits rise while the page solves, the page is refused once
# (403 challenge_too_easy), solves the fresh challenge and gets in.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -x "$CHROMIUM" ] || bail "chromium is installed (Debian package chromium)"

wr_admin_conf "$WR_TMP/powb.conf"
cat >>"$WR_TMP/powb.conf" <<'EOF2'

[queue guarded]
state          = paused
waiting_ttl    = 600
join_challenge = pow
pow_bits       = 16

[queue rising]
state          = paused
waiting_ttl    = 600
join_challenge = pow
pow_bits       = 8
EOF2

start_redis
start_waitroomd "$WR_TMP/powb.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
wait_until 'http GET /v1/queues/guarded/challenge; [ "$STATUS" = 200 ]' ||
    bail "the queue's challenge is known" "$(wr_last)"
for i in 1 2; do
	CH=$(json .challenge)
	n=$("$TOP_SRCDIR/tests/integration/pow_solve.py" "$CH" 16)
	join guarded "{\"challenge\":\"$CH\",\"nonce\":\"$n\"}"
	check_status 201 "waiter $i joins ahead of the browser"
	http GET /v1/queues/guarded/challenge
done

# ---- without JavaScript ----------------------------------------------------

http GET /q/guarded '' -H 'Accept-Language: en'
check_status 200 "the page of a queue asking for work -> 200"
check_contains "$BODY" 'data-state="needs_js"' "... in the state needs_js"
check_contains "$BODY" "that check needs JavaScript at the moment" \
    "... saying the line needs JavaScript"
check_header_match Content-Security-Policy "worker-src 'self'" \
    "... and its CSP lets it start its own Web Worker"
http GET '/q/guarded?lang=ko'
check_contains "$BODY" "브라우저를 확인하는 중" "... in Korean too"
http POST /q/guarded
check_status 403 "the join button without JavaScript -> 403"
check_contains "$BODY" "needs JavaScript" "... a page that says why"
check_waiting guarded 2 "... and took no place"
http GET /assets/pow.js
check_status 200 "the worker is served from /assets/pow.js"

# ---- in Chromium ----------------------------------------------------------------

artifacts=$(pwd)/tests/browser/artifacts
ADMIN_TOKEN=$ADMIN_TOKEN wr_browser pow_page.py "$artifacts"
check_waiting guarded 3 "the browser took one place"

stop_waitroomd
