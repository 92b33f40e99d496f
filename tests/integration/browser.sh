#!/usr/bin/env bash
#
# browser.sh: the waiting page in a real browser. Starts redis-server and
# waitroomd as every test does, puts 3 waiters in line ahead, then runs
# tests/browser/waiting_page.py, which drives headless Chromium over the
# DevTools protocol (python3's standard library only) and serves the
# "shop" the page redirects to, and opens queue `sale` a few seconds
# after the browser joins its pre-queue. Its PASS/FAIL lines become TAP
# here.
# Screenshots go to tests/browser/artifacts/ of the build tree.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -x "$CHROMIUM" ] || bail "chromium is installed (Debian package chromium)"
command -v python3 >/dev/null || bail "python3 is installed"

cat >"$WR_TMP/browser.conf" <<'EOF2'
push_interval = 1

[queue line]
mode        = rate
batch       = 1
interval    = 2
state       = paused
waiting_ttl = 600

[queue other]
mode        = rate
state       = paused
waiting_ttl = 600

[queue slow]
mode        = rate
batch       = 1
interval    = 600
waiting_ttl = 600

[queue sale]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

start_redis
start_waitroomd "$WR_TMP/browser.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
for i in 1 2 3; do
	join line
	check_status 201 "waiter $i joins ahead of the browser"
done

artifacts=$(pwd)/tests/browser/artifacts
SHOTS=(waiting notice entered waiting-ko-phone gone-ko-phone prequeue)
mkdir -p "$artifacts"
# only this test's own: the other browser tests may be running beside it
for f in "${SHOTS[@]}"; do
	rm -f "$artifacts/$f.png"
done
start=$SECONDS
wr_browser waiting_page.py "$artifacts"
diag "browser run: $((SECONDS - start)) s; screenshots in $artifacts"
for f in "${SHOTS[@]}"; do
	check "screenshot $f.png saved" test -s "$artifacts/$f.png"
done

