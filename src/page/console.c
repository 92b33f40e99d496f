/*
 * console.c: the console's words, one table with a column per language
 * as lang.c's, and its page. In the template, {{lang}} is the language's
 * code, {{t_KEY}} a text and {{text}} every text as JSON, which the
 * script reads from a data- attribute. In a text, "{q}", "{n}"... stand
 * for what the script puts there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "console.h"
#include "tmpl.h"

#define CONSOLE_PAGE "console.html"

struct console_text {
	const char *key;
	const char *text[LANG_COUNT];
};

static const struct console_text texts[] = {
	{ "title", { "waitroom console", "waitroom 콘솔" } },
	{ "noscript", { "The console needs JavaScript.",
	  "콘솔을 쓰려면 자바스크립트가 필요합니다." } },
	{ "login", { "Log in", "로그인" } },
	{ "token", { "Admin token", "관리자 토큰" } },
	{ "token_hint", { "A token of admin_token_file. This tab keeps it "
	  "until it is closed, and sends it to this server only.",
	  "admin_token_file에 있는 토큰입니다. 이 탭을 닫을 때까지만 보관하며 "
	  "이 서버로만 보냅니다." } },
	{ "wrong_token", { "This token was refused: enter an admin token.",
	  "토큰이 거부되었습니다. 관리자 토큰을 입력하세요." } },
	{ "logout", { "Log out", "로그아웃" } },
	{ "conn_off", { "Not connected", "연결되지 않음" } },
	{ "conn_live", { "Live", "실시간" } },
	{ "conn_retry", { "Reconnecting…", "다시 연결하는 중…" } },
	{ "no_feed", { "The live feed was refused: {m}. Trying again…",
	  "실시간 피드가 거부되었습니다: {m}. 다시 시도하는 중…" } },
	{ "alerts", { "Alerts", "경보" } },
	{ "alert_stalled", { "{q}: nobody admitted while people wait, "
	  "since {t}", "{q}: 대기자가 있는데 {t}부터 아무도 입장하지 "
	  "못했습니다" } },
	{ "alert_missing", { "Instance {i} has stopped reporting",
	  "인스턴스 {i}의 보고가 끊겼습니다" } },
	{ "alert_redis_full", { "Redis is full (maxmemory): joins are "
	  "refused", "Redis 메모리가 가득 찼습니다 (maxmemory). 줄 서기가 "
	  "거부됩니다" } },
	{ "alert_redis_readonly", { "Redis is read-only",
	  "Redis가 읽기 전용입니다" } },
	{ "alert_redis_unreachable", { "Redis cannot be reached",
	  "Redis에 연결할 수 없습니다" } },
	{ "room", { "The room", "전체 현황" } },
	{ "instances", { "Instances", "인스턴스" } },
	{ "instance", { "Instance", "인스턴스" } },
	{ "streams", { "Open streams", "열린 스트림" } },
	{ "connections", { "Connections", "연결" } },
	{ "requests_per_s", { "Requests/s", "요청/초" } },
	{ "errors_per_s", { "5xx/s", "5xx/초" } },
	{ "seen", { "Last report", "마지막 보고" } },
	{ "ago", { "{n} s ago", "{n}초 전" } },
	{ "missing", { "missing", "응답 없음" } },
	{ "redis", { "Redis", "Redis" } },
	{ "role", { "Role", "역할" } },
	{ "memory", { "Memory used / max", "메모리 사용 / 최대" } },
	{ "latency", { "Command latency", "명령 지연 시간" } },
	{ "unreachable", { "unreachable", "연결 불가" } },
	{ "queues", { "Queues", "대기열" } },
	{ "state", { "State", "상태" } },
	{ "mode", { "Mode", "모드" } },
	{ "draw", { "Draw", "추첨" } },
	{ "waiting", { "Waiting", "대기 중" } },
	{ "active", { "Active", "입장 중" } },
	{ "entrants", { "In the pre-queue", "사전 대기" } },
	{ "joins_per_s", { "Joins/s", "줄 서기/초" } },
	{ "admitted_per_s", { "Admitted/s", "입장/초" } },
	{ "per_minute", { "Abandoned / expired / left per minute",
	  "분당 이탈 / 만료 / 퇴장" } },
	{ "eta_new", { "Wait of a new joiner", "새 대기자의 예상 대기" } },
	{ "wait_p", { "Time in line, p50 / p90 (5 min)",
	  "대기 시간 p50 / p90 (5분)" } },
	{ "pow_bits", { "Proof-of-work bits", "작업 증명 비트" } },
	{ "refused_per_s", { "Refused/s: work, invitation, rate, origin",
	  "거부/초: 작업 증명, 초대, 속도, 출처" } },
	{ "invites_used", { "Invitations used", "사용된 초대" } },
	{ "notice_now", { "Message shown to those waiting: {m}",
	  "대기자에게 표시 중인 메시지: {m}" } },
	{ "failopen_until", { "Failing open: every join is admitted at once "
	  "for {t} more", "Fail-open: 앞으로 {t} 동안 모든 대기자를 바로 "
	  "입장시킵니다" } },
	{ "chart", { "{c}, last 30 minutes: now {v}, highest {m}",
	  "{c}, 최근 30분: 현재 {v}, 최고 {m}" } },
	{ "controls", { "Controls of {q}", "{q} 제어" } },
	{ "pause", { "Pause", "일시 중지" } },
	{ "resume", { "Resume", "재개" } },
	{ "close", { "Close", "닫기" } },
	{ "open", { "Open now", "지금 열기" } },
	{ "batch", { "Batch", "배치" } },
	{ "interval", { "Interval (s)", "간격 (초)" } },
	{ "max_active", { "Max active", "최대 입장 인원" } },
	{ "apply", { "Apply", "적용" } },
	{ "count", { "How many", "인원" } },
	{ "promote", { "Admit the next N now", "다음 N명 바로 입장" } },
	{ "notice", { "Message to everyone waiting (at most 280 characters)",
	  "대기자 전원에게 보낼 메시지 (최대 280자)" } },
	{ "notice_set", { "Send the message", "메시지 보내기" } },
	{ "notice_clear", { "Clear the message", "메시지 지우기" } },
	{ "minutes", { "Minutes", "분" } },
	{ "failopen", { "Fail open", "모두 입장 (fail-open)" } },
	{ "failopen_end", { "End fail-open", "fail-open 끝내기" } },
	{ "beacon", { "Beacon value (hex)", "비컨 값 (16진수)" } },
	{ "beacon_post", { "Post the beacon", "비컨 게시" } },
	{ "more", { "Message, fail-open, beacon",
	  "메시지, fail-open, 비컨" } },
	{ "cancel", { "Cancel", "취소" } },
	{ "confirm", { "Confirm", "확인" } },
	{ "ask_pause", { "Pause admissions of {q}?",
	  "{q}의 입장을 일시 중지할까요?" } },
	{ "ask_resume", { "Resume admissions of {q}?",
	  "{q}의 입장을 재개할까요?" } },
	{ "ask_close", { "Close {q} to new joins?",
	  "{q}에 새 대기자를 받지 않을까요?" } },
	{ "ask_open", { "Open {q} to new joins now?",
	  "{q}에 지금 새 대기자를 받을까요?" } },
	{ "ask_config", { "Change {q}: {c}?", "{q}을(를) 바꿀까요: {c}" } },
	{ "ask_promote", { "Admit the next {n} of {q} now?",
	  "{q}의 다음 {n}명을 지금 입장시킬까요?" } },
	{ "ask_notice", { "Show this message to everyone waiting in {q}?",
	  "{q}의 대기자 전원에게 이 메시지를 보여 줄까요?" } },
	{ "ask_notice_clear", { "Clear the message of {q}?",
	  "{q}의 메시지를 지울까요?" } },
	{ "ask_failopen", { "Admit every join of {q} at once for {n} "
	  "minutes?", "{n}분 동안 {q}의 모든 대기자를 바로 입장시킬까요?" } },
	{ "ask_failopen_end", { "End fail-open of {q} now?",
	  "{q}의 fail-open을 지금 끝낼까요?" } },
	{ "ask_beacon", { "Post beacon {v} for {q}?",
	  "{q}에 비컨 {v}을(를) 게시할까요?" } },
	{ "done", { "{q}: {a}: done", "{q}: {a}: 완료" } },
	{ "failed", { "{q}: {a}: {m}", "{q}: {a}: {m}" } },
	{ "nothing", { "{q}: nothing to change", "{q}: 바꿀 것이 없습니다" } },
	{ "trail", { "Trail", "작업 기록" } },
	{ "all_queues", { "All queues", "모든 대기열" } },
	{ "queue", { "Queue", "대기열" } },
	{ "refresh", { "Refresh", "새로 고침" } },
	{ "time", { "Time (UTC)", "시각 (UTC)" } },
	{ "admin", { "Admin", "관리자" } },
	{ "action", { "Action", "작업" } },
	{ "changes", { "Changes", "변경 내용" } },
	{ "trail_empty", { "No admin write recorded yet.",
	  "기록된 관리 작업이 아직 없습니다." } },
	{ "no_trail", { "The trail is not available on this server: {m}",
	  "이 서버에서는 작업 기록을 쓸 수 없습니다: {m}" } },
	{ "report", { "Report", "보고서" } },
	{ "report_of", { "Report of {q}", "{q} 보고서" } },
	{ "report_range", { "{a} to {b} (UTC), {n} entries of {s} min",
	  "{a}부터 {b}까지 (UTC), {s}분 단위 {n}개" } },
	{ "report_empty", { "Nothing happened in this range.",
	  "이 기간에는 기록이 없습니다." } },
	{ "no_report", { "No report: {m}", "보고서를 가져오지 못했습니다: {m}" } },
	{ "from_utc", { "From (UTC)", "시작 (UTC)" } },
	{ "to_utc", { "To (UTC)", "끝 (UTC)" } },
	{ "show", { "Show", "보기" } },
	{ "csv", { "Download CSV", "CSV 내려받기" } },
	{ "csv_done", { "CSV of {q}: {n} minutes", "{q} CSV: {n}분" } },
	{ "print", { "Print", "인쇄" } },
	{ "report_close", { "Close the report", "보고서 닫기" } },
	{ "r_joined", { "Joined", "참가" } },
	{ "r_admitted", { "Admitted", "입장" } },
	{ "r_abandoned", { "Gave up", "이탈" } },
	{ "r_left", { "Left", "나감" } },
	{ "r_expired", { "Sessions ended", "세션 종료" } },
	{ "r_kicked", { "Removed", "제거" } },
	{ "r_noshows", { "No-shows", "노쇼" } },
	{ "r_refused", { "Refused joins", "거부된 참가" } },
	{ "r_peak_waiting", { "Most waiting", "최대 대기" } },
	{ "r_peak_active", { "Most active", "최대 활성" } },
	{ "r_peak_streams", { "Most streams", "최대 스트림" } },
	{ "r_wait", { "Time in line p50 / p90 / p99 / max",
	  "대기 시간 p50 / p90 / p99 / 최대" } },
	{ "r_eta_error", { "ETA error (told − waited) p50 / p90",
	  "예상 시간 오차 (안내 − 실제) p50 / p90" } },
	{ "c_flow", { "Joined and admitted per entry", "구간별 참가와 입장" } },
	{ "c_waiting", { "Most waiting per entry", "구간별 최대 대기" } },
	{ "c_wait", { "Time in line: admitted per bucket (s)",
	  "대기 시간: 구간별 입장 수 (초)" } },
	{ "c_error", { "ETA error: admitted per bucket (s)",
	  "예상 시간 오차: 구간별 입장 수 (초)" } },
};

#define NTEXTS (sizeof texts / sizeof texts[0])

enum { CV_LANG, CV_TEXT, CV_COUNT /* then t_KEY: CV_COUNT + index */ };

