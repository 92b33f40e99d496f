/*
 * lang.c: one table of every text of the waiting page, one column per
 * language. "{n}" in a text stands for a number. A template reaches a text
 * as {{t_KEY}}; the script gets the whole column as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang.h"

struct text {
	const char *key;
	const char *text[LANG_COUNT];
};

static const struct text texts[] = {
	{ "title", { "Waiting room", "대기실" } },
	{ "heading", { "You are in line", "대기열에 계십니다" } },
	{ "lead", { "Keep this page open. It updates by itself and takes "
	  "you to the site as soon as it is your turn.",
	  "이 페이지를 열어 두세요. 자동으로 새로 고쳐지며, 차례가 되면 "
	  "바로 사이트로 이동합니다." } },
	{ "position", { "Your place in line", "나의 대기 순번" } },
	{ "ahead", { "Ahead of you", "내 앞의 인원" } },
	{ "waiting", { "Waiting in all", "전체 대기 인원" } },
	{ "eta", { "Estimated wait", "예상 대기 시간" } },
	{ "progress", { "Progress to the front of the line",
	  "대기열 앞까지의 진행률" } },
	{ "notice", { "Message from the organizer", "운영자 안내" } },
	{ "live", { "Live: updates on its own", "실시간으로 갱신 중" } },
	{ "reconnecting", { "Reconnecting…", "다시 연결하는 중…" } },
	{ "joining", { "Joining the line…", "대기열에 들어가는 중…" } },
	{ "announce", { "You are number {n} in line.",
	  "현재 대기 순번은 {n}번입니다." } },
	{ "entered", { "It is your turn! Taking you to the site…",
	  "차례가 되었습니다! 사이트로 이동합니다…" } },
	{ "continue", { "Continue to the site", "사이트로 이동" } },
	{ "gone", { "Your place in line has expired or was given up.",
	  "대기 순번이 만료되었거나 취소되었습니다." } },
	{ "rejoin", { "Join the line again", "다시 줄 서기" } },
	{ "join", { "Join the line", "줄 서기" } },
	{ "closed", { "This line is closed: it does not take new visitors "
	  "right now.", "이 대기열은 지금 새 방문자를 받지 않습니다." } },
	{ "not_open", { "This line does not take visitors yet: come back "
	  "when it opens.", "이 대기열은 아직 방문자를 받지 않습니다. 열리면 "
	  "다시 와 주세요." } },
	{ "full", { "The line is full right now. Please try again in a few "
	  "minutes.", "지금은 대기열이 가득 찼습니다. 몇 분 뒤에 다시 "
	  "시도해 주세요." } },
	{ "notfound", { "There is no waiting line at this address.",
	  "이 주소에는 대기열이 없습니다." } },
	{ "unavailable", { "The waiting room cannot be reached for a moment. "
	  "This page tries again by itself.",
	  "잠시 대기실에 연결할 수 없습니다. 이 페이지가 곧 다시 "
	  "시도합니다." } },
	{ "bad_token", { "This link to a place in line is not valid.",
	  "대기 순번 링크가 올바르지 않습니다." } },
	{ "noscript", { "JavaScript is off, so this page reloads itself "
	  "every few seconds.", "자바스크립트가 꺼져 있어 이 페이지가 몇 초마다 "
	  "새로 고쳐집니다." } },
	{ "checking", { "Checking your browser… about {n} seconds",
	  "브라우저를 확인하는 중… 약 {n}초" } },
	{ "checking_label", { "Checking your browser",
	  "브라우저를 확인하는 중" } },
	{ "needs_js", { "This line asks every browser for a short check "
	  "before it joins, and that check needs JavaScript at the moment. "
	  "Please turn JavaScript on and reload this page.",
	  "이 대기열은 지금 줄을 서기 전에 브라우저를 잠시 확인하며, 이 확인에는 "
	  "자바스크립트가 필요합니다. 자바스크립트를 켜고 이 페이지를 새로 "
	  "고쳐 주세요." } },
	{ "eta_soon", { "less than a minute", "1분 이내" } },
	{ "eta_minute", { "about 1 minute", "약 1분" } },
	{ "eta_minutes", { "about {n} minutes", "약 {n}분" } },
	{ "eta_hour", { "about 1 hour", "약 1시간" } },
	{ "eta_hours", { "about {n} hours", "약 {n}시간" } },
	{ "pre_heading", { "The line opens soon", "곧 대기열이 열립니다" } },
	{ "fair", { "Everyone here before the opening gets a random place in "
	  "line: no need to hurry.", "오픈 전에 들어온 모든 분은 무작위로 대기 "
	  "순번을 받습니다. 서두르지 않으셔도 됩니다." } },
	{ "opens", { "Opens at", "오픈 시각" } },
	{ "countdown", { "Time to the opening", "오픈까지 남은 시간" } },
	{ "entrants", { "In the pre-queue", "사전 대기 인원" } },
	{ "commit", { "The draw's commitment, public before the opening",
	  "오픈 전에 공개되는 추첨 커밋 값" } },
	{ "draw", { "the draw", "추첨 정보" } },
	{ "eta_none", { "no estimate while admissions are paused",
	  "입장 일시 중지 중 (예상 불가)" } },
};

#define NTEXTS (sizeof texts / sizeof texts[0])

static const char *const codes[LANG_COUNT] = { "en", "ko" };

const char *
lang_code(enum lang l)
{
	return l < LANG_COUNT ? codes[l] : codes[LANG_EN];
}

/* The language of a tag ("ko", "ko-KR", "EN-us"), or -1. */
static int
lang_of_tag(const char *tag, size_t len)
{
	size_t primary = strcspn(tag, "-");

	if (primary > len)
		primary = len;
	for (int l = 0; l < LANG_COUNT; l++)
		if (primary == strlen(codes[l]) &&
		    strncasecmp(tag, codes[l], primary) == 0)
			return l;
	return -1;
}

