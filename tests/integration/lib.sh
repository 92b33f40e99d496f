# shellcheck shell=bash
# Functions here take optional arguments and set variables for the test
# files (SC2119, SC2120, SC2034).
# shellcheck disable=SC2034,SC2119,SC2120
#
# lib.sh: the harness of the integration tests, sourced by each test file.
#
# A test file starts a private redis-server and a private waitroomd, each on
# a free loopback port and with everything it writes in this file's own temp
# dir, talks HTTP to the daemon with curl, and reports TAP on stdout:
# "ok N - what", "not ok N - what", "# diagnostics", and the plan "1..N" at
# the end. The EXIT trap stops whatever was started (checking that waitroomd
# exits cleanly), prints the servers' logs when a check failed, and removes
# the temp dir, whatever way the script ends.
#
# Environment:
#   WAITROOMD            absolute path of the daemon (make check sets it)
#   TOP_SRCDIR           the source tree (make check sets it)
#   WAITROOM_VALGRIND=1  run the daemon under valgrind's memcheck
#   WR_KEEP=1            keep the temp dir for a post-mortem
#   WR_TAP=0             no TAP (tools/demo, bench/join): failures go to
#                        stderr and end the script
#   WR_LISTEN            the daemon's --listen (default 127.0.0.1:0)
#   WR_LOG_LEVEL         the daemon's --log-level (default debug)
#   WR_DAEMON_LOG        where the daemon's output goes (default: temp dir)
#
# Every wait here polls a condition under a deadline; no loop is unbounded.

set -u
set -o pipefail

WR_TAP=${WR_TAP:-1}
WR_N=0			# checks so far
WR_FAILED=0		# of which failed
WR_PID=			# waitroomd
WR_PORT=		# its HTTP port
WR_BASE=		# http://127.0.0.1:$WR_PORT
REDIS_PID=
REDIS_PORT=
WR_REDIS_STARTS=0
WR_EXTRA_PIDS=()	# more processes for the EXIT trap to end
WR_HTTP_TIMEOUT=${WR_HTTP_TIMEOUT:-10}
STATUS='' BODY='' HEADERS='' WR_LAST_REQUEST='' TOKEN=''

if [ "${WAITROOM_VALGRIND:-0}" = 1 ]; then
	WR_START_DEADLINE=90	# seconds to wait for the daemon to listen
	WR_STOP_DEADLINE=60	# seconds to wait for it to exit
	WR_HTTP_TIMEOUT=30
	WR_READY_DEADLINE=60	# seconds for readiness and recoveries
	WR_SLOW=5		# a factor for the deadlines a test sets itself
else
	WR_READY_DEADLINE=10
	WR_SLOW=1
	WR_START_DEADLINE=10
	WR_STOP_DEADLINE=10
fi

WR_TMP=$(mktemp -d "${TMPDIR:-/tmp}/waitroom-test.XXXXXX") || {
	echo "Bail out! cannot make a temp dir"
	exit 1
}

# python3 straight, not through a version manager's shim: pyenv's, first
# in PATH on the CI machine, runs bash and pyenv itself at every start
# (about 0.8 s of CPU against 0.07 s), and the tests start python3 often.
# The first python3 a test starts asks the shim which interpreter it is
# (sys.executable); that and every later one then run it straight. The
# wrapper is first in PATH, for `python3 ...` and for the helpers'
# `#!/usr/bin/env python3` alike; a test that starts no python3 pays
# nothing.
if mkdir -p "$WR_TMP/bin"; then
	cat >"$WR_TMP/bin/python3" <<EOF_PY
#!/bin/sh
py=
[ -s '$WR_TMP/python3.path' ] && read -r py <'$WR_TMP/python3.path'
if [ -z "\$py" ]; then
	py=\$(PATH='$PATH' python3 -c 'import sys; print(sys.executable)') &&
	    [ -x "\$py" ] && echo "\$py" >'$WR_TMP/python3.path.'\$\$ &&
	    mv '$WR_TMP/python3.path.'\$\$ '$WR_TMP/python3.path' ||
	    { PATH='$PATH'; export PATH; py=python3; }
fi
exec "\$py" "\$@"
EOF_PY
	chmod +x "$WR_TMP/bin/python3" && PATH=$WR_TMP/bin:$PATH
fi

# ---- TAP ---------------------------------------------------------------

diag() {
	local line
	if [ "$WR_TAP" = 1 ]; then
		while IFS= read -r line; do printf '# %s\n' "$line"; done <<<"$*"
	else
		printf '%s\n' "$*" >&2
	fi
}

pass() {
	WR_N=$((WR_N + 1))
	[ "$WR_TAP" = 1 ] && printf 'ok %d - %s\n' "$WR_N" "$1"
	return 0
}

# fail DESC [DIAGNOSTIC...]
fail() {
	local d=$1
	shift
	WR_N=$((WR_N + 1))
	WR_FAILED=$((WR_FAILED + 1))
	if [ "$WR_TAP" = 1 ]; then
		printf 'not ok %d - %s\n' "$WR_N" "$d"
	else
		printf 'error: %s\n' "$d" >&2
	fi
	local x
	for x in "$@"; do diag "$x"; done
	return 1
}

# A failure that makes the rest of the file meaningless.
bail() {
	fail "$@"
	exit 1
}

# What the last request was and got, for diagnostics.
wr_last() {
	local b=$BODY
	[ "${#b}" -gt 600 ] && b="${b:0:600}..."
	printf '%s -> %s %s' "$WR_LAST_REQUEST" "$STATUS" "$b"
	[ "$STATUS" = 000 ] && [ -s "$WR_TMP/http.err" ] &&
	    printf ' (curl: %s)' "$(head -c 300 "$WR_TMP/http.err")"
	return 0
}

# check DESC CMD [ARG...]: ok when the command succeeds.
check() {
	local d=$1
	shift
	if "$@"; then pass "$d"; else fail "$d" "command failed: $*"; fi
}

# wr_clip TEXT: TEXT, cut to 300 characters for a diagnostic.
wr_clip() {
	if [ "${#1}" -gt 300 ]; then
		printf '%s... (%d characters)' "${1:0:300}" "${#1}"
	else
		printf '%s' "$1"
	fi
}

# check_eq GOT EXPECTED DESC
check_eq() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "expected: '$(wr_clip "$2")'" "     got: '$(wr_clip "$1")'"
	fi
}

# check_lines GOT WANT DESC WHERE: two lists of lines are the same; else
# each line that differs, named as missing from WHERE or only in WHERE.
check_lines() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "$(diff <(echo "$2") <(echo "$1") |
		    sed -n "s/^</missing from $4:/p; s/^>/only in $4:/p")"
	fi
}

