#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# package.sh: the Debian package. tools/build-deb builds it as
# `dpkg-buildpackage -us -uc -b` does (in a copy of the tree); it holds
# what doc/operating.md says it installs, lintian finds no error and no
# warning in it, `apt-get install ./waitroom_*.deb` works on this machine
# (no systemd runs here: the maintainer scripts must cope), the installed
# waitroomd passes --check-config on the installed file, the installed unit
# is enabled (not started), verifies and is rated at most 1.5 by
# systemd-analyze security, and `apt-get purge waitroom` leaves the machine
# as it was, file for file.
#
# Skips, saying why, without dpkg-buildpackage or debhelper, in a build
# configured with --enable-asan (the package is built from the source with
# Debian's flags, not from this tree: the other build runs this), and, for
# the install, when not root or when a waitroom is already installed here
# (it must not touch an operator's).

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

SRC=${TOP_SRCDIR:-$(dirname "$0")/../..}

skip_all() {
	pass "the Debian package # SKIP $1"
	exit 0
}
command -v dpkg-buildpackage >/dev/null 2>&1 ||
    skip_all "dpkg-buildpackage is not installed (Debian: dpkg-dev, debhelper)"
command -v dh >/dev/null 2>&1 ||
    skip_all "debhelper is not installed"
if [ -x "${TOP_BUILDDIR:-}/config.status" ] &&
    "$TOP_BUILDDIR/config.status" --config | grep -q -- --enable-asan; then
	skip_all "an --enable-asan build: the package does not use this tree's build"
fi

# ---- build -------------------------------------------------------------------

# nocheck: the package's build would run the unit tests again, which both
# of the suite's builds run already (about 40 s of the suite's time).
if DEB=$(DEB_BUILD_OPTIONS=nocheck "$SRC/tools/build-deb" "$WR_TMP/deb" \
    2>"$WR_TMP/build-deb.err" | tail -n 1) &&
    [ -f "$DEB" ]; then
	pass "dpkg-buildpackage -us -uc -b builds ${DEB##*/}"
else
	bail "dpkg-buildpackage -us -uc -b builds the package" \
	    "$(tail -n 40 "$WR_TMP/build-deb.err")"
fi
VERSION=$(sed -n 's/^AC_INIT(\[waitroom\], \[\([^]]*\)\].*/\1/p' "$SRC/configure.ac")
check_eq "${DEB##*/}" "waitroom_${VERSION}_amd64.deb" "its name has configure.ac's version"

FILES='/etc/waitroom.conf
/lib/systemd/system/waitroomd.service
/usr/bin/waitroomctl
/usr/sbin/waitroomd
/usr/share/man/man1/waitroomctl.1.gz
/usr/share/man/man5/waitroom.conf.5.gz
/usr/share/man/man8/waitroomd.8.gz
/usr/share/waitroom/caddy/Caddyfile
/usr/share/waitroom/grafana/waitroom.json
/usr/share/waitroom/haproxy/haproxy.cfg
/usr/share/waitroom/haproxy/waitroom-busy.http
/usr/share/waitroom/haproxy/waitroom.lua
/usr/share/waitroom/nginx/waitroom-site.conf
/usr/share/waitroom/prometheus/scrape.yml
/usr/share/waitroom/prometheus/waitroom-rules.yml'
# Every file of the package, as absolute paths.
dpkg-deb --fsys-tarfile "$DEB" | tar -t | sed -n 's|^\./|/|; /[^/]$/p' |
    sort >"$WR_TMP/files"
check_lines "$(grep -vE '^/usr/share/doc/' "$WR_TMP/files")" "$FILES" \
    "it installs the daemon, the tool, the file, the unit, the man pages and /usr/share/waitroom" \
    "the package"
check_eq "$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xOf - ./conffiles)" \
    /etc/waitroom.conf "/etc/waitroom.conf is its one conffile"

# ---- lintian -------------------------------------------------------------------

if command -v lintian >/dev/null 2>&1; then
	lintian --info "${DEB%.deb}.changes" >"$WR_TMP/lintian" 2>&1
	check_eq "$(grep -E '^E: ' "$WR_TMP/lintian")" "" "lintian: no error"
	check_eq "$(grep -E '^W: ' "$WR_TMP/lintian")" "" "lintian: no warning"
	diag "lintian notes: $(grep -oE '^[IPN]: [^ ]+ [^ ]+' "$WR_TMP/lintian" | paste -sd ' ')"
