#!/usr/bin/env bash
# shellcheck disable=SC2016 # awk programs and wait_until's code are quoted
#
# streams_load.sh: streams in numbers and under faults, as their clients see
# them. 1,000 streams open at once each get exactly one `entered`, batch by
# batch in join order, and end. A promotion published while the daemon's
# subscriber is cut still reaches its streams through the periodic refresh,
# and once the subscriber is back promotions arrive at once again. With Redis
# down a stream stays open on `: keepalive` comments, and its statuses resume
# when Redis is back. The stream caps answer 503 too_many_streams and 429
# rate_limited with Retry-After. A client that does not read is closed as a
# slow client, while a reading one on the same daemon goes on.
#
# A client that never reads takes about 30 s to fill the kernel's buffers at
# one status a second, so the slow-client daemon (waitroomd-slow.log) starts
# first and runs beside the main one (waitroomd.log) until its checks; the
# caps get a short-lived daemon each, meanwhile.
#
# Many streams are read by a python3 helper (written below into the temp
# dir): curl -N in the background is too heavy for 1,000.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || bail "python3 is installed"

D=$WR_READY_DEADLINE	# seconds for what should be quick (more under valgrind)
VG=${WAITROOM_VALGRIND:-0}
PUSH=3			# push_interval of the main daemon
# The scripts whole, as the daemon loads them.
LUA=${TOP_BUILDDIR:-$(dirname "$0")/../../build/normal}/src/store/loaded

# The main daemon: a small keepalive_interval, so the Redis-down checks see
# several keepalives quickly. Its 1,000 visitors come from one address.
cat >"$WR_TMP/main.conf" <<EOF2
push_interval      = $PUSH
keepalive_interval = 1
max_conns_per_ip   = 0

[queue big]
mode        = rate
batch       = 250
interval    = 1
state       = paused
active_ttl  = 600
waiting_ttl = 600

[queue sub]
mode        = rate
batch       = 10
interval    = 1
state       = paused
active_ttl  = 600
waiting_ttl = 600

[queue hold]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

# The slow-client daemon: a status a second, 1 KiB of unsent output at
# most. A queue name of 64 characters (the most allowed) makes each status
# bigger, so a client that does not read fills the buffers sooner.
# keepalive_interval is large so that the connection's own timeout (3 x 10 s)
# does not end the slow client before the slow-client check does.
SLOWQ=slow_client_queue_with_a_long_name_so_that_each_status_is_bigger
cat >"$WR_TMP/slow.conf" <<EOF2
push_interval      = 1
keepalive_interval = 10
stream_buffer      = 1024

[queue $SLOWQ]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2

# ---- the stream reader ------------------------------------------------------

cat >"$WR_TMP/sse_many.py" <<'EOF_PY'
"""sse_many.py PORT PATHS OUT [OPTION VALUE]...

PATHS holds lines "NAME PATH". Each stream is a raw HTTP/1.1 GET of PATH
from 127.0.0.1:PORT; all are opened at once and read with one selector.
OUT gets one tab-separated line per fact, stamped with the wall clock when
the selector returned (facts read in one round share a stamp):

    NAME STAMP http CODE
    NAME STAMP event ID EVENT DATA     (data lines joined by a literal \\n)
    NAME STAMP comment TEXT
    NAME STAMP retry MS
    NAME STAMP end HOW                 done (the last chunk came), eof,
                                       reset, error:..., stopped
    *    STAMP start                   (before the first connect)
    *    STAMP exit

Options: --max-seconds S (default 60), --stop-file F (end all once F
exists), --rcvbuf N and --mss N (SO_RCVBUF, TCP_MAXSEG, set before
connect), --read-file F (read nothing until F exists: a slow client).
"""
import errno
import os
import selectors
import signal
import socket
import sys
import time


