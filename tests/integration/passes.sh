#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs and wait_until's code are quoted
#
# passes.sh: entry passes as a visitor and a protected site see them: an
# admitted token's status carries a pass (join, status, the `entered`
# event) and a cookie; GET /v1/check accepts it (204) and refuses a
# forged, expired, other-queue or revoked one (401); a DELETE revokes it in
# every instance; rotation keeps old passes valid; passes are off without
# a key file, and a bad key file stops startup naming file and line.
# Also: 100,000 random tokens find nothing and 10,000 forged passes pass
# nothing, pipelined by hammer.py.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

S1='old-secret-0123456789abcdef0123456789'
S2='new-secret-abcdefghijklmnopqrstuvwxyz'
printf '# rotated in k2\nk1 %s\n' "$S1" >"$WR_TMP/keys.old"
printf '# rotated in k2\nk1 %s\nk2 %s\n' "$S1" "$S2" >"$WR_TMP/keys"

wr_admin_conf "$WR_TMP/passes.conf"
cat >>"$WR_TMP/passes.conf" <<EOF2
pass_key_file = $WR_TMP/keys
push_interval = 1

[queue shop]
mode        = capacity
max_active  = 2
active_ttl  = 120
waiting_ttl = 600
redirect    = https://shop.example/

[queue other]
mode        = capacity
max_active  = 10
active_ttl  = 120
EOF2

# claims PASS SECRET: the payload of PASS as JSON when SECRET signed it
# with HS256 (else "bad signature"), and its header as .header.
claims() {
	python3 - "$1" "$2" <<'PY'
import base64, hashlib, hmac, json, sys
t, key = sys.argv[1].split("."), sys.argv[2].encode()
d = lambda s: json.loads(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)))
sig = base64.urlsafe_b64encode(hmac.new(key, (t[0] + "." + t[1]).encode(),
    hashlib.sha256).digest()).rstrip(b"=").decode()
if not hmac.compare_digest(sig, t[2]):
    print("bad signature")
else:
    print(json.dumps(dict(d(t[1]), header=d(t[0]))))
PY
}

start_redis
start_waitroomd "$WR_TMP/passes.conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

# ---- a pass comes with admission ------------------------------------------

join shop
check_json .status active "a join with a free slot is admitted at once"
PASS1=$(json .pass) T1=$TOKEN
check_match "$PASS1" '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$' \
    "the join reply of an admitted token holds a pass: a compact JWS"
UNTIL=$(json .active_until)
c=$(claims "$PASS1" "$S2")
check_eq "$(jq -c '[.header.alg, .header.kid, .aud, .sub, .exp]' <<<"$c" 2>&1)" \
    "[\"HS256\",\"k2\",\"shop\",\"$T1\",$UNTIL]" \
    "the pass is HS256 by the last key (k2): aud = queue, sub = token, exp = active_until"
check_eq "$(jq '(.iat - now | fabs) < 30 and .nbf == .iat' <<<"$c")" true \
    "iat and nbf are now"

http GET "/v1/queues/shop/tokens/$T1"
check_json .status active "the status of the admitted token is active"
check_jq '.pass | type == "string" and length > 100' "the status carries a pass"
check_header_match Set-Cookie \
    "^waitroom_pass=$(json .pass); Path=/; Max-Age=(1[01][0-9]|120); HttpOnly; SameSite=Lax; Secure$" \
    "the status GET sets the pass cookie: HttpOnly, SameSite=Lax, Secure, until the session ends"

join shop
join shop
W=$TOKEN
check_json .status waiting "the third joiner waits (max_active 2)"
check_jq 'has("pass") | not' "a waiting status has no pass"
http GET "/v1/queues/shop/tokens/$W"
check_jq 'has("pass") | not' "a waiting token's status has no pass"
check_eq "$(header Set-Cookie)" "" "and sets no cookie"

# ---- GET /v1/check --------------------------------------------------------

