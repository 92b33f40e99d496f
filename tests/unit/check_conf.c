/* check_conf.c: waitroom.conf parsing, the key table and its messages. */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "conf_check.h"
#include "log.h"
#include "unit.h"

#define GLOBAL_KEYS "listen, admin_listen, redis, key_prefix, workers, push_interval, " \
	"max_streams, max_streams_per_ip, admin_token_file, cors_origins, " \
	"log_level, pass_key_file, pass_cookie, pass_cookie_secure, " \
	"pass_cookie_domain, join_rate_per_ip, " \
	"trusted_proxies, max_body, keepalive_interval, stream_buffer, " \
	"sentinel_password_file, redis_wait_replicas, " \
	"header_timeout, body_timeout, max_conns_per_ip, fd_reserve, " \
	"page_template"
#define QUEUE_KEYS "mode, batch, interval, max_active, active_ttl, " \
	"waiting_ttl, max_waiting, state, redirect, join_challenge, pow_bits, " \
	"pow_ttl, pow_start_bits, pow_max_bits, pow_calm_rate, renew, access, " \
	"opens_at, prequeue_from, closes_at, report_ttl, beacon_round, " \
	"noshow_after, noshow_refill, page_template"
#define ACC_LISTEN "host:port, host an IPv4 address, localhost or [IPv6], " \
	"port 0 to 65535"
#define ACC_REDIS "host:port with port 1 to 65535, unix:/absolute/path, " \
	"or sentinel://host:port,host:port/master"
#define ACC_REDIRECT "a URL starting with http://, https:// or /, in UTF-8 " \
	"without spaces or control characters, at most 2048 bytes, or empty " \
	"for none"

static char err[CONF_ERR_MAX];

static int
load(struct conf *c, const char *text)
{
	conf_init(c);
	err[0] = '\0';
	return conf_load_string(c, text, "waitroom.conf", err, sizeof err);
}

START_TEST(test_defaults)
{
	struct conf c;
	struct queue_conf q;

	conf_init(&c);
	ck_assert_str_eq(c.listen, "127.0.0.1:8080");
	ck_assert_str_eq(c.redis, "127.0.0.1:6379");
	ck_assert_str_eq(c.key_prefix, "wr");
	ck_assert_int_eq(c.workers, 1);
	ck_assert_int_eq(c.push_interval, 3);
	ck_assert_int_eq(c.max_streams, 0);
	ck_assert_int_eq(c.max_streams_per_ip, 0);
	ck_assert_ptr_null(c.admin_token_file);
	ck_assert_ptr_null(c.cors_origins);
	ck_assert_int_eq(c.log_level, LOGL_INFO);
	ck_assert_ptr_null(c.page_template);
	ck_assert_ptr_null(c.pass_key_file);
	ck_assert_str_eq(c.pass_cookie, "waitroom_pass");
	ck_assert_int_eq(c.join_rate_per_ip, 0);
	ck_assert_ptr_null(c.trusted_proxies);
	ck_assert_int_eq(c.max_body, 4096);
	ck_assert_int_eq(c.header_timeout, 10);
	ck_assert_int_eq(c.body_timeout, 10);
	ck_assert_int_eq(c.max_conns_per_ip, 256);
	ck_assert_int_eq(c.fd_reserve, 5);
	ck_assert_uint_eq(c.nqueues, 0);
	conf_free(&c);

	conf_queue_init(&q, "concert");
	ck_assert_str_eq(q.name, "concert");
	ck_assert_int_eq(q.mode, MODE_RATE);
	ck_assert_int_eq(q.batch, 0);
	ck_assert_int_eq(q.interval, 10);
	ck_assert_int_eq(q.max_active, 0);
	ck_assert_int_eq(q.active_ttl, 300);
	ck_assert_int_eq(q.waiting_ttl, 120);
	ck_assert_int_eq(q.max_waiting, 0);
	ck_assert_int_eq(q.state, STATE_OPEN);
	ck_assert_ptr_null(q.redirect);
	ck_assert_ptr_null(q.page_template);
	conf_queue_free(&q);
}
END_TEST

START_TEST(test_empty_file)
{
	struct conf c;

	ck_assert_int_eq(load(&c, ""), 0);
	ck_assert_str_eq(c.listen, "127.0.0.1:8080");
	ck_assert_uint_eq(c.nqueues, 0);
	conf_free(&c);
	ck_assert_ptr_null(c.listen);
	conf_free(&c);		/* twice is harmless */
}
END_TEST