class Stream:
    def __init__(self, name, path):
        self.name, self.path = name, path
        self.sock = None
        self.raw = bytearray()      # received, not parsed yet
        self.text = bytearray()     # body, not split into lines yet
        self.head = True
        self.chunked = False
        self.length = None
        self.chunk_left = 0
        self.chunk_state = 'size'   # size, data, crlf, trailer
        self.done = self.ended = self.sent = False
        self.ev_id = self.ev_name = ''
        self.ev_data = None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    port, paths, out_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    opts = {'--max-seconds': '60', '--stop-file': None, '--rcvbuf': None,
            '--mss': None, '--read-file': None}
    rest = sys.argv[4:]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            sys.exit('sse_many.py: bad option %s' % rest[0])
        opts[rest[0]], rest = rest[1], rest[2:]
    deadline = time.monotonic() + float(opts['--max-seconds'])
    stop_file, read_file = opts['--stop-file'], opts['--read-file']
    out = open(out_path, 'a', buffering=1 << 16)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    sel = selectors.DefaultSelector()
    reading = read_file is None

    def emit(st, stamp, *fields):
        out.write('\t'.join((st.name, '%.6f' % stamp) + fields) + '\n')

    def finish(st, stamp, how):
        if st.ended:
            return
        st.ended = True
        emit(st, stamp, 'end', how)
        try:
            sel.unregister(st.sock)
        except (KeyError, ValueError):
            pass
        st.sock.close()

    def sse_line(st, stamp, line):
        if line == '':
            if st.ev_data is not None or st.ev_name:
                emit(st, stamp, 'event', st.ev_id, st.ev_name or 'message',
                     st.ev_data or '')
            st.ev_id = st.ev_name = ''
            st.ev_data = None
        elif line.startswith(':'):
            emit(st, stamp, 'comment', line[1:].strip())
        else:
            field, _, value = line.partition(':')
            value = value[1:] if value.startswith(' ') else value
            if field == 'id':
                st.ev_id = value
            elif field == 'event':
                st.ev_name = value
            elif field == 'data':
                st.ev_data = value if st.ev_data is None else \
                    st.ev_data + '\\n' + value
            elif field == 'retry':
                emit(st, stamp, 'retry', value)

    def body(st, stamp, data):
        st.text += data
        while True:
            i = st.text.find(b'\n')
            if i < 0:
                return
            line = st.text[:i].decode('utf-8', 'replace').rstrip('\r')
            del st.text[:i + 1]
            sse_line(st, stamp, line)

    def parse(st, stamp):
        if st.head:
            i = st.raw.find(b'\r\n\r\n')
            if i < 0:
                return
            lines = st.raw[:i].decode('latin-1').split('\r\n')
            del st.raw[:i + 4]
            st.head = False
            words = lines[0].split(' ')
            emit(st, stamp, 'http', words[1] if len(words) > 1 else '000')
            for h in lines[1:]:
                k, _, v = h.partition(':')
                k, v = k.strip().lower(), v.strip().lower()
                if k == 'transfer-encoding' and 'chunked' in v:
                    st.chunked = True
                elif k == 'content-length':
                    st.length = int(v)
        if not st.chunked:
            take = bytes(st.raw)
            if st.length is not None:
                take = take[:st.length]
                st.length -= len(take)
                st.done = st.length == 0
            del st.raw[:]
            body(st, stamp, take)
            return
        while st.raw and not st.done:
            if st.chunk_state == 'data':
                take = bytes(st.raw[:st.chunk_left])
                del st.raw[:len(take)]
                st.chunk_left -= len(take)
                if st.chunk_left == 0:
                    st.chunk_state = 'crlf'
                body(st, stamp, take)
                continue
            i = st.raw.find(b'\r\n')
            if i < 0:
                return
            line = bytes(st.raw[:i])
            del st.raw[:i + 2]
            if st.chunk_state == 'size':
                st.chunk_left = int(line.split(b';')[0], 16)
                st.chunk_state = 'data' if st.chunk_left else 'trailer'
            elif st.chunk_state == 'crlf':
                st.chunk_state = 'size'
            elif line == b'':
                st.done = True

    streams = []
    with open(paths) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                streams.append(Stream(parts[0], parts[1]))
    out.write('*\t%.6f\tstart\n' % time.time())
    for st in streams:
        s = st.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if opts['--rcvbuf']:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF,
                         int(opts['--rcvbuf']))
        if opts['--mss']:
            try:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG,
                             int(opts['--mss']))
            except OSError:
                pass
        s.setblocking(False)
        err = s.connect_ex(('127.0.0.1', port))
        if err not in (0, errno.EINPROGRESS):
            st.ended = True
            emit(st, time.time(), 'end', 'error:connect:%d' % err)
            s.close()
            continue
        sel.register(s, selectors.EVENT_WRITE, st)
    out.flush()
    live = [st for st in streams if not st.ended]
    while live and not stop and time.monotonic() < deadline:
        if stop_file and os.path.exists(stop_file):
            break
        if not reading and os.path.exists(read_file):
            reading = True
            for st in live:
                if st.sent:
                    sel.register(st.sock, selectors.EVENT_READ, st)
        if not sel.get_map():
            time.sleep(0.05)
            continue
        try:
            ready = sel.select(0.05)
        except InterruptedError:
            continue
        stamp = time.time()
        for key, _ in ready:
            st = key.data
            if st.ended:
                continue
            if not st.sent:
                err = st.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    finish(st, stamp, 'error:connect:%d' % err)
                    continue
                req = ('GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n'
                       'Accept: text/event-stream\r\n\r\n' % (st.path, port))
                try:
                    st.sock.sendall(req.encode())
                except OSError as e:
                    finish(st, stamp, 'error:send:%s' % e.errno)
                    continue
                st.sent = True
                if reading:
                    sel.modify(st.sock, selectors.EVENT_READ, st)
                else:
                    sel.unregister(st.sock)
                continue
            try:
                data = st.sock.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                finish(st, stamp, 'reset')
                continue
            except OSError as e:
                finish(st, stamp, 'error:%s' % e.errno)
                continue
            if data:
                st.raw += data
            parse(st, stamp)
            if st.done or not data:
                finish(st, stamp, 'done' if st.done else 'eof')
        live = [st for st in live if not st.ended]
        out.flush()
    stamp = time.time()
    for st in streams:
        finish(st, stamp, 'stopped')
    out.write('*\t%.6f\texit\n' % stamp)
    out.close()