/* The q= of one range's parameters, in thousandths; 1000 when absent. */
static int
range_q(const char *params, size_t len)
{
	const char *q;
	double v;

	for (q = params; q < params + len; q++)
		if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
			break;
	if (q >= params + len)
		return 1000;
	v = strtod(q + 2, NULL);
	return v <= 0 ? 0 : v >= 1 ? 1000 : (int)(v * 1000);
}

enum lang
lang_choose(const char *accept, const char *override)
{
	int best = LANG_EN, bestq = 0, l;

	if (override && (l = lang_of_tag(override, strlen(override))) >= 0)
		return (enum lang)l;
	while (accept && *accept != '\0') {
		size_t n, tag;
		int q;

		accept += strspn(accept, " \t");
		n = strcspn(accept, ",");
		tag = strcspn(accept, "; \t");
		if (tag > n)
			tag = n;
		q = range_q(accept + tag, n - tag);
		if ((l = lang_of_tag(accept, tag)) >= 0 && q > bestq)
			best = l, bestq = q;
		accept += n + (accept[n] == ',');
	}
	return (enum lang)best;
}

size_t
lang_count(void)
{
	return NTEXTS;
}

const char *
lang_key(size_t i)
{
	return i < NTEXTS ? texts[i].key : NULL;
}

const char *
lang_text(enum lang l, size_t i)
{
	return i < NTEXTS && l < LANG_COUNT ? texts[i].text[l] : NULL;
}

int
lang_find(const char *key, size_t len)
{
	for (size_t i = 0; i < NTEXTS; i++)
		if (strlen(texts[i].key) == len &&
		    memcmp(texts[i].key, key, len) == 0)
			return (int)i;
	return -1;
}

const char *
lang_get(enum lang l, const char *key)
{
	int i = lang_find(key, strlen(key));

	return i < 0 ? "" : lang_text(l, (size_t)i);
}

/* text with its "{n}" replaced by n, into buf. */
static const char *
with_n(const char *text, long long n, char *buf, size_t size)
{
	const char *at = strstr(text, "{n}");

	if (at == NULL)
		snprintf(buf, size, "%s", text);
	else
		snprintf(buf, size, "%.*s%lld%s", (int)(at - text), text, n,
		    at + 3);
	return buf;
}

/* Minutes rounded up; hours (rounded) from 90 minutes on. */
const char *
lang_eta(enum lang l, long long eta, char *buf, size_t size)
{
	long long m = (eta + 59) / 60, h = (m + 30) / 60;

	if (eta < 0)
		return with_n(lang_get(l, "eta_none"), 0, buf, size);
	if (eta < 60)
		return with_n(lang_get(l, "eta_soon"), 0, buf, size);
	if (m == 1)
		return with_n(lang_get(l, "eta_minute"), 1, buf, size);
	if (m < 90)
		return with_n(lang_get(l, "eta_minutes"), m, buf, size);
	return with_n(lang_get(l, h == 1 ? "eta_hour" : "eta_hours"), h, buf,
	    size);
}