START_TEST(test_every_global_key)
{
	struct conf c;

	ck_assert_int_eq(load(&c,
	    "listen = [::1]:9000\n"
	    "redis = unix:/run/redis/redis.sock\n"
	    "key_prefix = shop.wr-1\n"
	    "workers = auto\n"
	    "push_interval = 300\n"
	    "max_streams = 10000000\n"
	    "max_streams_per_ip = 50\n"
	    "admin_token_file = /etc/waitroom/admin.token\n"
	    "cors_origins = https://a.example https://b.example\n"
	    "log_level = debug\n"
	    "page_template = /etc/waitroom/page.html\n"
	    "pass_key_file = /etc/waitroom/pass.keys\n"
	    "pass_cookie = wr_pass\n"
	    "join_rate_per_ip = 5\n"
	    "trusted_proxies = 10.0.0.1, 10.0.0.2\n"
	    "max_body = 64\n"), 0);
	ck_assert_str_eq(c.listen, "[::1]:9000");
	ck_assert_str_eq(c.redis, "unix:/run/redis/redis.sock");
	ck_assert_str_eq(c.key_prefix, "shop.wr-1");
	ck_assert_int_eq(c.workers, 0);
	ck_assert_int_eq(c.push_interval, 300);
	ck_assert_int_eq(c.max_streams, 10000000);
	ck_assert_int_eq(c.max_streams_per_ip, 50);
	ck_assert_str_eq(c.admin_token_file, "/etc/waitroom/admin.token");
	ck_assert_str_eq(c.cors_origins, "https://a.example https://b.example");
	ck_assert_int_eq(c.log_level, LOGL_DEBUG);
	ck_assert_str_eq(c.page_template, "/etc/waitroom/page.html");
	ck_assert_str_eq(c.pass_key_file, "/etc/waitroom/pass.keys");
	ck_assert_str_eq(c.pass_cookie, "wr_pass");
	ck_assert_int_eq(c.join_rate_per_ip, 5);
	ck_assert_str_eq(c.trusted_proxies, "10.0.0.1, 10.0.0.2");
	ck_assert_int_eq(c.max_body, 64);
	conf_free(&c);
}
END_TEST

START_TEST(test_every_queue_key)
{
	struct conf c;
	const struct queue_conf *q;

	ck_assert_int_eq(load(&c,
	    "[queue concert]\n"
	    "mode = capacity\n"
	    "batch = 1000000\n"
	    "interval = 86400\n"
	    "max_active = 1\n"
	    "active_ttl = 604800\n"
	    "waiting_ttl = 5\n"
	    "max_waiting = 1000000000\n"
	    "state = paused\n"
	    "redirect = https://shop.example/concert?from=wr\n"
	    "page_template = /srv/concert.html\n"), 0);
	ck_assert_uint_eq(c.nqueues, 1);
	ck_assert_ptr_nonnull(q = conf_queue_find(&c, "concert"));
	ck_assert_str_eq(q->name, "concert");
	ck_assert_int_eq(q->mode, MODE_CAPACITY);
	ck_assert_int_eq(q->batch, 1000000);
	ck_assert_int_eq(q->interval, 86400);
	ck_assert_int_eq(q->max_active, 1);
	ck_assert_int_eq(q->active_ttl, 604800);
	ck_assert_int_eq(q->waiting_ttl, 5);
	ck_assert_int_eq(q->max_waiting, 1000000000);
	ck_assert_int_eq(q->state, STATE_PAUSED);
	ck_assert_str_eq(q->redirect, "https://shop.example/concert?from=wr");
	ck_assert_str_eq(q->page_template, "/srv/concert.html");
	ck_assert_ptr_null(c.page_template);
	conf_free(&c);
}
END_TEST

START_TEST(test_comments_whitespace)
{
	struct conf c;
	const struct queue_conf *q;

	ck_assert_int_eq(load(&c,
	    "# a comment\n"
	    "   # an indented comment\n"
	    "\n"
	    "  \t \n"
	    "\tlisten\t=\t0.0.0.0:65535   # after the value\n"
	    "push_interval=7\r\n"
	    "log_level = warn#not a comment: no space before\n"
	    "[queue concert]   # a section with a comment\n"
	    "  redirect = /enter#frag  \n"
	    "batch =   25   "), -1);
	/* '#' without whitespace before it is part of the value */
	ck_assert_str_eq(err, "waitroom.conf:7: key 'log_level': "
	    "'warn#not a comment: no space before' is not valid "
	    "(accepted: debug, info, warn, error)");
	conf_free(&c);

	ck_assert_int_eq(load(&c,
	    "# a comment\n"
	    "   # an indented comment\n"
	    "\n"
	    "  \t \n"
	    "\tlisten\t=\t0.0.0.0:65535   # after the value\n"
	    "push_interval=7\r\n"
	    "log_level = warn\t# tab before the comment\n"
	    "[ queue  concert ]   # a section with a comment\n"
	    "  redirect = /enter#frag  \n"
	    "batch =   25   "), 0);
	ck_assert_str_eq(c.listen, "0.0.0.0:65535");
	ck_assert_int_eq(c.push_interval, 7);
	ck_assert_int_eq(c.log_level, LOGL_WARN);
	ck_assert_ptr_nonnull(q = conf_queue_find(&c, "concert"));
	ck_assert_str_eq(q->redirect, "/enter#frag");
	ck_assert_int_eq(q->batch, 25);
	conf_free(&c);
}
END_TEST

START_TEST(test_several_queues)
{
	struct conf c;
	const struct queue_conf *a, *b;

	ck_assert_int_eq(load(&c,
	    "page_template = /srv/global.html\n"
	    "[queue a]\n"
	    "batch = 5\n"
	    "[queue B-2_x]\n"
	    "mode = capacity\n"
	    "state = closed\n"), 0);
	ck_assert_uint_eq(c.nqueues, 2);
	ck_assert_ptr_nonnull(a = conf_queue_find(&c, "a"));
	ck_assert_ptr_nonnull(b = conf_queue_find(&c, "B-2_x"));
	ck_assert_ptr_null(conf_queue_find(&c, "b-2_x"));
	ck_assert_ptr_null(conf_queue_find(&c, "missing"));
	ck_assert_int_eq(a->batch, 5);
	ck_assert_int_eq(a->mode, MODE_RATE);
	ck_assert_int_eq(b->batch, 0);
	ck_assert_int_eq(b->mode, MODE_CAPACITY);
	ck_assert_int_eq(b->state, STATE_CLOSED);
	ck_assert_str_eq(c.page_template, "/srv/global.html");
	ck_assert_ptr_null(a->page_template);
	conf_free(&c);
}
END_TEST