v1_check "$PASS1" shop
check_status 204 "GET /v1/check?queue=shop with the pass as a bearer token -> 204"
check_header X-Waitroom-Queue shop
check_header X-Waitroom-Token "$T1"
check_header X-Waitroom-Expires "$UNTIL"
http GET /v1/check '' -H "Cookie: theme=dark; waitroom_pass=$PASS1; x=1"
check_status 204 "GET /v1/check with the pass cookie (no queue asked) -> 204"
v1_check "$PASS1" other
check_error 401 unauthorized "a pass of queue shop does not admit to queue other"
check_contains "$(json .error.message)" "another queue" "the message says so"
http GET /v1/check
check_error 401 unauthorized "no pass -> 401"
check_header WWW-Authenticate 'Bearer realm="waitroom"'
http GET '/v1/check?queue=no!pe'
check_error 400 bad_queue_id "a malformed queue in /v1/check -> 400"
http POST /v1/check
check_error 405 method_not_allowed "POST /v1/check -> 405"
http GET /v1/check?queue=shop '' -H "Authorization: Bearer $PASS1" \
    -H "Authorization: Bearer not-a-pass"
check_error 400 bad_request "two Authorization headers, the pass first -> 400"
check_contains "$(json .error.message)" Authorization "... naming the header"
http GET /v1/check?queue=shop '' -H "Authorization: Bearer not-a-pass" \
    -H "Authorization: Bearer $PASS1"
check_error 400 bad_request "two Authorization headers, the pass second -> 400"

now=$(date +%s)
forged=$(sign "not-our-secret-0123456789abcdefghij" k2 \
    "{\"aud\":\"shop\",\"sub\":\"$T1\",\"iat\":$now,\"nbf\":$now,\"exp\":$((now + 60))}")
v1_check "$forged" shop
check_error 401 unauthorized "a pass signed with another secret -> 401"
check_contains "$(json .error.message)" signature "the message names the signature"
expired=$(sign "$S2" k2 \
    "{\"aud\":\"shop\",\"sub\":\"$T1\",\"iat\":$((now - 600)),\"nbf\":$((now - 600)),\"exp\":$((now - 60))}")
v1_check "$expired" shop
check_error 401 unauthorized "an expired pass (a minute ago) -> 401"
check_contains "$(json .error.message)" expired "the message says it expired"
none="$(cut -d. -f1-2 <<<"$PASS1" | sed 's/^[^.]*/eyJhbGciOiJub25lIiwia2lkIjoiazIifQ/')."
v1_check "$none" shop
check_error 401 unauthorized "alg none -> 401"

# ---- rotation: a pass of the old key stays valid ---------------------------

old=$(sign "$S1" k1 \
    "{\"aud\":\"shop\",\"sub\":\"$T1\",\"iat\":$now,\"nbf\":$now,\"exp\":$((now + 60))}")
v1_check "$old" shop
check_status 204 "a pass signed by the older key k1 is still accepted"

# ---- the entered event carries the pass ------------------------------------

sse_start w "/v1/queues/shop/tokens/$W/events"
sse_wait w '^event: status' || fail "the waiter's stream starts" "$(sse_text w)"
http DELETE "/v1/queues/shop/tokens/$T1"
check_status 204 "DELETE of the first session -> 204 (a slot frees)"
sse_wait w '^event: entered' 1 5 || fail "entered arrives" "$(sse_text w)"
PASSW=$(sse_data w entered | jq -r .pass)
check_eq "$(claims "$PASSW" "$S2" | jq -r '.aud + " " + .sub')" "shop $W" \
    "the entered event's data holds the waiter's pass, signed by k2"
v1_check "$PASSW" shop
check_status 204 "the pass from the entered event is accepted"
sse_stop w

# ---- revocation ---------------------------------------------------------

v1_check "$PASS1" shop
check_error 401 unauthorized "the pass of a DELETEd session -> 401 at once"
check_contains "$(json .error.message)" ended "the message says the session was ended"
check_eq "$(rcli exists "wr:{shop}:revoked:$T1")" 1 "Redis holds the revocation"
# It lives until the pass's exp (active_until, in whole seconds) plus the
# 10 s leeway of checkers: no shorter (a revoked pass would come back to
# life), no longer (Redis would keep dead keys).
ttl=$(rcli pttl "wr:{shop}:revoked:$T1")
want=$((UNTIL * 1000 + 10000 - $(now_ms)))
check "the revocation lives until the pass's exp + 10 s (pttl $ttl, expected about $want)" \
    test "$ttl" -le $((want + 1500)) -a "$ttl" -ge $((want - 3000))