main()
EOF_PY

# many_start NAME PORT PATHS [OPTION VALUE]...: read the streams of PATHS
# ("NAME PATH" lines) into $WR_TMP/NAME.out; `many_stop NAME` ends them.
many_start() {
	local name=$1 port=$2 paths=$3
	shift 3
	rm -f "$WR_TMP/$name.stop"
	: >"$WR_TMP/$name.out"
	python3 "$WR_TMP/sse_many.py" "$port" "$paths" "$WR_TMP/$name.out" \
	    --stop-file "$WR_TMP/$name.stop" --max-seconds 300 "$@" \
	    2>"$WR_TMP/$name.err" </dev/null &
	WR_EXTRA_PIDS+=($!)
}

many_stop() {
	touch "$WR_TMP/$1.stop"
	wait_until "grep -q '^\*	.*	exit\$' '$WR_TMP/$1.out'" 10 ||
	    diag "the reader of $1 did not stop"
}

# many_count NAME KIND [VALUE]: how many streams of NAME have a KIND line
# (with VALUE: whose first field is VALUE, e.g. http 200; for an event,
# its name, e.g. event entered).
many_count() {
	awk -F '\t' -v k="$2" -v v="${3-}" '
		$3 == k && (v == "" || (k == "event" ? $5 : $4) == v) &&
		    !seen[$1]++ { n++ }
		END { print n + 0 }' "$WR_TMP/$1.out"
}

# many_lags NAME FROM TO T0: the largest lag in ms from stamp T0 to the
# entered of streams FROM..TO (numbered names), or "missing N".
many_lags() {
	awk -F '\t' -v a="$2" -v b="$3" -v t0="$4" '
		$3 == "event" && $5 == "entered" && $1 >= a && $1 <= b &&
		    !($1 in at) { at[$1] = $2 }
		END {
			for (i = a; i <= b; i++) {
				if (!(i in at)) { miss++; continue }
				l = (at[i] - t0) * 1000
				if (l > max) max = l
			}
			if (miss) print "missing", miss; else printf "%d\n", max
		}' "$WR_TMP/$1.out"
}

# paths_of Q: "I PATH" lines for the joined tokens of Q, I from 0.
paths_of() {
	awk -v q="$1" '{ print NR - 1, "/v1/queues/" q "/tokens/" $0 "/events" }' \
	    "$WR_TMP/$1.joined" >"$WR_TMP/$1.paths"
}

# started NAME: when the reader of NAME began to connect (python3 may take
# a second to start).
started() {
	awk -F '\t' '$1 == "*" && $3 == "start" { print $2; exit }' "$WR_TMP/$1.out"
}