START_TEST(test_empty_value_clears)
{
	struct conf c;

	ck_assert_int_eq(load(&c,
	    "admin_token_file = /etc/a\n"
	    "admin_token_file =\n"
	    "cors_origins = *\n"), 0);
	ck_assert_ptr_null(c.admin_token_file);
	ck_assert_str_eq(c.cors_origins, "*");
	conf_free(&c);
}
END_TEST

START_TEST(test_addresses)
{
	char host[CONF_ADDR_MAX];
	int port;

	ck_assert_int_eq(conf_addr_split("127.0.0.1:8080", host, sizeof host,
	    &port), 0);
	ck_assert_str_eq(host, "127.0.0.1");
	ck_assert_int_eq(port, 8080);
	ck_assert_int_eq(conf_addr_split("[::1]:0", host, sizeof host, &port),
	    0);
	ck_assert_str_eq(host, "::1");
	ck_assert_int_eq(port, 0);
	ck_assert_int_eq(conf_addr_split("redis.internal:6380", host,
	    sizeof host, &port), 0);
	ck_assert_str_eq(host, "redis.internal");
	ck_assert_int_eq(port, 6380);
	ck_assert_int_eq(conf_addr_split("unix:/run/r.sock", host, sizeof host,
	    &port), 0);
	ck_assert_str_eq(host, "/run/r.sock");
	ck_assert_int_eq(port, -1);
	ck_assert_int_eq(conf_addr_split("::1:80", host, sizeof host, &port),
	    -1);
	ck_assert_int_eq(conf_addr_split("[::1]", host, sizeof host, &port),
	    -1);
	ck_assert_int_eq(conf_addr_split("[::1]x:80", host, sizeof host,
	    &port), -1);
	ck_assert_int_eq(conf_addr_split("127.0.0.1:8080", host, 9, &port),
	    -1);
}
END_TEST

START_TEST(test_good_values)
{
	static const char *const good[][2] = {
		{ "listen", "localhost:8080" },
		{ "listen", "[::]:0" },
		{ "listen", "[2001:db8::1]:443" },
		{ "listen", "10.1.2.3:00080" },
		{ "redis", "redis.internal:6379" },
		{ "redis", "[::1]:6379" },
		{ "redis", "10.0.0.5:65535" },
		{ "key_prefix", "A.b_c-9" },
		{ "key_prefix", "abcdefghijklmnopqrstuvwxyz012345" },
		{ "workers", "64" },
		{ "workers", "1" },
		{ "pass_cookie", "__Host-wr!#$%&'*+-.^_`|~" },
		{ "log_level", "error" },
	};
	struct conf c;

	conf_init(&c);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(conf_global_set(&c, good[i][0], good[i][1], err,
		    sizeof err) == 0, "%s = %s: %s", good[i][0], good[i][1],
		    err);
	conf_free(&c);
}
END_TEST

START_TEST(test_good_redirects)
{
	static const char *const good[] = {
		"/", "/enter?x=1&y=2", "http://a", "https://shop.example/c",
		"https://shop.example/%ED%95%9C",
		"https://shop.example/\xed\x95\x9c",
	};
	struct queue_conf q;

	conf_queue_init(&q, "q");
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		ck_assert_msg(conf_queue_set(&q, "redirect", good[i], err,
		    sizeof err) == 0, "%s: %s", good[i], err);
		ck_assert_str_eq(q.redirect, good[i]);
	}
	conf_queue_free(&q);
}
END_TEST

