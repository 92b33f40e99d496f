#!/usr/bin/env bash
# shellcheck disable=SC2016 # wait_until's code is quoted
#
# count_waits.sh: what one admitting run of tick.lua writes for the report
# (lib.lua's count_waits: the histograms w0..w15 and e0..e15, w_sum,
# w_max, e_max, the ETA's own errors eta_errs and eta_errs_n, and the
# first and the last wait in :waits), to the exact figure, run against a
# real Redis as the daemon runs it (lib.lua in front of tick.lua), with
# the daemon stopped so that only this test drives the line. Each case
# lays out a line (tickets, drawn entrants, join marks as room_beat.lua
# writes them, earlier figures in the stats hash) and admits a batch of it
# in one run. A hand-made line's figures are written out below (marks
# ahead of the clock put errors on the buckets' bounds); two random
# ones (count_waits.py, seeded: CW_SEED) are worked out visitor by visitor
# from the definitions, not from the Lua: a line of 4,000 with runs of up
# to 300 admitted under one mark, ETAs told and not, a tail with no mark
# above, errors in most buckets and more than 200 of them for eta_errs,
# and one of 400 whose few errors join the 200 kept before.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 0; }

SEED=${CW_SEED:-20261128}
ORACLE=$TOP_SRCDIR/tests/integration/count_waits.py
TTL=600

cat >"$WR_TMP/cw.conf" <<EOF
[queue hand]
mode        = rate
state       = paused
waiting_ttl = 86400
active_ttl  = $TTL

[queue big]
mode        = rate
state       = paused
waiting_ttl = 86400
active_ttl  = $TTL

[queue mid]
mode        = rate
state       = paused
waiting_ttl = 86400
active_ttl  = $TTL
EOF

start_redis
start_waitroomd "$WR_TMP/cw.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
wait_until '[ "$(rcli EXISTS "wr:{hand}:config" "wr:{big}:config" \
    "wr:{mid}:config")" = 3 ]' 10 ||
	bail "the daemon wrote the queues' configuration" "$(wr_last)"
stop_waitroomd

# tick.lua whole, as the daemon loads it (the build's src/store/loaded/).
SCRIPT=$(cat "$TOP_BUILDDIR/src/store/loaded/tick.lua")
DRAWN=-2251799813685248

# tick Q: one run of tick.lua for queue Q, with the keys and arguments
# qstore.c's qstore_tick gives it (ADMISSION_CAP, never seen full, the
# revoked keys' prefix, PASS_LEEWAY).
tick() {
	local q="wr:{$1}:" keys
	mapfile -t keys < <(queue_keys "$1" full draw joins waits)
	rcli EVAL "$SCRIPT" "${#keys[@]}" "${keys[@]}" "${q}events" 5000 -1 \
	    "${q}revoked:" 10000
}

FIELDS=(w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15
	e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 e14 e15
	w_sum w_max e_max eta_errs eta_errs_n)

declare -A GOT WANT

# got Q: GOT, what the run left: the stats hash's fields ('-' for one not
# there), the last entry of :waits, and how many the run admitted.
got() {
	local q="wr:{$1}:" i vals
	mapfile -t vals < <(rcli HMGET "${q}stats" "${FIELDS[@]}")
	GOT=()
	for i in "${!FIELDS[@]}"; do
		GOT[${FIELDS[i]}]=${vals[i]:--}
	done
	GOT[waits]=$(rcli LINDEX "${q}waits" 0)
	GOT[admitted]=$(rcli ZCARD "${q}active")
}

# load ARRAY LINES: the "field value" lines (count_waits.py's) into the
# associative array ARRAY.
# shellcheck disable=SC2034 # into names the caller's array
load() {
	local -n into=$1
	local f v
	into=()
	while read -r f v; do
		into["$f"]=$v
	done <<<"$2"
}

