#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# join_guard.sh: join.lua's use keys, run against a real Redis as the
# daemon runs it (lib.lua in front of join.lua): a join carrying a use key
# is refused ('used') once the key has counted its limit, even when its
# user holds a place; a join answered with a place (new or the user's own)
# counts one use, at once (a second join in the same run sees it), and the
# key expires when the join said; any other answer counts none, and a run
# of refusals writes nothing.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/guard.conf" <<'EOF2'
[queue q]
mode        = rate
state       = paused
waiting_ttl = 600

[queue shut]
mode  = rate
state = closed
EOF2

start_redis
start_waitroomd "$WR_TMP/guard.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# join.lua whole, as the daemon loads it (the build's src/store/loaded/).
SCRIPT=$(cat "$TOP_BUILDDIR/src/store/loaded/join.lua")

# run Q USERS GUARDS TOKEN...: one run of join.lua for the joins TOKEN...
# of queue Q, its KEYS and ARGV as join.lua's header names them. USERS is
# "J:USER ..." (join J gives USER), GUARDS is "J:ID:LIMIT:EXPIRES_MS ..."
# (join J carries use key pow:ID, of kind pow). Prints the joins'
# entries, one a line (the head left out).
run() {
	local q=$1 users=$2 guards=$3 keys=() args=() nums=() u g
	local js=() kinds=() limits=() exps=()
	shift 3
	mapfile -t keys < <(queue_keys "$q")
	for u in $users; do
		keys+=("wr:{$q}:user:${u#*:}")
		nums+=("${u%%:*}")
	done
	for g in $guards; do
		IFS=: read -r j id limit exp <<<"$g"
		keys+=("wr:{$q}:used:pow:$id")
		js+=("$j") kinds+=(pow) limits+=("$limit") exps+=("$exp")
	done
	# no held facts (0 0 0): each run reads the whole configuration
	args=(86400 "${#nums[@]}" "${#js[@]}" 0 0 0 "${nums[@]}" "${js[@]}"
	    "${kinds[@]}" "${limits[@]}" "${exps[@]}" "$@")
	rcli EVAL "$SCRIPT" "${#keys[@]}" "${keys[@]}" "${args[@]}" |
	    tail -n "$#"
}

# line Q: the tokens waiting in Q, in order, on one line.
line() {
	rcli ZRANGE "wr:{$1}:waiting" 0 -1 | tr '\n' ' '
}

exp=$(($(date +%s) * 1000 + 60000))

# ---- a use key of limit 1 -------------------------------------------------

out=$(run q "" "1:c1:1:$exp" t1)
check_eq "$out" new "a join with a fresh use key takes a place"
check_eq "$(rcli GET 'wr:{q}:used:pow:c1')" 1 "... and counts one use"
pexp=$(rcli PEXPIRETIME 'wr:{q}:used:pow:c1')
check_eq "$pexp" "$exp" "... in a key that expires when the join said"

before=$(line q)
seq=$(rcli GET 'wr:{q}:seq')
out=$(run q "" "1:c1:1:$exp" t2)
check_eq "$out" used "the same key again is refused: 'used'"
check_eq "$(line q)" "$before" "... and takes no place"
check_eq "$(rcli GET 'wr:{q}:used:pow:c1')" 1 "... counts no use"
check_eq "$(rcli GET 'wr:{q}:seq')" "$seq" "... and writes no sequence"

# ---- within one run ---------------------------------------------------------

out=$(run q "" "1:c2:2:$exp 2:c2:2:$exp 3:c2:2:$exp 4:c3:1:$exp" t3 t4 t5 t6 t7)
check_eq "${out//$'\n'/ }" "new new used new new" \
    "joins in one run see the uses counted before them (limit 2)"
check_eq "$(rcli GET 'wr:{q}:used:pow:c2')" 2 "... which the key counts"
check_eq "$(line q)" "${before}t3 t4 t6 t7 " \
    "... and the refused one took no place, the others in their order"

# ---- a user who holds a place -------------------------------------------

out=$(run q "1:ann" "" t8)
check_eq "$out" new "ann takes a place"
out=$(run q "1:ann" "1:c1:1:$exp" t9)
check_eq "$out" used "ann with a used key is refused, though she holds a place"
out=$(run q "1:ann" "1:c4:1:$exp" t10)
check_match "$out" '^existing t8 waiting [0-9]+ [0-9]+$' \
    "ann with a fresh key gets her own place"
check_eq "$(rcli GET 'wr:{q}:used:pow:c4')" 1 "... and that counts a use"
out=$(run q "1:ann" "1:c4:1:$exp" t11)
check_eq "$out" used "... so the key cannot bring her back again"

# ---- answers without a place count nothing -------------------------------

out=$(run shut "" "1:c5:1:$exp" t12)
check_eq "$out" closed "a closed queue refuses the join"
check_eq "$(rcli EXISTS 'wr:{shut}:used:pow:c5')" 0 "... and counts no use"
out=$(run nosuch "" "1:c6:1:$exp" t13)
check_eq "$out" no_queue "no queue: no_queue"
check_eq "$(rcli EXISTS 'wr:{nosuch}:used:pow:c6')" 0 "... and no use"

# ---- a run of refusals writes nothing ---------------------------------------

s1=$(snap)
out=$(run q "2:ann" "1:c1:1:$exp 2:c2:2:$exp" t14 t15)
check_eq "${out//$'\n'/ }" "used used" "two refusals in one run"
check_lines "$(snap)" "$s1" "... change nothing in Redis" "Redis now"

# ---- the daemon's own joins still work ------------------------------------

http POST /v1/queues/q/tokens '{"user":"bob"}'
check_status 201 "a join through the API (no use key) takes a place"

stop_waitroomd