/* Bad files: the exact message a user sees. */
static const struct {
	const char *text, *want;
} bad_files[] = {
	{ "listen = 127.0.0.1:80\nlisen = 1\n",
	  "waitroom.conf:2: unknown key 'lisen' (accepted: " GLOBAL_KEYS ")" },
	{ "[queue concert]\n\nbacth = 10\n",
	  "waitroom.conf:3: unknown key 'bacth' in [queue concert] "
	  "(accepted: " QUEUE_KEYS ")" },
	{ "[queue q]\nbatch = 1O\n",
	  "waitroom.conf:2: key 'batch': '1O' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n# 7\n# 8\n# 9\n# 10\n"
	  "[queue q]\nbatch = -1\n",
	  "waitroom.conf:12: key 'batch': '-1' is out of range "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch = 10x\n",
	  "waitroom.conf:2: key 'batch': '10x' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch = 10 20\n",
	  "waitroom.conf:2: key 'batch': '10 20' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch = +5\n",
	  "waitroom.conf:2: key 'batch': '+5' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch = 0x10\n",
	  "waitroom.conf:2: key 'batch': '0x10' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch =\n",
	  "waitroom.conf:2: key 'batch': '' is not an integer "
	  "(accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nbatch = 99999999999999999999999\n",
	  "waitroom.conf:2: key 'batch': '99999999999999999999999' is out of "
	  "range (accepted: an integer from 0 to 1000000)" },
	{ "[queue q]\nmax_waiting = -1\n",
	  "waitroom.conf:2: key 'max_waiting': '-1' is out of range "
	  "(accepted: an integer from 0 to 1000000000)" },
	{ "[queue q]\nwaiting_ttl = 4\n",
	  "waitroom.conf:2: key 'waiting_ttl': '4' is out of range "
	  "(accepted: an integer from 5 to 86400)" },
	{ "workers = 0\n",
	  "waitroom.conf:1: key 'workers': '0' is out of range "
	  "(accepted: an integer from 1 to 64, or auto)" },
	{ "workers = 65\n",
	  "waitroom.conf:1: key 'workers': '65' is out of range "
	  "(accepted: an integer from 1 to 64, or auto)" },
	{ "max_body = 63\n",
	  "waitroom.conf:1: key 'max_body': '63' is out of range "
	  "(accepted: an integer from 64 to 1048576)" },
	{ "[queue q]\nmode = fast\n",
	  "waitroom.conf:2: key 'mode': 'fast' is not valid "
	  "(accepted: rate, capacity, passthrough)" },
	{ "[queue q]\nstate = Open\n",
	  "waitroom.conf:2: key 'state': 'Open' is not valid "
	  "(accepted: open, paused, closed)" },
	{ "log_level = verbose\n",
	  "waitroom.conf:1: key 'log_level': 'verbose' is not valid "
	  "(accepted: debug, info, warn, error)" },
	{ "log_level = \001x\n",
	  "waitroom.conf:1: key 'log_level': '\\x01x' is not valid "
	  "(accepted: debug, info, warn, error)" },
	{ "listen 127.0.0.1:80\n",
	  "waitroom.conf:1: malformed line 'listen 127.0.0.1:80' "
	  "(accepted: key = value, [queue NAME], or a # comment)" },
	{ "\n= 5\n",
	  "waitroom.conf:2: malformed line '= 5' "
	  "(accepted: key = value, [queue NAME], or a # comment)" },
	{ "[queue]\n",
	  "waitroom.conf:1: bad section header '[queue]' "
	  "(accepted: [queue NAME])" },
	{ "[server]\n",
	  "waitroom.conf:1: bad section header '[server]' "
	  "(accepted: [queue NAME])" },
	{ "[queue concert\n",
	  "waitroom.conf:1: bad section header '[queue concert' "
	  "(accepted: [queue NAME])" },
	{ "[queueconcert]\n",
	  "waitroom.conf:1: bad section header '[queueconcert]' "
	  "(accepted: [queue NAME])" },
	{ "[queue concert] x\n",
	  "waitroom.conf:1: bad section header '[queue concert] x' "
	  "(accepted: [queue NAME])" },
	{ "[queue bad!id]\n",
	  "waitroom.conf:1: bad queue name 'bad!id' "
	  "(accepted: 1 to 64 of A-Z a-z 0-9 _ -)" },
	{ "[queue a b]\n",
	  "waitroom.conf:1: bad queue name 'a b' "
	  "(accepted: 1 to 64 of A-Z a-z 0-9 _ -)" },
	{ "[queue concert]\nbatch = 5\n[queue other]\n[queue concert]\n",
	  "waitroom.conf:4: duplicate section [queue concert]" },
	{ "[queue concert]\nlisten = 127.0.0.1:80\n",
	  "waitroom.conf:2: key 'listen' is global: put it before the first "
	  "[queue] section" },
	{ "batch = 5\n",
	  "waitroom.conf:1: key 'batch' belongs to a queue: put it in a "
	  "[queue NAME] section" },
	{ "listen = localhost\n",
	  "waitroom.conf:1: key 'listen': 'localhost' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = shop.example:80\n",
	  "waitroom.conf:1: key 'listen': 'shop.example:80' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = 127.0.0.1:65536\n",
	  "waitroom.conf:1: key 'listen': '127.0.0.1:65536' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = 127.0.0.1:\n",
	  "waitroom.conf:1: key 'listen': '127.0.0.1:' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = 1.2.3:80\n",
	  "waitroom.conf:1: key 'listen': '1.2.3:80' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = ::1:80\n",
	  "waitroom.conf:1: key 'listen': '::1:80' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = [::g]:80\n",
	  "waitroom.conf:1: key 'listen': '[::g]:80' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen = unix:/run/w.sock\n",
	  "waitroom.conf:1: key 'listen': 'unix:/run/w.sock' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "listen =\n",
	  "waitroom.conf:1: key 'listen': '' is not valid "
	  "(accepted: " ACC_LISTEN ")" },
	{ "redis = 127.0.0.1:0\n",
	  "waitroom.conf:1: key 'redis': '127.0.0.1:0' is not valid "
	  "(accepted: " ACC_REDIS ")" },
	{ "redis = unix:run/redis.sock\n",
	  "waitroom.conf:1: key 'redis': 'unix:run/redis.sock' is not valid "
	  "(accepted: " ACC_REDIS ")" },
	{ "redis = redis.internal\n",
	  "waitroom.conf:1: key 'redis': 'redis.internal' is not valid "
	  "(accepted: " ACC_REDIS ")" },
	{ "redis = bad_host:6379\n",
	  "waitroom.conf:1: key 'redis': 'bad_host:6379' is not valid "
	  "(accepted: " ACC_REDIS ")" },
	{ "[queue q]\nredirect = ftp://shop.example/\n",
	  "waitroom.conf:2: key 'redirect': 'ftp://shop.example/' is not "
	  "valid (accepted: " ACC_REDIRECT ")" },
	{ "[queue q]\nredirect = shop.example\n",
	  "waitroom.conf:2: key 'redirect': 'shop.example' is not "
	  "valid (accepted: " ACC_REDIRECT ")" },
	{ "[queue q]\nredirect = https://shop.example/a b\n",
	  "waitroom.conf:2: key 'redirect': 'https://shop.example/a b' is not "
	  "valid (accepted: " ACC_REDIRECT ")" },
	{ "[queue q]\nredirect = https://\n",
	  "waitroom.conf:2: key 'redirect': 'https://' is not "
	  "valid (accepted: " ACC_REDIRECT ")" },
	{ "[queue q]\nredirect = https://shop.example/\xed\x95\n",
	  "waitroom.conf:2: key 'redirect': 'https://shop.example/\\xed\\x95' "
	  "is not valid (accepted: " ACC_REDIRECT ")" },
	{ "[queue q]\nredirect = /a\tb\n",
	  "waitroom.conf:2: key 'redirect': '/a\\x09b' is not "
	  "valid (accepted: " ACC_REDIRECT ")" },
	{ "key_prefix = wr:x\n",
	  "waitroom.conf:1: key 'key_prefix': 'wr:x' is not valid "
	  "(accepted: 1 to 32 of A-Z a-z 0-9 _ . -)" },
	{ "pass_cookie = a;b\n",
	  "waitroom.conf:1: key 'pass_cookie': 'a;b' is not valid "
	  "(accepted: 1 to 64 cookie-name characters: A-Z a-z 0-9 and "
	  "! # $ % & ' * + - . ^ _ ` | ~)" },
};

