#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# report.sh: a small sale against a real daemon and Redis, then its report
# (GET /v1/admin/queues/{q}/report and .../report.csv, doc/api.md "The
# report"). An early bird and eleven more join a rate queue that admits
# one every 2 s: two leave, one is kicked, three stop asking and are
# dropped after waiting_ttl, the early bird and five are admitted; the
# five show their passes to /v1/check at once, the early bird never does
# and is a no-show (noshow_after = 3). The report's totals are exactly
# that, its minutes
# (the live one included) add up to them, the CSV says the same numbers,
# the wait histogram's p50 lies within a bucket of the waits this test
# measured, and each who joined a line has the error of the ETA it was
# told. A queue with no history
# reports nothing; a missing queue, a bad time, from after to are clear
# 4xx and change nothing in Redis. waitroomctl report prints the same.
# Last, the minute's row: the test waits
# (at most a minute) for the first minute of the sale to end, and the
# report then holds it as a finished minute with the same sums.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "${WAITROOMCTL:-}" ] ||
    bail "WAITROOMCTL is set to an executable" "WAITROOMCTL='${WAITROOMCTL:-}'"

wr_admin_conf "$WR_TMP/report.conf"
printf 'k1 report-pass-key-0123456789abcdefghij\n' >"$WR_TMP/keys"
cat >>"$WR_TMP/report.conf" <<EOF2
pass_key_file = $WR_TMP/keys
pass_cookie_secure = no

[queue sale]
mode         = rate
batch        = 1
interval     = 2
waiting_ttl  = 5
noshow_after = 3

[queue quiet]
mode        = rate
batch       = 1
EOF2

start_redis
start_waitroomd "$WR_TMP/report.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- the sale ---------------------------------------------------------------

# An early bird is admitted at once (the queue's first tick): the next
# admission is then 2 s away, and each of the eleven has a join mark
# (room_beat.lua, one a second) by the time it is admitted.
join sale
[ "$STATUS" = 201 ] || bail "the early bird joins" "$(wr_last)"
bird=$TOKEN
wait_until 'http GET "/v1/queues/sale/tokens/$bird"; [ "$(json .status)" = active ]' \
    $((5 * WR_SLOW))
check_json .status active "the early bird is admitted at once"

declare -A joined_at admitted_at
tokens=()
for ((i = 0; i < 11; i++)); do
	join sale
	[ "$STATUS" = 201 ] || bail "join $i takes a place" "$(wr_last)"
	tokens+=("$TOKEN")
	joined_at[$TOKEN]=$(now_ms)
done
pass "eleven join the sale"
# The peaks are sampled once a second (room_beat.lua): the leaves below
# wait for a sample of the full line, which a fast run of joins could
# otherwise fall between.
wait_until 'admin GET /v1/admin/queues/sale/report
	[ "$(json .totals.peak_waiting)" -ge 8 ] 2>/dev/null' $((5 * WR_SLOW)) ||
    diag "no sample of 8 or more waiting yet: $(json .totals.peak_waiting)"
stay=("${tokens[@]:0:5}")
quiet=("${tokens[@]:5:3}")
http DELETE "/v1/queues/sale/tokens/${tokens[9]}"
check_status 204 "the tenth leaves"
http DELETE "/v1/queues/sale/tokens/${tokens[10]}"
check_status 204 "the eleventh leaves"
admin DELETE "/v1/admin/queues/sale/tokens/${tokens[8]}"
check_status 204 "the ninth is kicked"

