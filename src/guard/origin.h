/*
 * origin.h: may a browser on another site make joins here? Only the
 * origins of cors_origins may (or every one, with *). The page's own
 * origin always may: Sec-Fetch-Site says same-origin, or, from a browser
 * that does not send it, Origin names the Host asked. A request with
 * neither Origin nor Sec-Fetch-Site is not a cross-site browser request
 * (curl, a server) and may. Pure. Kept apart from the CORS headers on
 * purpose: this decides, they only inform the browser.
 */
#ifndef WR_ORIGIN_H
#define WR_ORIGIN_H

/*
 * 1 when allowed. allowed is cors_origins ("https://a.example
 * https://b.example", spaces or commas; NULL: none); origin, fetch_site
 * and host are the request's headers, NULL when absent.
 */
int origin_allowed(const char *allowed, const char *origin,
    const char *fetch_site, const char *host);

#endif
