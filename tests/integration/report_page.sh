#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# report_page.sh: the console's report view in headless Chromium
# (tests/browser/report_page.py). A small sale on a capacity queue
# (twelve join, four admitted at once, three leave the line, one is
# kicked, two are promoted), then the page: a Report button on the
# queue's card, the totals the API gives, four charts drawn by the page
# (a bar per histogram bucket with the API's counts), the CSV fetched
# with the token in its header, the server's 400 shown, and printed
# (print media) the report alone.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

APORT=$(wr_free_port) || bail "a free port for admin_listen"
wr_admin_conf "$WR_TMP/page.conf"
cat >>"$WR_TMP/page.conf" <<EOF2
admin_listen = 127.0.0.1:$APORT

[queue sale]
mode        = capacity
max_active  = 4
active_ttl  = 600
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/page.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
ADMIN=http://127.0.0.1:$APORT

tokens=()
for ((i = 0; i < 12; i++)); do
	join sale
	tokens+=("$TOKEN")
done
for i in 9 10 11; do
	http DELETE "/v1/queues/sale/tokens/${tokens[i]}"
done
on_admin admin DELETE "/v1/admin/queues/sale/tokens/${tokens[8]}"
on_admin admin POST /v1/admin/queues/sale/promote '{"count": 2}'
check_status 200 "a sale: 12 joined, 4 admitted at once, 3 left, 1 kicked, 2 promoted"
on_admin admin GET /v1/admin/queues/sale/report
check_jq '.totals | .joined == 12 and .admitted == 6 and .left == 3 and
    .kicked == 1' "the API's report says so"
report=$BODY

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
if [ -x "$CHROMIUM" ] && command -v python3 >/dev/null; then
	artifacts=$(pwd)/tests/browser/artifacts
	mkdir -p "$artifacts"
	rm -f "$artifacts/report.png"
	ADMIN_URL=$ADMIN ADMIN_TOKEN=$ADMIN_TOKEN REPORT=$report \
	    WR_BROWSER_SECS=60 wr_browser report_page.py "$artifacts"
	check "screenshot report.png saved" test -s "$artifacts/report.png"
elif [ "${CI:-}" = true ]; then
	fail "the report page in a browser" "chromium or python3 is missing"
else
	pass "the report page in a browser # SKIP chromium or python3 is missing"
fi

stop_waitroomd