# The first five ask every 0.2 s until each is admitted (the time this
# test sees), and show their pass to /v1/check at once, as the site
# would; the three behind them never ask again.
checked=0
sale_done() {
	local t p
	for t in "${stay[@]}"; do
		[ -n "${admitted_at[$t]-}" ] && continue
		http GET "/v1/queues/sale/tokens/$t"
		[ "$(json .status)" = active ] || continue
		admitted_at[$t]=$(now_ms)
		p=$(json .pass)
		http GET "/v1/check?queue=sale" '' -H "Authorization: Bearer $p"
		[ "$STATUS" = 204 ] && checked=$((checked + 1))
	done
	[ "${#admitted_at[@]}" = 5 ] &&
	    [ "$(rcli zcard 'wr:{sale}:waiting')" = 0 ]
}
wait_until 'sale_done || { sleep 0.15; false; }' $((30 * WR_SLOW))
check_eq "${#admitted_at[@]}:$(rcli zcard 'wr:{sale}:waiting')" 5:0 \
    "the five who kept asking are admitted, the three who did not dropped"
check_eq "$checked" 5 "each of the five shows a valid pass to /v1/check"
# the early bird, admitted first, never checked: a no-show 3 s after
wait_until '[ "$(rcli hget "wr:{sale}:stats" noshows)" = 1 ]' $((5 * WR_SLOW))

waits=()
for t in "${stay[@]}"; do
	waits+=($(((admitted_at[$t] - joined_at[$t]))))
done
median_ms=$(printf '%s\n' "${waits[@]}" | sort -n | sed -n 3p)
diag "waits seen by the test (ms): ${waits[*]}; median $median_ms"

# ---- the report ---------------------------------------------------------------

# What follows compares reports fetched seconds apart (the JSON, the CSV,
# waitroomctl's), so it runs inside one minute: a minute's row is written
# in the first second of the next (room_beat.lua), and until then the
# live row holds the two minutes' counters without the first's peaks.
# The row is written by the minute's first sample (wr:room:second holds
# the last second sampled), which a slow process (ASan, a loaded
# machine) can take more than a few seconds to write: wait for it too.
sec_of_minute() { echo $(($(date +%s) % 60)); }
sampled_this_minute() {
	[ $(($(rcli get wr:room:second) / 60)) -eq $(($(date +%s) / 60)) ]
}
wait_until '[ "$(sec_of_minute)" -ge 3 ] && [ "$(sec_of_minute)" -le 45 ] &&
    sampled_this_minute' 20
one_minute_from=$(now_ms)

admin GET /v1/admin/queues/sale/report
check_status 200 "GET .../sale/report answers 200"
check_jq '.queue == "sale" and (.from | type == "number") and
    (.to | type == "number") and .from < .to and .draw == null' \
    "the report names its queue and its range; no draw"
check_jq '.totals | .joined == 12 and .admitted == 6 and .left == 2 and
    .kicked == 1 and .abandoned == 3 and .expired == 0 and .noshows == 1' \
    "the totals are what the sale did: 12 joined, 6 admitted, 2 left, 1 kicked, 3 abandoned, 1 no-show"
check_jq '.totals | .peak_waiting >= 8 and .peak_active == 6' \
    "the peaks: at least 8 waiting at once, 6 active"
check_jq '[.minutes[] | select(.live)] | length == 1' \
    "the minute in progress is there, marked live"
check_jq '. as $r | all(["joined", "admitted", "left", "kicked",
    "abandoned", "expired", "noshows"][]; . as $k | ([$r.minutes[][$k]] | add) ==
    $r.totals[$k])' "the minutes add up to the totals"
check_jq '.wait.count == 6 and .eta_error.count >= 5 and
    .eta_error.count <= 6' \
    "six times in line counted, and the ETA's error of the five who joined a line"
check_jq '.wait.max != null and .wait.max * 1000 <= '"$(printf '%s\n' "${waits[@]}" | sort -n | tail -n 1)"' + 250' \
    "the longest wait is no longer than the longest the test saw"