# status_gap NAME: the longest time in ms between two statuses of a stream
# read by sse_start.
status_gap() {
	sse_events "$1" | awk -F '\t' '$3 == "status" {
		if (last != "" && ($1 - last) * 1000 > max) max = ($1 - last) * 1000
		last = $1
	} END { printf "%d\n", max }'
}

start_redis

# ---- the slow-client daemon, and its two clients -------------------------------
#
# It is started through lib.sh like the main daemon (valgrind and all), then
# set aside: WR_PID is the main daemon's from here on, until the slow-client
# checks take it back to stop it.

SLOWLOG=$WR_TMP/waitroomd-slow.log
WR_DAEMON_LOG=$SLOWLOG start_waitroomd "$WR_TMP/slow.conf"
wait_ready || bail "the slow-client daemon is ready" "$(wr_last)"
join "$SLOWQ"
slow_tok=$TOKEN
join "$SLOWQ"
normal_tok=$TOKEN
{ [ -n "$slow_tok" ] && [ -n "$normal_tok" ]; } || bail "two joins on the slow-client daemon" "$(wr_last)"
echo "0 /v1/queues/$SLOWQ/tokens/$slow_tok/events" >"$WR_TMP/slow.paths"
# A receive buffer as small as the kernel allows, and the smallest segments:
# the client never reads until slow.read exists.
slow_t0=$EPOCHREALTIME
many_start slow "$WR_PORT" "$WR_TMP/slow.paths" --rcvbuf 1 --mss 88 \
    --read-file "$WR_TMP/slow.read"
WR_SSE_TIMEOUT=600 sse_start normal "/v1/queues/$SLOWQ/tokens/$normal_tok/events"
SLOW_PID=$WR_PID
WR_EXTRA_PIDS+=("$SLOW_PID")
WR_PID=

start_waitroomd "$WR_TMP/main.conf"
wait_ready || bail "the main daemon is ready" "$(wr_last)"

# ---- 1,000 streams at once ------------------------------------------------------

N=1000
join_many big "$N"
check_eq "$(sort -u "$WR_TMP/big.joined" | grep -c .)" "$N" "$N joins of the paused queue give $N tokens"
paths_of big

many_start big "$WR_PORT" "$WR_TMP/big.paths"
if wait_until "[ \$(many_count big event status) -ge $N ]" $((D * 3)); then
	pass "$N streams opened at once each get a first status ($(ms_between "$(started big)") ms for all)"
else
	fail "$N streams opened at once each get a first status within $((D * 3)) s" \
	    "$(many_count big event status) got one" "$(tail -n 5 "$WR_TMP/big.err")"
fi
check_eq "$(many_count big http 200)" "$N" "all $N streams answer 200"
check_eq "$(many_count big end)" 0 "all $N are open at once, none ended while big is paused"

# Open the gates: the tick reads the queue's state from Redis every time.
rcli hset 'wr:{big}:config' state open >/dev/null
t0=$EPOCHREALTIME
if wait_until "[ \$(many_count big end) -ge $N ]" $((D + 10)); then
	pass "with the gates open (batch 250 a second) all $N streams end ($(ms_between "$t0") ms)"
else
	fail "with the gates open (batch 250 a second) all $N streams end within $((D + 10)) s" \
	    "$(many_count big end) ended, $(many_count big event entered) got entered"
fi
many_stop big

