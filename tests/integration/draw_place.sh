#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# draw_place.sh: draw_step.lua's 'place', run against a real Redis as the
# daemon runs it (lib.lua in front of draw_step.lua), with the daemon
# stopped so that only this test drives the draw. Entrants handed over in
# the drawn order get the next places and their tickets the order's next
# piece; one that left since it was read, and one handed over twice (two
# instances, one of them slow), get no place and no line, and the places
# after them close up, so the places and the order still match exactly.
# The pairs come in another order than the drawn one, as the daemon sends
# them, and the places still follow the drawn order; a daemon whose count
# of places is behind Redis's still places at the next ones, and so does
# a step sent ahead of the answer to one that closed up. A piece that
# does not fit the tokens is refused and changes nothing, and so is a
# step sent behind one that failed (its count of entrants handed over is
# not the draw's), and the 'placed' that would end the walk after it.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$WR_TMP/place.conf" <<'EOF'
[queue d]
mode        = rate
state       = paused
waiting_ttl = 86400
opens_at    = 2099-01-01T00:00:00Z
EOF

start_redis
start_waitroomd "$WR_TMP/place.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"
wait_until '[ -n "$(rcli HGET "wr:{d}:draw" commit)" ]' 10 ||
	bail "the daemon wrote the draw's commitment" "$(wr_last)"
stop_waitroomd

# draw_step.lua whole, as the daemon loads it (the build's src/store/loaded/).
SCRIPT=$(cat "$TOP_BUILDDIR/src/store/loaded/draw_step.lua")
DRAWN=-2251799813685248
PRE=-1125899906842624

# Six pre-queue entrants e1..e6 at PRE + 1..6, as join.lua leaves them.
for i in 1 2 3 4 5 6; do
	rcli ZADD 'wr:{d}:waiting' $((PRE + i)) "e$i" >/dev/null
done
# The opening, now; by hand, so the version moves too.
rcli HSET 'wr:{d}:config' opens_at "$(($(date +%s) - 1))" >/dev/null
rcli HINCRBY 'wr:{d}:config' ver 1 >/dev/null

# step OP OPERAND MEMBER...: one run of draw_step.lua as instance "me".
step() {
	local keys
	mapfile -t keys < <(queue_keys d draw draw:sorted draw:order draw:lock)
	rcli EVAL "$SCRIPT" "${#keys[@]}" "${keys[@]}" me 5000 100 "$@"
}

# ticket TOKEN: its ticket, as the order writes it (doc/api.md).
ticket() {
	printf '%s' "$1" | sha256sum | cut -c1-32
}

# place_args [-b BEHIND] [-c COUNT] TOKEN...: the arguments of a 'place'
# of these entrants in this drawn order, as the daemon sends it: base and
# count, their tickets as the piece, then a score, token pair for each,
# base + its place in the step, the pairs in the reverse order (the
# daemon sends them in the order they were read), each ended by a NUL. base is
# the last place's score, BEHIND places lower than Redis's (a daemon
# whose count is behind, or ahead when negative); count is the entrants
# handed over since the read, as the draw counts them unless COUNT.
place_args() {
	local piece='' t i=0 behind=0 base count pairs=()
	count=$(rcli HGET 'wr:{d}:draw' handed)
	while [ "$1" = -b ] || [ "$1" = -c ]; do
		case $1 in
		-b) behind=$2 ;;
		-c) count=$2 ;;
		esac
		shift 2
	done
	base=$((DRAWN + $(rcli HGET 'wr:{d}:draw' placed) - behind))
	for t in "$@"; do
		piece+="$(ticket "$t")"$'\n'
		i=$((i + 1))
		pairs=("$((base + i))" "$t" "${pairs[@]}")
	done
	printf '%s\0' place "$base $count" "$piece" "${pairs[@]}"
}

# place [-b BEHIND] [-c COUNT] TOKEN...: that 'place', run.
place() {
	local args
	mapfile -d '' -t args < <(place_args "$@")
	step "${args[@]}"
}

# at TOKEN: its place (score - DRAWN), or its score when it is not drawn.
at() {
	local s
	s=$(rcli ZSCORE 'wr:{d}:waiting' "$1")
	if [ -n "$s" ] && [ "${s%%.*}" -lt $((PRE)) ]; then
		echo $((${s%%.*} - DRAWN))
	else
		echo "${s:-none}"
	fi
}

out=$(step go '' | head -n 1)
check_eq "$out" hash "the first step reads the undrawn entrants"
check_eq "$(rcli HGET 'wr:{d}:draw' handed)" 0 \
    "... and the draw counts none handed over since"

out=$(place e3 e1 e5)
check_eq "$(sed -n 1p <<<"$out")" more "three handed over: placed"
check_eq "$(at e3) $(at e1) $(at e5)" "1 2 3" \
    "... at places 1, 2, 3 in the order handed over"
