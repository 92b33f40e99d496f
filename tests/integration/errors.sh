#!/usr/bin/env bash
# shellcheck disable=SC2016 # jq programs are quoted
#
# errors.sh: every error of API.md that a public request can get, each as
# JSON {"error":{"code","message"}}, and none of them changing any state.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

conf=$WR_TMP/errors.conf
cat >"$conf" <<'EOF'
# max_body is left at its default, 4096.
[queue open1]
mode  = rate
state = paused

[queue closed1]
mode  = rate
state = closed

[queue small]
mode        = rate
state       = paused
max_waiting = 3
EOF
# A queue drawn a few seconds after the start, for HEAD on its order.
printf '[queue sale]\nopens_at = %s\n' $(($(date +%s) + 3)) >>"$conf"

start_redis
start_waitroomd "$conf"
wait_ready || bail "the daemon is ready" "$(wr_last)"

Q=/v1/queues/open1/tokens

join open1
check_status 201 "setup: first join"
t1=$TOKEN
join open1 '{"user":"keep"}'
check_status 201 "setup: second join"
t2=$TOKEN
join sale
check_status 201 "setup: an entrant of the draw before the opening"

# post_error BODY STATUS CODE DESC: a join to open1 with BODY fails so.
post_error() {
	http POST "$Q" "$1"
	check_error "$2" "$3" "$4 -> $2 $3"
}

# ---- 400 bad_json -----------------------------------------------------------

post_error '{"user":' 400 bad_json "truncated JSON"
post_error 'not json' 400 bad_json "not JSON at all"
post_error '{"user":"a","user":"b"}' 400 bad_json "a duplicate key"
post_error '{"user":"a"} x' 400 bad_json "JSON followed by garbage"
post_error $'{"user":"\xff\xfe"}' 400 bad_json "invalid UTF-8"
check_waiting open1 2 "malformed JSON changes nothing"

# ---- 400 bad_request ----------------------------------------------------------

post_error '[]' 400 bad_request "an array instead of an object"
post_error '["u-1"]' 400 bad_request "an array holding a user"
post_error '"u-1"' 400 bad_request "a bare string instead of an object"
post_error '{"name":"u-1"}' 400 bad_request "an unknown field"
post_error '{"user":"u-1","extra":true}' 400 bad_request "a user and an unknown field"
post_error '{"user":5}' 400 bad_request "a user that is a number"
post_error '{"user":["a"]}' 400 bad_request "a user that is an array"
post_error '{"user":{}}' 400 bad_request "a user that is an object"
post_error '{"user":true}' 400 bad_request "a user that is a boolean"
check_waiting open1 2 "a body of the wrong shape changes nothing"

# ---- 400 bad_user --------------------------------------------------------------

long129=$(printf 'a%.0s' $(seq 1 129))
long128=${long129:1}
e129=$(printf '\xc3\xa9%.0s' $(seq 1 129))	# 129 x U+00E9, 258 bytes
e128=$(printf '\xc3\xa9%.0s' $(seq 1 128))
post_error '{"user":""}' 400 bad_user "an empty user"
post_error "{\"user\":\"$long129\"}" 400 bad_user "a user of 129 characters"
post_error "{\"user\":\"$e129\"}" 400 bad_user "a user of 129 two-byte characters"
post_error '{"user":"a\u0001b"}' 400 bad_user "a user with a C0 control character"
post_error '{"user":"a\nb"}' 400 bad_user "a user with a newline"
post_error '{"user":"a\u007fb"}' 400 bad_user "a user with DEL"
post_error '{"user":"a\u0085b"}' 400 bad_user "a user with a C1 control character"
check_waiting open1 2 "a bad user changes nothing"

# The limits are inclusive: 128 characters are fine, counted as characters.
join open1 "{\"user\":\"$long128\"}"
check_status 201 "a user of 128 characters -> 201"
http DELETE "$Q/$TOKEN"
check_status 204 "... who leaves again"
join open1 "{\"user\":\"$e128\"}"
check_status 201 "a user of 128 two-byte characters (256 bytes) -> 201"
http DELETE "$Q/$TOKEN"
check_status 204 "... who leaves again"
join open1 '{"user":"ünïcødé 用户"}'
check_status 201 "a user with non-ASCII printable characters -> 201"
http DELETE "$Q/$TOKEN"
check_waiting open1 2 "back to 2 waiting"