# Another instance learns of a revocation from Redis, within about a second
# (it may have said yes a moment before, from its cache).
start_more_waitroomd b "$WR_TMP/passes.conf"
B=http://127.0.0.1:$MORE_PORT
WR_BASE=$B v1_check "$PASS1" shop
check_eq "$STATUS" 401 "instance b refuses the pass revoked through instance a"
WR_BASE=$B v1_check "$PASSW" shop
check_eq "$STATUS" 204 "instance b accepts the waiter's pass (it caches that)"
http DELETE "/v1/queues/shop/tokens/$W"
check "instance b refuses it within 3 s of a DELETE on instance a" \
    wait_until 'WR_BASE=$B v1_check "$PASSW" shop; [ "$STATUS" = 401 ]' 3

# An operator's kick (admin DELETE) ends a session as surely as its owner.
http POST /v1/queues/other/tokens
kicked=$(json .token) kpass=$(json .pass)
v1_check "$kpass" other
check_status 204 "a session admitted at once has a valid pass"
admin DELETE "/v1/admin/queues/other/tokens/$kicked"
check_status 204 "the admin kicks that session"
v1_check "$kpass" other
check_error 401 unauthorized "the kicked session's pass -> 401 at once"
check_eq "$(rcli exists "wr:{other}:revoked:$kicked")" 1 \
    "Redis holds the kicked pass's revocation"

# ---- cookie options, passes off, a bad key file --------------------------

cat >"$WR_TMP/dev.conf" <<EOF2
pass_key_file = $WR_TMP/keys
pass_cookie = shop_pass
pass_cookie_secure = no
pass_cookie_domain = shop.example
[queue shop]
mode = capacity
EOF2
start_more_waitroomd dev "$WR_TMP/dev.conf"
join shop
curl -s -D "$WR_TMP/dev.h" -o /dev/null "http://127.0.0.1:$MORE_PORT/v1/queues/shop/tokens/$TOKEN"
cookie=$(tr -d '\r' <"$WR_TMP/dev.h" | sed -n 's/^Set-Cookie: //Ip')
check_match "$cookie" '^shop_pass=[^;]+; Path=/; Max-Age=[0-9]+; Domain=shop.example; HttpOnly; SameSite=Lax$' \
    "pass_cookie, pass_cookie_secure = no and pass_cookie_domain shape the cookie"

cat >"$WR_TMP/off.conf" <<'EOF2'
[queue shop]
mode = capacity
EOF2
start_more_waitroomd off "$WR_TMP/off.conf"
OFF=http://127.0.0.1:$MORE_PORT
body=$(curl -s -D "$WR_TMP/off.h" "$OFF/v1/queues/shop/tokens/$TOKEN")
check_eq "$(jq -r '.status + " " + (has("pass") | tostring)' <<<"$body")" \
    "active false" "without pass_key_file an active status has no pass"
check "and no cookie" bash -c "! grep -qi '^Set-Cookie' '$WR_TMP/off.h'"
WR_BASE=$OFF v1_check "$PASSW"
check_eq "$STATUS $(json .error.code)" "401 unauthorized" \
    "without pass_key_file /v1/check refuses every pass"

printf 'k1 %s\nk2 tooshort\n' "$S1" >"$WR_TMP/bad.keys"
printf 'pass_key_file = %s\n' "$WR_TMP/bad.keys" >"$WR_TMP/bad.conf"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
check_eq "$?" 1 "a bad key file stops startup (exit 1)"
check_contains "$out" "$WR_TMP/bad.keys:2: the secret of key 'k2' is 8 characters" \
    "the message names the file, the line and the problem"
check "the message does not show the secret" bash -c "! grep -q tooshort <<<'$out'"
printf 'pass_key_file = %s/missing.keys\n' "$WR_TMP" >"$WR_TMP/bad.conf"
out=$("$WAITROOMD" --config "$WR_TMP/bad.conf" --check-config 2>&1)
check_contains "$out" "missing.keys: cannot read" "a missing key file is named"

# ---- many guesses, none wins ---------------------------------------------

got=$(timeout 120 python3 "$(dirname "$0")/hammer.py" "$WR_PORT" \
    random-tokens 100000 shop 2>&1)
check_eq "$got" '{"404": 100000}' "100,000 random tokens: all 404"
got=$(timeout 120 python3 "$(dirname "$0")/hammer.py" "$WR_PORT" \
    forged-passes 10000 shop "$WR_TMP/keys" 2>&1)
check_eq "$got" '{"401": 10000}' "10,000 forged passes against /v1/check: all 401"
http GET /healthz
check_status 200 "the daemon is still healthy after the guesses"

stop_waitroomd
