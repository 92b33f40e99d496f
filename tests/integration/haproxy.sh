#!/usr/bin/env bash
# shellcheck disable=SC2016 # sed programs are quoted
#
# haproxy.sh: etc/haproxy/haproxy.cfg with its waitroom.lua and
# waitroom-busy.http, run by real HAProxy (Debian's haproxy 2.6, with
# Lua) in front of waitroomd and a small shop (shop.py), as a visitor's
# browser sees it: front_checks.sh says what. HAProxy listens on
# 127.0.0.1 only and logs to its stderr, which the test keeps.

HAPROXY=${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}
if ! [ -x "$HAPROXY" ]; then
	case ${CI:-} in
	'' | false | 0) echo "1..0 # SKIP haproxy is not installed" && exit 0 ;;
	esac
	printf '1..1\nnot ok 1 - haproxy is installed (tools/check-all installs it)\n'
	exit 1
fi

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=front_checks.sh
. "$(dirname "$0")/front_checks.sh"

FRONT=HAProxy
FRONT_STOP_SIGNAL=USR1	# its soft stop (TERM kills it: status 143)
H=$WR_TMP/haproxy
FRONT_LOG=$H/haproxy.log
mkdir -p "$H"

# front_launch Q P: the shipped haproxy.cfg, for this test's ports, queue
# and policy, its bypass rule naming 127.0.0.2 and $BYPASS_SECRET, the
# Lua and the busy page read where they are in the source tree.
front_launch() {
	local e=$TOP_SRCDIR/etc/haproxy
	sed -e "s|^\tbind :80$|\tbind 127.0.0.1:$FRONT_PORT|" \
	    -e "s|log /dev/log local0|log stderr format raw local0|" \
	    -e "s/127\.0\.0\.1:8080/127.0.0.1:$WR_PORT/" \
	    -e "s/127\.0\.0\.1:8000/127.0.0.1:$SHOP_PORT/" \
	    -e "s|/etc/haproxy/\(errors/\)\{0,1\}|$e/|g" \
	    -e "s/concert/$1/g" \
	    -e "s/set-var(txn.waitroom_down) str(busy) # /set-var(txn.waitroom_down) str($2) # /" \
	    -e "s|src 192.0.2.0/24 2001:db8::/32|src 127.0.0.2|" \
	    -e "s/change-this-monitor-secret/$BYPASS_SECRET/" \
	    "$e/haproxy.cfg" >"$H/haproxy.cfg"
	"$HAPROXY" -c -f "$H/haproxy.cfg" >"$FRONT_T_LOG" 2>&1 || return 2
	"$HAPROXY" -db -f "$H/haproxy.cfg" >>"$FRONT_LOG" 2>&1 </dev/null &
	FRONT_PID=$!
	wait_until "haproxy_ready $1" 5 && return 0
	kill "$FRONT_PID" 2>/dev/null
	wait "$FRONT_PID" 2>/dev/null
	return 1
}

# haproxy_ready Q: HAProxy serves, and while waitroomd runs its health
# check has found it (the waiting page of Q comes through).
haproxy_ready() {
	front_serving && { [ -z "$WR_PID" ] ||
	    [ "$(curl -s -o /dev/null -w '%{http_code}' "$FR/q/$1")" = 200 ]; }
}

# front_logged URI: HAProxy logged the request for URI as let in
# unchecked.
front_logged() {
	grep -qF "\"GET $1 HTTP/1.1\" waitroom=unchecked" "$FRONT_LOG"
}

front_checks