# row ARRAY PREFIX: ROW, ARRAY's PREFIX0..PREFIX15, one line.
row() {
	local -n from=$1
	local i cells=()
	for i in {0..15}; do
		cells+=("${from[$2$i]}")
	done
	ROW=${cells[*]}
}

# check_words GOT WANT DESC: two strings of words are the same; else where
# they part.
check_words() {
	if [ "$1" = "$2" ]; then
		pass "$3"
		return
	fi
	local -a got want
	read -ra got <<<"$1"
	read -ra want <<<"$2"
	local i=0
	while [ "$i" -lt "${#want[@]}" ] && [ "${got[i]-}" = "${want[i]}" ]; do
		i=$((i + 1))
	done
	fail "$3" "expected ${#want[@]} words, got ${#got[@]}" \
	    "the first to differ, word $((i + 1)): expected '${want[i]-}'," \
	    "got '${got[i]-}'"
}

# admitted_at Q: t, the admission's time (ms): the unchecked set's score
# of the first admitted, whose active session ends active_ttl later;
# between Redis's clock before the line was laid out (T0) and after the
# run (T1).
admitted_at() {
	local q="wr:{$1}:" first end
	first=$(rcli ZRANGE "${q}unchecked" 0 0)
	t=$(rcli ZSCORE "${q}unchecked" "$first")
	end=$(rcli ZSCORE "${q}active" "$first")
	if ! [[ $t =~ ^[0-9]+$ ]] || [ "$((t + TTL * 1000))" != "$end" ] ||
	    [ "$t" -lt "$T0" ] || [ "$t" -gt "$T1" ]; then
		bail "$1: the admission's time is read back" \
		    "t=$t, its session ends $end, T0=$T0, T1=$T1"
	fi
}

# compare Q: each figure of the run (GOT) against what it should be (WANT).
compare() {
	local q=$1 f want
	check_eq "${GOT[admitted]}" "${WANT[admitted]}" \
	    "$q: the run admits the batch"
	row WANT w
	want=$ROW
	row GOT w
	check_eq "$ROW" "$want" "$q: w0..w15, the times in line, bucket by bucket"
	row WANT e
	want=$ROW
	row GOT e
	check_eq "$ROW" "$want" "$q: e0..e15, the ETA's errors, bucket by bucket"
	for f in w_sum w_max e_max eta_errs_n; do
		check_eq "${GOT[$f]}" "${WANT[$f]}" "$q: $f"
	done
	check_words "${GOT[eta_errs]}" "${WANT[eta_errs]}" \
	    "$q: eta_errs, the last 200 errors, oldest first"
	check_eq "${GOT[waits]}" "${WANT[waits]}" \
	    "$q: :waits has the run's time, first and last wait and count"
}

