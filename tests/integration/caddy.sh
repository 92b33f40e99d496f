#!/usr/bin/env bash
# shellcheck disable=SC2016 # sed programs are quoted
#
# caddy.sh: etc/caddy/Caddyfile, run by real Caddy (Debian's caddy 2.6)
# in front of waitroomd and a small shop (shop.py), as a visitor's
# browser sees it: front_checks.sh says what. Caddy runs on loopback only:
# plain http:// site, no automatic HTTPS, no admin API, its data and
# configuration directories in the test's temp dir.

CADDY=${CADDY:-$(command -v caddy || echo /usr/bin/caddy)}
if ! [ -x "$CADDY" ]; then
	case ${CI:-} in
	'' | false | 0) echo "1..0 # SKIP caddy is not installed" && exit 0 ;;
	esac
	printf '1..1\nnot ok 1 - caddy is installed (tools/check-all installs it)\n'
	exit 1
fi

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=front_checks.sh
. "$(dirname "$0")/front_checks.sh"

FRONT=Caddy
C=$WR_TMP/caddy
FRONT_LOG=$C/caddy.log	# what it prints; the site's log is $C/waitroom-site.log
mkdir -p "$C/data" "$C/config"

# front_launch Q P: the shipped Caddyfile, for this test's ports, queue
# and policy, its bypass rule naming 127.0.0.2 and $BYPASS_SECRET; no
# admin API, listening on 127.0.0.1 only.
front_launch() {
	sed -e "s|^http://:80 {|http://127.0.0.1:$FRONT_PORT {\n\tbind 127.0.0.1|" \
	    -e "s|admin localhost:2019|admin off|" \
	    -e "s/127\.0\.0\.1:8080/127.0.0.1:$WR_PORT/" \
	    -e "s/127\.0\.0\.1:8000/127.0.0.1:$SHOP_PORT/" \
	    -e "s/concert/$1/g" \
	    -e "s/vars waitroom_down busy # /vars waitroom_down $2 # /" \
	    -e "s|remote_ip('192.0.2.0/24', '2001:db8::/32')|remote_ip('127.0.0.2')|" \
	    -e "s/change-this-monitor-secret/$BYPASS_SECRET/" \
	    -e "s|/var/log/caddy/|$C/|" \
	    "$TOP_SRCDIR/etc/caddy/Caddyfile" >"$C/Caddyfile"
	export XDG_DATA_HOME=$C/data XDG_CONFIG_HOME=$C/config HOME=$C
	"$CADDY" validate --adapter caddyfile --config "$C/Caddyfile" \
	    >"$FRONT_T_LOG" 2>&1 || return 2
	"$CADDY" run --adapter caddyfile --config "$C/Caddyfile" \
	    >>"$FRONT_LOG" 2>&1 </dev/null &
	FRONT_PID=$!
	wait_until front_serving 5 && return 0
	kill "$FRONT_PID" 2>/dev/null
	wait "$FRONT_PID" 2>/dev/null
	return 1
}

# front_logged URI: the site's log marks the request for URI as let in
# unchecked.
front_logged() {
	grep -F "\"uri\":\"$1\"" "$C/waitroom-site.log" |
	    grep -qF '"X-Waitroom-Unchecked":["1"]'
}

front_checks
