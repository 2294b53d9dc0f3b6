import { createIsbotFromList, list } from "isbot";

/**
 * Crawlers (spec §8 "Crawlers do not get the error page"): isbot's list without its "headless"
 * pattern. A headless browser runs the app like any browser (end-to-end tests, screenshots,
 * prerendering) and must see the real pages, error pages included; search engines, feed readers,
 * link unfurlers and command-line clients are still crawlers.
 */
const matchesCrawler = createIsbotFromList(list.filter((pattern) => !/headless/i.test(pattern)));

export function isCrawler(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && matchesCrawler(userAgent));
}

export function isCrawlerRequest(request: Request): boolean {
  return isCrawler(request.headers.get("user-agent"));
}