struct console {
	struct tmpl *t;
};

/* One rendering: the language and its texts as JSON. */
struct console_render {
	enum lang lang;
	char *json;
};

static int
console_find(const char *key, size_t len)
{
	for (size_t i = 0; i < NTEXTS; i++)
		if (strlen(texts[i].key) == len &&
		    memcmp(texts[i].key, key, len) == 0)
			return (int)i;
	return -1;
}

static int
console_lookup(const char *name, size_t len)
{
	int i;

	if (len == 4 && memcmp(name, "lang", 4) == 0)
		return CV_LANG;
	if (len == 4 && memcmp(name, "text", 4) == 0)
		return CV_TEXT;
	if (len > 2 && memcmp(name, "t_", 2) == 0 &&
	    (i = console_find(name + 2, len - 2)) >= 0)
		return CV_COUNT + i;
	return -1;
}

static const char *
console_value(int idx, void *arg)
{
	const struct console_render *r = arg;

	if (idx == CV_LANG)
		return lang_code(r->lang);
	if (idx == CV_TEXT)
		return r->json ? r->json : "{}";
	return texts[idx - CV_COUNT].text[r->lang];
}

const struct page_file *
console_file(const char *name)
{
	static const char *const files[] = { "console.js", "console.css" };

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (strcmp(files[i], name) != 0)
			continue;
		for (size_t j = 0; j < PAGE_NFILES; j++)
			if (strcmp(page_files[j].name, name) == 0)
				return &page_files[j];
	}
	return NULL;
}