START_TEST(test_bad_file)
{
	struct conf c;

	ck_assert_int_eq(load(&c, bad_files[_i].text), -1);
	ck_assert_str_eq(err, bad_files[_i].want);
	conf_free(&c);
}
END_TEST

START_TEST(test_bad_queue_name_length)
{
	char text[128];
	struct conf c;

	snprintf(text, sizeof text, "[queue %.64s]\n", "aaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	ck_assert_int_eq(load(&c, text), 0);
	ck_assert_uint_eq(c.nqueues, 1);
	ck_assert_uint_eq(strlen(c.queues[0].name), 64);
	conf_free(&c);

	snprintf(text, sizeof text, "[queue %.65s]\n", "aaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	ck_assert_int_eq(load(&c, text), -1);
	ck_assert_ptr_nonnull(strstr(err, "waitroom.conf:1: bad queue name '"));
	conf_free(&c);
}
END_TEST

START_TEST(test_long_value_cut)
{
	char text[4200];
	struct conf c;

	memset(text, 'x', sizeof text);
	memcpy(text, "log_level = ", 12);
	text[sizeof text - 1] = '\0';
	ck_assert_int_eq(load(&c, text), -1);
	ck_assert_uint_lt(strlen(err), CONF_ERR_MAX);
	ck_assert_ptr_nonnull(strstr(err, "xxxxxxxx...' is not valid "
	    "(accepted: debug, info, warn, error)"));
	conf_free(&c);
}
END_TEST

/* A long value is cut between characters, never inside one. */
START_TEST(test_long_value_cut_utf8)
{
	char text[600];
	size_t i;
	struct conf c;

	strcpy(text, "log_level = x");
	for (i = 0; i < 100; i++)
		strcat(text, "\xed\x95\x9c");
	ck_assert_int_eq(load(&c, text), -1);
	/* 1 + 21 whole characters: 64 bytes, the limit */
	ck_assert_ptr_nonnull(strstr(err, "\xed\x95\x9c...' is not valid"));
	ck_assert_uint_eq(strstr(err, "...'") - (strstr(err, "': '") + 4), 64);
	conf_free(&c);
}
END_TEST

START_TEST(test_pass_cookie_keys)
{
	struct conf c;

	ck_assert_int_eq(load(&c, "pass_cookie = wr_pass\n"), 0);
	ck_assert_int_eq(c.pass_cookie_secure, 1);	/* Secure by default */
	ck_assert_ptr_null(c.pass_cookie_domain);
	conf_free(&c);
	ck_assert_int_eq(load(&c, "pass_cookie_secure = no\n"
	    "pass_cookie_domain = .shop.example\n"), 0);
	ck_assert_int_eq(c.pass_cookie_secure, 0);
	ck_assert_str_eq(c.pass_cookie_domain, ".shop.example");
	conf_free(&c);
	ck_assert_int_eq(load(&c, "pass_cookie_secure = off\n"), -1);
	ck_assert_str_eq(err, "waitroom.conf:1: key 'pass_cookie_secure': "
	    "'off' is not valid (accepted: no, yes)");
	conf_free(&c);
	ck_assert_int_eq(load(&c, "\npass_cookie_domain = shop example\n"),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "waitroom.conf:2: key "
	    "'pass_cookie_domain'"));
	conf_free(&c);
	ck_assert_int_eq(load(&c, "pass_cookie_domain = 10.0.0.1\n"), -1);
	conf_free(&c);
}
END_TEST

START_TEST(test_bad_set_keeps_value)
{
	struct conf c;

	ck_assert_int_eq(load(&c, "push_interval = 9\npush_interval = 0\n"),
	    -1);
	ck_assert_int_eq(c.push_interval, 9);
	conf_free(&c);
}
END_TEST

START_TEST(test_queue_set)
{
	struct queue_conf q;

	conf_queue_init(&q, "concert");
	ck_assert_int_eq(conf_queue_set(&q, "batch", "-1", err, sizeof err),
	    -1);
	ck_assert_str_eq(err, "key 'batch': '-1' is out of range "
	    "(accepted: an integer from 0 to 1000000)");
	ck_assert_int_eq(q.batch, 0);
	ck_assert_int_eq(conf_queue_set(&q, "bacth", "5", err, sizeof err),
	    -1);
	ck_assert_str_eq(err, "unknown key 'bacth' in [queue concert] "
	    "(accepted: " QUEUE_KEYS ")");
	ck_assert_int_eq(conf_queue_set(&q, "listen", "127.0.0.1:80", err,
	    sizeof err), -1);
	ck_assert_str_eq(err, "key 'listen' is global: put it before the "
	    "first [queue] section");
	ck_assert_int_eq(conf_queue_set(&q, "mode", "capacity", err,
	    sizeof err), 0);
	ck_assert_int_eq(q.mode, MODE_CAPACITY);
	ck_assert_int_eq(conf_queue_set(&q, "redirect", "/in", err,
	    sizeof err), 0);
	ck_assert_str_eq(q.redirect, "/in");
	ck_assert_int_eq(conf_queue_set(&q, "redirect", "", err, sizeof err),
	    0);
	ck_assert_ptr_null(q.redirect);
	conf_queue_free(&q);
}
END_TEST

START_TEST(test_global_set)
{
	struct conf c;

	conf_init(&c);
	ck_assert_int_eq(conf_global_set(&c, "batch", "5", err, sizeof err),
	    -1);
	ck_assert_str_eq(err, "key 'batch' belongs to a queue: put it in a "
	    "[queue NAME] section");
	ck_assert_int_eq(conf_global_set(&c, "nope", "5", err, sizeof err),
	    -1);
	ck_assert_str_eq(err, "unknown key 'nope' (accepted: " GLOBAL_KEYS
	    ")");
	ck_assert_int_eq(conf_global_set(&c, "listen", "x", err, sizeof err),
	    -1);
	ck_assert_str_eq(err, "key 'listen': 'x' is not valid "
	    "(accepted: " ACC_LISTEN ")");
	ck_assert_str_eq(c.listen, "127.0.0.1:8080");
	ck_assert_int_eq(conf_global_set(&c, "listen", "[::1]:0", err,
	    sizeof err), 0);
	ck_assert_str_eq(c.listen, "[::1]:0");
	/* a NULL err is allowed */
	ck_assert_int_eq(conf_global_set(&c, "workers", "x", NULL, 0), -1);
	conf_free(&c);
}
END_TEST

struct fields {
	char buf[512];
	int n;
};

static void
collect(const char *key, const char *value, void *arg)
{
	struct fields *f = arg;
	size_t len = strlen(f->buf);

	snprintf(f->buf + len, sizeof f->buf - len, "%s=%s;", key, value);
	f->n++;
}

/* The proof-of-work keys' defaults; pow_bits auto is written 0. */
#define POW_DEFAULTS "join_challenge=off;pow_bits=0;pow_ttl=300;" \
    "pow_start_bits=16;pow_max_bits=22;pow_calm_rate=10;"

START_TEST(test_queue_fields)
{
	struct queue_conf q;
	struct fields f = { "", 0 };

	conf_queue_init(&q, "concert");
	conf_queue_fields(&q, collect, &f);
	ck_assert_int_eq(f.n, 19);
	ck_assert_str_eq(f.buf, "mode=rate;batch=0;interval=10;"
	    "max_active=0;active_ttl=300;waiting_ttl=120;max_waiting=0;"
	    "state=open;" POW_DEFAULTS "renew=no;access=open;"
	    "report_ttl=2592000;noshow_after=0;noshow_refill=no;");

	ck_assert_int_eq(conf_queue_set(&q, "mode", "capacity", err,
	    sizeof err), 0);
	ck_assert_int_eq(conf_queue_set(&q, "state", "closed", err,
	    sizeof err), 0);
	ck_assert_int_eq(conf_queue_set(&q, "redirect", "https://x.example/",
	    err, sizeof err), 0);
	ck_assert_int_eq(conf_queue_set(&q, "page_template", "/srv/p.html",
	    err, sizeof err), 0);
	f.buf[0] = '\0';
	f.n = 0;
	conf_queue_fields(&q, collect, &f);
	ck_assert_int_eq(f.n, 20);
	ck_assert_str_eq(f.buf, "mode=capacity;batch=0;interval=10;"
	    "max_active=0;active_ttl=300;waiting_ttl=120;max_waiting=0;"
	    "state=closed;redirect=https://x.example/;" POW_DEFAULTS
	    "renew=no;access=open;report_ttl=2592000;"
	    "noshow_after=0;noshow_refill=no;");
	conf_queue_free(&q);
}
END_TEST

START_TEST(test_schedule_times)
{
	struct queue_conf q;
	char msg[CONF_ERR_MAX], buf[32];

	conf_queue_init(&q, "sale");
	ck_assert_int_eq(conf_queue_set(&q, "opens_at", "2026-12-01T10:00:00Z",
	    msg, sizeof msg), 0);
	ck_assert_int_eq(q.opens_at, 1796119200);
	ck_assert_str_eq(conf_queue_value(&q, "opens_at", buf, sizeof buf),
	    "1796119200");
	ck_assert_int_eq(conf_queue_set(&q, "opens_at",
	    "2024-02-29t23:59:59+00:00", msg, sizeof msg), 0);
	ck_assert_int_eq(q.opens_at, 1709251199);
	ck_assert_int_eq(conf_queue_set(&q, "closes_at", "1796122800", msg,
	    sizeof msg), 0);
	ck_assert_int_eq(q.closes_at, 1796122800);
	ck_assert_int_eq(conf_queue_set(&q, "closes_at", "", msg, sizeof msg),
	    0);
	ck_assert_int_eq(q.closes_at, 0);
	ck_assert_str_eq(conf_queue_value(&q, "closes_at", buf, sizeof buf),
	    "");
	/* not UTC, not a date, not a leap year, a fraction: refused */
	ck_assert_int_eq(conf_queue_set(&q, "opens_at",
	    "2026-12-01T10:00:00+09:00", msg, sizeof msg), -1);
	ck_assert_str_eq(msg, "key 'opens_at': '2026-12-01T10:00:00+09:00' is "
	    "not valid (accepted: a time in UTC such as 2026-12-01T10:00:00Z "
	    "(RFC 3339), unix seconds, or empty for none)");
	ck_assert_int_eq(conf_queue_set(&q, "opens_at", "2026-02-30T10:00:00Z",
	    msg, sizeof msg), -1);
	ck_assert_int_eq(conf_queue_set(&q, "opens_at", "2025-02-29T10:00:00Z",
	    msg, sizeof msg), -1);
	ck_assert_int_eq(conf_queue_set(&q, "opens_at",
	    "2026-12-01T10:00:00.5Z", msg, sizeof msg), -1);
	ck_assert_int_eq(conf_queue_set(&q, "opens_at", "-5", msg,
	    sizeof msg), -1);
	ck_assert_int_eq(q.opens_at, 1709251199);	/* kept */
	conf_queue_free(&q);
}
END_TEST

/* prequeue_from <= opens_at <= closes_at, each where set. */
START_TEST(test_schedule_order)
{
	struct conf c;
	char why[CONF_ERR_MAX];

	ck_assert_ptr_null(conf_check_schedule(2000, 1000, 3000, why,
	    sizeof why));
	ck_assert_ptr_null(conf_check_schedule(2000, 2000, 2000, why,
	    sizeof why));
	ck_assert_ptr_null(conf_check_schedule(0, 5000, 1000, why,
	    sizeof why));	/* no opening: nothing to order */
	ck_assert_str_eq(conf_check_schedule(2000, 0, 1999, why, sizeof why),
	    "closes_at");
	ck_assert_str_eq(why, "key 'closes_at': 1999 is before opens_at 2000 "
	    "(accepted: a time at or after opens_at, or none)");
	ck_assert_str_eq(conf_check_schedule(2000, 2001, 0, why, sizeof why),
	    "prequeue_from");
	ck_assert_str_eq(why, "key 'prequeue_from': 2001 is after opens_at "
	    "2000 (accepted: a time at or before opens_at, or none)");
	/* The file: the line that breaks the order is named. */
	ck_assert_int_eq(load(&c, "[queue sale]\ncloses_at = 1000\n"
	    "opens_at = 2000\n"), -1);
	ck_assert_str_eq(err, "waitroom.conf:3: key 'closes_at': 1000 is "
	    "before opens_at 2000 (accepted: a time at or after opens_at, or "
	    "none)");
	conf_free(&c);
	ck_assert_int_eq(load(&c, "[queue sale]\nopens_at = 2000\n"
	    "prequeue_from = 1000\ncloses_at = 2000\n"), 0);
	conf_free(&c);
}
END_TEST

START_TEST(test_enum_names)
{
	ck_assert_str_eq(conf_mode_name(MODE_RATE), "rate");
	ck_assert_str_eq(conf_mode_name(MODE_CAPACITY), "capacity");
	ck_assert_str_eq(conf_state_name(STATE_OPEN), "open");
	ck_assert_str_eq(conf_state_name(STATE_PAUSED), "paused");
	ck_assert_str_eq(conf_state_name(STATE_CLOSED), "closed");
	ck_assert_int_eq(conf_mode_by_name("rate"), MODE_RATE);
	ck_assert_int_eq(conf_mode_by_name("capacity"), MODE_CAPACITY);
	ck_assert_int_eq(conf_mode_by_name("passthrough"), MODE_PASSTHROUGH);
	ck_assert_int_eq(conf_mode_by_name("Rate"), -1);
	ck_assert_int_eq(conf_state_by_name("open"), STATE_OPEN);
	ck_assert_int_eq(conf_state_by_name("paused"), STATE_PAUSED);
	ck_assert_int_eq(conf_state_by_name("closed"), STATE_CLOSED);
	ck_assert_int_eq(conf_state_by_name(""), -1);
}
END_TEST

START_TEST(test_missing_file)
{
	struct conf c;

	conf_init(&c);
	ck_assert_int_eq(conf_load_file(&c, "/nonexistent/waitroom.conf", err,
	    sizeof err), -1);
	ck_assert_str_eq(err, "/nonexistent/waitroom.conf: cannot read: "
	    "No such file or directory");
	conf_free(&c);
}
END_TEST

START_TEST(test_shipped_example)
{
	const char *top = getenv("TOP_SRCDIR");
	const struct queue_conf *q;
	char path[4096];
	struct conf c;

	if (top == NULL)
		return;		/* outside make check: nothing to find */
	snprintf(path, sizeof path, "%s/etc/waitroom.conf", top);
	conf_init(&c);
	ck_assert_msg(conf_load_file(&c, path, err, sizeof err) == 0, "%s",
	    err);
	ck_assert_str_eq(c.listen, "127.0.0.1:8080");
	ck_assert_uint_eq(c.nqueues, 1);
	ck_assert_ptr_nonnull(q = conf_queue_find(&c, "demo"));
	ck_assert_int_eq(q->mode, MODE_RATE);
	ck_assert_int_eq(q->batch, 10);
	ck_assert_int_eq(q->interval, 5);
	ck_assert_int_eq(q->active_ttl, 300);
	ck_assert_int_eq(q->waiting_ttl, 120);
	ck_assert_ptr_null(q->redirect);
	conf_free(&c);
}
END_TEST

START_TEST(test_key_kind)
{
	ck_assert_int_eq(conf_queue_key_kind("batch"), CONF_SHARED_INT);
	ck_assert_int_eq(conf_queue_key_kind("max_waiting"), CONF_SHARED_INT);
	ck_assert_int_eq(conf_queue_key_kind("mode"), CONF_SHARED_TEXT);
	ck_assert_int_eq(conf_queue_key_kind("state"), CONF_SHARED_TEXT);
	ck_assert_int_eq(conf_queue_key_kind("redirect"), CONF_SHARED_TEXT);
	ck_assert_int_eq(conf_queue_key_kind("page_template"), CONF_LOCAL);
	ck_assert_int_eq(conf_queue_key_kind("listen"), CONF_UNKNOWN);
	ck_assert_int_eq(conf_queue_key_kind("file_sha"), CONF_UNKNOWN);
	ck_assert_int_eq(conf_queue_key_kind(""), CONF_UNKNOWN);
}
END_TEST

/* --list-keys: every key once, each accepted by the scope it names. */
START_TEST(test_key_table)
{
	const char *name, *scope;
	struct conf c;
	struct queue_conf q;
	char msg[CONF_ERR_MAX];
	size_t n = 0;
	int restart;

	conf_init(&c);
	conf_queue_init(&q, "t");
	for (size_t i = 0; (name = conf_key_at(i, &scope, &restart)) != NULL;
	    i++, n++) {
		int global = strcmp(scope, "queue") != 0;

		ck_assert(strcmp(scope, "both") == 0 || strcmp(scope,
		    "global") == 0 || strcmp(scope, "queue") == 0);
		msg[0] = '\0';
		if (global && conf_global_set(&c, name, "\x01", msg,
		    sizeof msg) == -1)
			ck_assert_msg(strstr(msg, "unknown") == NULL, "%s: %s",
			    name, msg);
		if (strcmp(scope, "global") != 0)
			ck_assert_msg(conf_queue_key_kind(name) != CONF_UNKNOWN,
			    "%s", name);
	}
	ck_assert_uint_ge(n, 20);
	ck_assert_ptr_null(conf_key_at(n + 1, &scope, &restart));
	conf_queue_free(&q);
	conf_free(&c);
}
END_TEST

static void
note_kept(const char *key, void *arg)
{
	char *names = arg;

	strcat(names, key);
	strcat(names, " ");
}

/* A reload keeps what only a restart changes, by the table's column. */
START_TEST(test_keep_restart)
{
	struct conf old, fresh;
	char why[CONF_ERR_MAX], kept[256] = "";

	conf_init(&old);
	conf_init(&fresh);
	ck_assert_int_eq(conf_load_string(&old, "listen = 127.0.0.1:1\n"
	    "workers = 2\npush_interval = 3\n[queue a]\n"
	    "page_template = /a\n", "old", why, sizeof why), 0);
	ck_assert_int_eq(conf_load_string(&fresh, "listen = 127.0.0.1:2\n"
	    "workers = 2\npush_interval = 5\njoin_rate_per_ip = 9\n"
	    "[queue a]\npage_template = /b\nbatch = 7\n", "fresh", why,
	    sizeof why), 0);
	conf_keep_restart(&fresh, &old, note_kept, kept);
	ck_assert_str_eq(kept, "listen join_rate_per_ip page_template ");
	ck_assert_str_eq(fresh.listen, "127.0.0.1:1");
	ck_assert_int_eq(fresh.join_rate_per_ip, 0);
	ck_assert_str_eq(fresh.queues[0].page_template, "/a");
	ck_assert_int_eq(fresh.push_interval, 5);	/* reloads */
	ck_assert_int_eq(fresh.queues[0].batch, 7);
	ck_assert_str_eq(old.listen, "127.0.0.1:2");	/* old frees it */
	conf_free(&old);
	conf_free(&fresh);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf");
	TCase *tc = tcase_create("good");
	TCase *bad = tcase_create("bad");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_every_global_key);
	tcase_add_test(tc, test_every_queue_key);
	tcase_add_test(tc, test_comments_whitespace);
	tcase_add_test(tc, test_several_queues);
	tcase_add_test(tc, test_empty_value_clears);
	tcase_add_test(tc, test_addresses);
	tcase_add_test(tc, test_good_values);
	tcase_add_test(tc, test_good_redirects);
	tcase_add_test(tc, test_queue_set);
	tcase_add_test(tc, test_global_set);
	tcase_add_test(tc, test_queue_fields);
	tcase_add_test(tc, test_enum_names);
	tcase_add_test(tc, test_schedule_times);
	tcase_add_test(tc, test_schedule_order);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_shipped_example);
	tcase_add_test(tc, test_key_kind);
	tcase_add_test(tc, test_key_table);
	tcase_add_test(tc, test_keep_restart);
	tcase_add_loop_test(bad, test_bad_file, 0,
	    (int)(sizeof bad_files / sizeof bad_files[0]));
	tcase_add_test(bad, test_bad_queue_name_length);
	tcase_add_test(bad, test_long_value_cut);
	tcase_add_test(bad, test_long_value_cut_utf8);
	tcase_add_test(bad, test_bad_set_keeps_value);
	tcase_add_test(tc, test_pass_cookie_keys);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, bad);
	return unit_run(s);
}
