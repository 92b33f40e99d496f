#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs are quoted
#
# concurrency.sh: many clients at once. 1,000 concurrent joins get 1,000
# distinct tokens at positions exactly 1..1000; concurrent joins of one user
# get one place; concurrent leaves close the gaps in order. The queues are
# paused, so nobody is admitted while the test runs.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

N=1000		# joins
WR_MANY_PAR=100	# connections at once

conf=$WR_TMP/concurrency.conf
cat >"$conf" <<'EOF'
[queue crowd]
mode        = rate
state       = paused
waiting_ttl = 3600

[queue same]
mode        = rate
state       = paused
waiting_ttl = 3600
EOF

start_redis
start_waitroomd "$conf" --log-level info
wait_ready || bail "the daemon is ready" "$(wr_last)"

# table NAME COUNT: "i token position ahead waiting" for the answers of a
# many() run, by i; "null" for what an answer lacks.
table() {
	local i body f
	for ((i = 1; i <= $2; i++)); do
		f=$WR_TMP/$1/$i.json
		body=
		[ -f "$f" ] && IFS= read -r -d '' body <"$f"
		printf '%s\n' "${body//$'\n'/ }"
	done | jq -R -r '(fromjson? // {}) as $j |
	    [$j.token, $j.position, $j.ahead, $j.waiting] |
	    map(tostring) | join(" ")' | awk '{ print NR, $0 }'
}

# ---- 1,000 joins at once --------------------------------------------------------

start=$(now_ms)
many POST joins "$N" /v1/queues/crowd/tokens
took=$(($(now_ms) - start))
diag "$N joins with $WR_MANY_PAR connections took $took ms"
check_eq "$(count_codes joins 201)" "$N" "$N concurrent joins all get 201"
[ "$(count_codes joins 201)" = "$N" ] ||
    diag "codes: $(sort "$WR_TMP/joins.codes" | uniq -c | tr '\n' ' ')" \
	"curl: $(head -c 500 "$WR_TMP/joins.err")"

table joins "$N" >"$WR_TMP/joins.table"
tokens_ok=$(awk '{ print $2 }' "$WR_TMP/joins.table" | grep -cE "$UUID4_RE")
check_eq "$tokens_ok" "$N" "every answer holds a v4 UUID token"
distinct=$(awk '{ print $2 }' "$WR_TMP/joins.table" | sort -u | grep -c .)
check_eq "$distinct" "$N" "$N distinct tokens"
positions=$(awk '{ print $3 }' "$WR_TMP/joins.table" | sort -n | tr '\n' ' ')
check_eq "$positions" "$(seq 1 "$N" | tr '\n' ' ')" \
    "positions are exactly 1..$N: no gap, no duplicate"
bad_ahead=$(awk '$4 != $3 - 1' "$WR_TMP/joins.table" | grep -c .)
check_eq "$bad_ahead" 0 "ahead is position - 1 in every answer"
bad_waiting=$(awk '$5 < $3 || $5 > '"$N" "$WR_TMP/joins.table" | grep -c .)
check_eq "$bad_waiting" 0 "waiting is between position and $N in every answer"
check_waiting crowd "$N" "the summary says $N waiting"

# ---- everyone asks where they are, at once --------------------------------------

awk '{ print $2 }' "$WR_TMP/joins.table" >"$WR_TMP/status.paths"
many GET status "$N" /v1/queues/crowd/tokens/
check_eq "$(count_codes status 200)" "$N" "$N concurrent status requests all get 200"
table status "$N" >"$WR_TMP/status.table"
# Each status request i asked for the token of join i.
mismatch=$(paste -d ' ' "$WR_TMP/joins.table" "$WR_TMP/status.table" |
    awk '$2 != $7 || $3 != $8 || $10 != '"$N" | grep -c .)
check_eq "$mismatch" 0 "each token's status gives its join position, waiting $N"

# ---- half of them leave at once ------------------------------------------------------

# Those at odd positions leave; those at even positions 2k move to k.
sort -n -k 3 "$WR_TMP/joins.table" | awk 'NR % 2 == 1 { print $2 }' \
    >"$WR_TMP/leave.paths"
sort -n -k 3 "$WR_TMP/joins.table" | awk 'NR % 2 == 0 { print $2, $3 / 2 }' \
    >"$WR_TMP/stay.expect"
half=$((N / 2))
many DELETE leave "$half" /v1/queues/crowd/tokens/
check_eq "$(count_codes leave 204)" "$half" "$half concurrent leaves all get 204"
check_waiting crowd "$half" "the summary says $half waiting"

awk '{ print $1 }' "$WR_TMP/stay.expect" >"$WR_TMP/stay.paths"
many GET stay "$half" /v1/queues/crowd/tokens/
table stay "$half" >"$WR_TMP/stay.table"
mismatch=$(paste -d ' ' "$WR_TMP/stay.expect" "$WR_TMP/stay.table" |
    awk '$1 != $4 || $2 != $5 || $7 != '"$half" | grep -c .)
check_eq "$mismatch" 0 "the rest close up in order: position 2k becomes k"

# ---- one user, 100 joins at once ---------------------------------------------------

many POST same 100 /v1/queues/same/tokens \
    -H 'Content-Type: application/json' --data-binary '{"user":"one-user"}'
check_eq "$(count_codes same 201)" 1 "100 concurrent joins of one user: one 201"
check_eq "$(count_codes same 200)" 99 "... and 99 answers 200"
same_tokens=$(jq -r .token "$WR_TMP"/same/*.json 2>/dev/null | sort -u | grep -c .)
check_eq "$same_tokens" 1 "... all with the same token"
check_waiting same 1 "... and one place in the line"

# The daemon survived all that.
http GET /healthz
check_status 200 "the daemon still serves"
