/*
 * check_ticket.c: the draw's arithmetic against values computed with
 * Python's hashlib and hmac (doc/api.md's check script).
 */
#include <stdio.h>
#include <string.h>

#include "ticket.h"
#include "unit.h"

#define TOKEN "0b7c1a2e-3f4d-4c5b-8a6e-7f8091a2b3c4"
#define TICKET "5009e8b2339af9d79f565d558a577994"
/* bytes 0, 1, ..., 31 */
#define SEED "000102030405060708090a0b0c0d0e0f" \
	"101112131415161718191a1b1c1d1e1f"

START_TEST(test_ticket)
{
	char t[TICKET_LEN + 1];

	ticket_of(TOKEN, t);
	ck_assert_str_eq(t, TICKET);
}
END_TEST

START_TEST(test_commit)
{
	char c[TICKET_HEX + 1], s[TICKET_HEX + 1], c2[TICKET_HEX + 1];

	ck_assert_int_eq(ticket_commit(SEED, c), 0);
	ck_assert_str_eq(c, "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8"
	    "abc1b8581bd710dd");
	ck_assert_int_eq(ticket_commit("00", c), -1);	/* not 32 bytes */
	ck_assert_int_eq(ticket_commit("zz" "0102030405060708090a0b0c0d0e0f"
	    "101112131415161718191a1b1c1d1e1f", c), -1);
	ck_assert_int_eq(ticket_new_seed(s, c), 0);
	ck_assert_int_eq(ticket_commit(s, c2), 0);
	ck_assert_str_eq(c, c2);
}
END_TEST

START_TEST(test_member)
{
	unsigned char k[32];
	char m[TICKET_MEMBER_MAX + 1];

	/* with a beacon: K = SHA-256(seed || beacon) */
	ck_assert_int_eq(ticket_draw_key(SEED, "ABcdef", k), 0);
	ck_assert_uint_eq(ticket_member(k, TOKEN, m), 64 + 32 + 36);
	ck_assert_str_eq(m, "38147d568cd37f1edfd16b8d55fc8ad5e8272e1e7e3564e7"
	    "879dc404be11e635" TICKET TOKEN);
	/* without: K = SHA-256(seed) */
	ck_assert_int_eq(ticket_draw_key(SEED, "", k), 0);
	ticket_member(k, TOKEN, m);
	ck_assert_str_eq(m, "48d1c1dea44a5b961439cc7a12e08770c6a51c7d022d7891"
	    "2b8f54eaa6df0eb1" TICKET TOKEN);
	ck_assert_int_eq(ticket_draw_key(SEED, "abc", k), -1);	/* odd */
	ck_assert_int_eq(ticket_draw_key("ab", "", k), -1);
}
END_TEST

START_TEST(test_check_order)
{
	unsigned char k[32];
	char a[TICKET_LEN + 1], b[TICKET_LEN + 1], m[2][TICKET_MEMBER_MAX + 1];
	char order[2 * (TICKET_LEN + 1) + 1];
	const char *ta = "aaaaaaaa-0000-4000-8000-000000000001";
	const char *tb = "bbbbbbbb-0000-4000-8000-000000000002";
	long place;
	int first;

	ck_assert_int_eq(ticket_draw_key(SEED, "", k), 0);
	ticket_member(k, ta, m[0]);
	ticket_member(k, tb, m[1]);
	ticket_of(ta, a);
	ticket_of(tb, b);
	first = strcmp(m[0], m[1]) < 0 ? 0 : 1;
	snprintf(order, sizeof order, "%s\n%s\n", first ? b : a,
	    first ? a : b);
	ck_assert_int_eq(ticket_check_order(k, order, strlen(order), a, &place),
	    2);
	ck_assert_int_eq(place, first ? 2 : 1);
	/* swapped: not the order */
	snprintf(order, sizeof order, "%s\n%s\n", first ? a : b,
	    first ? b : a);
	ck_assert_int_eq(ticket_check_order(k, order, strlen(order), NULL,
	    &place), -1);
	ck_assert_int_eq(ticket_check_order(k, "", 0, a, &place), 0);
	ck_assert_int_eq(place, 0);
	ck_assert_int_eq(ticket_check_order(k, "abc\n", 4, NULL, &place), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ticket");
	TCase *tc = tcase_create("ticket");

	tcase_add_test(tc, test_ticket);
	tcase_add_test(tc, test_commit);
	tcase_add_test(tc, test_member);
	tcase_add_test(tc, test_check_order);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