# Each token's admission as Redis recorded it: the active set's score is the
# session's end, active_ttl (600 s) after the admission, on Redis's clock,
# which is this host's; one tick admits its batch at one instant.
rcli zrange 'wr:{big}:active' 0 -1 withscores >"$WR_TMP/big.active"
awk -F '\t' -v ttl=600000 '
	FILENAME == ARGV[1] { idx[$0] = FNR - 1; n = FNR; next }
	FILENAME == ARGV[2] {
		if (FNR % 2) tok = $0
		else if (tok in idx) adm[idx[tok]] = $0	# text: mawk keys big numbers as 1.8e+12
		next
	}
	$3 == "event" { last[$1] = $5 }
	$3 == "event" && $5 == "entered" { if (!ent[$1]++) at[$1] = $2 }
	$3 == "end" { how[$1] = $4 }
	END {
		for (i = 0; i < n; i++) {
			if (ent[i] == 1) one++
			else if (bad1 == "") bad1 = i " got " ent[i] + 0
			if (ent[i] == 1 && last[i] == "entered" && how[i] == "done") clean++
			else if (bad2 == "") bad2 = i ": last " last[i] ", end " how[i]
			if (!(i in adm)) { unadmitted++; continue }
			if (i > 0 && (i - 1) in adm && adm[i] + 0 < adm[i - 1] + 0) {
				fifo++
				if (bad3 == "") bad3 = "joined " i - 1 " then " i
			}
			if (!(adm[i] in size)) order[nb++] = adm[i]
			size[adm[i]]++
			if (i in at) {
				lag = at[i] * 1000 - (adm[i] - ttl)
				if (lag > maxlag) maxlag = lag
				if (!(adm[i] in lo) || at[i] < lo[adm[i]]) lo[adm[i]] = at[i]
				if (at[i] > hi[adm[i]]) hi[adm[i]] = at[i]
			}
		}
		# the batches by time of admission (a few: insertion sort)
		for (i = 1; i < nb; i++)
			for (j = i; j > 0 && order[j] + 0 < order[j - 1] + 0; j--) {
				t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
			}
		for (i = 0; i < nb; i++) {
			sizes = sizes (i ? " " : "") size[order[i]]
			if (i > 0 && hi[order[i - 1]] > lo[order[i]]) {
				late++
				if (bad4 == "") bad4 = sprintf("batch %d ends at %.3f, batch %d starts at %.3f", i - 1, hi[order[i - 1]], i, lo[order[i]])
			}
		}
		printf "one=%d clean=%d unadmitted=%d fifo=%d late=%d maxlag=%d\n",
		    one, clean, unadmitted, fifo, late, maxlag
		printf "sizes=%s\n", sizes
		printf "bad=%s; %s; %s; %s\n", bad1, bad2, bad3, bad4
	}' "$WR_TMP/big.joined" "$WR_TMP/big.active" "$WR_TMP/big.out" >"$WR_TMP/big.report"