check_eq "$(rcli HGET 'wr:{d}:draw' placed)" 3 "... and the draw counts 3"
check_eq "$(rcli LINDEX 'wr:{d}:draw:order' 0)" \
    "$(printf '%s\n%s\n%s' "$(ticket e3)" "$(ticket e1)" "$(ticket e5)")" \
    "... and the order's first piece holds their tickets, one a line"

rcli ZREM 'wr:{d}:waiting' e2 >/dev/null	# e2 leaves after it was read
out=$(place e2 e4 e1 e6)
check_eq "$(at e4) $(at e6)" "4 5" \
    "one that left and one placed before are skipped: the next get 4, 5"
check_eq "$(at e1)" 2 "... the one placed before keeps its place"
check_eq "$(at e2)" none "... the one that left is not added back"
check_eq "$(rcli HGET 'wr:{d}:draw' placed)" 5 "... and the draw counts 5"
check_eq "$(rcli LINDEX 'wr:{d}:draw:order' 1)" \
    "$(printf '%s\n%s' "$(ticket e4)" "$(ticket e6)")" \
    "... and the piece holds only the two placed"
check_eq "$(tail -n 2 <<<"$out" | head -n 1)" 1 "... the piece's index in the order"

out=$(place e4 e6)
check_eq "$(tail -n 2 <<<"$out" | head -n 1)" -1 \
    "entrants handed over twice: no piece is added"
check_eq "$(at e4) $(at e6) $(rcli HGET 'wr:{d}:draw' placed)" "4 5 5" \
    "... and nothing moves"
check_eq "$(rcli LLEN 'wr:{d}:draw:order')" 2 "... the order keeps 2 pieces"

rcli ZADD 'wr:{d}:waiting' $((PRE + 7)) e7 >/dev/null
before=$(rcli DUMP 'wr:{d}:waiting' | od -c | md5sum)
base=$((DRAWN + 5))
out=$(step place "$base $(rcli HGET 'wr:{d}:draw' handed)" "$(ticket e7)" $((base + 1)) e7 $((base + 2)) e6 2>&1)
check_match "$out" 'a piece of 32 bytes for 4 members' \
    "a piece that does not fit the tokens is refused"
check_eq "$(rcli DUMP 'wr:{d}:waiting' | od -c | md5sum)" "$before" \
    "... and changes no place"
check_eq "$(rcli HGET 'wr:{d}:draw' placed)" 5 "... nor the count"

rcli ZADD 'wr:{d}:waiting' $((PRE + 8)) e8 >/dev/null
out=$(place -b 3 e8 e7)
check_eq "$(at e8) $(at e7)" "6 7" \
    "a daemon whose count is behind: its entrants still get the next places"
check_eq "$(tail -n 1 <<<"$out")" $((DRAWN + 7)) \
    "... and the reply says the last place's score, to count from"

# Two steps sent at once, the second counted as if the first placed all
# it handed over: e90 is not in line, so the first closes up.
for i in 9 10 11; do
	rcli ZADD 'wr:{d}:waiting' $((PRE + i)) "e$i" >/dev/null
done
handed=$(rcli HGET 'wr:{d}:draw' handed)
mapfile -d '' -t ahead < <(place_args -b -2 -c $((handed + 2)) e10 e11)
place e9 e90 >/dev/null
out=$(step "${ahead[@]}")
check_eq "$(at e9) $(at e10) $(at e11)" "8 9 10" \
    "a step sent before the answer to one that closed up: the next places"
check_eq "$(rcli HGET 'wr:{d}:draw' placed) $(rcli HGET 'wr:{d}:draw' handed)" \
    "10 $((handed + 4))" "... the draw counts 10 placed, 4 more handed over"

rcli ZADD 'wr:{d}:waiting' $((PRE + 12)) e12 >/dev/null
before=$(rcli DUMP 'wr:{d}:waiting' | od -c | md5sum)
handed=$(rcli HGET 'wr:{d}:draw' handed)
out=$(place -c $((handed + 5)) e12 2>&1)
check_match "$out" 'out of step' \
    "a step sent behind one of 5 that failed is refused"
check_eq "$(rcli DUMP 'wr:{d}:waiting' | od -c | md5sum)" "$before" \
    "... and changes no place"
check_eq "$(rcli HGET 'wr:{d}:draw' placed) $(rcli LLEN 'wr:{d}:draw:order')" \
    "10 5" "... nor the count, nor the order"

out=$(step placed $((handed + 5)) 2>&1)
check_match "$out" 'out of step' "... and so is the 'placed' after it"
check_eq "$(rcli HGET 'wr:{d}:draw' phase)" walk "... and the walk goes on"
out=$(step placed "$handed" | head -n 1)
check_eq "$out" sum "'placed' with the draw's count ends the walk"