struct console *
console_new(char *err, size_t errlen)
{
	struct console *c = calloc(1, sizeof *c);
	const char *body = NULL;
	char msg[256];

	for (size_t j = 0; j < PAGE_NFILES; j++)
		if (strcmp(page_files[j].name, CONSOLE_PAGE) == 0)
			body = page_files[j].body;
	if (c == NULL || body == NULL) {
		snprintf(err, errlen, "built-in console: %s", c ? "no " CONSOLE_PAGE :
		    "out of memory");
		free(c);
		return NULL;
	}
	if ((c->t = tmpl_parse(body, console_lookup, "lang, text, t_KEY",
	    msg, sizeof msg)) == NULL) {
		snprintf(err, errlen, "built-in console: %s", msg);
		free(c);
		return NULL;
	}
	return c;
}

void
console_free(struct console *c)
{
	if (c == NULL)
		return;
	tmpl_free(c->t);
	free(c);
}

/* Every text of language l as one JSON object; malloc'd. */
static char *
console_json(enum lang l)
{
	json_t *o = json_object();
	char *s;

	for (size_t i = 0; o && i < NTEXTS; i++)
		json_object_set_new(o, texts[i].key,
		    json_string(texts[i].text[l]));
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return s;
}

char *
console_render(const struct console *c, enum lang l, size_t *len)
{
	struct console_render r = { .lang = l < LANG_COUNT ? l : LANG_EN };
	char *out;

	if ((r.json = console_json(r.lang)) == NULL)
		return NULL;
	out = tmpl_render(c->t, console_value, &r, len);
	free(r.json);
	return out;
}