# check_contains GOT NEEDLE DESC: NEEDLE is a plain string.
check_contains() {
	if [[ $1 == *"$2"* ]]; then
		pass "$3"
	else
		fail "$3" "expected to contain: '$2'" "                 got: '$1'"
	fi
}

# check_match GOT ERE DESC
check_match() {
	if [[ $1 =~ $2 ]]; then
		pass "$3"
	else
		fail "$3" "expected to match: $2" "                got: '$1'"
	fi
}

# check_status EXPECTED [DESC]: the status of the last request.
check_status() {
	local d=${2:-"$WR_LAST_REQUEST -> $1"}
	if [ "$STATUS" = "$1" ]; then
		pass "$d"
	else
		fail "$d" "expected status $1" "$(wr_last)"
	fi
}

# json FILTER: jq -r FILTER over the last body.
json() {
	jq -r "$1" <<<"$BODY" 2>/dev/null
}

# check_json FILTER EXPECTED [DESC]: jq -r FILTER of the last body.
check_json() {
	local d=${3:-"$WR_LAST_REQUEST: $1 is $2"} got
	if got=$(json "$1"); then
		if [ "$got" = "$2" ]; then
			pass "$d"
			return 0
		fi
		fail "$d" "$1: expected '$2', got '$got'" "$(wr_last)"
	else
		fail "$d" "body is not JSON" "$(wr_last)"
	fi
}

# check_jq EXPR DESC: jq -e EXPR of the last body is true.
check_jq() {
	if jq -e "$1" <<<"$BODY" >/dev/null 2>&1; then
		pass "$2"
	else
		fail "$2" "not true: $1" "$(wr_last)"
	fi
}

# header NAME: the value of a header of the last response (its last block:
# curl also records interim "100 Continue" blocks), empty when absent.
header() {
	awk -v name="$1" '
		/^HTTP\// { v = ""; next }
		{
			i = index($0, ":")
			if (i && tolower(substr($0, 1, i - 1)) == tolower(name)) {
				v = substr($0, i + 1)
				sub(/^[ \t]+/, "", v)
				sub(/[ \t]+$/, "", v)
			}
		}
		END { print v }' <<<"$HEADERS"
}

has_header() {
	grep -qi "^$1:" <<<"$HEADERS"
}

# check_header NAME VALUE [DESC]
check_header() {
	local d=${3:-"$WR_LAST_REQUEST: header $1: $2"} got
	got=$(header "$1")
	if has_header "$1" && [ "$got" = "$2" ]; then
		pass "$d"
	else
		fail "$d" "header $1: expected '$2', got '$got'" "$(wr_last)" \
		    "headers: $HEADERS"
	fi
}

# check_header_match NAME ERE [DESC]
check_header_match() {
	local d=${3:-"$WR_LAST_REQUEST: header $1 matches $2"} got
	got=$(header "$1")
	if has_header "$1" && [[ $got =~ $2 ]]; then
		pass "$d"
	else
		fail "$d" "header $1: expected to match '$2', got '$got'" \
		    "$(wr_last)" "headers: $HEADERS"
	fi
}

# check_error STATUS CODE [DESC]: the last response is API.md's JSON error.
check_error() {
	local d=${3:-"$WR_LAST_REQUEST -> $1 $2"}
	if [ "$STATUS" = "$1" ] &&
	    jq -e --arg c "$2" '(.error.code == $c) and
		(.error.message | type == "string" and length > 0)' \
		<<<"$BODY" >/dev/null 2>&1 &&
	    [[ $(header Content-Type) == application/json* ]]; then
		pass "$d"
	else
		fail "$d" "expected $1 {\"error\":{\"code\":\"$2\",\"message\":...}} as application/json" \
		    "$(wr_last)" "Content-Type: $(header Content-Type)"
	fi
}

# ---- clocks and polling ---------------------------------------------------