p50=$(json .wait.p50)
# bucket_of S: the wait bucket (log2, 1 s first) of S seconds
bucket_of() {
	awk -v s="$1" 'BEGIN { b = 0; le = 1
		while (s > le && b < 15) { b++; le *= 2 }
		print b }'
}
got=$(bucket_of "$p50") want=$(bucket_of "$(awk -v m="$median_ms" 'BEGIN { print m / 1000 }')")
check_eq "$(((got - want) * (got - want) <= 1))" 1 \
    "the p50 of the wait histogram ($p50 s, bucket $got) lies within a bucket of the median the test saw ($median_ms ms, bucket $want)"
json_report=$BODY

admin GET /v1/admin/queues/sale/report.csv
check_status 200 "GET .../sale/report.csv answers 200"
check_header_match Content-Type '^text/csv' "the CSV is text/csv"
csv=$BODY
check_eq "$(head -n 1 <<<"$csv")" \
    "t,joined,admitted,abandoned,left,expired,kicked,noshows,refused_work,refused_invitation,refused_rate,refused_origin,peak_waiting,peak_active,peak_streams,peak_prequeue,wait_max_ms,live" \
    "the CSV's header names its columns"
sums=$(awk -F, 'NR > 1 { for (i = 2; i <= 8; i++) s[i] += $i }
    END { printf "%d %d %d %d %d %d %d", s[2], s[3], s[4], s[5], s[6], s[7], s[8] }' <<<"$csv")
check_eq "$sums" "$(jq -r '.totals | "\(.joined) \(.admitted) \(.abandoned) \(.left) \(.expired) \(.kicked) \(.noshows)"' <<<"$json_report")" \
    "the CSV's columns add up to the JSON's totals"
check_eq "$(($(wc -l <<<"$csv") - 1))" "$(jq '.minutes | length' <<<"$json_report")" \
    "the CSV has a line per minute of the JSON"

# ---- /metrics: the same histogram --------------------------------------------

http GET /metrics
check_contains "$BODY" 'waitroom_queue_wait_seconds_count{queue="sale"} 6' \
    "/metrics: waitroom_queue_wait_seconds counts the six admitted"
check_contains "$BODY" 'waitroom_queue_wait_seconds_bucket{queue="sale",le="+Inf"} 6' \
    "... its +Inf bucket holds them all"
for le in 1 2 4 8 16; do
	got=$(awk -v m="waitroom_queue_wait_seconds_bucket{queue=\"sale\",le=\"$le\"}" \
	    '$1 == m { print $2 }' <<<"$BODY")
	want=$(jq --argjson le "$le" '[.wait.buckets[] | select(.le != "+Inf" and
	    .le <= $le) | .count] | add' <<<"$json_report")
	[ "$got" = "$want" ] || break
done
check_eq "$got" "$want" "... and each bucket as many as the report's, cumulated"
check_match "$BODY" 'waitroom_queue_eta_new_seconds\{queue="sale"\} [0-9]+' \
    "/metrics: the ETA last told a new visitor of sale"

# ---- waitroomctl report --------------------------------------------------------

ctl() {
	WAITROOM_ADMIN_TOKEN=$ADMIN_TOKEN "$WAITROOMCTL" --url "$WR_BASE" "$@"
}
out=$(ctl report sale 2>&1)
check_eq "$?" 0 "waitroomctl report sale exits 0"
check_contains "$out" "joined 12, admitted 6, abandoned 3, left 2, expired 0, kicked 1" \
    "waitroomctl report prints the totals"
check_match "$out" $'time in line \\(s\\): p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, max [0-9.]+ \\(6 counted\\)' \
    "... the time in line"
check_match "$out" $'MINUTE \\(UTC\\) +JOINED.*\n([0-9T:-]+Z( +[0-9]+){11} +[0-9.-]+\n)*[0-9T:-]+Z( +[0-9]+){11} +[0-9.-]+  \\(so far\\)' \
    "... and a line per minute, the one in progress last, so far"
check_eq "$(ctl report sale --csv)" "$csv" "waitroomctl report --csv prints the server's CSV"
check_eq "$(ctl report sale --json | jq -c .totals)" \
    "$(jq -c .totals <<<"$json_report")" "waitroomctl report --json prints the server's JSON"