else
	pass "lintian # SKIP lintian is not installed"
fi

# ---- install, check, purge -------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
	pass "apt-get install and purge # SKIP not root"
	exit 0
fi
# One install on this machine at a time (two trees may run make check).
exec 9>/run/lock/waitroom-package-test.lock
flock -w 300 9 || bail "the package test's lock within 300 s"
if dpkg-query -W -f='${Status}' waitroom 2>/dev/null | grep -q 'installed'; then
	pass "apt-get install and purge # SKIP a waitroom package is installed here; not touching it"
	exit 0
fi
while IFS= read -r f; do
	if [ -e "$f" ] || [ -L "$f" ]; then
		pass "apt-get install and purge # SKIP $f exists already (make install?); not touching it"
		exit 0
	fi
done <"$WR_TMP/files"

# What a purge must give back: every path under these.
snapshot() {
	find /etc /usr /var/lib/systemd /var/lib/dpkg/info -xdev 2>/dev/null | sort
}
snapshot >"$WR_TMP/before"

installed=0
# The EXIT trap purges what the test installed, whatever way it ends.
pkg_cleanup() {
	[ "$installed" = 1 ] || return 0
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q waitroom \
	    >>"$WR_TMP/apt.log" 2>&1 </dev/null
	installed=0
}
trap 'rc=$?; pkg_cleanup; (exit "$rc"); wr_on_exit' EXIT

installed=1
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "$DEB" >"$WR_TMP/apt.log" 2>&1 </dev/null; then
	pass "apt-get install ./${DEB##*/} works without a running systemd"
else
	bail "apt-get install ./${DEB##*/}" "$(tail -n 30 "$WR_TMP/apt.log")"
fi
check_eq "$(dpkg-query -W -f='${Status} ${Version}' waitroom)" \
    "install ok installed $VERSION" "dpkg says waitroom $VERSION is installed"
out=$(/usr/sbin/waitroomd --check-config --config /etc/waitroom.conf 2>&1)
check_match "$out" '^waitroomd: configuration ok' \
    "the installed waitroomd --check-config passes on the installed /etc/waitroom.conf"
check_match "$(/usr/bin/waitroomctl --help 2>&1)" 'waitroomctl' "the installed waitroomctl runs"
check_eq "$(readlink /etc/systemd/system/multi-user.target.wants/waitroomd.service)" \
    /lib/systemd/system/waitroomd.service "the unit is enabled"
check_eq "$(pgrep -x waitroomd -a | grep /usr/sbin/waitroomd)" "" \
    "... and not started (it waits until the file is edited)"
out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify \
    /lib/systemd/system/waitroomd.service 2>&1)
check_eq "$out" "" "systemd-analyze verify: nothing to say about the installed unit"
exposure=$(systemd-analyze security --offline=true \
    /lib/systemd/system/waitroomd.service 2>/dev/null |
    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security rates the installed unit at most 1.5 ($exposure)" \
    awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 1.5) }'
if command -v promtool >/dev/null 2>&1; then
	out=$(promtool check config /usr/share/waitroom/prometheus/scrape.yml 2>&1)
	check "promtool check config passes on the installed scrape.yml (its rule file is there)" \
	    grep -q 'SUCCESS: 1 rule files found' <<<"$out" || diag "$out"
fi

if DEBIAN_FRONTEND=noninteractive apt-get purge -y -q waitroom \
    >>"$WR_TMP/apt.log" 2>&1 </dev/null; then
	installed=0
	pass "apt-get purge waitroom"
else
	fail "apt-get purge waitroom" "$(tail -n 30 "$WR_TMP/apt.log")"
fi
check_eq "$(dpkg-query -W -f='${Status}' waitroom 2>/dev/null)" "" \
    "dpkg knows waitroom no more"
snapshot >"$WR_TMP/after"
check_lines "$(cat "$WR_TMP/after")" "$(cat "$WR_TMP/before")" \
    "the purge leaves /etc, /usr, /var/lib/systemd and dpkg's files as they were" \
    "the machine after the purge"