# Milliseconds of the wall clock, without a fork.
now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((10#$t / 1000))
}

# ms_between T1 [T2]: milliseconds from stamp T1 to stamp T2 (default now),
# stamps as EPOCHREALTIME gives them.
ms_between() {
	awk -v a="$1" -v b="${2:-$EPOCHREALTIME}" \
	    'BEGIN { printf "%d\n", (b - a) * 1000 }'
}

# wait_until CMD [SECONDS]: eval CMD until it succeeds or the deadline
# passes (default 10 s). CMD runs in this shell, so `http` inside it sets
# STATUS and BODY for the caller.
wait_until() {
	local cmd=$1 secs=${2:-10} end i
	end=$(($(now_ms) + secs * 1000))
	for ((i = 0; i < secs * 50 + 10; i++)); do
		eval "$cmd" && return 0
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 0.05
	done
	return 1
}

# wait_lines FILE ERE N [SECONDS]: until N lines of FILE match ERE (default
# 10 s; a FILE not there yet has none).
wait_lines() {
	local lines_file=$1 lines_ere=$2 lines_n=$3
	# shellcheck disable=SC2016
	wait_until '[ -e "$lines_file" ] &&
	    [ "$(grep -cE -- "$lines_ere" "$lines_file")" -ge "$lines_n" ]' "${4:-10}"
}

# wait_ready [SECONDS]: until GET /readyz answers 200 (default 10 s, more
# under valgrind), and, for the daemon start_waitroomd started, each of its
# workers has logged that it serves (/readyz asks only one of them).
WR_READY_LOG=/dev/null WR_READY_WANT=0
wait_ready() {
	# shellcheck disable=SC2016
	wait_until 'http GET /readyz; [ "$STATUS" = 200 ] &&
	    [ "$(wr_served "$WR_READY_LOG")" -ge "$WR_READY_WANT" ]' \
	    "${1:-$WR_READY_DEADLINE}"
}

# wr_served LOG: how many times a worker logging to LOG came to serve (had
# Redis, its scripts loaded), as /readyz would say.
wr_served() {
	grep -c 'event=store_ready role=commands' "$1"
}

# wr_ready_want LOG CONF [ARG...]: wr_served LOG once every worker CONF asks
# for (its global section's workers, 1) serves, from now on; the count now
# when the daemon logs below info (WR_LOG_LEVEL or ARG), which leaves the
# line out.
wr_ready_want() {
	local log=$1 conf=$2 workers
	shift 2
	touch "$log"
	workers=$(awk 'BEGIN { w = 1 } /^[ \t]*\[/ { exit }
	    /^[ \t]*workers[ \t]*=/ { sub(/^[^=]*=[ \t]*/, ""); w = $1 }
	    END { print w }' "$conf")
	[[ " ${WR_LOG_LEVEL:-debug} $* " =~ \ (warn|error)\  ]] && workers=0
	echo $(($(wr_served "$log") + workers))
}

# wr_wait_exit PID SECONDS: wait for a child to exit; 0 if it did.
wr_wait_exit() {
	local pid=$1 secs=$2 end i
	end=$(($(now_ms) + secs * 1000))
	for ((i = 0; i < secs * 50 + 10; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 0.02
	done
	return 1
}

# ---- ports ------------------------------------------------------------

# A loopback port nobody listens on. The range stays below Linux's
# ephemeral ports (32768-60999), so no client socket holds it; two test
# files running in parallel may still draw the same one, which is why the
# servers' start functions retry on another port when the bind fails.
wr_free_port() {
	local i p
	for ((i = 0; i < 100; i++)); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % 20000))
		if ! (: <>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# ---- redis ------------------------------------------------------------

# redis-cli against the private Redis.
rcli() {
	timeout 10 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"
}

# queue_keys Q [NAME...]: queue Q's ten keys in the order every script
# takes them first (scripts.def's QUEUE_KEYS), then Q's keys NAME..., one
# a line: a test that runs a script by hand reads them with mapfile.
queue_keys() {
	local q=$1 k
	shift
	for k in config seq waiting active seen stats tick unchecked line places \
	    "$@"; do
		printf 'wr:{%s}:%s\n' "$q" "$k"
	done
}

# snap: what Redis holds, key by key, in a form that does not depend on
# how Redis encodes it, in one call: but the keys that move by themselves
# (the ticks' stats and tick; each process's beat to the operator's
# feed, :room*, and a queue's :series, :joins, :waits and :history).
WR_SNAP='local out = {}
local keys = redis.call("KEYS", "wr:*")
table.sort(keys)
for _, k in ipairs(keys) do
  if not (k:match(":stats$") or k:match(":tick$") or k:match("^wr:room") or
      k:match(":series$") or k:match(":joins$") or k:match(":waits$") or
      k:match(":history$")) then
    local t, v = redis.call("TYPE", k).ok
    if t == "string" then v = { redis.call("GET", k) }
    elseif t == "hash" then
      local h = redis.call("HGETALL", k)
      v = {}
      for i = 1, #h, 2 do v[#v + 1] = h[i] .. "=" .. h[i + 1] end
      table.sort(v)
    elseif t == "set" then v = redis.call("SMEMBERS", k) table.sort(v)
    elseif t == "zset" then v = redis.call("ZRANGE", k, 0, -1, "WITHSCORES")
    elseif t == "list" then v = redis.call("LRANGE", k, 0, -1)
    else v = { "?" } end
    out[#out + 1] = k .. " " .. t .. " " .. table.concat(v, " ")
  end
end
return out'
snap() {
	rcli EVAL "$WR_SNAP" 0
}

# stat_of Q FIELD: a counter of the queue's stats hash (0 when not there).
stat_of() {
	local v
	v=$(rcli hget "wr:{$1}:stats" "$2")
	echo "${v:-0}"
}

# subscribe Q [stamp]: record the queue's events channel, as redis-cli
# prints it, into $WR_TMP/Q.events (with stamp, each line as "EPOCHREALTIME
# LINE"); SUBSCRIBER is the recorder's pid, which the EXIT trap ends. 1
# when Redis does not count the subscription within 10 s.
SUBSCRIBER=''
subscribe() {
	local out=$WR_TMP/$1.events
	if [ "${2-}" = stamp ]; then
		timeout $((120 * WR_SLOW)) redis-cli -p "$REDIS_PORT" \
		    subscribe "wr:{$1}:events" > >(wr_stamp >"$out") 2>&1 &
	else
		timeout $((120 * WR_SLOW)) redis-cli -p "$REDIS_PORT" \
		    subscribe "wr:{$1}:events" >"$out" 2>&1 &
	fi
	SUBSCRIBER=$!
	WR_EXTRA_PIDS+=("$SUBSCRIBER")
	wait_until "[ \"\$(rcli pubsub numsub 'wr:{$1}:events' | tail -n 1)\" = 1 ]" 10
}

# wr_redis_launch PORT: start redis-server on PORT; 0 when it serves, 1
# when it could not bind, 2 on any other failure.
wr_redis_launch() {
	local port=$1 log end i
	WR_REDIS_STARTS=$((WR_REDIS_STARTS + 1))
	log=$WR_TMP/redis-$WR_REDIS_STARTS.log
	mkdir -p "$WR_TMP/redis"
	redis-server --port "$port" --bind 127.0.0.1 --dir "$WR_TMP/redis" \
	    --save '' --appendonly no --daemonize no --logfile '' \
	    --loglevel notice --databases 1 --unixsocket '' \
	    >"$log" 2>&1 </dev/null &
	REDIS_PID=$!
	end=$(($(now_ms) + 10000))
	for ((i = 0; i < 1000; i++)); do
		if grep -q 'Ready to accept connections' "$log"; then
			REDIS_PORT=$port
			return 0
		fi
		if ! kill -0 "$REDIS_PID" 2>/dev/null; then
			wait "$REDIS_PID" 2>/dev/null
			REDIS_PID=
			if grep -qi 'address already in use' "$log"; then
				return 1
			fi
			return 2
		fi
		[ "$(now_ms)" -ge "$end" ] && break
		sleep 0.02
	done
	kill -KILL "$REDIS_PID" 2>/dev/null
	wait "$REDIS_PID" 2>/dev/null
	REDIS_PID=
	return 2
}

# start_redis: a private Redis on a free port; sets REDIS_PORT, REDIS_PID.
start_redis() {
	local i p rc
	for ((i = 0; i < 10; i++)); do
		p=$(wr_free_port) || break
		wr_redis_launch "$p"
		rc=$?
		[ "$rc" = 0 ] && return 0
		[ "$rc" = 2 ] && break
	done
	bail "start redis-server" \
	    "$(tail -n 20 "$WR_TMP/redis-$WR_REDIS_STARTS.log" 2>/dev/null)"
}

# stop_redis [SIGNAL]: default TERM; KILL plays a crash.
stop_redis() {
	local sig=${1:-TERM}
	[ -n "$REDIS_PID" ] || return 0
	kill -"$sig" "$REDIS_PID" 2>/dev/null
	if ! wr_wait_exit "$REDIS_PID" 10; then
		kill -KILL "$REDIS_PID" 2>/dev/null
		wr_wait_exit "$REDIS_PID" 5
	fi
	wait "$REDIS_PID" 2>/dev/null
	REDIS_PID=
	return 0
}

# restart_redis: a new, empty Redis on the same port with the same flags.
restart_redis() {
	local i
	stop_redis
	# The port can be busy for a moment if something raced for it.
	for ((i = 0; i < 20; i++)); do
		wr_redis_launch "$REDIS_PORT" && return 0
		sleep 0.1
	done
	bail "restart redis-server on port $REDIS_PORT" \
	    "$(tail -n 20 "$WR_TMP/redis-$WR_REDIS_STARTS.log" 2>/dev/null)"
}

# ---- waitroomd --------------------------------------------------------

# wr_tail FILE: its last lines, when it is a file (not a terminal).
wr_tail() {
	[ -f "$1" ] && tail -n 30 "$1"
	return 0
}

# write_conf FILE TEMPLATE [KEY=VALUE...]: FILE is the configuration file
# TEMPLATE with each KEY set to VALUE: in every line that sets KEY, in
# whatever section, or where none does in a line of its own on top.
write_conf() {
	local file=$1 template=$2
	shift 2
	awk -v sets="$(printf '%s\n' "$@")" '
		BEGIN {
			n = split(sets, kv, "\n")
			for (i = 1; i <= n; i++) {
				if ((e = index(kv[i], "=")) == 0) continue
				k = substr(kv[i], 1, e - 1)
				keys[++m] = k
				val[k] = substr(kv[i], e + 1)
			}
		}
		{
			line[NR] = $0
			k = $0
			sub(/^[ \t]*/, "", k)
			if (sub(/[ \t]*=.*/, "", k) && (k in val)) {
				line[NR] = substr($0, 1, index($0, "=")) " " val[k]
				done[k] = 1
			}
		}
		END {
			for (i = 1; i <= m; i++)
				if (!(keys[i] in done)) print keys[i] " = " val[keys[i]]
			for (i = 1; i <= NR; i++) print line[i]
		}' "$template" >"$file"
}

# start_waitroomd CONF [ARG...]: start the daemon against the private
# Redis, listening on a port of its choice, and wait until it reports the
# port. Sets WR_PID, WR_PORT, WR_BASE.
start_waitroomd() {
	local conf=$1 pf=$WR_TMP/waitroomd.port log end i p=
	shift
	[ -x "${WAITROOMD:-}" ] ||
	    bail "WAITROOMD is set to an executable" "WAITROOMD='${WAITROOMD:-}'"
	[ -z "$WR_PID" ] || bail "start_waitroomd: one is already running"
	log=${WR_DAEMON_LOG:-$WR_TMP/waitroomd.log}
	rm -f "$pf"
	WR_READY_LOG=$log
	WR_READY_WANT=$(wr_ready_want "$log" "$conf" "$@")
	local cmd=("$WAITROOMD" --config "$conf"
	    --listen "${WR_LISTEN:-127.0.0.1:0}" --port-file "$pf"
	    --log-level "${WR_LOG_LEVEL:-debug}")
	[ -n "$REDIS_PORT" ] && cmd+=(--redis "127.0.0.1:$REDIS_PORT")
	cmd+=("$@")
	if [ "${WAITROOM_VALGRIND:-0}" = 1 ]; then
		cmd=(valgrind -q --error-exitcode=99 --leak-check=full
		    "--errors-for-leak-kinds=definite,indirect" --track-fds=no
		    "--log-file=$WR_TMP/valgrind.%p.log" "${cmd[@]}")
	fi
	echo "${cmd[*]}" >>"$WR_TMP/commands"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	    "${cmd[@]}" >>"$log" 2>&1 </dev/null &
	WR_PID=$!
	end=$(($(now_ms) + WR_START_DEADLINE * 1000))
	for ((i = 0; i < WR_START_DEADLINE * 100 + 10; i++)); do
		if [ -s "$pf" ] && read -r p <"$pf" && [[ $p =~ ^[0-9]+$ ]]; then
			break
		fi
		p=
		if ! kill -0 "$WR_PID" 2>/dev/null; then
			wait "$WR_PID"
			local rc=$?
			WR_PID=
			bail "waitroomd starts (it exited with status $rc)" \
			    "$(wr_tail "$log")"
		fi
		[ "$(now_ms)" -ge "$end" ] && break
		sleep 0.01
	done
	[ -n "$p" ] ||
	    bail "waitroomd writes its port file within ${WR_START_DEADLINE} s" \
		"$(wr_tail "$log")"
	WR_PORT=$p
	WR_BASE=http://127.0.0.1:$p
	return 0
}

# stop_waitroomd [SIGNAL]: default TERM. Checks (as TAP lines) that the
# daemon exits 0 within the deadline, and that no sanitizer or valgrind
# reported anything.
stop_waitroomd() {
	local sig=${1:-TERM} rc log
	[ -n "$WR_PID" ] || return 0
	log=${WR_DAEMON_LOG:-$WR_TMP/waitroomd.log}
	kill -"$sig" "$WR_PID" 2>/dev/null
	if wr_wait_exit "$WR_PID" "$WR_STOP_DEADLINE"; then
		wait "$WR_PID"
		rc=$?
		check_eq "$rc" 0 "waitroomd exits 0 on SIG$sig"
	else
		kill -KILL "$WR_PID" 2>/dev/null
		wait "$WR_PID" 2>/dev/null
		fail "waitroomd exits within $WR_STOP_DEADLINE s of SIG$sig"
		rc=137
	fi
	local vglog=$WR_TMP/valgrind.$WR_PID.log
	WR_PID=
	if [ -f "$log" ]; then
		if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
			fail "no sanitizer report in the daemon's log" \
			    "$(grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -n 60)"
		elif [ "$WR_TAP" = 1 ]; then
			pass "no sanitizer report in the daemon's log"
		fi
	fi
	if [ "${WAITROOM_VALGRIND:-0}" = 1 ]; then
		if [ "$rc" = 99 ] || grep -qs 'ERROR SUMMARY: [1-9]' "$vglog"; then
			fail "valgrind reports no error" "$(head -n 200 "$vglog")"
		else
			pass "valgrind reports no error"
		fi
	fi
	return 0
}

# ---- HTTP -------------------------------------------------------------

# wr_slurp VAR FILE: VAR is the text of FILE, less trailing newlines, as
# $(cat FILE) would give, without a fork (the tests make many requests).
wr_slurp() {
	local _v=
	IFS= read -r -d '' _v <"$2"
	while [[ $_v == *$'\n' ]]; do _v=${_v%$'\n'}; done
	printf -v "$1" '%s' "$_v"
}

# http METHOD PATH [BODY [CURL-ARG...]]: one request to the daemon; sets
# STATUS (000 when there was no answer), BODY and HEADERS. A non-empty
# BODY is sent as application/json, byte for byte.
http() {
	local method=$1 path=$2 body=${3-}
	shift 2
	[ $# -gt 0 ] && shift
	local args=(-s -S -X "$method" --max-time "$WR_HTTP_TIMEOUT"
	    -o "$WR_TMP/http.body" -D "$WR_TMP/http.headers" -w '%{http_code}')
	: >"$WR_TMP/http.body"
	: >"$WR_TMP/http.headers"
	if [ -n "$body" ]; then
		printf '%s' "$body" >"$WR_TMP/http.req"
		args+=(-H 'Content-Type: application/json'
		    --data-binary "@$WR_TMP/http.req")
	fi
	STATUS=$(curl "${args[@]}" "$@" "$WR_BASE$path" 2>"$WR_TMP/http.err")
	[[ $STATUS =~ ^[0-9]{3}$ ]] || STATUS=000
	wr_slurp BODY "$WR_TMP/http.body"
	wr_slurp HEADERS "$WR_TMP/http.headers"
	HEADERS=${HEADERS//$'\r'/}
	HEADERS=${HEADERS%$'\n'}
	WR_LAST_REQUEST="$method $path"
	[ "${#body}" -gt 0 ] && [ "${#body}" -le 80 ] &&
	    WR_LAST_REQUEST+=" $body"
	[ "${#body}" -gt 80 ] && WR_LAST_REQUEST+=" (${#body} bytes)"
	return 0
}

# raw_http: (not in a pipeline: it sets variables) send stdin as it is to the daemon on a new connection, and read
# the answer until the server closes (or 5 s pass). Sets STATUS from the
# status line (000 when none) and BODY to the whole answer.
raw_http() {
	cat >"$WR_TMP/raw.req"
	# shellcheck disable=SC2016
	timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
		cat "$2" >&3
		cat <&3' _ "$WR_PORT" "$WR_TMP/raw.req" \
	    >"$WR_TMP/raw.out" 2>/dev/null
	BODY=$(tr -d '\r' <"$WR_TMP/raw.out")
	STATUS=$(head -n 1 <<<"$BODY" | awk '/^HTTP\/1\.[01] [0-9][0-9][0-9]/ { print $2 }')
	[ -n "$STATUS" ] || STATUS=000
	HEADERS=$(sed -n '/^$/q;p' <<<"$BODY")
	WR_LAST_REQUEST="raw $(head -n 1 "$WR_TMP/raw.req" | tr -d '\r')"
	return 0
}

# on BASE CMD...: run CMD (http, admin, v1_check, ...) with WR_BASE set to
# BASE (another instance, another port), then back.
on() {
	local keep=$WR_BASE
	WR_BASE=$1
	shift
	"$@"
	WR_BASE=$keep
}

# ---- domain helpers -----------------------------------------------------

UUID4_RE='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'

# join Q [BODY]: POST /v1/queues/Q/tokens; TOKEN is the token in the answer.
join() {
	http POST "/v1/queues/$1/tokens" "${2-}"
	TOKEN=
	# A match rather than jq, which takes a while to start.
	if [[ $BODY =~ \"token\"[[:space:]]*:[[:space:]]*\"([^\"]*)\" ]]; then
		TOKEN=${BASH_REMATCH[1]}
	fi
}

# redis_ms: Redis's clock (TIME), in ms.
redis_ms() {
	rcli TIME | { read -r s && read -r us && echo $((s * 1000 + us / 1000)); }
}

# waiting_of Q: the summary's waiting count ("?" when it cannot be read).
waiting_of() {
	http GET "/v1/queues/$1"
	local w
	w=$(json '.waiting') || w='?'
	echo "${w:-?}"
}

# check_waiting Q N DESC: the queue summary says N are waiting.
check_waiting() {
	local saved_status=$STATUS saved_body=$BODY saved_headers=$HEADERS
	local saved_req=$WR_LAST_REQUEST
	http GET "/v1/queues/$1"
	if [ "$STATUS" = 200 ]; then
		check_json .waiting "$2" "$3"
	else
		fail "$3" "summary of $1 answered $STATUS" "$(wr_last)"
	fi
	STATUS=$saved_status BODY=$saved_body HEADERS=$saved_headers
	WR_LAST_REQUEST=$saved_req
}

# A random version 4 UUID that the daemon never issued.
random_uuid() {
	cat /proc/sys/kernel/random/uuid
}

# many METHOD NAME COUNT PATH-PREFIX [CURL-ARG...]: COUNT requests at once,
# WR_MANY_PAR (default 100) in parallel; request i goes to PATH-PREFIX or,
# when PATH-PREFIX ends with '/', to PATH-PREFIX plus line i of
# $WR_TMP/NAME.paths. Answers land in $WR_TMP/NAME/i.json and the status
# codes, in order of completion, in $WR_TMP/NAME.codes.
many() {
	local method=$1 name=$2 count=$3 prefix=$4 i p ends=() dir=$WR_TMP/$2
	shift 4
	mkdir -p "$dir"
	[[ $prefix == */ ]] && mapfile -t ends <"$WR_TMP/$name.paths"
	for ((i = 1; i <= count; i++)); do
		p=$prefix
		[[ $prefix == */ ]] && p+=${ends[i - 1]:-missing}
		printf 'url = "%s%s"\noutput = "%s/%d.json"\n' \
		    "$WR_BASE" "$p" "$dir" "$i"
	done >"$WR_TMP/$name.cfg"
	timeout $((WR_HTTP_TIMEOUT * 6 + 60)) curl --parallel \
	    --parallel-max "${WR_MANY_PAR:-100}" --parallel-immediate \
	    -s --no-progress-meter \
	    -X "$method" --max-time $((WR_HTTP_TIMEOUT * 6)) \
	    -w '%{http_code}\n' "$@" -K "$WR_TMP/$name.cfg" \
	    >"$WR_TMP/$name.codes" 2>"$WR_TMP/$name.err"
}

# count_codes NAME CODE: how many answers of a many() run had CODE.
count_codes() {
	grep -cx "$2" "$WR_TMP/$1.codes"
}

# status_of Q TOKEN: the token's status (waiting, active...), or the HTTP
# status when that is not 200.
status_of() {
	http GET "/v1/queues/$1/tokens/$2"
	if [ "$STATUS" = 200 ]; then json .status; else echo "$STATUS"; fi
}

# join_many Q N [BASE]: N joins of Q in order on one connection to BASE
# (default $WR_BASE); their answers, one a line, are added to
# $WR_TMP/Q.answers and their tokens to $WR_TMP/Q.joined.
join_many() {
	local urls=() i
	for ((i = 0; i < $2; i++)); do
		urls+=("${3:-$WR_BASE}/v1/queues/$1/tokens")
	done
	curl -s --max-time $((WR_READY_DEADLINE * 12)) -X POST -w '\n' \
	    "${urls[@]}" | tee -a "$WR_TMP/$1.answers" |
	    jq -r '.token // empty' >>"$WR_TMP/$1.joined"
}

# statuses Q: GET the status of each token of $WR_TMP/Q.joined, in order,
# on one connection; the answers, one a line, into $WR_TMP/Q.statuses.
statuses() {
	local urls=() t
	while read -r t; do
		urls+=("$WR_BASE/v1/queues/$1/tokens/$t")
	done <"$WR_TMP/$1.joined"
	curl -s --max-time $((WR_READY_DEADLINE * 6)) -w '\n' "${urls[@]}" \
	    >"$WR_TMP/$1.statuses"
}

# v1_check PASS [QUEUE]: GET /v1/check (?queue=QUEUE) with PASS as a bearer
# token.
v1_check() {
	http GET "/v1/check${2:+?queue=$2}" '' -H "Authorization: Bearer $1"
}

# metric SERIES: the value of the first sample of the last body (a scrape
# of /metrics) whose line starts with SERIES, name and labels; empty when
# there is none.
metric() {
	awk -v s="$1" 'index($0, s " ") == 1 { print $NF; exit }' <<<"$BODY"
}

# sign SECRET KID CLAIMS [TYP]: an HS256 JWT of the JSON CLAIMS, its header
# {"alg":"HS256","typ":TYP,"kid":KID} (no typ when none is given), as a
# JWT library, a site minting invitations or a forger makes one.
sign() {
	python3 - "$1" "$2" "$3" "${4-}" <<'PY'
import base64, hashlib, hmac, json, sys
b = lambda x: base64.urlsafe_b64encode(x).rstrip(b"=").decode()
head = {"alg": "HS256"}
if sys.argv[4]:
    head["typ"] = sys.argv[4]
head["kid"] = sys.argv[2]
h = b(json.dumps(head).encode())
p = b(sys.argv[3].encode())
s = hmac.new(sys.argv[1].encode(), (h + "." + p).encode(), hashlib.sha256)
print(h + "." + p + "." + b(s.digest()))
PY
}

# jwt_part JWT N: part N of a JWT (1 the header, 2 the claims), decoded.
jwt_part() {
	local p
	p=$(cut -d . -f "$2" <<<"$1" | tr '_-' '/+')
	while [ $((${#p} % 4)) != 0 ]; do p+='='; done
	base64 -d <<<"$p" 2>/dev/null
}

# ---- the browser -----------------------------------------------------------------

# wr_browser SCRIPT ARTIFACTS: run tests/browser/SCRIPT (headless
# Chromium driven through cdp.py) against $WR_BASE, with its screenshots
# in ARTIFACTS, and take each line it prints, "PASS what" or "FAIL
# what<TAB>why", as one check (any other line as a diagnostic). The run
# is killed after WR_BROWSER_SECS (60) seconds.
wr_browser() {
	local line
	mkdir -p "$2" "$WR_TMP/profile"
	while IFS= read -r line; do
		case $line in
		PASS\ *) pass "${line#PASS }" ;;
		FAIL\ *)
			line=${line#FAIL }
			fail "${line%%$'\t'*}" "${line#*$'\t'}"
			;;
		*) diag "$line" ;;
		esac
	done < <(PYTHONDONTWRITEBYTECODE=1 WR_BASE=$WR_BASE REDIS_PORT=$REDIS_PORT \
	    CHROMIUM=$CHROMIUM ARTIFACTS=$2 PROFILE=$WR_TMP/profile \
	    timeout --kill-after=5 "${WR_BROWSER_SECS:-60}" \
	    python3 -u "$TOP_SRCDIR/tests/browser/$1" 2>&1)
}

# ---- the admin API -------------------------------------------------------------

# wr_admin_conf FILE: a bearer token for the admin API in
# $WR_TMP/admin.token (ADMIN_TOKEN), and FILE begun with the
# admin_token_file line naming it; the caller appends the rest.
ADMIN_TOKEN=''
wr_admin_conf() {
	ADMIN_TOKEN=admin-token-for-tests-0123456789
	printf '%s\n' "$ADMIN_TOKEN" >"$WR_TMP/admin.token"
	printf 'admin_token_file = %s\n' "$WR_TMP/admin.token" >"$1"
}

# admin METHOD PATH [BODY [CURL-ARG...]]: http with the admin token.
admin() {
	local method=$1 path=$2 body=${3-}
	shift 2
	[ $# -gt 0 ] && shift
	http "$method" "$path" "$body" -H "Authorization: Bearer $ADMIN_TOKEN" "$@"
}

# admin_ctl ARG...: waitroomctl against $WR_BASE with the admin token
# ($ADMIN_TOKEN), its output in $WR_TMP/ctl.out and ctl.err; returns its
# exit status.
admin_ctl() {
	WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN "$WAITROOMCTL" --url "$WR_BASE" "$@" \
	    >"$WR_TMP/ctl.out" 2>"$WR_TMP/ctl.err"
}

# ---- replicas and Sentinel -------------------------------------------------

# Redis with replicas and three sentinels, all real processes on free
# loopback ports (tests/integration/sentinel.sh, eventday.sh,
# bench/eventday). The sentinels watch the master MPORT names, as
# WR_MASTER_NAME (default wr), and SPORT holds their ports.
WR_MASTER_NAME=${WR_MASTER_NAME:-wr}
declare -A WR_RPID=()	# port -> pid of a redis_at server
SPORT=()

# redis_at NAME PORT [ARG...]: a redis-server of ours (no persistence),
# logging to $WR_TMP/NAME.log; the EXIT trap ends it.
redis_at() {
	local name=$1 port=$2
	shift 2
	mkdir -p "$WR_TMP/$name"
	redis-server --port "$port" --bind 127.0.0.1 --dir "$WR_TMP/$name" \
	    --save '' --appendonly no --repl-diskless-sync-delay 0 \
	    --logfile "$WR_TMP/$name.log" "$@" \
	    </dev/null >/dev/null 2>&1 &
	WR_EXTRA_PIDS+=($!)
	WR_RPID[$port]=$!
	wait_until "redis-cli -p $port PING 2>/dev/null | grep -q PONG" \
	    "$WR_READY_DEADLINE" ||
	    bail "redis $name serves on $port" "$(tail -n 5 "$WR_TMP/$name.log")"
}

# sentinel_at I PORT: sentinel I on PORT, watching the master at MPORT
# (down-after-milliseconds 1000).
sentinel_at() {
	cat >"$WR_TMP/sentinel$1.conf" <<EOF2
port $2
bind 127.0.0.1
dir $WR_TMP
sentinel monitor $WR_MASTER_NAME 127.0.0.1 $MPORT 2
sentinel down-after-milliseconds $WR_MASTER_NAME 1000
sentinel failover-timeout $WR_MASTER_NAME 10000
sentinel parallel-syncs $WR_MASTER_NAME 1
EOF2
	redis-server "$WR_TMP/sentinel$1.conf" --sentinel \
	    --logfile "$WR_TMP/sentinel$1.log" </dev/null >/dev/null 2>&1 &
	WR_EXTRA_PIDS+=($!)
}

# master_port: the master's port, as the first sentinel names it.
master_port() {
	redis-cli -p "${SPORT[0]}" SENTINEL get-master-addr-by-name \
	    "$WR_MASTER_NAME" | sed -n 2p
}

# replica_up PORT: the Redis at PORT is a replica whose link is up.
replica_up() {
	redis-cli -p "$1" INFO replication | tr -d '\r' |
	    grep -q '^master_link_status:up$'
}

# sentinels_start N: N replicas of a new master (MPORT, RPORTS) and three
# sentinels (SPORT, SENTINEL_SPEC: the redis = sentinel://... value);
# returns once every replica follows and the sentinels know the replicas
# and each other (bails after 30 s).
RPORTS=() SENTINEL_SPEC='' wr_replicas=0
sentinels_start() {
	local i p
	MPORT=$(wr_free_port) || bail "a free port"
	redis_at m "$MPORT"
	for ((i = 1; i <= $1; i++)); do
		p=$(wr_free_port) || bail "a free port"
		RPORTS+=("$p")
		redis_at "r$i" "$p" --replicaof 127.0.0.1 "$MPORT"
	done
	for i in 0 1 2; do
		SPORT+=("$(wr_free_port)") || bail "a free port"
		sentinel_at "$i" "${SPORT[i]}"
	done
	for p in "${RPORTS[@]}"; do
		wait_until "replica_up $p" "$WR_READY_DEADLINE" ||
		    bail "replica $p follows the master"
	done
	wr_replicas=$1
	# shellcheck disable=SC2016
	wait_until '[ "$(redis-cli -p ${SPORT[0]} SENTINEL replicas $WR_MASTER_NAME |
	    grep -cE "^127\.0\.0\.1:[0-9]+$")" -ge $wr_replicas ] &&
	    [ "$(redis-cli -p ${SPORT[2]} SENTINEL sentinels $WR_MASTER_NAME |
	    grep -c "^name$")" -ge 2 ]' 30 ||
	    bail "the sentinels know the replicas and each other"
	SENTINEL_SPEC="sentinel://127.0.0.1:${SPORT[0]},127.0.0.1:${SPORT[1]},127.0.0.1:${SPORT[2]}/$WR_MASTER_NAME"
}

# ---- proof of work ------------------------------------------------------

# fetch Q: a new challenge of Q into CH, its bits into BITS.
fetch() {
	http GET "/v1/queues/$1/challenge"
	CH=$(json .challenge) BITS=$(json .bits)
}

# body CH NONCE [USER]: a join's JSON body.
body() {
	if [ -n "${3-}" ]; then
		printf '{"challenge":"%s","nonce":"%s","user":"%s"}' "$1" "$2" "$3"
	else
		printf '{"challenge":"%s","nonce":"%s"}' "$1" "$2"
	fi
}

# ---- the admin port (admin_listen) ------------------------------------------

# on_admin CMD...: run CMD (http, admin, ...) with WR_BASE on the admin
# port, $ADMIN (http://127.0.0.1:PORT of admin_listen), then back.
on_admin() {
	on "$ADMIN" "$@"
}

# ---- more instances ---------------------------------------------------------

# start_more_waitroomd NAME CONF [ARG...]: one more waitroomd on the private
# Redis, listening on a port of its choice, logging to $WR_TMP/waitroomd-NAME.log.
# Sets MORE_PID and MORE_PORT; the EXIT trap ends it. Returns once each of
# its workers (CONF's workers) serves, as /readyz would say: an instance
# listens before it has Redis, and answers a join 503 meanwhile. With
# WR_MORE_READY=0, once it listens (an instance that is not to be ready).
MORE_PID='' MORE_PORT=''
start_more_waitroomd() {
	local name=$1 conf=$2 pf=$WR_TMP/more.$1.port
	local log=$WR_TMP/waitroomd-$1.log want
	shift 2
	rm -f "$pf"
	want=$(wr_ready_want "$log" "$conf" "$@")
	"$WAITROOMD" --config "$conf" --listen 127.0.0.1:0 \
	    --redis "127.0.0.1:$REDIS_PORT" --port-file "$pf" \
	    --log-level "${WR_LOG_LEVEL:-debug}" "$@" \
	    >>"$WR_TMP/waitroomd-$name.log" 2>&1 </dev/null &
	MORE_PID=$!
	WR_EXTRA_PIDS+=("$MORE_PID")
	wait_until "[ -s '$pf' ]" "$WR_START_DEADLINE" ||
	    bail "instance $name starts" "$(wr_tail "$log")"
	read -r MORE_PORT <"$pf"
	[ "${WR_MORE_READY:-1}" = 0 ] && return 0
	wait_until "[ \$(wr_served '$log') -ge $want ]" "$WR_READY_DEADLINE" ||
	    bail "instance $name is ready" "$(wr_tail "$log")"
}

# ---- streams (Server-Sent Events) -------------------------------------------

# A stream is read by `curl -N` in the background; each line it prints goes
# to $WR_TMP/sse.NAME.out as "EPOCHREALTIME LINE", its headers to
# sse.NAME.headers, and curl's exit status, once it ends, to sse.NAME.rc.
declare -A WR_SSE_PID=()	# NAME -> pid of the line stamper

wr_stamp() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		printf '%s %s\n' "$EPOCHREALTIME" "${l%$'\r'}"
	done
}

# sse_start NAME PATH [CURL-ARG...]: open a stream on PATH of the daemon
# (WR_BASE; curl's --max-time is WR_SSE_TIMEOUT, default 60).
sse_start() {
	local name=$1 path=$2 f=$WR_TMP/sse.$1
	shift 2
	rm -f "$f.pid" "$f.rc" "$f.headers"
	: >"$f.out"
	{
		curl -sS -N --max-time "${WR_SSE_TIMEOUT:-60}" -D "$f.headers" \
		    "$@" "$WR_BASE$path" 2>"$f.err" &
		echo $! >"$f.pid"
		wait $!
		echo $? >"$f.rc"
	} 2>/dev/null | wr_stamp >"$f.out" &
	WR_SSE_PID[$name]=$!
	WR_EXTRA_PIDS+=($!)
	wait_until "[ -s '$f.pid' ]" 5 || bail "curl starts for stream $name"
	WR_EXTRA_PIDS+=("$(<"$f.pid")")
}

# sse_count NAME ERE: how many lines of the stream (less their stamps) match.
sse_count() {
	awk -v re="$2" '{ sub(/^[^ ]* /, "") } $0 ~ re { n++ } END { print n + 0 }' \
	    "$WR_TMP/sse.$1.out"
}

# sse_wait NAME ERE [COUNT [SECONDS]]: until COUNT lines (default 1) match.
sse_wait() {
	wait_until "[ \$(sse_count '$1' '$2') -ge ${3:-1} ]" "${4:-10}"
}

# sse_ended NAME [SECONDS]: wait for the stream to end (default 10 s); 0
# when it did. SSE_RC is curl's exit status then.
SSE_RC=''
sse_ended() {
	local f=$WR_TMP/sse.$1
	SSE_RC=''
	wr_wait_exit "${WR_SSE_PID[$1]}" "${2:-10}" || return 1
	wait "${WR_SSE_PID[$1]}" 2>/dev/null
	[ -s "$f.rc" ] && read -r SSE_RC <"$f.rc"
	return 0
}

# sse_stop NAME: end curl, as a client that goes away.
sse_stop() {
	local pid
	[ -s "$WR_TMP/sse.$1.pid" ] && read -r pid <"$WR_TMP/sse.$1.pid" &&
	    kill -TERM "$pid" 2>/dev/null
	sse_ended "$1" 5
	return 0
}

# sse_text NAME: the stream's lines, without their stamps.
sse_text() {
	sed 's/^[^ ]* //' "$WR_TMP/sse.$1.out"
}

# sse_statuses NAME: how many status events the stream got so far.
sse_statuses() {
	sse_count "$1" '^event: status$'
}

# sse_events NAME: the stream's events so far, one a line, as
# "STAMP<TAB>ID<TAB>EVENT<TAB>DATA" (STAMP: when the blank line that ends
# the event arrived; DATA: the data lines joined by newlines as "\n").
sse_events() {
	awk '{ ts = $1; sub(/^[^ ]* /, "") }
		/^id:/ { id = substr($0, 4); sub(/^ /, "", id) }
		/^event:/ { ev = substr($0, 7); sub(/^ /, "", ev) }
		/^data:/ {
			d = substr($0, 6); sub(/^ /, "", d)
			data = data == "" ? d : data "\\n" d
		}
		/^$/ {
			if (ev != "" || data != "")
				printf "%s\t%s\t%s\t%s\n", ts, id, ev, data
			id = ev = data = ""
		}' "$WR_TMP/sse.$1.out"
}

# sse_data NAME EVENT [NTH]: the data of the stream's NTH EVENT (default
# the first; 0: the last so far); sse_stamp: when it arrived.
sse_data() {
	wr_sse_nth "$1" "$2" "${3:-1}" 4
}
sse_stamp() {
	wr_sse_nth "$1" "$2" "${3:-1}" 1
}
wr_sse_nth() {
	sse_events "$1" | awk -F '\t' -v e="$2" -v n="$3" -v f="$4" '
		$3 == e && ++k == n { print $f; exit }
		$3 == e { last = $f }
		END { if (n == 0 && k) print last }'
}

# sse_header NAME HEADER: a header of the stream's answer.
sse_header() {
	local HEADERS
	wr_slurp HEADERS "$WR_TMP/sse.$1.headers"
	HEADERS=${HEADERS//$'\r'/}
	header "$2"
}

# ---- the end ------------------------------------------------------------

wr_print_logs() {
	local f
	for f in "$WR_TMP"/*.log "$WR_TMP/commands"; do
		[ -s "$f" ] || continue
		diag "---- ${f##*/} (last 200 lines)"
		diag "$(tail -n 200 "$f")"
	done
}

wr_on_exit() {
	local rc=$? pid
	trap - EXIT
	if [ -n "$WR_PID" ]; then
		if [ "$WR_TAP" = 1 ]; then
			stop_waitroomd
		else
			kill -TERM "$WR_PID" 2>/dev/null
			wr_wait_exit "$WR_PID" "$WR_STOP_DEADLINE" ||
			    kill -KILL "$WR_PID" 2>/dev/null
			wait "$WR_PID" 2>/dev/null
		fi
	fi
	# All at once, then each awaited: a waitroomd takes half a second to
	# exit (it lets its last words leave), and a test may leave several.
	for pid in "${WR_EXTRA_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in "${WR_EXTRA_PIDS[@]}"; do
		if kill -0 "$pid" 2>/dev/null; then
			wr_wait_exit "$pid" 5 || kill -KILL "$pid" 2>/dev/null
		fi
		wait "$pid" 2>/dev/null
	done
	stop_redis
	if [ "$WR_TAP" = 1 ]; then
		[ "$WR_FAILED" -gt 0 ] && wr_print_logs
		echo "1..$WR_N"
		[ "$WR_FAILED" -gt 0 ] && diag "$WR_FAILED of $WR_N checks failed"
		diag "took $SECONDS s"
	fi
	if [ "${WR_KEEP:-0}" = 1 ]; then
		diag "kept $WR_TMP"
	else
		rm -rf "$WR_TMP"
	fi
	[ "$WR_FAILED" -gt 0 ] && [ "$rc" = 0 ] && rc=1
	exit "$rc"
}

trap wr_on_exit EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

for wr_tool in curl jq redis-server redis-cli timeout; do
	command -v "$wr_tool" >/dev/null 2>&1 ||
	    bail "$wr_tool is installed (tools/check-all installs it)"
done
unset wr_tool
