#!/usr/bin/env bash
#
# nginx.sh: etc/nginx/waitroom-site.conf, run by real nginx (Debian's
# nginx-light, with auth_request) in front of waitroomd and a small shop
# (shop.py), as a visitor's browser sees it: front_checks.sh says what.
# Then what only nginx has: its error log says why each check that got
# no answer went to the policy (the check timed out, or found no
# waitroomd), and holds no emergency or alert. nginx listens on
# 127.0.0.1 only, with its logs and temp files in the test's temp dir.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || bail "nginx is installed (tools/check-all installs nginx-light)"

# shellcheck source-path=SCRIPTDIR source=front_checks.sh
. "$(dirname "$0")/front_checks.sh"

FRONT=nginx
FRONT_STOP_SIGNAL=QUIT	# its graceful stop
FRONT_TWO_AUTH_STATUS=400	# "client sent duplicate header line"
N=$WR_TMP/nginx
FRONT_LOG=$N/error.log
mkdir -p "$N/tmp"

# front_launch Q P: the shipped site, for this test's ports, queue and
# policy (P names the location error_page 500 goes to: @waitroom_busy or
# @waitroom_open), its bypass rules naming 127.0.0.2 and $BYPASS_SECRET,
# inside a small nginx.conf of the test's own.
front_launch() {
	sed -e "s/listen 80;/listen 127.0.0.1:$FRONT_PORT;/" \
	    -e "s/127\.0\.0\.1:8080/127.0.0.1:$WR_PORT/" \
	    -e "s/127\.0\.0\.1:8000/127.0.0.1:$SHOP_PORT/" \
	    -e "s/concert/$1/g" \
	    -e "s/error_page 500 = @waitroom_busy;/error_page 500 = @waitroom_$2;/" \
	    -e "s|^    192\.0\.2\.0/24 1;|    127.0.0.2 1;|" -e "/2001:db8::/d" \
	    -e "s/change-this-monitor-secret/$BYPASS_SECRET/" \
	    -e "s|/var/log/nginx/|$N/|" \
	    "$TOP_SRCDIR/etc/nginx/waitroom-site.conf" >"$N/site.conf"
	{
		[ "$(id -u)" = 0 ] && echo "user root;"
		cat <<EOF2
worker_processes 1;
error_log $FRONT_LOG info;
events { worker_connections 256; }
http {
    access_log $N/access.log;
    client_body_temp_path $N/tmp/body;
    proxy_temp_path $N/tmp/proxy;
    fastcgi_temp_path $N/tmp/fastcgi;
    uwsgi_temp_path $N/tmp/uwsgi;
    scgi_temp_path $N/tmp/scgi;
    include $N/site.conf;
}
EOF2
	} >"$N/nginx.conf"
	chmod -R a+rX "$N"
	"$NGINX" -t -p "$N" -e "$FRONT_LOG" -c "$N/nginx.conf" \
	    -g "pid $N/nginx.pid;" >"$FRONT_T_LOG" 2>&1 || return 2
	# What nginx prints goes to its error log too (-e: before it has
	# read the file's error_log), both appending.
	# shellcheck disable=SC2094
	"$NGINX" -p "$N" -e "$FRONT_LOG" -c "$N/nginx.conf" \
	    -g "daemon off; pid $N/nginx.pid;" >>"$FRONT_LOG" 2>&1 </dev/null &
	FRONT_PID=$!
	wait_until front_serving 5 && return 0
	kill "$FRONT_PID" 2>/dev/null
	wait "$FRONT_PID" 2>/dev/null
	return 1
}

# front_logged URI: waitroom-unchecked.log, the site's log of requests
# let in unchecked, names the request for URI (nginx writes the line once
# it has answered).
front_logged() {
	grep -qsF "\"GET $1 HTTP/1.1\" 200" "$N/waitroom-unchecked.log"
}

front_checks

# ---- nginx's own: why a check got no answer ---------------------------------

# no_answer_logged URI STATUS: the error log says the check of the
# request for URI ended with STATUS (502: no waitroomd; 504: it hung).
no_answer_logged() {
	grep -F "auth request unexpected status: $2 " "$FRONT_LOG" |
	    grep -qF "request: \"GET $1 HTTP/1.1\""
}

check "fail-open, waitroomd hangs: nginx logged why (the check timed out, 504)" \
    no_answer_logged /hung.html 504
check "fail-open, waitroomd stopped: nginx logged why (no answer, 502)" \
    no_answer_logged '/index.html?unchecked=1' 502
check "fail-closed, waitroomd stopped: nginx logged why (no answer, 502)" \
    no_answer_logged / 502
check_eq "$(grep -E '\[(emerg|alert)\]' "$FRONT_LOG")" "" \
    "nginx logged no emergency or alert"