# ---- a hand-made line ---------------------------------------------------
#
# Queue 'hand', admitting 21 of 23 at t = T0 + d (T0 Redis's clock just
# before the line is laid out; the run must follow within 3 s, which
# keeps every figure in the bucket written here). A mark 'at told pos'
# (ms, s, place) closes the run of tickets under it; the last two marks
# are ahead of the clock, so their waits are 0 and their errors the ETAs
# themselves, on the buckets' bounds.
#
#   ticket    first mark at or above     wait     ETA told      error   w / e
#   d1        drawn: from the opening   100-101 s  none           -      w7
#             (T0 - 100 s, to the second)
#   11        13: 'T0-300000 600 20'      300 s   600*18/20=540  240    w9 e12
#   12        13                          300 s   600*19/20=570  270    w9 e13
#   13        13                          300 s   600            300    w9 e13
#   (14 left) 14: 'T0-250000 9999 1'      nobody under it
#   15 16 17  17: 'T0-100000'             100 s   none           -      w7
#   (18-20 left)
#   21        22: 'T0-60000 30 10'         60 s   30*9/10=27     -33    w6 e4
#   22        22                           60 s   30             -30    w6 e4
#   23        30: 'T0-20000 70 2'          20 s   70*1/2=35       15    w5 e10
#   24        30 (7 and 6 places ahead,    20 s   35              15    w5 e10
#   30        both clamped to 1 of 2)      20 s   70              50    w5 e11
#   31        31: 'T0-10000 14 100'        10 s   14              4     w4 e9
#   32        32: 'T0-5000 7 0' (pos 0)     5 s   none           -      w3
#   (33-39 left)
#   40        43: 'T0+60000 4 4'            0 s   4*1/4=1         1     w0 e8
#   41 42 43  43                            0 s   2, 3, 4     2, 3, 4   w0 e9
#   44        44: 'T0+61000 0 5'            0 s   0               0     w0 e7
#   45 46     none above                    0 s   none           -      w0
#   47 48     stay in line
#
# (errors and waits less and more d.) Before: w7 = 5, e13 = 1, w_sum =
# 1000, w_max = 50000, e_max = 1000, eta_errs '5 -7 12' of 3.
Q='wr:{hand}:'
T0=$(redis_ms)
OPEN=$((T0 / 1000 - 100))
A=$((T0 - 300000)) X=$((T0 - 250000)) B=$((T0 - 100000)) C=$((T0 - 60000))
D=$((T0 - 20000)) E=$((T0 - 10000)) F=$((T0 - 5000)) G=$((T0 + 60000))
H=$((T0 + 61000))
{
	printf 'DEL %swaiting %sjoins %sstats %stick %swaits\n' \
	    "$Q" "$Q" "$Q" "$Q" "$Q"
	echo "HSET ${Q}config state open batch 21 max_active 0 opens_at $OPEN"
	echo "SET ${Q}seq 48"
	echo "ZADD ${Q}waiting $((DRAWN + 1)) d1 11 k11 12 k12 13 k13 15 k15" \
	    "16 k16 17 k17 21 k21 22 k22 23 k23 24 k24 30 k30 31 k31" \
	    "32 k32 40 k40 41 k41 42 k42 43 k43 44 k44 45 k45 46 k46" \
	    "47 k47 48 k48"
	echo "ZADD ${Q}joins 13 \"$A 600 20\" 14 \"$X 9999 1\" 17 $B" \
	    "22 \"$C 30 10\" 30 \"$D 70 2\" 31 \"$E 14 100\" 32 \"$F 7 0\"" \
	    "43 \"$G 4 4\" 44 \"$H 0 5\""
	echo "HSET ${Q}stats w7 5 e13 1 w_sum 1000 w_max 50000 e_max 1000" \
	    "eta_errs \"5 -7 12\" eta_errs_n 3"
} | rcli >"$WR_TMP/hand.out"
check_eq "$(grep -c ERR "$WR_TMP/hand.out")" 0 "hand: the line is written"
reply=$(tick hand)
T1=$(redis_ms)
check_eq "$(sed -n 3p <<<"$reply")" 21 "hand: the tick admits the batch of 21"
admitted_at hand
d=$((t - T0))
[ "$d" -lt 3000 ] || bail "hand: the run follows the layout within 3 s" \
    "it took $d ms"

# rel ETA WAIT: the ETA's own error (thousandths) of one told ETA s who
# waited WAIT ms, as eta_errs keeps it (both counted from the mark plus
# half a second, truncated).
rel() {
	awk -v eta="$1" -v ms="$2" \
	    'BEGIN { printf "%d\n", int(((eta * 1000 + 500) / (ms + 500) - 1) * 1000) }'
}

got hand
row GOT w
check_eq "$ROW" "7 - - 1 1 3 2 9 - 3 - - - - - -" \
    "hand: w0..w15: 7 of 0 s, 1 of 5 s, 1 of 10 s, 3 of 20 s, 2 of 60 s, 5+4 of 100 s, 3 of 300 s"
row GOT e
check_eq "$ROW" "- - - - 2 - - 1 1 4 2 1 1 3 - -" \
    "hand: e0..e15: runs split over e12, e13; e10, e11; e8, e9 (on the bounds)"