# ---- 400 bad_queue_id -----------------------------------------------------------

q65=$(printf 'q%.0s' $(seq 1 65))
http POST '/v1/queues/bad!id/tokens'
check_error 400 bad_queue_id "join a queue named bad!id"
http GET '/v1/queues/bad!id'
check_error 400 bad_queue_id "summary of bad!id"
http GET '/v1/queues/a.b'
check_error 400 bad_queue_id "summary of a.b"
http GET '/v1/queues/bad%21id'
check_error 400 bad_queue_id "summary of bad%21id"
http GET "/v1/queues/$q65"
check_error 400 bad_queue_id "summary of a 65-character queue id"
http POST "/v1/queues/$q65/tokens"
check_error 400 bad_queue_id "join a 65-character queue id"
http GET "/v1/queues/bad!id/tokens/$t1"
check_error 400 bad_queue_id "status under bad!id"

# ---- 400 bad_token ---------------------------------------------------------------

http GET "$Q/not-a-uuid"
check_error 400 bad_token "status of not-a-uuid"
http DELETE "$Q/not-a-uuid"
check_error 400 bad_token "leave with not-a-uuid"
upper=$(tr a-f A-F <<<"$t1")
http GET "$Q/$upper"
check_error 400 bad_token "status of an upper-case token"
http DELETE "$Q/$upper"
check_error 400 bad_token "leave with an upper-case token"
v1uuid="${t1:0:14}1${t1:15}"
http GET "$Q/$v1uuid"
check_error 400 bad_token "status of a version-1 UUID"
http GET "$Q/${t1}0"
check_error 400 bad_token "status of a token with one more character"
http GET "$Q/${t1:0:35}"
check_error 400 bad_token "status of a token with one character less"
http GET "$Q/$t1"
check_json .position 1 "the first token is still at position 1"

# ---- 404 ---------------------------------------------------------------------------

q64=${q65:1}
http POST /v1/queues/nosuch/tokens
check_error 404 queue_not_found "join an unknown queue"
http POST /v1/queues/nosuch/tokens '{"user":"u-1"}'
check_error 404 queue_not_found "join an unknown queue as a user"
http GET /v1/queues/nosuch
check_error 404 queue_not_found "summary of an unknown queue"
http GET "/v1/queues/$q64"
check_error 404 queue_not_found "summary of an unknown 64-character queue id"
http GET "/v1/queues/nosuch/tokens/$t1"
check_error 404 queue_not_found "status in an unknown queue"
http DELETE "/v1/queues/nosuch/tokens/$t1"
check_error 404 queue_not_found "leave an unknown queue"

unknown=$(random_uuid)
http GET "$Q/$unknown"
check_error 404 token_not_found "status of a token never issued"
http GET "/v1/queues/small/tokens/$t1"
check_error 404 token_not_found "status of a token of another queue"

for path in / /nope /v1 /v1/queues /v1/queues/open1/nope \
    "$Q/$t1/nope" /healthz/x; do
	http GET "$path"
	check_error 404 not_found "GET $path -> 404 not_found"
done
http GET '/healthz?probe=1'
check_status 200 "a query string does not change the route"
check_waiting open1 2 "nothing found, nothing changed"

# ---- 405 ---------------------------------------------------------------------------