declare -A R=()
for kv in $(head -n 1 "$WR_TMP/big.report"); do R[${kv%%=*}]=${kv#*=}; done
sizes=$(sed -n 's/^sizes=//p' "$WR_TMP/big.report")
bad=$(sed -n 's/^bad=//p' "$WR_TMP/big.report")

check_eq "${R[one]:-}" "$N" "every one of the $N streams gets exactly one entered"
check_eq "${R[clean]:-}" "$N" "each stream ends cleanly right after its entered (the last event, then the last chunk)" \
    || diag "first problems: $bad"
check_eq "${R[unadmitted]:-}/${R[fifo]:-}" 0/0 \
    "all $N are admitted, in join order: nobody before one who joined earlier" || diag "$bad"
check_eq "$sizes" "250 250 250 250" "they are admitted in batches of 250, one tick each"
check_eq "${R[late]:-}" 0 \
    "entered reaches the streams batch by batch: none of a batch before the last of the batch before" ||
    diag "$bad"
if [ -n "${R[maxlag]:-}" ] && [ "${R[maxlag]}" -le 1000 ]; then
	pass "entered reaches every stream within 1 s of its admission (at most ${R[maxlag]} ms)"
else
	fail "entered reaches every stream within 1 s of its admission" "at most ${R[maxlag]:-?} ms"
fi

# ---- the subscriber is cut right before a promotion ----------------------------
#
# A promotion made while the daemon's subscriber is away is published to
# nobody: no later reconnect brings it back. To make that certain rather than
# a race with the reconnect (50 ms), one transaction cuts every subscriber
# and then runs one admission tick, the daemon's own tick.lua, on the queue
# opened for just that tick.

join_many sub 30
check_eq "$(grep -c . "$WR_TMP/sub.joined")" 30 "30 joins of sub"
paths_of sub
many_start sub "$WR_PORT" "$WR_TMP/sub.paths"
wait_until '[ $(many_count sub event status) -ge 30 ]' "$D" ||
    fail "30 streams of sub get a first status" "$(many_count sub event status) did"

sha=$(rcli script load "$(cat "$LUA/tick.lua")")
[[ $sha =~ ^[0-9a-f]{40}$ ]] || bail "load the daemon's tick.lua into Redis" "got: $sha"

# The tick's keys, by name, in the order of its contract (scripts.def):
# the queue's ten (QUEUE_KEYS), then its own KEY lines. A hand-written
# list went stale when the tick got keys of its own.
# The queue's keys come from QUEUE_KEYS' own definition, every KEY(ID, X,
# name) in it: a list written here went stale when the queue got keys.
TICK_KEYS=$(awk '/^#define QUEUE_KEYS/ { d = 1 }
	d { s = $0; while (match(s, /KEY\(ID, [A-Z_]+, [a-z_]+\)/)) {
		k = substr(s, RSTART, RLENGTH); sub(/.*, /, "", k); sub(/\)/, "", k)
		q = q " " k; s = substr(s, RSTART + RLENGTH) }
	    if ($0 !~ /\\$/) d = 0 }
	/^SCRIPT\(TICK,/ { f = 1 }
	f && /^QUEUE_KEYS/ { printf "%s", q }
	f && /^KEY\(TICK,/ { sub(/.*, /, ""); sub(/\).*/, ""); printf " %s", $0 }
	/^END_SCRIPT\(TICK\)/ { exit }' "$TOP_SRCDIR/src/store/scripts.def")
[ "$(wc -w <<<"$TICK_KEYS")" -gt 10 ] ||
    bail "the tick's keys from scripts.def" "got: $TICK_KEYS"

# admit_sub [cut]: one admission tick of sub in one transaction (with cut,
# after cutting every subscriber and counting the patterns still listened
# to). ADMIT_AT: when it was sent; ADMIT: EXEC's answers, one a line.
ADMIT_AT='' ADMIT=()
admit_sub() {
	local k='wr:{sub}' cmds=(MULTI) keys=() n
	for n in $TICK_KEYS; do keys+=("$k:$n"); done
	[ "${1-}" = cut ] && cmds+=("CLIENT KILL TYPE pubsub" "PUBSUB NUMPAT")
	# arguments: channel, cap, full_ago_ms (-1: never full),
	# revoked_prefix, leeway_ms
	cmds+=("HSET $k:config state open"
	    "EVALSHA $sha ${#keys[@]} ${keys[*]} $k:events 5000 -1 $k:revoked: 10000"
	    "HSET $k:config state paused" EXEC)
	ADMIT_AT=$EPOCHREALTIME
	printf '%s\n' "${cmds[@]}" | rcli >"$WR_TMP/admit.out" 2>&1
	mapfile -t ADMIT < <(grep -vxE 'OK|QUEUED' "$WR_TMP/admit.out")
}

subs0=$(grep -c 'event=store_ready role=subscriber' "$WR_TMP/waitroomd.log")
admit_sub cut
# ADMIT: killed, patterns left, HSET, then tick: expired, abandoned, admitted, waiting, full; HSET
check_eq "${ADMIT[1]:-}/${ADMIT[5]:-}" 0/10 \
    "the subscribers are cut (no pattern listened to) and the next 10 are admitted in that instant" ||
    diag "$(cat "$WR_TMP/admit.out")"
wait_until '[[ $(many_lags sub 0 9 "$ADMIT_AT") != missing* ]]' $((PUSH + 1 + D))
lag=$(many_lags sub 0 9 "$ADMIT_AT")
if [[ $lag =~ ^[0-9]+$ ]] && [ "$lag" -le $(((PUSH + 1) * 1000)) ]; then
	pass "all 10 streams get entered through the refresh though nobody heard the promotion (within push_interval + 1 s: at most $lag ms)"
else
	fail "all 10 streams get entered within push_interval + 1 s though nobody heard the promotion" \
	    "largest lag: $lag ms"
fi
check_eq "$(awk -F '\t' '$1 >= 10 && $3 == "event" && $5 == "entered"' "$WR_TMP/sub.out" | grep -c .)" 0 \
    "the 20 behind them get no entered"

check "the daemon's subscriber comes back by itself" \
    wait_lines "$WR_TMP/waitroomd.log" 'event=store_ready role=subscriber' $((subs0 + 1)) "$D"
admit_sub
check_eq "${ADMIT[3]:-}" 10 "the next 10 are admitted" || diag "$(cat "$WR_TMP/admit.out")"
wait_until '[[ $(many_lags sub 10 19 "$ADMIT_AT") != missing* ]]' $((PUSH + 1 + D))
lag=$(many_lags sub 10 19 "$ADMIT_AT")
if [[ $lag =~ ^[0-9]+$ ]] && [ "$lag" -le 1000 ]; then
	pass "with the subscriber back, entered reaches all 10 within 1 s again (at most $lag ms)"
else
	fail "with the subscriber back, entered reaches all 10 within 1 s again" "largest lag: $lag ms"
fi
check_eq "$(awk -F '\t' '$1 >= 20 && $3 == "end"' "$WR_TMP/sub.out" | grep -c .)" 0 \
    "the last 10 streams are still open, waiting"
many_stop sub

# ---- the stream caps ---------------------------------------------------------------
#
# Each on a daemon of its own, while the slow client fills its buffers; the
# main daemon is set aside meanwhile (WR_PID, WR_PORT, WR_BASE).

# caps NAME KEY STATUS CODE: with KEY = 2 on a daemon of its own, two streams
# open, a third is refused with STATUS CODE and Retry-After, and once one of
# the two closes the third opens.
caps() {
	local name=$1 key=$2 st=$3 code=$4 tok=() i log=$WR_TMP/waitroomd-$1.log
	cat >"$WR_TMP/$name.conf" <<EOF2
push_interval = 1
$key = 2

[queue $name]
mode        = rate
state       = paused
waiting_ttl = 600
EOF2
	WR_DAEMON_LOG=$log start_waitroomd "$WR_TMP/$name.conf"
	wait_ready || bail "the $key daemon is ready" "$(wr_last)"
	for i in 0 1 2; do
		join "$name"
		tok+=("$TOKEN")
	done
	for i in 0 1; do
		sse_start "$name$i" "/v1/queues/$name/tokens/${tok[i]}/events"
		sse_wait "$name$i" '^event: status$' 1 "$D" ||
		    fail "$key = 2: stream $((i + 1)) opens" "$(sse_text "$name$i" | head -n 5)"
	done
	http GET "/v1/queues/$name/tokens/${tok[2]}/events"
	check_error "$st" "$code" "$key = 2: a third stream -> $st $code"
	check_header_match Retry-After '^[1-9][0-9]*$' "$key = 2: the $st says Retry-After in seconds"
	sse_stop "${name}0"
	wait_until "grep -q 'event=stream_close queue=$name token=${tok[0]:0:8}' '$log'" "$D"
	sse_start "${name}2" "/v1/queues/$name/tokens/${tok[2]}/events"
	check "$key = 2: once one of the two closes, the third opens" \
	    sse_wait "${name}2" '^event: status$' 1 "$D"
	sse_stop "${name}1"
	sse_stop "${name}2"
	WR_DAEMON_LOG=$log stop_waitroomd
}

MAIN_PID=$WR_PID MAIN_PORT=$WR_PORT MAIN_BASE=$WR_BASE
WR_EXTRA_PIDS+=("$MAIN_PID")
WR_PID=
caps capall max_streams 503 too_many_streams
caps capip max_streams_per_ip 429 rate_limited
WR_PID=$MAIN_PID WR_PORT=$MAIN_PORT WR_BASE=$MAIN_BASE

# ---- the slow client --------------------------------------------------------------

MAIN_PID=$WR_PID
WR_PID=$SLOW_PID
deadline=$((${slow_t0%.*} + 75))
closed_re="event=stream_close queue=$SLOWQ token=${slow_tok:0:8} reason=\"slow client\""
if wait_until "grep -qF '$closed_re' '$SLOWLOG'" $((deadline - ${EPOCHREALTIME%.*} > 1 ? deadline - ${EPOCHREALTIME%.*} : 1)); then
	pass "the daemon closes the client that does not read as a slow client ($(ms_between "$(started slow)") ms after it connected)"
else
	fail "the daemon closes the client that does not read within 75 s" \
	    "$(grep -E 'slow|stream_close' "$SLOWLOG" | tail -n 5)"
fi
unsent=$(sed -n 's/.*event=slow_client .*unsent=\([0-9]*\).*/\1/p' "$SLOWLOG" | head -n 1)
if [ -n "$unsent" ] && [ "$unsent" -le 1024 ]; then
	pass "what it held unsent for the slow client stayed within stream_buffer ($unsent <= 1024 bytes)"
else
	fail "the slow_client log line shows unsent output within stream_buffer (1024)" \
	    "$(grep slow_client "$SLOWLOG")"
fi
touch "$WR_TMP/slow.read"
wait_until '[ $(many_count slow end) -ge 1 ]' "$D"
how=$(awk -F '\t' '$3 == "end" { print $4 }' "$WR_TMP/slow.out")
check_match "$how" '^(eof|reset)$' \
    "reading at last, the slow client finds its stream cut off (no last chunk)"
check_eq "$(many_count slow http 200)/$(many_count slow event entered)/$(many_count slow event gone)" 1/0/0 \
    "it had been answered 200, and got no entered or gone"
diag "the slow client got $(awk -F '\t' '$3 == "event"' "$WR_TMP/slow.out" | grep -c .) statuses before the cut"

n=$(sse_statuses normal)
check "the reading stream on that daemon goes on: another status within 3 s" \
    sse_wait normal '^event: status$' $((n + 1)) $((3 + VG * 5))
gap=$(status_gap normal)
if [ "$n" -ge 5 ] && [ "$gap" -le $((2500 + VG * 2500)) ]; then
	pass "it got a status a second all along ($((n + 1)) statuses, largest gap $gap ms)"
else
	fail "the reading stream got a status a second all along" "$n statuses, largest gap $gap ms"
fi
check_eq "$(sse_count normal '^event: (gone|entered)$')" 0 "and never a gone or an entered"
sse_stop normal
WR_DAEMON_LOG=$SLOWLOG stop_waitroomd
WR_PID=$MAIN_PID

# ---- Redis goes down under an open stream ----------------------------------------

join hold
hold_tok=$TOKEN
[ -n "$hold_tok" ] || fail "a join of hold" "$(wr_last)"
sse_start down "/v1/queues/hold/tokens/$hold_tok/events"
sse_wait down '^event: status$' 1 "$D" || fail "the stream of hold gets a first status"
# keepalive_interval (1 s) is shorter than push_interval (3 s): the statuses
# alone must keep the stream open, well past 3 x keepalive_interval.
check "with Redis up a stream lives on statuses alone (3 within $((3 * PUSH + 2)) s)" \
    sse_wait down '^event: status$' 3 $((3 * PUSH + 2 + VG * 10))
check "... and is still open" test ! -s "$WR_TMP/sse.down.rc"
# Saved, so that the Redis that comes back still holds the line.
check_eq "$(rcli save)" OK "Redis saves its data"
stop_redis
t0=$EPOCHREALTIME
check "with Redis down the stream gets : keepalive comments (3 within $((3 * PUSH + 4)) s)" \
    sse_wait down '^: keepalive$' 3 $((3 * PUSH + 4 + VG * 10))
# A connection silent for 3 x push_interval (9 s) is dropped: only the
# keepalives keep this one.
quiet=$(ms_between "$(sse_stamp down status 0)")
if [ ! -s "$WR_TMP/sse.down.rc" ] && [ "$quiet" -gt 6000 ]; then
	pass "the stream stays open on keepalives alone ($quiet ms since its last status)"
else
	fail "the stream stays open on keepalives alone for over 6 s" \
	    "$quiet ms since its last status; curl: $(cat "$WR_TMP/sse.down.rc" 2>/dev/null)"
fi
check_eq "$(sse_count down '^event: (gone|entered)$')" 0 "it gets no gone or entered meanwhile"
n=$(sse_statuses down)
restart_redis
t0=$EPOCHREALTIME
if sse_wait down '^event: status$' $((n + 1)) $((PUSH + 3 + VG * 10)); then
	pass "with Redis back, statuses resume on the same stream ($(ms_between "$t0") ms)"
else
	fail "with Redis back, statuses resume on the same stream within $((PUSH + 3)) s" \
	    "$(sse_text down | tail -n 8)"
fi
d=$(sse_data down status 0)
if jq -e --arg t "$hold_tok" '.token == $t and .status == "waiting" and .position == 1' \
    <<<"$d" >/dev/null 2>&1; then
	pass "the place in line is intact: waiting, position 1"
else
	fail "the place in line is intact: waiting, position 1" "data: '$d'"
fi
ids=$(sse_events down | cut -f 2 | tr '\n' ' ')
check_eq "$ids" "$(seq 1 "$(sse_events down | grep -c .)" | tr '\n' ' ')" \
    "event ids go on by one across the outage"
sse_stop down

stop_waitroomd