check_eq "${GOT[w_sum]}" \
    "$((1000 + (t - OPEN * 1000) + 3 * (t - A) + 3 * (t - B) + 2 * (t - C) +
	3 * (t - D) + (t - E) + (t - F)))" \
    "hand: w_sum adds each admitted's wait, the drawn one's from the opening"
check_eq "${GOT[w_max]}" "$((t - A))" "hand: w_max, the 300 s run's"
check_eq "${GOT[e_max]}" "$((600000 - (t - A)))" \
    "hand: e_max, ticket 13's error (ms)"
check_eq "${GOT[eta_errs]}" "5 -7 12 $(rel 540 $((t - A))) \
$(rel 570 $((t - A))) $(rel 600 $((t - A))) $(rel 27 $((t - C))) \
$(rel 30 $((t - C))) $(rel 35 $((t - D))) $(rel 35 $((t - D))) \
$(rel 70 $((t - D))) $(rel 14 $((t - E)))" \
    "hand: eta_errs: the 3 before, then the 9 who waited 2 s or more, in order"
check_eq "${GOT[eta_errs_n]}" 12 "hand: eta_errs_n: 3 + 9"
check_eq "${GOT[waits]}" "$t $((t - OPEN * 1000)) 0 21" \
    "hand: :waits: the run's time, the drawn one's wait, the last's (0), 21"
check_eq "$(rcli ZRANGE "${Q}waiting" 0 -1)" "k47
k48" "hand: 47 and 48 stay in line"

# ---- random lines -------------------------------------------------------

diag "count_waits.py's seed: $SEED (CW_SEED)"

# random_case Q: lay out queue Q's line from the seed, run the tick, and
# hold every figure to count_waits.py's (WANT, its cover_* lines too).
random_case() {
	local q=$1 want
	T0=$(redis_ms)
	python3 "$ORACLE" layout "$q" "$SEED" "$T0" "$WR_TMP/$q" ||
	    bail "$q: count_waits.py lays out the line"
	check_match "$(rcli --pipe <"$WR_TMP/$q.resp")" 'errors: 0,' \
	    "$q: the line is written"
	tick "$q" >/dev/null
	T1=$(redis_ms)
	admitted_at "$q"
	want=$(python3 "$ORACLE" expect "$WR_TMP/$q.json" "$t") ||
	    bail "$q: count_waits.py works out the figures"
	load WANT "$want"
	got "$q"
	compare "$q"
}

# at_least NAME N DESC: the line's cover_NAME is N or more.
at_least() {
	local n
	n=${WANT[cover_$1]}
	check "$3 ($1: $n, at least $2)" [ "$n" -ge "$2" ]
}

random_case big
at_least runs_of_3 50 "big: many runs of 3 or more admitted share a mark"
at_least longest_run 100 "big: ... one of 100 or more"
at_least runs_split 10 "big: runs whose errors fall in two buckets or more"
at_least e_buckets 14 "big: errors in most of e0..e15"
at_least w_buckets 15 "big: waits in most of w0..w15"
at_least errs 201 "big: more errors than eta_errs keeps"
at_least plain 100 "big: admitted under marks with no ETA"
at_least clamped 100 "big: admitted more places ahead than the ETA's told"
at_least nomark 25 "big: admitted with no mark above"
at_least drawn 3 "big: drawn entrants, waiting from the opening"

random_case mid
at_least errs 1 "mid: some errors"
check "mid: ... fewer than 200, so some of the 180 before stay \
(${WANT[cover_errs]} new, ${WANT[cover_errs_old_kept]} kept)" \
    [ "${WANT[cover_errs_old_kept]}" -ge 1 ]
at_least runs_of_3 30 "mid: runs of 3 or more admitted share a mark"
at_least marks_above 1 "mid: marks above the batch's last ticket, which its run reads"