http GET "$Q"
check_error 405 method_not_allowed "GET on /tokens"
check_header Allow POST "GET on /tokens: Allow: POST"
http PUT "$Q/$t1"
check_error 405 method_not_allowed "PUT on a token"
check_header Allow "GET, HEAD, DELETE" "PUT on a token: Allow: GET, HEAD, DELETE"
http PATCH "$Q/$t1" '{"user":"x"}'
check_error 405 method_not_allowed "PATCH on a token"
check_header Allow "GET, HEAD, DELETE" "PATCH on a token: Allow: GET, HEAD, DELETE"
http POST "$Q/$t1"
check_error 405 method_not_allowed "POST on a token"
http DELETE "$Q"
check_error 405 method_not_allowed "DELETE on /tokens"
check_header Allow POST "DELETE on /tokens: Allow: POST"
http POST /v1/queues/open1
check_error 405 method_not_allowed "POST on a queue"
check_header_match Allow '(^|, )GET(,|$)' "POST on a queue: Allow names GET"
http DELETE /v1/queues/open1
check_error 405 method_not_allowed "DELETE on a queue"
http POST /healthz
check_error 405 method_not_allowed "POST on /healthz"
check_header Allow "GET, HEAD" "POST on /healthz: Allow: GET, HEAD"
http GET "$Q/$t1"
check_json .position 1 "the token survived PUT, PATCH, POST and DELETE on the wrong path"
check_waiting open1 2 "no method error changed anything"

# ---- 409 queue_closed -------------------------------------------------------------

http POST /v1/queues/closed1/tokens
check_error 409 queue_closed "join a closed queue"
http POST /v1/queues/closed1/tokens '{"user":"u-1"}'
check_error 409 queue_closed "join a closed queue as a user"
http GET /v1/queues/closed1
check_status 200 "summary of a closed queue -> 200"
check_jq '.state == "closed" and .waiting == 0' "a closed queue: state closed, waiting 0"
http GET "/v1/queues/closed1/tokens/$unknown"
check_error 404 token_not_found "status in a closed queue still answers"

# ---- 413 body_too_large -------------------------------------------------------------