diag "the reports compared were fetched within $(($(now_ms) - one_minute_from)) ms (at most 15 s fit in the minute)"
ctl report sale --from yesterday >"$WR_TMP/ctl.out" 2>&1
check_eq "$?" 1 "waitroomctl report --from yesterday exits 1 (refused)"
check_contains "$(cat "$WR_TMP/ctl.out")" "from" "... naming from"
ctl report nosuch >/dev/null 2>&1
check_eq "$?" 5 "waitroomctl report of no queue exits 5"
out=$(ctl report sale --from "$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)" --to "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%S+00:00)" --json)
check_eq "$(jq .totals.joined <<<"$out")" 12 \
    "--from and --to in RFC 3339 (one with +00:00) reach the server whole"

# ---- what is refused, and changes nothing -----------------------------------

before=$(snap)
admin GET /v1/admin/queues/quiet/report
check_status 200 "a queue with no history: 200"
check_jq '.minutes == [] and .totals.joined == 0 and .wait.count == 0 and
    .wait.p50 == null' "no minutes, zero totals, no percentiles"
admin GET /v1/admin/queues/nosuch/report
check_error 404 queue_not_found "no such queue: 404 queue_not_found"
admin GET /v1/admin/queues/nosuch/report.csv
check_error 404 queue_not_found "no such queue, CSV: 404 queue_not_found"
admin GET '/v1/admin/queues/sale/report?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z'
check_error 400 bad_request "from after to: 400 bad_request"
check_contains "$(json .error.message)" "from" "the message names from"
admin GET '/v1/admin/queues/sale/report?from=yesterday'
check_error 400 bad_request "a malformed from: 400 bad_request"
check_contains "$(json .error.message)" "from" "the message names from"
admin GET '/v1/admin/queues/sale/report.csv?to=12:00'
check_error 400 bad_request "a malformed to: 400 bad_request"
check_contains "$(json .error.message)" "to" "the message names to"
admin GET '/v1/admin/queues/sale/report?since=0'
check_error 400 bad_request "an unknown parameter: 400 bad_request"
http GET /v1/admin/queues/sale/report
check_error 401 unauthorized "without the admin token: 401"
check_eq "$(snap)" "$before" "none of these changed anything in Redis"

admin GET "/v1/admin/queues/sale/report?from=0&to=$(($(date +%s) - 7200))"
check_jq '.minutes == [] and .totals.joined == 0' \
    "a range before the sale: nothing in it"

# ---- the minute's row ---------------------------------------------------------

# room_beat.lua writes a minute's row in the first second of the next:
# wait (a minute at most) until the report holds a finished minute.
finished() {
	admin GET /v1/admin/queues/sale/report
	[ "$(json '[.minutes[] | select(.live | not)] | length')" -ge 1 ]
}
wait_until 'finished || { sleep 0.5; false; }' $((65 * WR_SLOW))
check_jq '[.minutes[] | select(.live | not)] | length >= 1' \
    "a minute after, the sale's first minute is a finished row"
check_jq '.totals | .joined == 12 and .admitted == 6 and .left == 2 and
    .kicked == 1 and .abandoned == 3' "the totals are the same"
check_jq '. as $r | all(["joined", "admitted", "left", "kicked",
    "abandoned"][]; . as $k | ([$r.minutes[][$k]] | add) == $r.totals[$k])' \
    "the finished minutes and the live one still add up to the totals"
check_jq '.wait.count == 6' "the histogram is the same"
check_eq "$(rcli zcard 'wr:{sale}:history')" \
    "$(json '[.minutes[] | select(.live | not)] | length')" \
    "Redis holds one row per finished minute"
check_eq "$(rcli exists 'wr:{quiet}:history')" 0 \
    "a queue nobody used has no row: an idle minute writes none"

stop_waitroomd