# pad_body N USER: a JSON object of exactly N bytes naming USER.
pad_body() {
	local head="{\"user\":\"$2\"" n
	n=$(($1 - ${#head} - 1))
	printf '%s%*s}' "$head" "$n" ''
}
b4096=$(pad_body 4096 pad-1)
b4097=$(pad_body 4097 pad-2)
b5000=$(pad_body 5000 pad-3)
check_eq "${#b4096}/${#b4097}/${#b5000}" 4096/4097/5000 "setup: padded bodies"
http POST "$Q" "$b4097"
check_error 413 body_too_large "a body of 4097 bytes (max_body 4096)"
http POST "$Q" "$b5000"
check_error 413 body_too_large "a body of 5000 bytes"
check_waiting open1 2 "a body too large changes nothing"
join open1 "$b4096"
check_status 201 "a body of exactly 4096 bytes -> 201"
check_json .waiting 3 "... and joins"
http DELETE "$Q/$TOKEN"
check_status 204 "... and leaves again"

big=$(pad_body 100000 pad-4)
http POST "$Q" "$big"
check_match "$STATUS" '^(000|413)$' "a body of 100,000 bytes is refused: 413, or a reset before curl read it (got $STATUS)"
http GET /healthz
check_status 200 "the server serves after a huge body"
check_waiting open1 2 "a huge body changes nothing"

# raw_json_error STATUS CODE DESC: the last raw answer is API.md's JSON
# error, and it closes the connection.
raw_json_error() {
	check_status "$1" "$3 -> $1"
	check_eq "$(sed '1,/^$/d' <<<"$BODY" | jq -r .error.code 2>/dev/null)" \
	    "$2" "... as the JSON error $2"
	check_match "$(header Content-Type)" '^application/json' \
	    "... in application/json"
	check_header Connection close "... and closes the connection"
}

# However it comes, a body over max_body gets the JSON 413: a
# Content-Length over it at once, before the body (the client need not
# send it), and a chunked body once it is past the limit. Under
# max_body's 1 MiB range, past the 64 KiB libevent holds by itself too.
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n' "$Q")
raw_json_error 413 body_too_large "Content-Length: 5000, before its body"
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n' "$Q")
raw_json_error 413 body_too_large "Content-Length: 100000, before its body"
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n' "$Q")
raw_json_error 413 body_too_large "Expect: 100-continue and Content-Length: 100000"
check_eq "$(grep -c '^HTTP/1.1 100' <<<"$BODY")" 0 "... with no 100 Continue"

# chunked N: a chunked body of N bytes, in pieces of 1000.
a1000=$(printf 'a%.0s' $(seq 1 1000))
chunked() {
	local n=$1 k
	while [ "$n" -gt 0 ]; do
		k=$((n < 1000 ? n : 1000))
		printf '%x\r\n%s\r\n' "$k" "${a1000:0:k}"
		n=$((n - k))
	done
	printf '0\r\n\r\n'
}
for n in 5000 70000; do
	raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n' "$Q"; chunked "$n")
	raw_json_error 413 body_too_large "a chunked body of $n bytes"
done
check_waiting open1 2 "no body too large changes anything"

# ---- 503 queue_full -------------------------------------------------------------

for u in f1 f2 f3; do
	join small "{\"user\":\"$u\"}"
	check_status 201 "join small as $u"
	[ "$u" = f1 ] && tf1=$TOKEN
done
http POST /v1/queues/small/tokens
check_error 503 queue_full "the fourth join of a queue with max_waiting 3"
check_header_match Retry-After '^[0-9]+$' "queue_full has a Retry-After in seconds"
http POST /v1/queues/small/tokens '{"user":"f4"}'
check_error 503 queue_full "a new user cannot join a full queue"
join small '{"user":"f1"}'
check_status 200 "a user already in a full queue joins again -> 200"
check_eq "$TOKEN" "$tf1" "... with the same token"
check_waiting small 3 "a full queue stays at 3"
http DELETE "/v1/queues/small/tokens/$tf1"
check_status 204 "one leaves the full queue"
join small '{"user":"f4"}'
check_status 201 "then a new one can join"
check_json .position 3 "at position 3"

# ---- HTTP framing -------------------------------------------------------------

# Two Content-Length headers that disagree: a request-smuggling classic.
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 14\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{"user":"dup"}' "$Q")
check_status 400 "two different Content-Length headers -> 400"
check_waiting open1 2 "... and nobody joins"

# raw_error DESC: the last raw answer is 400 bad_request in JSON, and it
# closes the connection.
raw_error() {
	raw_json_error 400 bad_request "$1"
}

# libevent reads "+2" with strtoll and frames a body of 2 bytes; a proxy
# in front may not agree, so only digits frame a body. The answer closes
# the connection: what follows cannot be trusted to start a request.
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: +2\r\n\r\n{}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' "$Q")
raw_error "Content-Length: +2"
check_eq "$(grep -c '^HTTP/1' <<<"$BODY")" 1 \
    "... and the connection ends there: the request after it gets no answer"
check_waiting open1 2 "... and nobody joins"

# HTTP/1.1 requires exactly one Host (RFC 9112, section 3.2); 1.0 none.
raw_http < <(printf 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')
raw_error "HTTP/1.1 without Host"
raw_http < <(printf 'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n')
raw_error "HTTP/1.1 with two Host headers"
raw_http < <(printf 'GET /healthz HTTP/1.0\r\n\r\n')
check_status 200 "HTTP/1.0 without Host -> 200"

# Content-Length beside Transfer-Encoding: a proxy may frame the body by
# either (request smuggling).
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' "$Q")
raw_error "Content-Length beside Transfer-Encoding"
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n{}\r\n' "$Q")
raw_error "Content-Length beside Transfer-Encoding, the body framed by the first"
check_waiting open1 2 "... and nobody joins"

# What libevent cannot read at all gets the same JSON 400.
raw_http < <(printf 'NONSENSE\r\n\r\n')
raw_error "a request line that is no request line"
raw_http < <(printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n')
raw_error "a header line without a colon"
# An expectation other than 100-continue is not met (RFC 9110, 10.1.1).
raw_http < <(printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: the-unexpected\r\nContent-Length: 2\r\n\r\n{}' "$Q")
raw_json_error 417 expectation_failed "Expect: the-unexpected"
check_waiting open1 2 "... and nobody joins"

# HEAD is answered as GET with the head alone: a client never reads a body
# after HEAD, so one sent anyway would be read as the start of the next
# answer on the connection. Where HEAD is not allowed, its 405 has a head
# alone too, with the length the body would have.
raw_http < <(printf 'HEAD %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$Q")
check_status 405 "HEAD on /tokens (POST only) -> 405"
check_header Allow POST "HEAD on /tokens: Allow: POST"
check_match "$(sed -n '/^$/{n;p;q}' <<<"$BODY")" '^HTTP/1\.1 200 ' \
    "the 405 to HEAD has no body: the next answer follows its head"
check_match "$HEADERS" $'(^|\n)Content-Length: [1-9]' \
    "the 405 to HEAD gives the length its body would have"

# head_then_healthz PATH: on one connection, HEAD PATH then GET /healthz.
# head_as_get PATH [same-length]: HEAD PATH answers the status and
# Content-Type that GET PATH does, and a head alone: the answer to GET
# /healthz follows it at once. Its Content-Length is a number or absent;
# with same-length, GET's.
head_then_healthz() {
	raw_http < <(printf 'HEAD %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1")
}
head_as_get() {
	local path=$1 get_status get_type get_len len
	http GET "$path"
	get_status=$STATUS get_type=$(header Content-Type)
	get_len=$(header Content-Length)
	head_then_healthz "$path"
	check_status "$get_status" "HEAD $path -> $get_status, as GET"
	check_eq "$(header Content-Type)" "$get_type" \
	    "HEAD $path: Content-Type $get_type, as GET"
	check_match "$(sed -n '/^$/{n;p;q}' <<<"$BODY")" '^HTTP/1\.1 200 ' \
	    "HEAD $path: no body, the next answer follows its head"
	len=$(header Content-Length)
	if [ "${2-}" = same-length ]; then
		check_eq "$len" "$get_len" "HEAD $path: Content-Length $get_len, as GET"
	else
		check_match "$len" '^[0-9]*$' "HEAD $path: a Content-Length or none ($len)"
	fi
}
head_as_get /healthz same-length
head_as_get /readyz same-length
head_as_get /assets/waitroom.js same-length
head_as_get /q/open1
head_as_get /metrics
head_as_get /v1/queues/open1
head_as_get /v1/queues/nosuch same-length
head_as_get "$Q/$t1"
head_as_get "$Q/$(random_uuid)" same-length
head_as_get /v1/queues/open1/challenge
head_as_get /v1/check same-length
# The event stream: its head, and no stream.
head_then_healthz "$Q/$t1/events"
check_status 200 "HEAD on a waiting token's events -> 200"
check_header Content-Type text/event-stream \
    "HEAD on a waiting token's events: the stream's head"
check_match "$(sed -n '/^$/{n;p;q}' <<<"$BODY")" '^HTTP/1\.1 200 ' \
    "... alone: no stream, the next answer follows it"
head_as_get "$Q/$(random_uuid)/events" same-length
# The draw's order, written in pieces as it is read from Redis.
wait_until 'http GET /v1/queues/sale/draw; [ "$(json .state)" = drawn ]' \
    $((10 * WR_SLOW)) || fail "setup: the queue sale is drawn" "$(wr_last)"
head_as_get /v1/queues/sale/draw same-length
head_as_get /v1/queues/sale/draw/order
http GET "$Q/$t1"
check_json .position 1 "HEAD on a token left it in its place"

# A header section over 8 KiB.
bigheader=$(printf 'a%.0s' $(seq 1 9000))
http GET /healthz '' -H "X-Big: $bigheader"
check_error 400 bad_request "a 9,000-byte header -> 400 bad_request"
http GET /healthz
check_status 200 "the server serves after an oversized header"
http POST "$Q" '' -H "X-Big: $bigheader"
check_error 400 bad_request "a join with an oversized header -> 400 bad_request"
check_waiting open1 2 "... and nobody joins"

# ---- nothing changed ------------------------------------------------------------

http GET "$Q/$t1"
check_jq '.position == 1 and .waiting == 2' "after all errors the first token is at position 1 of 2"
http GET "$Q/$t2"
check_json .position 2 "and the second at position 2"
join open1 '{"user":"keep"}'
check_status 200 "and its user still holds it"
check_eq "$TOKEN" "$t2" "with the same token"
